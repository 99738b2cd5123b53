-- 0010: talk at tables shown in direct messages (issue 53): each phrase a person said,
-- by its key (never its text: each reader's panel shows it in their own language), the
-- seat and the person who said it, and how many actions the table had then (where it
-- goes in the table's log). Kept while the table is open; the sweep deletes the lines of
-- closed tables, and an erase deletes the person's own.
CREATE TABLE talk (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq > 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER NOT NULL CHECK (user_id > 0),
    phrase      TEXT    NOT NULL,
    after_seq   INTEGER NOT NULL CHECK (after_seq >= 0),
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE INDEX talk_user ON talk (user_id);
