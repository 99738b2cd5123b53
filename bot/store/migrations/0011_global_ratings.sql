-- 0011: the global rating of each game (issue 53), apart from each server's: one per
-- player key per game over every rated game anywhere (every server and direct
-- messages), kept by record_game in the same transaction as the game and its server's
-- rating (bot/ratings.py: the same update, the same order). Computer levels are rated
-- here too, as players of their own, so that beating "hard" counts for more; the
-- leaderboard lists people only, and only those who chose to appear (people.standings).
-- Games recorded before this migration are rated on open (rebuild_ratings, as 0002).

CREATE TABLE global_ratings (
    game      TEXT    NOT NULL,
    player    TEXT    NOT NULL CHECK (player <> ''),
    user_id   INTEGER,                      -- the person; NULL for a computer level
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL CHECK (sigma > 0),
    ordinal   REAL    NOT NULL,             -- mu - 3 * sigma, the number shown
    games     INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (game, player)
) WITHOUT ROWID;

CREATE INDEX global_ratings_board ON global_ratings (game, ordinal);
CREATE INDEX global_ratings_user ON global_ratings (user_id) WHERE user_id IS NOT NULL;

-- Every key's global rating after each rated game: a person's export, and a rebuild
-- from the stored games checked against it.
CREATE TABLE global_rating_history (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player   TEXT    NOT NULL,
    mu       REAL    NOT NULL,              -- the rating after this game
    sigma    REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;

CREATE INDEX global_rating_history_player ON global_rating_history (player, game_id);
