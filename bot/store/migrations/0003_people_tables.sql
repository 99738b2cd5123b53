-- 0003: what tables of several people need (issue 12): server settings, seats
-- kept by a computer while their person is away, exchange picks in progress
-- (drafts), each person's live hand message (panels), and a key/value store
-- for the bot's own bookkeeping (meta).

-- The settings an admin chose for the server; NULL in a column means "not set":
-- locale NULL follows Discord's guild locale (guilds.locale), turn_timer NULL is
-- the bot's default (0 turns the timer off), and so on.
CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY REFERENCES guilds (id),
    locale              TEXT CHECK (locale IS NULL OR locale <> ''),
    turn_timer          INTEGER CHECK (turn_timer IS NULL OR turn_timer >= 0),
    target              INTEGER CHECK (target IS NULL OR target > 0),
    tables_per_channel  INTEGER CHECK (tables_per_channel IS NULL OR tables_per_channel > 0),
    updated_at          TEXT    NOT NULL
);

-- 1: a person's seat played by a computer (bot_level) after repeated timeouts;
-- user_id stays set so the person can take it back.
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));

-- A seat's choice in progress (exchange picks …), one JSON object per seat.
CREATE TABLE drafts (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    data        TEXT    NOT NULL,             -- JSON object
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- A person's live private hand message, edited through the interaction's
-- webhook (application id + token, valid 15 minutes from created_at).
CREATE TABLE panels (
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    application_id  INTEGER NOT NULL,
    token           TEXT    NOT NULL,
    message_id      INTEGER NOT NULL,
    created_at      TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

-- The bot's own bookkeeping, e.g. the hash of the synced command tree.
CREATE TABLE meta (
    key    TEXT PRIMARY KEY CHECK (key <> ''),
    value  TEXT NOT NULL
) WITHOUT ROWID;
