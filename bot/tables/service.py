"""Table routing: every change to a table passes here, under the table's lock.

The order of an action is always: check with the engine, append to the store,
apply to the game, then tell the presenter. A refused action raises and changes
nothing; an action the store could not keep is not applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any, Protocol

from bot.store.models import (
    ActionRecord,
    CorruptRowError,
    Repository,
    SeatRecord,
    StoreError,
    TableStatus,
)
from bot.tables.computer import computer_move
from bot.tables.errors import TableError
from bot.tables.rules import TableRules
from bot.tables.table import LogEntry, SeatKind, Table, phase_of
from bot.workers import offload
from engine.errors import EngineError

log = logging.getLogger(__name__)

TIMER_LEVEL = "normal"
"""The level that plays for an idle or handed-over seat (every game has it)."""
MISSES_BEFORE_AWAY = 3
"""Turn timers run out in a row before a computer keeps the seat until its person is back."""


class Presenter(Protocol):
    """What the Discord layer does when a table changes (it must not raise)."""

    async def table_changed(self, table: Table) -> None: ...


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
                 shard_ids: Collection[int] | None = None) -> None:
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

    # ------------------------------------------------------------- loading
    def owns(self, guild_id: int) -> bool:
        """Whether the tables of this guild are this process's (its shard is ours)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def get(self, table_id: int) -> Table:
        """The table, loaded from the store if needed; TableError ``no_table`` if gone."""
        table = self.tables.get(table_id)
        if table is not None:
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

    async def restore(self) -> list[Table]:
        """Rebuild every active table of this process's shards after a restart and set its
        players going again."""
        restored = []
        if self.shard_count is None:
            found = await self.repo.active_table_ids()
        else:
            found = await self.repo.active_table_ids(shard_count=self.shard_count,
                                                     shard_ids=self.shard_ids)
        for table_id in found:
            try:
                table = await self.get(table_id)
            except TableError:
                continue
            restored.append(table)
            self._after_change(table, notify=False)
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
            if game is None or table.spec.name == game:
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
                         limit: int | None = None) -> Table:
        """Open a lobby of ``game`` with the host in the first seat; at most ``limit``
        active tables per channel (each plays in its own thread)."""
        spec = self.spec_for(game)
        if not self.owns(guild_id):
            raise TableError("no_table")
        n = spec.seat_count(options)
        if limit is not None and await self.repo.count_active_tables(channel_id) >= limit:
            raise TableError("too_many_tables", limit=limit)
        await self.repo.ensure_guild(guild_id, locale)
        seats = [SeatRecord(seat=s) for s in range(n)]
        seats[0] = SeatRecord(seat=0, user_id=host_id, name=host_name)
        record = await self.repo.create_table(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
            seed=secrets.token_hex(8), options=dict(options), locale=locale, seats=seats)
        table = Table(record, spec)
        self.tables[table.id] = table
        return table

    async def _lobby_change(self, table_id: int, change: Callable[[Table], None]) -> Table:
        table = await self.get(table_id)
        async with table.lock:
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
        """Sit down in an empty seat, or move there from another seat."""
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
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise TableError("not_lobby")
            _check_host(table, actor_id)
            if any(table.kind(s) is SeatKind.EMPTY for s in range(table.n_seats)):
                raise TableError("seats_empty")
            try:
                game = table.spec.new_game(table.record)
            except EngineError:
                raise TableError("bad_options") from None
            await self.repo.update_table(table.id, status=TableStatus.PLAYING)
            table.record.status = TableStatus.PLAYING
            table.game = game
            table.touch()
        self._after_change(table)
        return table

    async def abandon(self, table_id: int, actor_id: int, *, can_manage: bool) -> Table:
        """The host, or anyone who may manage the server, ends the table unrated."""
        table = await self.get(table_id)
        async with table.lock:
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
            if table.status is TableStatus.LOBBY and now - table.last_activity > self.lobby_timeout:
                async with table.lock:
                    if table.status is not TableStatus.LOBBY:
                        continue
                    await self.repo.update_table(table.id, status=TableStatus.EXPIRED)
                    table.record.status = TableStatus.EXPIRED
                expired.append(table)
                self._notify(table)
        return expired

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
        timeout (a table nobody plays at never stays open)."""
        now = time.time() if now is None else now
        closed = []
        for table in list(self.tables.values()):
            if table.status is TableStatus.PLAYING and now - table.last_human > self.idle_timeout:
                async with table.lock:
                    if table.status is not TableStatus.PLAYING:
                        continue
                    await self.repo.update_table(table.id, status=TableStatus.ABANDONED)
                    table.record.status = TableStatus.ABANDONED
                    table.log.append(LogEntry("log.idle_closed"))
                self._stop(table.id)
                closed.append(table)
                self._notify(table)
        return closed

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
        """Host only: hand a human seat to a computer player for good."""
        table = await self._playing(table_id)
        async with table.lock:
            _check_host(table, actor_id)
            _check_seat(table, seat)
            if table.seats[seat].user_id is None:
                raise TableError("not_human_seat")
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
        async with table.lock:
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
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if not table.seats[seat].away:
                raise TableError("not_away")
            await self._back(table, seat)
        self._after_change(table)
        return table

    async def _back(self, table: Table, seat: int) -> None:
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
        async with table.lock:
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
    async def act(self, table_id: int, user_id: int, token: int | None,
                  make: Callable[[int], Any]) -> Any:
        """A person's action: ``make(seat)`` builds it once the seat is known.

        ``token`` is the seat's move count when the control was drawn (None for a
        decision that is not a move). A control from before the seat's last move — a
        double click, an old menu — is refused; another seat's actions never make a
        control out of date: the engine alone decides whether the action is legal.
        A person whose seat a computer kept takes it back by acting.
        """
        table = await self._playing(table_id)
        async with table.lock:
            if table.status is not TableStatus.PLAYING or table.game is None:
                raise TableError("not_playing")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if token is not None and token != table.moves[seat]:
                raise TableError("stale")
            action = make(seat)
            table.game.check(action)  # a refused action must not bring the seat back
            if table.seats[seat].away:
                await self._back(table, seat)
            applied = await self._commit(table, action, by="human")
            table.last_human = time.time()
        self._after_change(table)
        return applied

    async def save_draft(self, table_id: int, user_id: int,
                         update: Callable[[int, dict[str, Any]], dict[str, Any] | None]) -> int:
        """Change the clicker's choice in progress (``update(seat, draft)`` gives the new
        draft, or None to drop it); it lives on the server, so nothing another seat
        does loses it. Returns the seat."""
        table = await self._playing(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            draft = update(seat, dict(table.drafts.get(seat, {})))
            await self.repo.save_draft(table.id, seat, draft)
            if draft is None:
                table.drafts.pop(seat, None)
            else:
                table.drafts[seat] = draft
        return seat

    async def _commit(self, table: Table, action: Any, *, by: str) -> Any:
        """Check, store, apply. Called under the table's lock."""
        game = table.game
        spec = table.spec
        game.check(action)  # raises EngineError: nothing stored, nothing changed
        payload = {**spec.action_to_json(action), "by": by}
        await self.repo.append_action(table.id, ActionRecord(seq=table.seq + 1, payload=payload))
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
            await self.repo.record_game(spec.result(table))
            table.record.status = TableStatus.FINISHED
        elif phase == "deal_over":
            game.next_deal()
        return applied

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
        seed = f"{table.record.seed}:ai:{table.seq}"
        due = spec.due_seats(game)
        for seat in due:
            level = table.seats[seat].bot_level
            if level is not None:
                action = await offload(computer_move, spec.name, level, game.view(seat), seed)
                if action is not None and not game.can(action):
                    log.error("table %s: %s computer proposed a refused %r", table.id, level,
                              action)
                    action = await offload(computer_move, spec.name, "easy", game.view(seat),
                                           seed)
                if action is not None:
                    return action
        for seat in spec.optional_seats(game):
            level = table.seats[seat].bot_level
            if level is not None and seat not in due:
                action = await offload(computer_move, spec.name, level, game.view(seat), seed)
                if action is not None and game.can(action):
                    return action
        return None

    def _kick_driver(self, table: Table) -> None:
        task = self._drivers.get(table.id)
        if task is None or task.done():
            self._drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        """Let computer players act, one move after another, with a pause between.

        A player thinks without holding the table's lock, so people's clicks never
        wait for it; if the table moved on meanwhile, it thinks again.
        """
        while True:
            await asyncio.sleep(self.ai_delay)
            if table.status is not TableStatus.PLAYING or table.game is None:
                return
            seq = table.seq
            action = await self._computer_action(table)
            if action is None:
                if table.seq != seq:
                    continue
                return
            async with table.lock:
                if table.seq != seq or table.status is not TableStatus.PLAYING:
                    continue
                try:
                    await self._commit(table, action, by="ai")
                except (EngineError, StoreError):
                    log.exception("computer move refused at table %s", table.id)
                    return
            self._notify(table)
            self._reset_timer(table)
            if table.status is not TableStatus.PLAYING:
                return

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

    async def _expire(self, table: Table, delay: float) -> None:
        """When a person's time runs out, a computer player makes that decision for them;
        after three in a row it keeps the seat until the person comes back."""
        await asyncio.sleep(max(delay, 0.0))
        acted = False
        async with table.lock:
            game = table.game
            if game is None or table.status is not TableStatus.PLAYING:
                return
            spec = table.spec
            now = time.time()
            late = {s for s in spec.due_seats(game) if table.kind(s) is SeatKind.HUMAN
                    and (d := table.deadline(s)) is not None and d <= now}
            seed = f"{table.record.seed}:timer:{table.seq}"
            # Every late seat gets its move (several in the Grand Tichu and exchange phases).
            while late and table.status is TableStatus.PLAYING:
                seat = next((s for s in spec.due_seats(game) if s in late), None)
                if seat is None:
                    break
                late.discard(seat)
                action = await offload(computer_move, spec.name, TIMER_LEVEL, game.view(seat),
                                       seed)
                if action is None:
                    continue
                try:
                    await self._commit(table, action, by="timer")
                except (EngineError, StoreError):
                    log.exception("timer move refused at table %s", table.id)
                    break
                acted = True
                table.due_since.pop(seat, None)
                if table.misses[seat] >= MISSES_BEFORE_AWAY and table.kind(seat) is SeatKind.HUMAN:
                    old = table.seats[seat]
                    await self._seat_change(
                        table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                                bot_level=TIMER_LEVEL, away=True),
                        LogEntry("log.away", {"seat": seat}))
        self._timers.pop(table.id, None)
        self._after_change(table, notify=acted)

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


def _check_seat(table: Table, seat: int) -> None:
    if not 0 <= seat < table.n_seats:
        raise TableError("bad_seat")


def _check_host(table: Table, actor_id: int) -> None:
    if actor_id != table.record.host_id:
        raise TableError("not_host")


