-- 0001: the initial schema of the SQLite store.
--
-- Conventions: Discord ids (snowflakes) are INTEGER (they fit in 63 bits);
-- timestamps are TEXT in ISO-8601 UTC with microseconds and a "+00:00" offset,
-- written by the application in one fixed width so they sort as text; JSON is
-- TEXT in compact form. Statuses are not CHECK-constrained: TableStatus is the
-- authority, validated on every write and read, and a CHECK would force a table
-- rebuild in SQLite whenever a status is added.

CREATE TABLE guilds (
    id          INTEGER PRIMARY KEY,              -- Discord guild id
    locale      TEXT    NOT NULL DEFAULT 'en',    -- locale of public messages
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused
    guild_id         INTEGER NOT NULL REFERENCES guilds (id),
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    message_id       INTEGER,                 -- the table message, edited in place
    ping_message_id  INTEGER,                 -- the current "your turn" ping
    host_id          INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    status           TEXT    NOT NULL,
    seed             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    locale           TEXT    NOT NULL DEFAULT 'en',
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL
);

CREATE INDEX tables_guild ON tables (guild_id);

-- Tables to rebuild after a restart: every status not known to be over, so a
-- row whose status is unreadable is still listed (and reported) rather than lost.
CREATE INDEX tables_open ON tables (id)
    WHERE status NOT IN ('finished', 'abandoned', 'expired');

-- find_active_table: the active table of a channel or of a thread.
CREATE INDEX tables_active_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_active_thread ON tables (thread_id)
    WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,                       -- NULL: computer player or empty seat
    name       TEXT    NOT NULL DEFAULT '',
    bot_level  TEXT,                          -- easy/normal/hard for a computer player
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- The action log: append-only, numbered 1, 2, 3 … per table without gaps
-- (the application refuses any seq but last + 1; the triggers refuse rewrites).
CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    payload     TEXT    NOT NULL,             -- JSON object
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- Finished games: one per table (record_game marks the table finished).
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id     INTEGER NOT NULL UNIQUE REFERENCES tables (id),
    guild_id     INTEGER NOT NULL REFERENCES guilds (id),
    game         TEXT    NOT NULL,
    scores       TEXT    NOT NULL,            -- JSON array of integers
    winner       INTEGER,                     -- team or seat; NULL for a draw
    replay       TEXT    NOT NULL,            -- JSON object: the replay file
    finished_at  TEXT    NOT NULL
);

-- recent_games and the leaderboard: a guild's games of one kind, newest first.
CREATE INDEX games_guild_game ON games (guild_id, game, finished_at, id);

CREATE TABLE game_players (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,                       -- NULL: computer player
    bot_level  TEXT,
    name       TEXT    NOT NULL,
    team       INTEGER NOT NULL,
    won        INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- A player's games (player_stats, recent_games filtered by user).
CREATE INDEX game_players_user ON game_players (user_id, game_id)
    WHERE user_id IS NOT NULL;

-- Per-player counters (tichu_called, tichu_won, bombs …), one row per key, so
-- the leaderboard sums them with a plain GROUP BY: typed integers, indexed by
-- the primary key, no JSON parsing per row, and the same SQL on PostgreSQL.
CREATE TABLE game_player_stats (
    game_id  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    key      TEXT    NOT NULL CHECK (key <> ''),
    value    INTEGER NOT NULL CHECK (typeof(value) = 'integer'),
    PRIMARY KEY (game_id, seat, key),
    FOREIGN KEY (game_id, seat) REFERENCES game_players (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;
