-- 0011: the global rating of each game (PostgreSQL), the same meaning as the SQLite 0011.

CREATE TABLE global_ratings (
    game      text             NOT NULL,
    player    text             NOT NULL CHECK (player <> ''),
    user_id   bigint,
    mu        double precision NOT NULL,
    sigma     double precision NOT NULL CHECK (sigma > 0),
    ordinal   double precision NOT NULL,
    games     integer          NOT NULL CHECK (games >= 0),
    PRIMARY KEY (game, player)
);

CREATE INDEX global_ratings_board ON global_ratings (game, ordinal);
CREATE INDEX global_ratings_user ON global_ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE global_rating_history (
    game_id  bigint           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player   text             NOT NULL,
    mu       double precision NOT NULL,
    sigma    double precision NOT NULL,
    PRIMARY KEY (game_id, player)
);

CREATE INDEX global_rating_history_player ON global_rating_history (player, game_id);
