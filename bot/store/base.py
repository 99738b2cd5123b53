"""What the two backends do alike above their SQL, written once.

:class:`StoreBase` holds the parts of :class:`~bot.store.models.Repository` that do
not depend on the database: the context manager, the leaderboard's paging, the
rating of a finished game, the rebuild of every rating, the readings of board
results (duplicate) and, through :class:`~bot.store.queue.QueueStore`, the queue of
"Play now". Each backend gives the
statements (the abstract methods), ``C`` being its connection; the rows they
return are read by :mod:`bot.store.rows`.

:func:`player_totals_sql` is the leaderboard's ranking, one query for both, the
dialect's words (parameter markers, casts) filled in by each backend;
:func:`board_results_sql` reads board results alike.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar

from bot.ratings import Seat
from bot.store.codec import as_str, load_json, parse_optional_timestamp, utc_now
from bot.store.models import (
    BoardResult,
    Counts,
    Erased,
    GameResult,
    LeaderboardRow,
    PersonAtTableError,
    StoreError,
    Swept,
)
from bot.store.personal import (
    Dialect,
    Statements,
    export_document,
    pseudonym,
    scrub_names,
)
from bot.store.queue import QueueStore
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
T = TypeVar("T")

EXPORT_CHUNK = 200
"""Rows an export reads at a time (a few megabytes of replays at most), so that they are
taken in short steps between the live tables' work rather than in one long one (asyncpg
decodes them on the event loop)."""


# A guild's human players of one game (``entries``), their totals (``totals``) and
# the name they had in their latest game (``latest``), ranked; the page of them
# asked for (all of them, or the one ``user_id`` if it is not NULL) with their
# summed stats. A user seated twice in one game counts it once; unrated games
# count not at all; a former player (a pseudonym, below 0: bot.store.personal) is not
# listed. The global board (issue 53) reads every guild's games and the global ratings,
# ranks everyone rated, and pages through those who chose to appear (``shown``); the
# one ``user_id`` is found all the same (their own place).
_PLAYER_TOTALS = """
WITH entries AS (
    SELECT gp.user_id, gp.game_id, gp.seat, gp.name, gp.won, g.finished_at
    FROM games AS g
    JOIN game_players AS gp ON gp.game_id = g.id
    WHERE {in_guild} g.game = {game} AND g.rated AND gp.user_id > 0
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
    SELECT t.user_id, l.name, t.games, t.wins, r.ordinal, {shown} AS shown,
           ROW_NUMBER() OVER (ORDER BY r.ordinal IS NULL, r.ordinal DESC, t.wins DESC,
                                       CAST(t.wins AS double precision) / t.games DESC,
                                       t.games DESC, t.user_id) AS rank
    FROM totals AS t JOIN latest AS l ON l.user_id = t.user_id
    LEFT JOIN {ratings} AS r ON {rated_here} r.game = {game}
                          AND r.player = 'u:' || t.user_id
),
page AS (
    SELECT * FROM ranked WHERE ({user_id} IS NULL AND shown) OR user_id = {user_id}
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

# The people of a game's global board: how many chose to appear and how many did not
# (every person with a rated game of it, as the global board ranks them).
_GLOBAL_COUNTS = """
SELECT COUNT(CASE WHEN p.standings THEN 1 END) AS shown,
       COUNT(CASE WHEN p.standings THEN NULL ELSE 1 END) AS hidden
FROM (SELECT DISTINCT gp.user_id FROM games AS g
      JOIN game_players AS gp ON gp.game_id = g.id
      WHERE g.game = {game} AND g.rated AND gp.user_id > 0) AS rated
LEFT JOIN people AS p ON p.user_id = rated.user_id
"""


def player_totals_sql(*, guild_id: str | None, game: str, user_id: str, limit: str,
                      offset: str, won: str, total: str, true: str = "TRUE") -> str:
    """The ranking query (rows for :func:`bot.store.rows.leaderboard_rows`): the
    markers of its parameters (``guild_id`` None: the global board, whose parameters are
    the others, in their order), the condition ``won`` of a won game (of the
    ``game_players`` row), the expression ``total`` of a summed stat (``st.total``) as an
    integer and the dialect's ``true``."""
    if guild_id is None:
        scope = {"in_guild": "", "ratings": "global_ratings", "rated_here": "",
                 "shown": "COALESCE((SELECT pp.standings FROM people AS pp "
                          "WHERE pp.user_id = t.user_id), 0 = 1)"}
    else:
        scope = {"in_guild": f"g.guild_id = {guild_id} AND", "ratings": "ratings",
                 "rated_here": f"r.guild_id = {guild_id} AND", "shown": true}
    return _PLAYER_TOTALS.format(game=game, user_id=user_id, limit=limit, offset=offset,
                                 won=won, total=total, **scope)


def global_counts_sql(game: str) -> str:
    """How many people of the global board of ``game`` (its marker) chose to appear
    (``shown``) and how many did not (``hidden``)."""
    return _GLOBAL_COUNTS.format(game=game)


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


class StoreBase(QueueStore[C], ABC, Generic[C]):
    """The backend-neutral half of a repository; ``C`` is its connection type. The
    queue of "Play now" (issue 53) is :class:`~bot.store.queue.QueueStore`'s."""

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
    async def _player_totals(self, guild_id: int | None, game: str, user_id: int | None,
                             limit: int, offset: int) -> list[LeaderboardRow]:
        """A page of the ranking (:func:`player_totals_sql`), or the one ``user_id``; the
        global board's if ``guild_id`` is None."""

    async def leaderboard(self, guild_id: int | None, game: str, *, limit: int = 10,
                          offset: int = 0) -> list[LeaderboardRow]:
        """Human players of a guild by rating (``mu - 3 sigma``), then wins, win rate,
        games (then user id, so pages are stable), with their summed stats and their
        latest name; None: the global board, those who chose to appear only."""
        check_page(limit, offset)
        return await self._player_totals(guild_id, game, None, limit, offset)

    async def player_stats(self, guild_id: int | None, game: str,
                           user_id: int) -> LeaderboardRow | None:
        """One player's totals in a guild, or globally (None), shown or not (None if they
        never finished a rated game)."""
        rows = await self._player_totals(guild_id, game, user_id, 1, 0)
        return rows[0] if rows else None

    # -- ratings -------------------------------------------------------------------

    @abstractmethod
    async def _stored_ratings(self, conn: C, guild_id: int | None, game: str,
                              keys: list[str]) -> Iterable[Row]:
        """The stored ratings (player, mu, sigma, games) of the players ``keys``: in the
        guild, or the global ones (None)."""

    @abstractmethod
    async def _store_ratings(self, conn: C, guild_id: int | None,
                             ratings: list[tuple[object, ...]],
                             history: list[tuple[object, ...]]) -> None:
        """Insert or replace the ratings and add their history rows (both as
        :func:`bot.store.rows.rating_updates` gives them): the guild's, or the global
        ones (None: the rows without their first field, the guild)."""

    @abstractmethod
    async def _clear_ratings(self, conn: C) -> None:
        """Delete every rating and its history, the guilds' and the global ones (a
        rebuild's start)."""

    @abstractmethod
    async def _rated_game_rows(self, conn: C) -> tuple[Iterable[Row], Iterable[Row]]:
        """Every stored rated game (id, guild_id, game, scores) in finish order, and
        their players (game_id, seat, user_id, bot_level, name, team, won)."""

    async def _rate(self, conn: C, game_id: int, guild_id: int, game: str,
                    seats: tuple[Seat, ...]) -> None:
        """Rate one game (bot/ratings.py) against the stored ratings, and store the new
        ratings and their history rows: the guild's, then the global ones (issue 53),
        the same update on each; part of the caller's transaction."""
        keys = rating_keys(seats)
        if not keys:
            return
        for scope in (guild_id, None):
            rows = await self._stored_ratings(conn, scope, game, keys)
            ratings, history = rating_updates(game_id, guild_id, game, seats, rows)
            if ratings:
                await self._store_ratings(
                    conn, scope, ratings if scope is not None else [r[1:] for r in ratings],
                    history)

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

    # -- a person's data (issue 42; the statements: bot.store.personal) -------------

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def _transact(self, what: str, work: Callable[[C], Awaitable[T]], *,
                        readonly: bool = False) -> T:
        """``work(conn)`` in one transaction (a snapshot when ``readonly``)."""

    @abstractmethod
    async def _rows(self, conn: C, sql: str, *params: object) -> list[Any]:
        """The rows of one statement (read by column name)."""

    @abstractmethod
    async def _snapshot(self, what: str, work: Callable[[C], Awaitable[T]]) -> T:
        """``work(conn)`` in one read-only snapshot on a connection that nothing else
        waits for, so that a long read holds up no live table."""

    @abstractmethod
    def _chunks(self, conn: C, sql: str, *params: object) -> AsyncIterator[list[dict[str, Any]]]:
        """The rows of one statement, :data:`EXPORT_CHUNK` at a time, each a dict by
        column name (plain data, which pickles)."""

    @abstractmethod
    async def _change(self, conn: C, sql: str, *params: object) -> int:
        """Run one statement; the rows it changed."""

    async def _erase_jobs(self, conn: C, user_id: int) -> int:
        """Delete the queued or failed background jobs made for the person (their
        reviews); the backends whose queue is in the database override it."""
        return 0

    def _sql(self) -> Statements:
        return Statements(self.dialect)

    # -- the board secret (issue 51) --------------------------------------------------

    async def board_secret(self) -> str | None:
        """The deployment's board secret as stored (None: none is stored). Raises
        :class:`~bot.store.models.CorruptRowError` if its row holds no text."""
        mark = self.dialect.mark

        async def work(conn: C) -> str | None:
            rows = await self._rows(conn, f"SELECT secret FROM board_secret WHERE id = {mark(1)}",
                                    1)
            return as_str(rows[0]["secret"], "board_secret.secret") if rows else None
        return await self._transact("board_secret", work, readonly=True)

    async def make_board_secret(self, secret: str) -> str | None:
        """Store ``secret`` as the board secret if none is stored, in one transaction;
        a stored one is never replaced (two processes starting at once: the first
        wins). The secret stored afterwards (None if its row holds no text)."""
        if not isinstance(secret, str) or not secret:
            raise StoreError("invalid_argument", "a board secret must be a non-empty text")
        mark = self.dialect.mark

        async def work(conn: C) -> str | None:
            await self._change(conn, "INSERT INTO board_secret (id, secret, created_at) VALUES "
                               f"({mark(1)}, {mark(2)}, {mark(3)}) ON CONFLICT (id) DO NOTHING",
                               1, secret, self.dialect.time(utc_now()))
            rows = await self._rows(conn, f"SELECT secret FROM board_secret WHERE id = {mark(1)}",
                                    1)
            value = rows[0]["secret"] if rows else None
            return value if isinstance(value, str) else None
        return await self._transact("make_board_secret", work)

    async def person_counts(self, user_id: int) -> Counts:
        """How much is stored about a person (all zero for a stranger)."""
        sql = self._sql()

        async def work(conn: C) -> Counts:
            return Counts.from_row((await self._rows(conn, sql.counts(), user_id))[0])
        return await self._transact("person_counts", work, readonly=True)

    async def export_rows(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """The rows of every part of a person's export (:meth:`Statements.export`), read
        in one snapshot, :data:`EXPORT_CHUNK` rows at a time, beside the live tables'
        work (:meth:`_snapshot`). Plain data: the file is made from them elsewhere
        (:func:`bot.store.export.make_export`, off the event loop)."""
        sql = self._sql()

        async def work(conn: C) -> dict[str, list[dict[str, Any]]]:
            parts: dict[str, list[dict[str, Any]]] = {}
            for name, statement in sql.export().items():
                rows = parts[name] = []
                async for chunk in self._chunks(conn, statement, user_id):
                    rows.extend(chunk)
            return parts
        return await self._snapshot("export_person", work)

    async def export_person(self, user_id: int, *, now: datetime | None = None
                            ) -> dict[str, Any]:
        """Everything stored about a person, as one JSON document
        (:func:`bot.store.personal.export_document`), read in one snapshot."""
        return export_document(user_id, now or utc_now(), await self.export_rows(user_id))

    async def erase_person(self, user_id: int) -> Erased:
        """Erase a person, in one transaction: their id becomes a pseudonym in the
        results the others need, their names there are blanked (in the others' reviews
        too), what is theirs alone is deleted, and every rating is rebuilt from the
        stored games. Raises :class:`PersonAtTableError` (nothing changed) while they sit
        at or host a live table. Erasing a stranger changes nothing (``counts`` empty)."""
        sql = self._sql()

        async def work(conn: C) -> Erased:
            live = [int(r["id"]) for r in await self._rows(conn, sql.live(), user_id)]
            if live:
                raise PersonAtTableError(live)
            erased = Erased(Counts.from_row((await self._rows(conn, sql.counts(), user_id))[0]))
            if erased.counts.empty:
                return erased
            scrub: dict[tuple[int, int, int], tuple[object, list[int]]] = {}
            for row in await self._rows(conn, sql.scrubbed_reviews(), user_id):
                key = (int(row["table_id"]), int(row["deal"]), int(row["seat"]))
                review, seats = scrub.setdefault(key, (load_json(row["review"], "a review"), []))
                seats.append(int(row["theirs"]))
            other = pseudonym()
            for statement in sql.erase():
                # Each statement gets the parameters it names, as both drivers demand.
                params = (user_id, other) if self.dialect.mark(2) in statement else (user_id,)
                await self._change(conn, statement, *params)
            for (table_id, deal, seat), (review, seats) in scrub.items():
                changed = scrub_names(review, seats)
                if changed is not None:
                    await self._change(conn, sql.rewrite_review(), table_id, deal, seat,
                                       json.dumps(changed, separators=(",", ":")))
                    erased.reviews_scrubbed += 1
            await self._erase_jobs(conn, user_id)
            erased.games_rerated = await self._rebuild(conn)
            return erased
        return await self._transact("erase_person", work)

    async def set_standings(self, user_id: int, appear: bool) -> None:
        """A person's choice to appear by name in standings across servers."""
        sql = self._sql()
        if user_id <= 0:
            raise StoreError("invalid_value", f"not a person: {user_id}")

        async def work(conn: C) -> None:
            await self._change(conn, sql.set_standings(), user_id,
                               self.dialect.flag(appear), self.dialect.time(utc_now()))
        await self._transact("set_standings", work)

    async def standings_choice(self, user_id: int) -> bool:
        """Whether the person chose to appear by name in standings across servers."""
        sql = self._sql()

        async def work(conn: C) -> bool:
            rows = await self._rows(conn, sql.standing(), user_id)
            return bool(rows and rows[0]["standings"])
        return await self._transact("standings_choice", work, readonly=True)

    async def appearing(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` who chose to appear by name in standings across
        servers."""
        people = sorted({u for u in user_ids if u > 0})
        sql = self._sql()

        async def work(conn: C) -> set[int]:
            found: set[int] = set()
            for start in range(0, len(people), 500):
                part = people[start:start + 500]
                found |= {int(r["user_id"])
                          for r in await self._rows(conn, sql.standings(len(part)), *part)}
            return found
        return await self._transact("appearing", work, readonly=True) if people else set()

    async def guild_left(self, guild_id: int, *, when: datetime | None = None) -> None:
        """Note that the bot was removed from the guild (the first time counts)."""
        sql = self._sql()

        async def work(conn: C) -> None:
            await self._change(conn, sql.guild_left(), guild_id,
                               self.dialect.time(when or utc_now()))
        await self._transact("guild_left", work)

    async def guild_left_at(self, guild_id: int) -> datetime | None:
        """When the bot was removed from the guild (None while it is in it, or if the
        store never heard of it)."""
        sql = self._sql()

        async def work(conn: C) -> datetime | None:
            rows = await self._rows(conn, sql.left_at(), guild_id)
            return parse_optional_timestamp(rows[0]["left_at"], "guilds.left_at") \
                if rows else None
        return await self._transact("guild_left_at", work, readonly=True)

    async def guild_back(self, guild_id: int) -> bool:
        """The bot is in the guild (again): nothing of it is swept; whether it had been
        noted as left."""
        sql = self._sql()

        async def work(conn: C) -> bool:
            return await self._change(conn, sql.guild_back(), guild_id) > 0
        return await self._transact("guild_back", work)

    async def sweep_closed_tables(self) -> int:
        """Delete the drafts, hand messages (their interaction tokens) and talk lines of
        closed tables; how many rows went."""
        sql = self._sql()

        async def work(conn: C) -> int:
            return sum([await self._change(conn, s) for s in sql.closed_leftovers()])
        return await self._transact("sweep_closed_tables", work)

    async def sweep_left_guilds(self, before: datetime) -> Swept:
        """Empty the guilds the bot left before ``before``, in one transaction: delete
        their settings, their unplayed tables (lobbies) and the reviews made there, and
        keep their results anonymized: each person in them gets a pseudonym of that
        guild, their names there are blanked, and the ratings are rebuilt (only when
        someone was left to anonymize, so a guild already emptied costs nothing)."""
        sql = self._sql()

        async def work(conn: C) -> Swept:
            cutoff = self.dialect.time(before)
            swept = Swept([int(r["id"]) for r in await self._rows(conn, sql.left_guilds(),
                                                                   cutoff)])
            if not swept.guilds:
                return swept
            swept.settings, swept.lobbies = [await self._change(conn, s, cutoff)
                                             for s in sql.swept()]
            for guild in swept.guilds:
                people = [int(r["user_id"]) for r in await self._rows(conn, sql.guild_people(),
                                                                       guild)]
                for person in people:
                    other = pseudonym()
                    for statement in sql.anonymized():
                        await self._change(conn, statement, guild, person, other)
                swept.people += len(people)
                swept.reviews += await self._change(conn, sql.guild_reviews(), guild)
            if swept.people:
                await self._rebuild(conn)
            return swept
        return await self._transact("sweep_left_guilds", work)
