-- 0002: skill ratings (PostgreSQL), the same meaning as the SQLite 0002.

CREATE TABLE ratings (
    guild_id  bigint           NOT NULL REFERENCES guilds (id),
    game      text             NOT NULL,
    player    text             NOT NULL CHECK (player <> ''),
    user_id   bigint,
    mu        double precision NOT NULL,
    sigma     double precision NOT NULL CHECK (sigma > 0),
    ordinal   double precision NOT NULL,
    games     integer          NOT NULL CHECK (games >= 0),
    PRIMARY KEY (guild_id, game, player)
);

CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal);

CREATE TABLE rating_history (
    game_id  bigint           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player   text             NOT NULL,
    mu       double precision NOT NULL,
    sigma    double precision NOT NULL,
    PRIMARY KEY (game_id, player)
);

CREATE INDEX rating_history_player ON rating_history (player, game_id);
