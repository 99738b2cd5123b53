-- 0002: skill ratings (openskill, see bot/ratings.py), kept by record_game in the
-- same transaction as the game itself.
--
-- A rating belongs to one player key per guild per game: "u:<user id>" for a
-- person, "cpu:<level>" for a computer level (rated as a player of its own).
-- rating_history holds every key's rating after each rated game, for the chart
-- and so that a rebuild from the stored games can be checked against it.
-- Games recorded before this migration are rated by SQLiteRepository.open
-- (rebuild_ratings), since the model is not SQL.

CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL REFERENCES guilds (id),
    game      TEXT    NOT NULL,
    player    TEXT    NOT NULL CHECK (player <> ''),
    user_id   INTEGER,                      -- the person; NULL for a computer level
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL CHECK (sigma > 0),
    ordinal   REAL    NOT NULL,             -- mu - 3 * sigma, the number shown
    games     INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (guild_id, game, player)
) WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal);

CREATE TABLE rating_history (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player   TEXT    NOT NULL,
    mu       REAL    NOT NULL,              -- the rating after this game
    sigma    REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;

CREATE INDEX rating_history_player ON rating_history (player, game_id);
