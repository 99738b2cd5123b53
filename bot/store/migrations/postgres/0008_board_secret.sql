-- 0008: the deployment's board secret (issue 51), the same meaning as the SQLite 0008:
-- one row, made by the bot at its first start and never replaced by it; the fields of
-- the daily days no one has opened yet go (they were dealt from the date alone).

CREATE TABLE board_secret (
    id          integer     PRIMARY KEY CHECK (id = 1),
    secret      text        NOT NULL,
    created_at  timestamptz NOT NULL
);

DELETE FROM dup_fields
WHERE board ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}/'
  AND NOT EXISTS (SELECT 1 FROM dup_events
                  WHERE dup_events.code = 'daily:' || left(dup_fields.board, 10));
