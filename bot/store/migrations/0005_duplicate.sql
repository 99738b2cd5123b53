-- 0005: duplicate Tichu (issue 24): events (a day of the daily challenge, or an
-- event of duplicate tables joined with a code), each board's computer field, and
-- people's results per board, at most one per person per board; the channel of a
-- server's daily standings; games that change no rating.

-- 1: a game kept for its history and replay that no rating, leaderboard or
-- player stats count (games stored before this migration were all rated).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

-- Where yesterday's final standings of the daily challenge are posted (NULL: nowhere).
ALTER TABLE guild_settings ADD COLUMN daily_channel_id INTEGER
    CHECK (daily_channel_id IS NULL OR daily_channel_id > 0);

-- kind is 'daily' or 'event' (checked by the application, as statuses are).
CREATE TABLE dup_events (
    code        TEXT    PRIMARY KEY CHECK (code <> ''),  -- daily:2026-11-27, K7Q2XM
    kind        TEXT    NOT NULL,
    seed        TEXT    NOT NULL,                        -- what the boards are dealt from
    boards      INTEGER NOT NULL CHECK (boards > 0),
    guild_id    INTEGER,                                 -- the host's guild; NULL for a daily
    host_id     INTEGER,
    created_at  TEXT    NOT NULL
) WITHOUT ROWID;

-- A board's field: how the computer tables 0 … n-1 played it, saved once (the
-- first process to save it wins). diff is direction 0's deal score minus 1's.
CREATE TABLE dup_fields (
    board   TEXT    NOT NULL CHECK (board <> ''),
    idx     INTEGER NOT NULL CHECK (idx >= 0),
    diff    INTEGER NOT NULL,
    replay  TEXT    NOT NULL,                -- JSON object
    PRIMARY KEY (board, idx)
) WITHOUT ROWID;

-- One table-direction's attempt at a board: claimed (diff, replay, finished_at
-- NULL), then finished (all three set). guild_id is 0 in direct messages.
CREATE TABLE dup_results (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    board        TEXT    NOT NULL CHECK (board <> ''),
    direction    INTEGER NOT NULL CHECK (direction IN (0, 1)),
    event        TEXT    NOT NULL REFERENCES dup_events (code),
    guild_id     INTEGER NOT NULL,
    diff         INTEGER,
    replay       TEXT,                       -- JSON object
    created_at   TEXT    NOT NULL,
    finished_at  TEXT,
    PRIMARY KEY (table_id, board, direction),
    CONSTRAINT dup_results_finished CHECK ((diff IS NULL) = (replay IS NULL)
                                           AND (diff IS NULL) = (finished_at IS NULL))
) WITHOUT ROWID;

-- board_results and event_results: a board's or an event's results, oldest first.
CREATE INDEX dup_results_board ON dup_results (board, created_at);
CREATE INDEX dup_results_event ON dup_results (event, created_at);

-- The people of a result (1 or 2, in the order given). The primary key is the
-- rule of duplicate: one attempt per person per board, whatever the table.
CREATE TABLE dup_players (
    board      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    table_id   INTEGER NOT NULL,
    direction  INTEGER NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    name       TEXT    NOT NULL,
    PRIMARY KEY (board, user_id),
    FOREIGN KEY (table_id, board, direction)
        REFERENCES dup_results (table_id, board, direction) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX dup_players_result ON dup_players (table_id, board, direction);
-- user_results and user_daily_days: a person's results.
CREATE INDEX dup_players_user ON dup_players (user_id);
