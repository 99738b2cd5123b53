-- 0007: players own their data (issue 42).

-- What a person chose about their data. standings: whether they appear by name in
-- standings across servers (the daily's in direct messages); off until they choose.
-- A person with no row chose nothing. An erase deletes their row.
CREATE TABLE people (
    user_id     INTEGER PRIMARY KEY CHECK (user_id > 0),
    standings   INTEGER NOT NULL DEFAULT 0 CHECK (standings IN (0, 1)),
    updated_at  TEXT    NOT NULL
) WITHOUT ROWID;

-- When the bot was removed from the guild (NULL while it is in it). The sweep deletes
-- the guild's settings and its lobbies once LEFT_GUILD_RETENTION has passed; being
-- added back before then sets it to NULL again, and nothing is lost.
ALTER TABLE guilds ADD COLUMN left_at TEXT;

CREATE INDEX guilds_left ON guilds (left_at) WHERE left_at IS NOT NULL;
