"""What keeps a table in play moving: its computer players and its turn timer.

One driver task per table lets the computer players act, one move after another
(:meth:`Drivers.kick_driver`); one timer task per table plays for a person whose time ran
out (:meth:`Drivers.reset_timer`), and after :data:`MISSES_BEFORE_AWAY` missed turns in a
row a computer keeps the seat until its person is back. At a table in DMs (the queue's)
the first turn timer that runs out hands the seat to a computer, and a person gone for
:data:`MISSES_BEFORE_OUT` decisions in a row loses it for good. Every computer move and
turn timer is retried with backoff until it goes through, whatever the error.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.store.models import SeatRecord, StoreError, TableStatus
from bot.tables.computer import computer_move
from bot.tables.core import TableCore
from bot.tables.errors import TableError
from bot.tables.rules import LogEntry
from bot.tables.shards import Shards
from bot.tables.table import SeatKind, Table
from bot.workers import offload

log = logging.getLogger(__name__)

TIMER_LEVEL = "normal"
"""The level that plays for an idle or handed-over seat (every game has it)."""
MISSES_BEFORE_AWAY = 3
"""Turn timers run out in a row before a computer keeps the seat until its person is back
(at a server's table, whose host may also hand an idle seat to a computer)."""
DIRECT_MISSES_BEFORE_AWAY = 1
"""At a table in DMs (:attr:`Table.direct`): the first turn timer that runs out hands the
seat to a computer, which plays it until its person clicks again (nobody else waits)."""
MISSES_BEFORE_OUT = 5
"""At a table in DMs: the seat's own decisions a computer made in a row for its person
(the one their time ran out on, then those it made while they were away), with no click
of theirs between, before the seat is the computer's for the rest of the game and they
are recorded as leaving it. Only the seat's decisions count, so a person with nothing to
decide (a Tichu seat out of cards) is never counted out by the others' turns; five lets
a deal's opening pair (the Grand Tichu call and the exchange, which come at once) and a
trick or two go by: a turn timer and one or two rounds of the table."""
RETRY_FIRST = 0.5
RETRY_MAX = 3.0
"""A failed computer move or timer is tried again after 0.5, 1, 2, then every 3 seconds."""


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failures in a row."""
    return min(RETRY_FIRST * 2.0 ** max(failures - 1, 0), RETRY_MAX)


class Drivers:
    """The computer players' and the turn timers' tasks of the tables in play."""

    def __init__(self, core: TableCore, shards: Shards, *, ai_delay: float = 1.2) -> None:
        self.core = core
        self.shards = shards
        self.ai_delay = ai_delay
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}

    # ------------------------------------------------------------- tasks
    def kick_driver(self, table: Table) -> None:
        """Start the table's computer players, unless they are running."""
        task = self._drivers.get(table.id)
        if task is None or task.done():
            self._drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    def supervise(self, table: Table) -> None:
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
            self.kick_driver(table)
        timer = self._timers.get(table.id)
        if (timer is None or timer.done()) and table.turn_timer is not None and any(
                table.kind(s) is SeatKind.HUMAN for s in due):
            self.reset_timer(table)

    def stop(self, table_id: int) -> None:
        """Stop the table's computer players and its timer."""
        for tasks in (self._drivers, self._timers):
            task = tasks.pop(table_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def tasks(self) -> list[asyncio.Task[None]]:
        """Every driver and timer task (to stop them all: :meth:`forget_tasks` after)."""
        return [*self._drivers.values(), *self._timers.values()]

    def forget_tasks(self) -> None:
        """Forget every driver and timer task (stopped by :meth:`tasks`' caller)."""
        self._drivers.clear()
        self._timers.clear()

    def _drivable(self, table: Table) -> bool:
        return (table.status is TableStatus.PLAYING and table.game is not None
                and self.core.tables.get(table.id) is table and self.shards.held(table))

    # ---------------------------------------------------------- computers
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
        players = [seat.bot_level for seat in table.seats]
        unsure = table.unsure
        action = None if unsure else await self._computer_action(table)
        async with self.core.hold(table):
            # A seat that changed hands meanwhile (a computer taking a person's seat while
            # this one thought) may have a move now: this driver is still running, so
            # nobody started another one for it.
            if unsure or table.seq != seq or [s.bot_level for s in table.seats] != players:
                return "again"
            if action is None or table.status is not TableStatus.PLAYING:
                return "done"
            seat = getattr(action, "seat", None)
            kept = isinstance(seat, int) and 0 <= seat < table.n_seats \
                and table.seats[seat].away and table.seats[seat].user_id is not None
            # A person's seat a computer keeps: its moves are marked, so that the count of
            # their decisions made for them is rebuilt from the stored actions.
            await self.core.commit(table, action, by="away" if kept else "ai")
            if kept and isinstance(seat, int):
                await self._missed(table, seat)
        self.core.notify(table)
        self.reset_timer(table)
        return "moved" if table.status is TableStatus.PLAYING else "done"

    # -------------------------------------------------------------- timers
    def reset_timer(self, table: Table) -> None:
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
            self.core.notify(table)  # a late seat may have moved before the failure
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
        self.core.after_change(table, notify=acted)

    async def _expire_once(self, table: Table) -> bool:
        """The moves of every seat whose time ran out; whether any was made."""
        acted = False
        async with self.core.hold(table):
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
                await self.core.commit(table, action, by="timer")
                acted = True
                table.due_since.pop(seat, None)
                await self._missed(table, seat)
        return acted

    async def _missed(self, table: Table, seat: int) -> None:
        """After a computer decided for a person's seat (under the table's lock): enough
        in a row, and a computer keeps the seat until its person is back (``away``); at
        a table in DMs, :data:`MISSES_BEFORE_OUT` of them, and the seat is the
        computer's for good (:func:`put_out`)."""
        old = table.seats[seat]
        if old.user_id is None or table.status is not TableStatus.PLAYING \
                or table.record.options.get("finished_for_people"):
            return
        if table.direct and table.misses[seat] >= MISSES_BEFORE_OUT:
            await put_out(self.core, table, seat)
            return
        before = DIRECT_MISSES_BEFORE_AWAY if table.direct else MISSES_BEFORE_AWAY
        if not old.away and table.misses[seat] >= before:
            await self.core.seat_change(
                table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                        bot_level=TIMER_LEVEL, away=True),
                LogEntry("log.away_direct" if table.direct else "log.away", {"seat": seat}))


async def put_out(core: TableCore, table: Table, seat: int) -> None:
    """The person of ``seat`` loses it for good (under the table's lock): they are kept in
    :attr:`Table.out` (first, so a later click of theirs is refused even if the rest
    fails), a computer takes the seat, the others read it in the log, and its person is
    told in their DM (an announcement); they are noted as leaving while others play on
    (:func:`note_departure`); when no person is left, the table closes, unrated."""
    old = table.seats[seat]
    if old.user_id is None:
        return
    await keep_out(core, table, seat)
    await core.seat_change(table, seat, SeatRecord(seat=seat, name=old.name,
                                                   bot_level=TIMER_LEVEL),
                           LogEntry("log.away_out", {"seat": seat}))
    table.announcements.append(LogEntry("log.away_out", {"seat": seat}, announce=True))
    if table.humans():
        await note_departure(core, old.user_id, table, "away")
    else:
        await core.repo.update_table(table.id, status=TableStatus.ABANDONED)
        table.record.status = TableStatus.ABANDONED


async def keep_out(core: TableCore, table: Table, seat: int) -> None:
    """Keep the person of ``seat`` in :attr:`Table.out` (stored, under the table's lock)
    before the seat is a computer's for good: the result counts them as that seat's
    player, and a later click of theirs is refused."""
    old = table.seats[seat]
    out = table.record.options.get("out")
    kept = {**(out if isinstance(out, dict) else {}), str(seat): [old.user_id, old.name]}
    await core.set_options(table, out=kept)


async def note_departure(core: TableCore, user_id: int, table: Table, reason: str) -> None:
    """Note that ``user_id`` left ``table``'s game before its end, while other people
    played on (the queue of "Play now" seats people who leave games with each other
    first). The seat's change is stored already: a store that fails here costs only the
    note."""
    try:
        await core.repo.record_departure(user_id, table.id, reason=reason)
    except StoreError as exc:
        log.warning("table %s: the departure of %s is not noted (%s)", table.id,
                    user_id, exc)


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
