"""What the two backends do alike above their SQL, written once.

:class:`StoreBase` holds the parts of :class:`~bot.store.models.Repository` that do
not depend on the database: the context manager, the leaderboard's paging, the
rating of a finished game, the rebuild of every rating and the readings of board
results (duplicate). Each backend gives the
statements (the abstract methods), ``C`` being its connection; the rows they
return are read by :mod:`bot.store.rows`.

:func:`player_totals_sql` is the leaderboard's ranking, one query for both, the
dialect's words (parameter markers, casts) filled in by each backend;
:func:`board_results_sql` reads board results alike.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from types import TracebackType
from typing import Generic, Self, TypeVar

from bot.ratings import Seat
from bot.store.models import BoardResult, GameResult, LeaderboardRow
from bot.store.rows import (
    ResultFilter,
    Row,
    check_page,
    check_text,
    rated_games_from_rows,
    rated_seats,
    rating_keys,
    rating_updates,
)

C = TypeVar("C")

# A guild's human players of one game (``entries``), their totals (``totals``) and
# the name they had in their latest game (``latest``), ranked; the page of them
# asked for (all of them, or the one ``user_id`` if it is not NULL) with their
# summed stats. A user seated twice in one game counts it once; unrated games
# count not at all.
_PLAYER_TOTALS = """
WITH entries AS (
    SELECT gp.user_id, gp.game_id, gp.seat, gp.name, gp.won, g.finished_at
    FROM games AS g
    JOIN game_players AS gp ON gp.game_id = g.id
    WHERE g.guild_id = {guild_id} AND g.game = {game} AND g.rated AND gp.user_id IS NOT NULL
),
totals AS (
    SELECT user_id,
           COUNT(DISTINCT game_id) AS games,
           COUNT(DISTINCT CASE WHEN {won} THEN game_id END) AS wins
    FROM entries
    GROUP BY user_id
),
latest AS (
    SELECT user_id, name FROM (
        SELECT user_id, name,
               ROW_NUMBER() OVER (PARTITION BY user_id
                                  ORDER BY finished_at DESC, game_id DESC, seat) AS pick
        FROM entries
    ) AS named WHERE pick = 1
),
ranked AS (
    SELECT t.user_id, l.name, t.games, t.wins, r.ordinal,
           ROW_NUMBER() OVER (ORDER BY r.ordinal IS NULL, r.ordinal DESC, t.wins DESC,
                                       CAST(t.wins AS double precision) / t.games DESC,
                                       t.games DESC, t.user_id) AS rank
    FROM totals AS t JOIN latest AS l ON l.user_id = t.user_id
    LEFT JOIN ratings AS r ON r.guild_id = {guild_id} AND r.game = {game}
                          AND r.player = 'u:' || t.user_id
),
page AS (
    SELECT * FROM ranked WHERE {user_id} IS NULL OR user_id = {user_id}
    ORDER BY rank LIMIT {limit} OFFSET {offset}
),
stat_totals AS (
    SELECT e.user_id, s.key, SUM(s.value) AS total
    FROM entries AS e
    JOIN game_player_stats AS s ON s.game_id = e.game_id AND s.seat = e.seat
    WHERE e.user_id IN (SELECT user_id FROM page)
    GROUP BY e.user_id, s.key
)
SELECT p.rank, p.user_id, p.name, p.games, p.wins, p.ordinal, st.key, {total} AS total
FROM page AS p LEFT JOIN stat_totals AS st ON st.user_id = p.user_id
ORDER BY p.rank, st.key
"""


def player_totals_sql(*, guild_id: str, game: str, user_id: str, limit: str, offset: str,
                      won: str, total: str) -> str:
    """The ranking query (rows for :func:`bot.store.rows.leaderboard_rows`): the
    markers of its parameters, the condition ``won`` of a won game (of the
    ``game_players`` row) and the expression ``total`` of a summed stat
    (``st.total``) as an integer, in the backend's dialect."""
    return _PLAYER_TOTALS.format(guild_id=guild_id, game=game, user_id=user_id, limit=limit,
                                 offset=offset, won=won, total=total)


# Board results (duplicate) matching ``{where}`` (a condition on ``r``, see
# ResultFilter), oldest claim first, and their players in the order given.
_BOARD_RESULTS = """
SELECT r.table_id, r.board, r.direction, r.event, r.guild_id, r.diff, {replay} AS replay,
       r.created_at, r.finished_at
FROM dup_results AS r WHERE {where}
ORDER BY r.created_at, r.table_id, r.board, r.direction
"""
_BOARD_PLAYERS = """
SELECT p.table_id, p.board, p.direction, p.user_id, p.name
FROM dup_players AS p
JOIN dup_results AS r ON r.table_id = p.table_id AND r.board = p.board
                     AND r.direction = p.direction
WHERE {where}
ORDER BY p.table_id, p.board, p.direction, p.position
"""


def board_results_sql(where: str, *, replay: str) -> tuple[str, str]:
    """The two statements that read board results (for
    :func:`bot.store.rows.board_results_from_rows`): the results matching ``where``
    and their players; ``replay`` is the expression of ``r.replay`` as JSON text."""
    return (_BOARD_RESULTS.format(where=where, replay=replay),
            _BOARD_PLAYERS.format(where=where))


class StoreBase(ABC, Generic[C]):
    """The backend-neutral half of a repository; ``C`` is its connection type."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def claim_boards(self, results: Sequence[BoardResult]) -> None: ...

    async def claim_board(self, result: BoardResult) -> None:
        """One claim (see :meth:`claim_boards`)."""
        await self.claim_boards([result])

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    # -- leaderboard ---------------------------------------------------------------

    @abstractmethod
    async def _player_totals(self, guild_id: int, game: str, user_id: int | None,
                             limit: int, offset: int) -> list[LeaderboardRow]:
        """A page of the ranking (:func:`player_totals_sql`), or the one ``user_id``."""

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10,
                          offset: int = 0) -> list[LeaderboardRow]:
        """Human players of a guild by rating (``mu - 3 sigma``), then wins, win rate,
        games (then user id, so pages are stable), with their summed stats and their
        latest name."""
        check_page(limit, offset)
        return await self._player_totals(guild_id, game, None, limit, offset)

    async def player_stats(self, guild_id: int, game: str, user_id: int) -> LeaderboardRow | None:
        """One player's totals in a guild (None if they never finished a rated game)."""
        rows = await self._player_totals(guild_id, game, user_id, 1, 0)
        return rows[0] if rows else None

    # -- ratings -------------------------------------------------------------------

    @abstractmethod
    async def _stored_ratings(self, conn: C, guild_id: int, game: str,
                              keys: list[str]) -> Iterable[Row]:
        """The stored ratings (player, mu, sigma, games) of the players ``keys``."""

    @abstractmethod
    async def _store_ratings(self, conn: C, ratings: list[tuple[object, ...]],
                             history: list[tuple[object, ...]]) -> None:
        """Insert or replace the ratings and add their history rows (both as
        :func:`bot.store.rows.rating_updates` gives them)."""

    @abstractmethod
    async def _clear_ratings(self, conn: C) -> None:
        """Delete every rating and its history (a rebuild's start)."""

    @abstractmethod
    async def _rated_game_rows(self, conn: C) -> tuple[Iterable[Row], Iterable[Row]]:
        """Every stored rated game (id, guild_id, game, scores) in finish order, and
        their players (game_id, seat, user_id, bot_level, name, team, won)."""

    async def _rate(self, conn: C, game_id: int, guild_id: int, game: str,
                    seats: tuple[Seat, ...]) -> None:
        """Rate one game (bot/ratings.py) against the stored ratings, and store the new
        ratings and their history rows; part of the caller's transaction."""
        keys = rating_keys(seats)
        rows = await self._stored_ratings(conn, guild_id, game, keys) if keys else ()
        ratings, history = rating_updates(game_id, guild_id, game, seats, rows)
        if ratings:
            await self._store_ratings(conn, ratings, history)

    async def _rate_game(self, conn: C, game_id: int, result: GameResult) -> None:
        """Rate the finished game ``result``, stored as ``game_id`` (nothing if it is
        not rated)."""
        if not result.rated:
            return
        await self._rate(conn, game_id, result.guild_id, result.game,
                         rated_seats(result.players, result.scores))

    async def _rebuild(self, conn: C) -> int:
        """Forget every rating and rate every stored rated game again in finish order (the
        same function on the same games in the same order as the incremental
        updates); the number of games rated. Part of the caller's transaction."""
        await self._clear_ratings(conn)
        games = rated_games_from_rows(*await self._rated_game_rows(conn))
        for guild_id, played in games:
            await self._rate(conn, played.id, guild_id, played.game, played.seats)
        return len(games)

    # -- board results (duplicate) ------------------------------------------------

    @abstractmethod
    async def _board_results(self, what: str, query: ResultFilter) -> list[BoardResult]:
        """The results ``query`` picks, oldest claim first, with their players, read
        in one snapshot (:func:`board_results_sql`)."""

    async def board_results(self, board: str, *, guild_id: int | None = None,
                            finished: bool = True) -> list[BoardResult]:
        """The results of a board (only the finished ones if ``finished``), of the
        guild ``guild_id`` (0: direct messages) or of every guild (None), oldest
        claim first."""
        check_text(board, "a board id")
        return await self._board_results("board_results", ResultFilter(
            board=board, guild_id=guild_id, finished=finished))

    async def event_results(self, event: str, *,
                            guild_id: int | None = None) -> list[BoardResult]:
        """Every finished result of an event, of one guild or of all (None), oldest
        claim first."""
        check_text(event, "an event code")
        return await self._board_results("event_results", ResultFilter(
            event=event, guild_id=guild_id, finished=True))

    async def user_results(self, user_id: int, event: str) -> list[BoardResult]:
        """The results, finished or not, a person has in an event (which boards they
        opened and finished), oldest claim first."""
        check_text(event, "an event code")
        return await self._board_results("user_results", ResultFilter(
            event=event, user_id=user_id))
