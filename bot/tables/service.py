"""Table routing: every change to a table passes here, under the table's lock.

The order of an action is always: check with the engine, append to the store,
apply to the game, then tell the presenter. A refused action raises and changes
nothing; an action the store could not keep is not applied. A person's click comes
down one path (:meth:`TableService.click`): the seat, :func:`stale`, the game's reading
of the click, the engine's check, the store, the game.

The service also keeps tables moving when the store fails. Every computer move and
turn timer is retried with backoff until it goes through, whatever the error; a
write whose answer was lost marks the table to be read again from the store before
its next change; :meth:`TableService.check`, run now and then, restarts any driver or
timer that is missing, records games whose result could not be stored, and watches
the locks of this process's shards: a shard whose lock is lost is not driven until
the lock is taken again, and one that another process took is given up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from bot.store.models import (
    ActionRecord,
    CorruptRowError,
    Repository,
    SeatRecord,
    SequenceConflictError,
    ShardLostError,
    StoreError,
    StoreUnavailableError,
    TableStatus,
)
from bot.tables.computer import computer_move
from bot.tables.errors import TableError
from bot.tables.ids import Click
from bot.tables.rules import LogEntry, TableRules
from bot.tables.table import OVER, SeatKind, Table, phase_of
from bot.workers import offload
from engine.errors import EngineError

log = logging.getLogger(__name__)

TIMER_LEVEL = "normal"
"""The level that plays for an idle or handed-over seat (every game has it)."""
MISSES_BEFORE_AWAY = 3
"""Turn timers run out in a row before a computer keeps the seat until its person is back."""
RETRY_FIRST = 0.5
RETRY_MAX = 3.0
"""A failed computer move or timer is tried again after 0.5, 1, 2, then every 3 seconds."""


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failures in a row."""
    return min(RETRY_FIRST * 2.0 ** max(failures - 1, 0), RETRY_MAX)


class Presenter(Protocol):
    """What the Discord layer does when a table changes (it must not raise)."""

    async def table_changed(self, table: Table) -> None: ...


@dataclass(frozen=True, slots=True)
class Move:
    """A click read as an engine action: the engine checks it, then it is stored and
    applied (``applied``: what the engine returned, once it is)."""

    action: Any
    applied: Any = None


@dataclass(frozen=True, slots=True)
class Draft:
    """A click that changes the seat's choice in progress (``value``; None drops it),
    kept on the server. ``provisional``: an action the engine must allow before the
    choice goes on (a Tichu play waiting for its wish or its Phoenix reading)."""

    value: dict[str, Any] | None
    provisional: Any = None


@dataclass(frozen=True, slots=True)
class Look:
    """A click that only changes what the clicker's panel shows, its choice kept in the
    panel's own controls: nothing is stored; ``draw(locale)`` draws the panel."""

    draw: Callable[[str], Awaitable[Any]]


Decision = Move | Draft | Look
"""What a game reads a click as (:meth:`ClickRules.read_click`)."""
Prepare = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""What a caller adds to a table's opening (:meth:`TableService.open_lobby`): its checks,
then its writes; given the options, it returns the table's."""


class ClickRules(TableRules, Protocol):
    """The part of a game's spec a click needs (:class:`bot.games.base.GameSpec`)."""

    def read_click(self, table: Table, seat: int, click: Click) -> Decision:
        """The decision of ``click`` by ``seat`` now, or TableError for a click that
        cannot be read (``forged``, an unfinished choice). Pure: it decides neither
        staleness (:func:`stale` did) nor legality (the engine does)."""


def stale(table: Table, seat: int, seq: int | None) -> bool:
    """Whether a control drawn when the seat had made ``seq`` moves is out of date: the
    seat has moved since (a double click, an old menu, a timer's move). Another seat's
    actions never make a control out of date; a control without ``seq`` never is (the
    engine refuses a repeat). The one place every game's clicks are judged stale."""
    return seq is not None and seq != table.moves[seat]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The gateway shard of a guild (Discord's rule)."""
    return (guild_id >> 22) % shard_count


class TableService:
    """Owns the tables of this process and drives their computer players and timers.

    With ``shard_count`` (and ``shard_ids``, default all of them) the process owns only
    the tables of guilds on its shards: it restores and drives those alone, and
    refuses to load or open any other (another process drives them).
    """

    def __init__(self, repo: Repository, specs: Mapping[str, TableRules], *,
                 ai_delay: float = 1.2, lobby_timeout: float = 1800,
                 idle_timeout: float = 86400, presenter: Presenter | None = None,
                 shard_count: int | None = None,
                 shard_ids: Collection[int] | None = None,
                 shard_lock_wait: float = 300.0,
                 on_lost: Callable[[str], None] | None = None,
                 tables_per_person: int | None = None) -> None:
        if shard_ids is not None and shard_count is None:
            raise ValueError("shard_ids needs shard_count")
        if shard_count is not None and shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, got {shard_count}")
        self.shard_count = shard_count
        self.shard_ids: frozenset[int] | None = (
            None if shard_ids is None else frozenset(shard_ids))
        self.repo = repo
        self.specs = dict(specs)
        self.ai_delay = ai_delay
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        """Seconds without any person's action before a game in play is closed."""
        self.presenter = presenter
        self.tables: dict[int, Table] = {}
        self.broken: dict[int, str] = {}
        """Tables that could not be rebuilt, with the reason (reported, never crashed on)."""
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._notices: set[asyncio.Task[None]] = set()
        self.shard_lock_wait = shard_lock_wait
        """Seconds a lost shard lock is tried again before the shard is given up."""
        self.on_lost = on_lost
        """Called with a sentence when this process gives a shard up (the app stops)."""
        self.watched: frozenset[int] = frozenset()
        """The shards whose locks this process took and :meth:`check` watches."""
        self.suspended: set[int] = set()
        """Shards whose lock was lost: their tables are not driven and refuse clicks."""
        self._lost_since: float | None = None
        self.database_down_since: float | None = None
        """Wall-clock time since which the store has not answered (None: it answers)."""
        self._gave_up = False
        self.deal_listeners: list[Callable[[Table], Awaitable[None]]] = []
        """Called (under the table's lock) after each deal that ends, the last included."""
        self.start_checks: list[Callable[[Table], Awaitable[None]]] = []
        """Called (under the table's lock) before a game starts; a TableError refuses the
        start (the duplicate boards' claims)."""
        self.tables_per_person = tables_per_person
        """The most open tables one person may host or sit at, over every channel and
        server (tables played alone not counted; None: no limit)."""
        self._opening = asyncio.Lock()
        """Held while a table is opened: its limits are checked and its rows written
        together, one opening at a time in this process."""

    # ------------------------------------------------------------- loading
    def owns(self, guild_id: int) -> bool:
        """Whether the tables of this guild are this process's (its shard is ours)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def shard(self, guild_id: int) -> int:
        """The shard lock a guild's tables are under (0 when the bot is not sharded)."""
        return shard_of(guild_id, self.shard_count or 1)

    def held(self, table: Table) -> bool:
        """Whether this process may drive the table now (its shard's lock is not lost)."""
        return not self.suspended or self.shard(table.record.guild_id) not in self.suspended

    async def get(self, table_id: int) -> Table:
        """The table, loaded from the store if needed; TableError ``no_table`` if gone,
        ``store_unavailable`` while its shard's lock is being taken again."""
        table = self.tables.get(table_id)
        if table is not None:
            if not self.held(table):
                raise TableError("store_unavailable")
            return table
        if table_id in self.broken:
            raise TableError("table_broken")
        try:
            record = await self.repo.load_table(table_id)
        except CorruptRowError as exc:
            self.broken[table_id] = str(exc)
            log.error("table %s cannot be loaded: %s", table_id, exc)
            raise TableError("table_broken") from None
        if record is None:
            raise TableError("no_table")
        if not self.owns(record.guild_id):
            # Another process drives it; Discord never sends its clicks here.
            log.warning("table %s of guild %s is on another shard: not loaded", table_id,
                        record.guild_id)
            raise TableError("no_table")
        if self.shard(record.guild_id) in self.suspended:
            raise TableError("store_unavailable")
        try:
            table = Table.rebuild(record, self.spec_for(record.game))
        except CorruptRowError as exc:
            self.broken[table_id] = str(exc)
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            raise TableError("table_broken") from None
        # Another click may have loaded it meanwhile: one Table (and one lock) per id.
        return self.tables.setdefault(table_id, table)

    def spec_for(self, name: str) -> TableRules:
        """The hosted game called ``name``; a stored table of another game is a corrupt row."""
        spec = self.specs.get(name)
        if spec is None:
            raise CorruptRowError(f"unknown game {name!r}")
        return spec

    async def restore(self, shards: Collection[int] | None = None) -> list[Table]:
        """Rebuild every active table of this process's shards (or of ``shards``) after a
        restart and set its players going again. A game that ended without its result
        stored is recorded now."""
        restored = []
        if self.shard_count is None:
            found = await self.repo.active_table_ids()
        else:
            found = await self.repo.active_table_ids(
                shard_count=self.shard_count,
                shard_ids=self.shard_ids if shards is None else shards)
        for table_id in found:
            try:
                table = await self.get(table_id)
            except TableError:
                continue
            restored.append(table)
            if table.unrecorded:
                with contextlib.suppress(StoreError, TableError):  # check() tries again
                    async with self._hold(table):
                        await self._record(table)
            # A private table is seen only in its panel: show it as the store has it.
            self._after_change(table, notify=table.private)
        return restored

    async def active_in(self, channel_id: int, game: str | None = None) -> Table:
        """The active table (of ``game``) played in this thread, or the only one opened
        in this channel; TableError ``no_table_here`` or ``several_tables``."""
        found = []
        for table_id in await self.repo.active_tables_in(channel_id):
            try:
                table = await self.get(table_id)
            except TableError:
                continue
            if (game is None or table.spec.name == game) and not table.private:
                found.append(table)
        in_thread = [t for t in found if t.record.thread_id == channel_id]
        if in_thread:
            return in_thread[0]
        if not found:
            raise TableError("no_table_here")
        if len(found) > 1:
            raise TableError("several_tables", count=len(found))
        return found[0]

    # --------------------------------------------------------------- lobby
    async def open_lobby(self, *, game: str, guild_id: int, channel_id: int, host_id: int,
                         host_name: str, locale: str, options: dict[str, Any],
                         limit: int | None = None,
                         prepare: Prepare | None = None) -> Table:
        """Open a lobby of ``game`` with the host in the first seat; at most ``limit``
        active tables per channel (each plays in its own thread), and at most
        :attr:`tables_per_person` open tables of the host's anywhere.

        Every limit is checked before anything is written: the channel's and the host's
        here, then ``prepare(options)``, the caller's own checks followed by its own
        writes (a duplicate table's event and its fields' jobs), which gives the table's
        options; only then the table's rows. Openings in this process go one at a time,
        so that two of them never both pass a limit with room for one."""
        spec = self.spec_for(game)
        if not self.owns(guild_id):
            raise TableError("no_table")
        n = spec.seat_count(options)
        async with self._opening:
            if limit is not None and await self.repo.count_active_tables(channel_id) >= limit:
                raise TableError("too_many_tables", limit=limit)
            if channel_id:  # a table played alone (a daily board) takes no one's room
                await self.check_room(host_id)
            if prepare is not None:
                options = await prepare(dict(options))
            await self.repo.ensure_guild(guild_id, locale)
            seats = [SeatRecord(seat=s) for s in range(n)]
            seats[0] = SeatRecord(seat=0, user_id=host_id, name=host_name)
            record = await self.repo.create_table(
                guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
                seed=secrets.token_hex(8), options=dict(options), locale=locale, seats=seats)
        table = Table(record, spec)
        self.tables[table.id] = table
        return table

    async def check_room(self, user_id: int) -> None:
        """Refuse (``too_many_open``) a person who already has :attr:`tables_per_person`
        open tables, over every channel and server."""
        most = self.tables_per_person
        if most is not None and await self.repo.count_open_tables_of(user_id) >= most:
            raise TableError("too_many_open", limit=most)

    async def _lobby_change(self, table_id: int, change: Callable[[Table], None]) -> Table:
        table = await self.get(table_id)
        async with self._hold(table):
            if table.status is not TableStatus.LOBBY:
                raise TableError("not_lobby")
            before = [replace(s) for s in table.seats]
            change(table)
            try:
                await self.repo.save_seats(table.id, table.seats)
            except StoreError:
                table.record.seats = before
                raise
            table.touch()
        self._notify(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str, seat: int) -> Table:
        """Sit down in an empty seat, or move there from another seat; a person new to the
        table is refused if they have their :attr:`tables_per_person` open tables."""
        table = await self.get(table_id)
        if table.seat_of(user_id) is None and table.record.host_id != user_id \
                and table.status is TableStatus.LOBBY and not table.private:
            await self.check_room(user_id)

        def change(table: Table) -> None:
            _check_seat(table, seat)
            if table.kind(seat) is not SeatKind.EMPTY:
                raise TableError("seat_taken")
            current = table.seat_of(user_id)
            if current is not None:
                table.seats[current] = SeatRecord(seat=current)
            table.seats[seat] = SeatRecord(seat=seat, user_id=user_id, name=name)
        return await self._lobby_change(table_id, change)

    async def leave(self, table_id: int, user_id: int) -> Table:
        def change(table: Table) -> None:
            current = table.seat_of(user_id)
            if current is None:
                raise TableError("not_seated")
            table.seats[current] = SeatRecord(seat=current)
        return await self._lobby_change(table_id, change)

    async def set_computer(self, table_id: int, actor_id: int, seat: int, level: str | None) -> Table:
        """Host only: put a computer player of ``level`` in an empty or computer seat,
        or (``level`` None) remove the computer player."""
        def change(table: Table) -> None:
            _check_host(table, actor_id)
            _check_seat(table, seat)
            if table.kind(seat) is SeatKind.HUMAN:
                raise TableError("seat_taken")
            if level is None:
                table.seats[seat] = SeatRecord(seat=seat)
                return
            if level not in table.spec.levels:
                raise TableError("bad_level")
            table.seats[seat] = SeatRecord(seat=seat, name="", bot_level=level)
        return await self._lobby_change(table_id, change)

    async def start(self, table_id: int, actor_id: int) -> Table:
        """Host only: start the game once every seat is filled."""
        table = await self.get(table_id)
        async with self._hold(table):
            if table.status is not TableStatus.LOBBY:
                raise TableError("not_lobby")
            _check_host(table, actor_id)
            if any(table.kind(s) is SeatKind.EMPTY for s in range(table.n_seats)):
                raise TableError("seats_empty")
            try:
                game = table.spec.new_game(table.record)
            except EngineError:
                raise TableError("bad_options") from None
            for check in self.start_checks:
                await check(table)  # a TableError refuses the start
            await self.repo.update_table(table.id, status=TableStatus.PLAYING)
            table.record.status = TableStatus.PLAYING
            table.game = game
            table.touch()
        self._after_change(table)
        return table

    async def abandon(self, table_id: int, actor_id: int, *, can_manage: bool) -> Table:
        """The host, or anyone who may manage the server, ends the table unrated."""
        table = await self.get(table_id)
        async with self._hold(table):
            if not table.status.is_active:
                raise TableError("not_active")
            if actor_id != table.record.host_id and not can_manage:
                raise TableError("not_host")
            await self.repo.update_table(table.id, status=TableStatus.ABANDONED)
            table.record.status = TableStatus.ABANDONED
        self._stop(table.id)
        self._notify(table)
        return table

    async def expire_idle_lobbies(self, now: float | None = None) -> list[Table]:
        """Close lobbies idle for longer than the lobby timeout."""
        now = time.monotonic() if now is None else now
        expired = []
        for table in list(self.tables.values()):
            if table.status is TableStatus.LOBBY and now - table.last_activity > self.lobby_timeout \
                    and self.held(table):
                async with self._hold(table):
                    if table.status is not TableStatus.LOBBY:
                        continue
                    await self.repo.update_table(table.id, status=TableStatus.EXPIRED)
                    table.record.status = TableStatus.EXPIRED
                expired.append(table)
                self._notify(table)
        return expired

    def forget_person(self, user_id: int) -> list[int]:
        """Forget the closed tables held in memory where ``user_id`` sat or hosted (they
        erased their data: the store has them under a pseudonym now); a live table never
        holds them (the erase is refused there)."""
        gone = [tid for tid, table in self.tables.items() if not table.status.is_active and (
            table.record.host_id == user_id
            or any(s.user_id == user_id for s in table.record.seats))]
        for tid in gone:
            del self.tables[tid]
        return gone

    def forget_guilds(self, guild_ids: Collection[int]) -> list[int]:
        """Forget the lobbies held in memory of guilds whose data was swept (the bot left
        them; the store deleted their lobbies)."""
        gone = [tid for tid, table in self.tables.items()
                if table.record.guild_id in guild_ids and table.status is TableStatus.LOBBY]
        for tid in gone:
            del self.tables[tid]
        return gone

    def evict_closed(self, now: float | None = None, *, after: float = 600) -> list[int]:
        """Forget closed tables idle for ``after`` seconds (the store keeps them)."""
        now = time.monotonic() if now is None else now
        gone = [tid for tid, table in self.tables.items()
                if not table.status.is_active and now - table.last_activity > after]
        for tid in gone:
            del self.tables[tid]
        return gone

    async def close_idle_tables(self, now: float | None = None) -> list[Table]:
        """Close, as abandoned, games in play where no person has acted for the idle
        timeout (a table nobody plays at never stays open). A game with a finishing time
        (:attr:`Table.finish_at`) is never closed: once its time has come, computers
        finish it for its people."""
        now = time.time() if now is None else now
        closed = []
        for table in list(self.tables.values()):
            if table.status is not TableStatus.PLAYING or not self.held(table):
                continue
            finish_at = table.finish_at
            if finish_at is not None:
                if now >= finish_at:
                    await self.finish_for_people(table)
                continue
            if now - table.last_human > self.idle_timeout:
                async with self._hold(table):
                    if table.status is not TableStatus.PLAYING:
                        continue
                    await self.repo.update_table(table.id, status=TableStatus.ABANDONED)
                    table.record.status = TableStatus.ABANDONED
                    table.log.append(LogEntry("log.idle_closed"))
                self._stop(table.id)
                closed.append(table)
                self._notify(table)
        return closed

    async def finish_for_people(self, table: Table, level: str | None = None) -> None:
        """Computers (``level``, default the strongest) take every person's seat for good,
        to finish the game (the people are still its players)."""
        level = level or table.spec.levels[-1]
        async with self._hold(table):
            if table.status is not TableStatus.PLAYING:
                return
            for seat in range(table.n_seats):
                old = table.seats[seat]
                if table.kind(seat) is SeatKind.HUMAN:
                    await self._seat_change(
                        table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                                bot_level=level, away=True),
                        LogEntry("log.away", {"seat": seat}))
        self._after_change(table)

    # --------------------------------------------------------------- seats
    async def _seat_change(self, table: Table, seat: int, new: SeatRecord,
                           entry: LogEntry) -> None:
        """Replace one seat of a game in play (under the lock) and store it."""
        old = table.seats[seat]
        table.seats[seat] = new
        try:
            await self.repo.save_seats(table.id, table.seats)
        except StoreError:
            table.seats[seat] = old
            raise
        table.log.append(entry)

    async def _playing(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table.status is not TableStatus.PLAYING or table.game is None:
            raise TableError("not_playing")
        return table

    async def takeover(self, table_id: int, actor_id: int, seat: int) -> Table:
        """Host only: hand a person's seat to a computer player for good, once its person
        has stopped playing it (:meth:`Table.idle`: away, or the turn timer ran out on
        their last decision); a seat still played is refused (``seat_active``), and
        nothing is written."""
        table = await self._playing(table_id)
        async with self._hold(table):
            _check_host(table, actor_id)
            _check_seat(table, seat)
            if table.seats[seat].user_id is None:
                raise TableError("not_human_seat")
            if not table.idle(seat):
                raise TableError("seat_active", seat=seat + 1)
            old = table.seats[seat]
            await self._seat_change(table, seat, SeatRecord(seat=seat, name=old.name,
                                                            bot_level=TIMER_LEVEL),
                                    LogEntry("log.takeover", {"seat": seat}))
        self._after_change(table)
        return table

    async def leave_game(self, table_id: int, user_id: int) -> Table:
        """A seated person leaves a game in play: a computer player takes the seat. When
        the last person leaves, the table closes (unrated)."""
        table = await self._playing(table_id)
        async with self._hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            old = table.seats[seat]
            await self._seat_change(table, seat, SeatRecord(seat=seat, name=old.name,
                                                            bot_level=TIMER_LEVEL),
                                    LogEntry("log.left", {"seat": seat}))
            if not table.humans():
                await self.repo.update_table(table.id, status=TableStatus.ABANDONED)
                table.record.status = TableStatus.ABANDONED
        self._after_change(table)
        return table

    async def come_back(self, table_id: int, user_id: int) -> Table:
        """A person whose seat a computer kept after missed turns takes it back."""
        table = await self._playing(table_id)
        async with self._hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if not table.seats[seat].away:
                raise TableError("not_away")
            await self._back(table, seat)
        self._after_change(table)
        return table

    async def _back(self, table: Table, seat: int) -> None:
        finish_at = table.finish_at
        if finish_at is not None and time.time() >= finish_at:
            raise TableError("time_over")  # the computers finish it now
        old = table.seats[seat]
        await self._seat_change(table, seat, SeatRecord(seat=seat, user_id=old.user_id,
                                                        name=old.name),
                                LogEntry("log.back", {"seat": seat}))
        table.misses[seat] = 0

    async def vote_end(self, table_id: int, user_id: int) -> tuple[Table, bool]:
        """A seated person votes to end the table (again: takes the vote back). A strict
        majority of the people seated ends it, unrated. Returns the table and whether
        the clicker's vote now counts."""
        table = await self._playing(table_id)
        async with self._hold(table):
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            votes = table.end_votes
            voting = user_id not in votes
            votes = [*votes, user_id] if voting else [v for v in votes if v != user_id]
            people = {table.seats[s].user_id for s in table.humans()}
            votes = [v for v in votes if v in people]
            options = {**table.record.options, "end_votes": votes}
            ended = 2 * len(votes) > len(people)
            if ended:
                await self.repo.update_table(table.id, status=TableStatus.ABANDONED,
                                             options=options)
                table.record.status = TableStatus.ABANDONED
            else:
                await self.repo.update_table(table.id, options=options)
            table.record.options = options
            seat = table.seat_of(user_id)
            table.log.append(LogEntry("log.vote_end" if voting else "log.vote_back",
                                      {"seat": seat, "votes": len(votes),
                                       "needed": len(people) // 2 + 1}))
            if ended:
                table.log.append(LogEntry("log.voted_end"))
        self._after_change(table)
        return table, voting

    # ---------------------------------------------------------------- play
    async def click(self, table_id: int, user_id: int, click: Click) -> tuple[Table, int, Decision]:
        """A person's click on their private panel, down the stack once.

        Under the table's lock: the clicker's seat; :func:`stale`, the one place that
        decides whether the control is out of date; the game's
        :meth:`ClickRules.read_click`, which reads the click into a :data:`Decision`
        (or refuses it as malformed); then the decision is carried out — a move is
        checked by the engine (the only legality check), stored and applied; a draft
        is stored. Returns the table, the seat and the decision, for the views to
        redraw the clicker's panel.
        """
        table = await self.get(table_id)
        rules = cast(ClickRules, table.spec)
        return await self._decide(table, user_id, click.seq,
                                  lambda seat: rules.read_click(table, seat, click))

    async def act(self, table_id: int, user_id: int, token: int | None,
                  make: Callable[[int], Any]) -> Any:
        """A person's action built by the caller (``make(seat)``), on the same path as a
        click (:meth:`click`): ``token`` is the seat's move count when the control was
        drawn (None for a decision that is not a move). Returns what the engine applied."""
        table = await self.get(table_id)
        _, _, decision = await self._decide(table, user_id, token,
                                            lambda seat: Move(make(seat)))
        return decision.applied if isinstance(decision, Move) else None

    async def _decide(self, table: Table, user_id: int, seq: int | None,
                      read: Callable[[int], Decision]) -> tuple[Table, int, Decision]:
        """The one path of a person's decision (see :meth:`click`)."""
        async with self._hold(table):
            game = table.game
            if game is None:
                raise TableError("not_playing")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if stale(table, seat, seq):
                raise TableError("stale")
            if table.status is not TableStatus.PLAYING:
                raise TableError("not_playing")
            decision = read(seat)
            if isinstance(decision, Move):
                game.check(decision.action)  # the engine: a refusal brings no seat back
                if table.seats[seat].away:  # a person whose seat a computer kept is back
                    await self._back(table, seat)
                decision = replace(decision, applied=await self._apply(
                    table, decision.action, by="human"))
                table.last_human = time.time()
            elif isinstance(decision, Draft):
                if decision.provisional is not None:
                    game.check(decision.provisional)  # the engine, before asking more
                await self.repo.save_draft(table.id, seat, decision.value)
                if decision.value is None:
                    table.drafts.pop(seat, None)
                else:
                    table.drafts[seat] = decision.value
        if isinstance(decision, Move):
            self._after_change(table)
        return table, seat, decision

    @contextlib.asynccontextmanager
    async def _hold(self, table: Table) -> AsyncIterator[None]:
        """The table's lock, with the table in step with the store.

        A table whose shard lock is lost refuses (``store_unavailable``); one whose
        last write may or may not have been stored is read again first. A write that
        fails without an answer, or finds the store ahead of this copy, marks the table
        to be read again; a write refused because another process took the shard gives
        the shard up."""
        async with table.lock:
            if not self.held(table):
                raise TableError("store_unavailable")
            if table.unsure:
                await self._reload(table)
            try:
                yield
            except (StoreUnavailableError, SequenceConflictError):
                table.unsure = True
                raise
            except ShardLostError as exc:
                self.give_up({self.shard(table.record.guild_id)}, str(exc))
                raise

    async def _reload(self, table: Table) -> None:
        """Read the table again from the store (under its lock) and take that state."""
        try:
            record = await self.repo.load_table(table.id)
        except CorruptRowError as exc:
            self.broken[table.id] = str(exc)
            self.tables.pop(table.id, None)
            self._stop(table.id)
            log.error("table %s cannot be loaded again: %s", table.id, exc)
            raise TableError("table_broken") from None
        if record is None:
            raise TableError("no_table")
        try:
            fresh = Table.rebuild(record, table.spec)
        except CorruptRowError as exc:
            self.broken[table.id] = str(exc)
            self.tables.pop(table.id, None)
            self._stop(table.id)
            log.error("table %s cannot be rebuilt again: %s", table.id, exc)
            raise TableError("table_broken") from None
        moved = fresh.seq != table.seq
        if moved:
            log.info("table %s read again from the store: %d actions (this copy had %d)",
                     table.id, fresh.seq, table.seq)
        table.adopt(fresh)
        if moved:
            self._notify(table)  # the table and the panels show what was stored

    async def _commit(self, table: Table, action: Any, *, by: str) -> Any:
        """A computer's or a timer's move: the engine checks it, then it is stored and
        applied. Called under the table's lock (:meth:`_hold`)."""
        table.game.check(action)  # raises EngineError: nothing stored, nothing changed
        return await self._apply(table, action, by=by)

    async def _apply(self, table: Table, action: Any, *, by: str) -> Any:
        """Store, then apply an action the engine has checked (under the table's lock)."""
        game = table.game
        spec = table.spec
        payload = {**spec.action_to_json(action), "by": by}
        await self.repo.append_action(table.id, ActionRecord(seq=table.seq + 1, payload=payload))
        # Stored: from here on nothing may fail the action.
        applied = game.apply(action)
        table.seq += 1
        table.record.actions.append(ActionRecord(seq=table.seq, payload=payload))
        table.touch()
        table.note(applied)
        table.count(action, by)
        if by == "timer":
            table.log.append(LogEntry("log.timer", {"seat": action.seat}))
        phase = phase_of(game)
        if phase == "game_over":
            table.unrecorded = True
            await self._record(table)
        if phase in OVER:
            await self._deal_ended(table)
        if phase == "deal_over":
            game.next_deal()
        return applied

    async def _deal_ended(self, table: Table) -> None:
        """Tell the :attr:`deal_listeners` that a deal of the table ended (its result is
        the game's last in ``history``). What they keep is derived from the stored
        actions, so a listener that fails loses nothing: it is logged, and the listener
        can rebuild it later."""
        for listener in self.deal_listeners:
            try:
                await listener(table)
            except Exception as exc:  # never the action's failure: it is stored and applied
                log.warning("table %s: a deal-over listener failed: %r", table.id, exc)

    async def _record(self, table: Table) -> None:
        """Store the result of a finished game (under the table's lock). If the store
        fails, the game stays to be recorded: :meth:`check` tries again, and so does
        the next start (:meth:`restore`)."""
        try:
            await self.repo.record_game(table.spec.result(table))
        except StoreError as exc:
            if exc.code != "game_already_recorded":  # else: an earlier try got through
                if isinstance(exc, ShardLostError):
                    self.give_up({self.shard(table.record.guild_id)}, str(exc))
                log.warning("table %s: the game is over but its result is not stored yet "
                            "(%s); trying again", table.id, exc)
                return
        table.unrecorded = False
        table.record.status = TableStatus.FINISHED

    # ------------------------------------------------------- drivers/timers
    def _after_change(self, table: Table, *, notify: bool = True) -> None:
        if notify:
            self._notify(table)
        if table.status is not TableStatus.PLAYING:
            self._stop(table.id)
            return
        self._kick_driver(table)
        self._reset_timer(table)

    def _notify(self, table: Table) -> None:
        if self.presenter is not None:
            task = asyncio.get_running_loop().create_task(self._safe_notify(table))
            self._notices.add(task)
            task.add_done_callback(self._notices.discard)

    async def _safe_notify(self, table: Table) -> None:
        assert self.presenter is not None
        try:
            await self.presenter.table_changed(table)
        except Exception:  # the presenter talks to Discord; a failure must not stop play
            log.exception("presenting table %s failed", table.id)

    async def _computer_action(self, table: Table) -> Any:
        """The next move of a computer seat: one that is due, else an optional one (a
        Tichu bomb out of turn, a Tysiacha redeal).

        Players think off the event loop (a worker), on the seat's immutable view. A
        move the engine would refuse is dropped, and an easy player stands in for a
        due seat, so a table never stalls on a computer's mistake.
        """
        game = table.game
        spec = table.spec

        async def move(seat: int, level: str) -> Any:
            task, args = spec.computer_task(table, seat, level, "ai")
            return await offload(task, *args)

        due = spec.due_seats(game)
        for seat in due:
            level = table.seats[seat].bot_level
            if level is not None:
                action = await move(seat, level)
                if action is not None and not game.can(action):
                    log.error("table %s: %s computer proposed a refused %r", table.id, level,
                              action)
                    action = await offload(computer_move, spec.name, "easy", game.view(seat),
                                           f"{table.record.seed}:ai:{table.seq}")
                if action is not None:
                    return action
        for seat in spec.optional_seats(game):
            level = table.seats[seat].bot_level
            if level is not None and seat not in due:
                action = await move(seat, level)
                if action is not None and game.can(action):
                    return action
        return None

    def _kick_driver(self, table: Table) -> None:
        task = self._drivers.get(table.id)
        if task is None or task.done():
            self._drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    def _drivable(self, table: Table) -> bool:
        return (table.status is TableStatus.PLAYING and table.game is not None
                and self.tables.get(table.id) is table and self.held(table))

    async def _drive(self, table: Table) -> None:
        """Let computer players act, one move after another, with a pause between.

        A player thinks without holding the table's lock, so people's clicks never
        wait for it; if the table moved on meanwhile, it thinks again. A move that fails,
        for whatever reason (the store, a worker, the engine), is logged with the table
        and tried again with backoff: the driver ends only when no computer has anything
        to do, or the table stops.
        """
        failures = 0
        while True:
            await asyncio.sleep(backoff(failures) if failures else self.ai_delay)
            if not self._drivable(table):
                return
            try:
                step = await self._drive_once(table)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # every error is retried, none is lost
                failures += 1
                _log_failure(table, "a computer move", exc, failures)
                continue
            if step == "again":
                continue
            if failures:
                log.info("table %s: computer moves go through again (after %d failed tries)",
                         table.id, failures)
                failures = 0
            if step == "done":
                return

    async def _drive_once(self, table: Table) -> str:
        """One computer move, if any is due: ``moved``, ``again`` (the table moved on or
        was read again from the store: think again) or ``done`` (nothing to do)."""
        seq = table.seq
        unsure = table.unsure
        action = None if unsure else await self._computer_action(table)
        async with self._hold(table):
            if unsure or table.seq != seq:
                return "again"
            if action is None or table.status is not TableStatus.PLAYING:
                return "done"
            await self._commit(table, action, by="ai")
        self._notify(table)
        self._reset_timer(table)
        return "moved" if table.status is TableStatus.PLAYING else "done"

    def _reset_timer(self, table: Table) -> None:
        """Keep each waiting person's deadline: it starts when the seat becomes due and
        holds while other seats act (several are due in the Grand Tichu and exchange
        phases); one task per table sleeps until the first deadline."""
        old = self._timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if table.game is None or table.status is not TableStatus.PLAYING:
            table.due_since.clear()
            return
        now = time.time()
        waiting = {s for s in table.spec.due_seats(table.game)
                   if table.kind(s) is SeatKind.HUMAN}
        table.due_since = {s: table.due_since.get(s, now) for s in sorted(waiting)}
        if table.turn_timer is None or not waiting:
            return
        first = min(d for s in waiting if (d := table.deadline(s)) is not None)
        task = asyncio.get_running_loop().create_task(self._expire(table, first - now))
        self._timers[table.id] = task

    async def _expire(self, table: Table, delay: float, failures: int = 0) -> None:
        """When a person's time runs out, a computer player makes that decision for them;
        after three in a row it keeps the seat until the person comes back. A failure is
        logged and tried again with backoff."""
        await asyncio.sleep(max(delay, 0.0))
        if not self._drivable(table):
            return
        try:
            acted = await self._expire_once(table)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # every error is retried, none is lost
            failures += 1
            _log_failure(table, "a turn timer's move", exc, failures)
            self._notify(table)  # a late seat may have moved before the failure
            other = self._timers.get(table.id)
            if other is not None and other is not asyncio.current_task():
                other.cancel()
            self._timers[table.id] = asyncio.get_running_loop().create_task(
                self._expire(table, backoff(failures), failures))
            return
        if failures:
            log.info("table %s: turn timers go through again (after %d failed tries)",
                     table.id, failures)
        self._timers.pop(table.id, None)
        self._after_change(table, notify=acted)

    async def _expire_once(self, table: Table) -> bool:
        """The moves of every seat whose time ran out; whether any was made."""
        acted = False
        async with self._hold(table):
            game = table.game
            if game is None or table.status is not TableStatus.PLAYING:
                return False
            spec = table.spec
            now = time.time()
            late = {s for s in spec.due_seats(game) if table.kind(s) is SeatKind.HUMAN
                    and (d := table.deadline(s)) is not None and d <= now}
            # Every late seat gets its move (several in the Grand Tichu and exchange phases).
            while late and table.status is TableStatus.PLAYING:
                seat = next((s for s in spec.due_seats(game) if s in late), None)
                if seat is None:
                    break
                late.discard(seat)
                task, args = spec.computer_task(table, seat, TIMER_LEVEL, "timer")
                action = await offload(task, *args)
                if action is None:
                    continue
                await self._commit(table, action, by="timer")
                acted = True
                table.due_since.pop(seat, None)
                if table.misses[seat] >= MISSES_BEFORE_AWAY and table.kind(seat) is SeatKind.HUMAN:
                    old = table.seats[seat]
                    await self._seat_change(
                        table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                                bot_level=TIMER_LEVEL, away=True),
                        LogEntry("log.away", {"seat": seat}))
        return acted

    # ------------------------------------------------------------- watching
    def watch_shards(self, shards: Collection[int]) -> None:
        """The shards whose locks this process holds: :meth:`check` watches them."""
        self.watched = frozenset(shards)

    async def check(self) -> None:
        """One round of the watch (the app runs it every few seconds): is the store
        there, are this process's shard locks still held (take lost ones again, give up
        those another process took), and does every table that waits on a computer or a
        turn timer have its task? Games whose result could not be stored are recorded."""
        if not await self._check_store():
            return
        await self._check_shards()
        for table in list(self.tables.values()):
            if table.status is not TableStatus.PLAYING or not self.held(table):
                continue
            if table.unrecorded:
                with contextlib.suppress(StoreError, TableError):
                    async with self._hold(table):
                        if table.unrecorded:
                            await self._record(table)
                if not table.unrecorded:  # recorded now: the final sheet follows
                    self._after_change(table)
                continue
            self._supervise(table)

    def _supervise(self, table: Table) -> None:
        """Start the driver or the timer a playing table needs and lacks."""
        game = table.game
        if game is None:
            return
        due = table.spec.due_seats(game)
        driver = self._drivers.get(table.id)
        if (driver is None or driver.done()) and (
                table.unsure or any(table.kind(s) is SeatKind.COMPUTER for s in due)):
            log.warning("table %s: its computer player was not running; started again",
                        table.id)
            self._kick_driver(table)
        timer = self._timers.get(table.id)
        if (timer is None or timer.done()) and table.turn_timer is not None and any(
                table.kind(s) is SeatKind.HUMAN for s in due):
            self._reset_timer(table)

    async def _check_store(self) -> bool:
        """Whether the store answers; logs when it stops and starts answering."""
        try:
            await self.repo.ping()
        except StoreError as exc:
            if self.database_down_since is None:
                self.database_down_since = time.time()
                log.warning("the database does not answer (%s): tables wait for it", exc)
            return False
        if self.database_down_since is not None:
            log.info("the database answers again (after %.1f s)",
                     time.time() - self.database_down_since)
            self.database_down_since = None
        return True

    async def _check_shards(self) -> None:
        if not self.watched:
            return
        try:
            held = await self.repo.check_shards()
        except StoreError:
            return  # the store cannot tell now: nothing is known to be lost
        lost = self.watched - held - self.suspended
        if lost:
            self._suspend(lost)
            log.warning("lost the lock of shard(s) %s (its database session is gone): their "
                        "tables wait until this process holds it again", sorted(lost))
        if not self.suspended:
            return
        shards = sorted(self.suspended)
        try:
            taken = await self.repo.lock_shards(shards, shard_count=self.shard_count or 1)
        except StoreError as exc:
            log.warning("cannot take the lock of shard(s) %s again yet: %s", shards, exc)
            taken = False
        if taken:
            await self._resume(set(shards))
            return
        waited = time.monotonic() - (self._lost_since or time.monotonic())
        if waited >= self.shard_lock_wait:
            self.give_up(set(shards), f"their lock was not free again within {waited:.0f} s "
                         "(SHARD_LOCK_WAIT): another bot process holds it")

    def _suspend(self, shards: Collection[int]) -> None:
        """Stop driving the tables of ``shards`` at once; clicks on them are refused."""
        self.suspended.update(shards)
        if self._lost_since is None:
            self._lost_since = time.monotonic()
        for table in list(self.tables.values()):
            if self.shard(table.record.guild_id) in shards:
                self._stop(table.id)
                table.unsure = True  # another process may have written meanwhile

    async def _resume(self, shards: set[int]) -> None:
        """The locks of ``shards`` are held again: read their tables again and drive them."""
        self.suspended -= shards
        if not self.suspended:
            self._lost_since = None
        log.info("holding shard(s) %s again: their tables play on", sorted(shards))
        try:
            await self.restore(shards if self.shard_count is not None else None)
        except StoreError as exc:
            log.warning("shard(s) %s: reading their tables again failed (%s); they are read "
                        "at their next change", sorted(shards), exc)
        for table in list(self.tables.values()):
            if self.shard(table.record.guild_id) in shards and table.status.is_active:
                self._after_change(table)

    def give_up(self, shards: Collection[int], why: str) -> None:
        """Another process owns ``shards`` now: never drive them again, and tell the app."""
        shards = set(shards)
        if shards <= self.suspended and self._gave_up:
            return
        self._suspend(shards)
        self._gave_up = True
        message = (f"shard(s) {sorted(shards)} are no longer this process's: {why}. "
                   "This process stops driving them")
        log.error("%s", message)
        if self.on_lost is not None:
            self.on_lost(message)

    def _stop(self, table_id: int) -> None:
        for tasks in (self._drivers, self._timers):
            task = tasks.pop(table_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def close(self) -> None:
        """Stop every driver and timer (the store keeps everything already acknowledged)."""
        tasks = [*self._drivers.values(), *self._timers.values(), *self._notices]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drivers.clear()
        self._timers.clear()
        self._notices.clear()


def _log_failure(table: Table, what: str, error: Exception, failures: int) -> None:
    """A failed try: the first in a row at WARNING (with the traceback when the error is
    not the store's), then at DEBUG, so a long outage does not flood the log."""
    delay = backoff(failures)
    if failures > 1:
        log.debug("table %s: %s failed again (%s); try %d in %.1f s", table.id, what, error,
                  failures + 1, delay)
    elif isinstance(error, StoreError | TableError):
        log.warning("table %s: %s failed (%s); trying again in %.1f s", table.id, what,
                    error, delay)
    else:
        log.error("table %s: %s failed; trying again in %.1f s", table.id, what, delay,
                  exc_info=error)


def _check_seat(table: Table, seat: int) -> None:
    if not 0 <= seat < table.n_seats:
        raise TableError("bad_seat")


def _check_host(table: Table, actor_id: int) -> None:
    if actor_id != table.record.host_id:
        raise TableError("not_host")


