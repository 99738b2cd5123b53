-- 0006: reviews (issue 25), the same meaning as the SQLite 0006: each person's
-- review of their decisions in each deal of a table's game, saved once (the first
-- saved wins).

CREATE TABLE reviews (
    table_id    bigint      NOT NULL REFERENCES tables (id),
    deal        integer     NOT NULL CHECK (deal >= 0),
    seat        integer     NOT NULL CHECK (seat >= 0),
    user_id     bigint      NOT NULL,
    review      jsonb       NOT NULL CONSTRAINT reviews_review CHECK (jsonb_typeof(review) = 'object'),
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (table_id, deal, seat)
);

CREATE INDEX reviews_user ON reviews (table_id, user_id, deal, seat);
