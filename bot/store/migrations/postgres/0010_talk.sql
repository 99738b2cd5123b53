-- 0010: talk at tables shown in direct messages (issue 53), the same meaning as the
-- SQLite 0010: each phrase said, by its key, its seat and person, and how many actions
-- the table had then.
CREATE TABLE talk (
    table_id    bigint      NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         integer     NOT NULL CHECK (seq > 0),
    seat        integer     NOT NULL CHECK (seat >= 0),
    user_id     bigint      NOT NULL CHECK (user_id > 0),
    phrase      text        NOT NULL,
    after_seq   integer     NOT NULL CHECK (after_seq >= 0),
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE INDEX talk_user ON talk (user_id);
