-- 0003: server settings, away seats, drafts, hand panels and metadata
-- (PostgreSQL), the same meaning as the SQLite 0003.

CREATE TABLE guild_settings (
    guild_id            bigint      PRIMARY KEY REFERENCES guilds (id),
    locale              text        CHECK (locale <> ''),
    turn_timer          integer     CHECK (turn_timer >= 0),
    target              integer     CHECK (target > 0),
    tables_per_channel  integer     CHECK (tables_per_channel > 0),
    updated_at          timestamptz NOT NULL
);

ALTER TABLE seats ADD COLUMN away boolean NOT NULL DEFAULT false;

CREATE TABLE drafts (
    table_id    bigint      NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        integer     NOT NULL,
    data        jsonb       NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE panels (
    table_id        bigint      NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id         bigint      NOT NULL,
    application_id  bigint      NOT NULL,
    token           text        NOT NULL,
    message_id      bigint      NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

CREATE TABLE meta (
    key    text PRIMARY KEY CHECK (key <> ''),
    value  text NOT NULL
);
