-- 0007: players own their data (issue 42), the same meaning as the SQLite 0007: each
-- person's choices (to appear by name in standings across servers), and when the bot
-- was removed from a guild.

CREATE TABLE people (
    user_id     bigint      PRIMARY KEY CHECK (user_id > 0),
    standings   boolean     NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL
);

ALTER TABLE guilds ADD COLUMN left_at timestamptz;

CREATE INDEX guilds_left ON guilds (left_at) WHERE left_at IS NOT NULL;
