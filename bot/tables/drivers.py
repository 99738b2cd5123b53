"""What keeps a table in play moving: its computer players and its turn timer.

One driver task per table lets the computer players act, one move after another
(:meth:`Drivers.kick_driver`); one timer task per table plays for a person whose time ran
out (:meth:`Drivers.reset_timer`), and after :data:`MISSES_BEFORE_AWAY` missed turns in a
row a computer keeps the seat until its person is back. Every computer move and turn
timer is retried with backoff until it goes through, whatever the error.
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
"""Turn timers run out in a row before a computer keeps the seat until its person is back."""
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
        unsure = table.unsure
        action = None if unsure else await self._computer_action(table)
        async with self.core.hold(table):
            if unsure or table.seq != seq:
                return "again"
            if action is None or table.status is not TableStatus.PLAYING:
                return "done"
            await self.core.commit(table, action, by="ai")
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
                if table.misses[seat] >= MISSES_BEFORE_AWAY and table.kind(seat) is SeatKind.HUMAN:
                    old = table.seats[seat]
                    await self.core.seat_change(
                        table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                                bot_level=TIMER_LEVEL, away=True),
                        LogEntry("log.away", {"seat": seat}))
        return acted


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
