-- 0008: the deployment's board secret (issue 51).

-- One row: the secret the daily boards and new events are dealt from (keyed with
-- HMAC-SHA256), made by the bot at its first start (64 hex digits of the secrets
-- module) unless one is stored already, and never replaced by the bot. Read by the
-- store's operators only; `python -m bot.store copy` carries it.
CREATE TABLE board_secret (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    secret      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
) WITHOUT ROWID;

-- Daily boards are dealt from the secret from now on: the fields already played for a
-- day that no one has opened yet were played on boards dealt from the date alone, so
-- they go (the bot plays them again, on the day's new boards).
DELETE FROM dup_fields
WHERE board GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/*'
  AND NOT EXISTS (SELECT 1 FROM dup_events
                  WHERE dup_events.code = 'daily:' || substr(dup_fields.board, 1, 10));
