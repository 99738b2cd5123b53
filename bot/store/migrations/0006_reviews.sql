-- 0006: reviews (issue 25): after each Tichu deal, each person's review of their
-- decisions in it, computed in the background and stored so that opening it is
-- instant, and history offers it for past games.

-- One person's review of one deal of a table's game, saved once (the first
-- process to save it wins). user_id is the person reviewed (the seat's person
-- when the deal was played). A rowid table, not WITHOUT ROWID as dup_fields: a
-- review (some 200 bytes a decision) runs to kilobytes, past the small rows
-- WITHOUT ROWID stores well.
CREATE TABLE reviews (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    deal        INTEGER NOT NULL CHECK (deal >= 0),      -- the deal's index in the game
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER NOT NULL,
    review      TEXT    NOT NULL,                        -- JSON object
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal, seat)
);

-- user_reviews: a person's reviews at a table, by deal then seat.
CREATE INDEX reviews_user ON reviews (table_id, user_id, deal, seat);
