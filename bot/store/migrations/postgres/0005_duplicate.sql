-- 0005: duplicate Tichu (issue 24), the same meaning as the SQLite 0005: events,
-- each board's computer field, people's results per board (at most one per person
-- per board), the channel of a server's daily standings, unrated games.

ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT true;

ALTER TABLE guild_settings ADD COLUMN daily_channel_id bigint CHECK (daily_channel_id > 0);

CREATE TABLE dup_events (
    code        text        PRIMARY KEY CHECK (code <> ''),
    kind        text        NOT NULL,
    seed        text        NOT NULL,
    boards      integer     NOT NULL CHECK (boards > 0),
    guild_id    bigint,
    host_id     bigint,
    created_at  timestamptz NOT NULL
);

CREATE TABLE dup_fields (
    board   text    NOT NULL CHECK (board <> ''),
    idx     integer NOT NULL CHECK (idx >= 0),
    diff    integer NOT NULL,
    replay  jsonb   NOT NULL CONSTRAINT dup_fields_replay CHECK (jsonb_typeof(replay) = 'object'),
    PRIMARY KEY (board, idx)
);

CREATE TABLE dup_results (
    table_id     bigint      NOT NULL REFERENCES tables (id),
    board        text        NOT NULL CHECK (board <> ''),
    direction    integer     NOT NULL CHECK (direction IN (0, 1)),
    event        text        NOT NULL REFERENCES dup_events (code),
    guild_id     bigint      NOT NULL,
    diff         integer,
    replay       jsonb       CONSTRAINT dup_results_replay CHECK (jsonb_typeof(replay) = 'object'),
    created_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    PRIMARY KEY (table_id, board, direction),
    CONSTRAINT dup_results_finished CHECK ((diff IS NULL) = (replay IS NULL)
                                           AND (diff IS NULL) = (finished_at IS NULL))
);

CREATE INDEX dup_results_board ON dup_results (board, created_at);
CREATE INDEX dup_results_event ON dup_results (event, created_at);

CREATE TABLE dup_players (
    board      text    NOT NULL,
    user_id    bigint  NOT NULL,
    table_id   bigint  NOT NULL,
    direction  integer NOT NULL,
    position   integer NOT NULL CHECK (position >= 0),
    name       text    NOT NULL,
    PRIMARY KEY (board, user_id),
    FOREIGN KEY (table_id, board, direction)
        REFERENCES dup_results (table_id, board, direction) ON DELETE CASCADE
);

CREATE INDEX dup_players_result ON dup_players (table_id, board, direction);
CREATE INDEX dup_players_user ON dup_players (user_id);
