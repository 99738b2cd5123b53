"""The matchmaker of "Play now" (issue 53): the queue's waves, its ready checks, and the
tables in direct messages that they seat.

One matchmaker runs across bot processes: the one that holds the store's lease
(:data:`~bot.store.models.MATCHMAKER_LEASE`, taken again at every wave), and only in the
process that owns shard 0, where the tables shown in direct messages live. A wave runs
every :attr:`Matchmaker.wave_seconds`, or at once when a join lets a pool fill a table
(:meth:`Matchmaker.poke`). For each pool that has people waiting, a wave reads the
entries, the blocks among their people and the games they left early in the last 30
days, pairs them (:func:`~bot.tables.matching.propose`), opens a ready check for each
table proposed and adds a missed wave to the entries left. Then it closes the ready
checks that are decided (:meth:`Matchmaker.close_due`): everyone accepted → the table
is opened in their direct messages at once (:meth:`~bot.tables.lobby.Lobby.open_direct`;
Tichu's partners on the seats of one team, computers in the seats of a filled table,
which is unrated); else those who accepted wait again at the head of the queue, and
those who declined or let the time run out are out.

Everything is in the store, so a restart loses nobody's place: the next holder's first
wave finds the entries, and closes the ready checks opened before. A check everyone
accepted is closed as *seating*: it keeps its people's entries while their table is
opened (the table's options name the check, ``ready_check``), and lets them go once the
table started (:meth:`~bot.store.models.Repository.seat_ready_check`). A check a crash
left seating is finished by every wave (:meth:`Matchmaker.finish_seating`): its table
started → kept; else (no table, or a lobby the crash left, abandoned) its people go
back to the head of the queue.

The matchmaker knows nothing of Discord: it tells a :class:`Messenger` (the views')
whom to send a ready check, whose table is ready, who waits again and who is out.
Every time it reads comes from :attr:`Matchmaker.clock`, so tests drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.store.codec import utc_now
from bot.store.models import (
    DEPARTURES_KEPT,
    MATCHMAKER_LEASE,
    READY_SECONDS,
    Answer,
    Pool,
    QueueEntry,
    QueueRefusedError,
    ReadyCheck,
    ReadyOutcome,
    Repository,
    StoreError,
    TableStatus,
)
from bot.tables.errors import TableError
from bot.tables.lobby import DirectSeat, Lobby
from bot.tables.matching import WAVE_SECONDS, Proposal, propose
from bot.tables.shards import Shards
from bot.tables.table import Table

log = logging.getLogger(__name__)

DIRECT_SHARD_GUILD = 0
"""The guild whose shard holds the tables in direct messages (shard 0's)."""
STARTED = frozenset({TableStatus.PLAYING, TableStatus.FINISHED})
"""The states of a table whose game started."""
DEFAULT_TURN_TIMER = 60
"""Seconds per decision at a table the queue seats, so that an absent person does not
stall the others (the turn's computer plays for them)."""


class Messenger(Protocol):
    """What the matchmaker tells people (the views send it as direct messages)."""

    async def ready_check(self, check: ReadyCheck, locales: dict[int, str]) -> None:
        """Ask each member of a new check to accept or decline (their language by id)."""

    async def seated(self, check: ReadyCheck, table: Table | None,
                     locales: dict[int, str]) -> None:
        """Everyone accepted: the table (None if it could not be opened)."""

    async def failed(self, outcome: ReadyOutcome, locales: dict[int, str]) -> None:
        """The check failed: ``returned`` wait again, ``removed`` are out."""

    async def name_of(self, user_id: int) -> str:
        """How the person is named at a table."""


@dataclass(slots=True)
class WaveReport:
    """What one wave did (for logs and tests)."""

    held: bool = False
    """Whether this process held the lease (else it did nothing)."""
    checks: list[ReadyCheck] = field(default_factory=list)
    """The ready checks opened."""
    closed: list[ReadyOutcome] = field(default_factory=list)
    """The ready checks closed."""
    tables: list[Table] = field(default_factory=list)
    """The tables opened."""
    finished: list[ReadyCheck] = field(default_factory=list)
    """The checks a crash had left seating, finished (seated, or their people back)."""


class Matchmaker:
    """Pairs the queue in waves and seats the people whose ready check passed."""

    def __init__(self, repo: Repository, lobby: Lobby, shards: Shards, *, holder: str,
                 wave_seconds: float = WAVE_SECONDS, ready_seconds: float = READY_SECONDS,
                 turn_timer: int = DEFAULT_TURN_TIMER,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.repo = repo
        self.lobby = lobby
        self.shards = shards
        self.holder = holder
        """This process's name on the lease."""
        self.wave_seconds = wave_seconds
        self.ready_seconds = ready_seconds
        self.turn_timer = turn_timer
        self.clock = clock
        """Now (injectable: the tests drive the ready checks' time)."""
        self.messenger: Messenger | None = None
        self._poked = asyncio.Event()
        self._wave_lock = asyncio.Lock()
        self._close_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.epoch: int | None = None
        """The lease's epoch while this process holds it."""

    @property
    def lease_seconds(self) -> float:
        """How long the lease lasts: three waves (at least 30 s), so that a process that
        stopped is replaced soon, and one that runs keeps it."""
        return max(30.0, 3 * self.wave_seconds)

    @property
    def eligible(self) -> bool:
        """Whether this process may run the matchmaker: it owns shard 0."""
        return self.shards.owns(DIRECT_SHARD_GUILD)

    # -- the loop

    def start(self) -> None:
        if self.eligible and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.epoch is not None:
            with contextlib.suppress(StoreError):
                await self.repo.release_lease(MATCHMAKER_LEASE, self.holder)
            self.epoch = None

    def poke(self) -> None:
        """Run a wave at once (a join let a pool fill a table, or a check was decided)."""
        self._poked.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.wave()
            except asyncio.CancelledError:
                raise
            except StoreError as exc:
                log.warning("the matchmaker's wave failed: the store (%s)", exc)
            except Exception:
                log.exception("the matchmaker's wave failed")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.wave_seconds)
            self._poked.clear()

    async def hold(self) -> bool:
        """Take or renew the lease; whether this process holds it."""
        if not self.eligible:
            return False
        self.epoch = await self.repo.take_lease(MATCHMAKER_LEASE, self.holder,
                                                self.lease_seconds)
        return self.epoch is not None

    # -- a wave

    async def wave(self) -> WaveReport:
        """One wave: pair every pool that has people waiting, then close the ready checks
        that are decided. Nothing if another process holds the lease."""
        report = WaveReport()
        async with self._wave_lock:
            if not await self.hold():
                return report
            report.held = True
            now = self.clock()
            await self.finish_seating(report)
            for count in await self.repo.queue_counts():
                if count.waiting:
                    report.checks.extend(await self._pair(count.pool, now))
            if report.checks:
                log.info("wave: %d ready checks opened", len(report.checks))
        await self.close_due(report)
        return report

    async def finish_seating(self, report: WaveReport | None = None) -> WaveReport:
        """Finish the checks left seating (by a crash between their close and their
        table's start, or a store that failed after the start): a check whose table
        started is seated; else its lobby (if any) is abandoned and its people go back to
        the head of the queue. Under the close lock, so a check this process is seating
        now is never among them."""
        report = report if report is not None else WaveReport(held=True)
        async with self._close_lock:
            for check_id in await self.repo.seating_ready_checks():
                check = await self.repo.ready_check(check_id)
                if check is None:
                    continue
                locales = await self._member_locales(check)
                table = self._table_of(check_id)
                try:
                    if table is not None and table.status in STARTED:
                        await self.repo.seat_ready_check(check_id)
                        log.info("ready check %s: its table %s had started", check_id,
                                 table.id)
                        if self.messenger is not None:
                            await self.messenger.seated(check, table, locales)
                    else:
                        if table is not None and table.status is TableStatus.LOBBY:
                            await self.lobby.abandon(table.id, table.record.host_id,
                                                     can_manage=True)
                        outcome = await self.repo.unseat_ready_check(check_id, requeue=True)
                        log.info("ready check %s: its table was not made; %s back in the "
                                 "queue", check_id, len(outcome.returned))
                        if self.messenger is not None:
                            await self.messenger.failed(outcome, locales)
                except (StoreError, TableError):
                    log.exception("ready check %s left seating: not finished", check_id)
                    continue
                except Exception:
                    log.exception("the news of ready check %s could not be told", check_id)
                report.finished.append(check)
        return report

    def _table_of(self, check_id: int) -> Table | None:
        """The table opened for a check (the tables in direct messages are this process's,
        restored at start)."""
        return next((table for table in self.lobby.core.tables.values()
                     if table.direct and table.record.options.get("ready_check") == check_id),
                    None)

    async def _pair(self, pool: Pool, now: datetime) -> list[ReadyCheck]:
        entries = await self.repo.queue_entries(pool)
        if not entries:
            return []
        people = [p for e in entries for p in e.people]
        blocks = await self.repo.blocks_among(people)
        left = await self.repo.left_early(people, since=now - DEPARTURES_KEPT)
        wave = propose(pool, entries, blocks=blocks, left_early=left, now=now)
        locales = {p: e.locale for e in entries for p in e.people}
        opened = []
        for proposal in wave.tables:
            # Each check's time starts when it is opened, just before its DMs are sent:
            # the DMs of a large wave go out one after the other at the bot's write pace,
            # and a check timed from the wave's start expired before its people saw it.
            check = await self._open(proposal, self.clock())
            if check is None:
                continue
            opened.append(check)
            if self.messenger is not None:
                try:
                    await self.messenger.ready_check(
                        check, {m.user_id: locales[m.user_id] for m in check.members})
                except Exception:
                    log.exception("the ready check %s could not be sent", check.id)
        if wave.missed:
            await self.repo.miss_wave(wave.missed)
        return opened

    async def _open(self, proposal: Proposal, now: datetime) -> ReadyCheck | None:
        try:
            return await self.repo.open_ready_check(
                proposal.pool, proposal.seats, filled=proposal.filled, now=now,
                seconds=self.ready_seconds)
        except QueueRefusedError as exc:  # someone left meanwhile: the next wave
            log.info("a proposed table of %s was not opened: %s", proposal.pool, exc)
            return None

    # -- answers and closing

    async def answer(self, check_id: int, user_id: int, accept: bool) -> ReadyCheck:
        """Note a person's answer (QueueRefusedError: ``check_expired``,
        ``check_closed``, ``not_in_check`` …); then :meth:`settle` closes the check if it
        is decided."""
        return await self.repo.answer_ready_check(check_id, user_id, accept,
                                                  now=self.clock())

    async def settle(self, check: ReadyCheck) -> WaveReport | None:
        """Close the check at once if it is decided (everyone accepted, or someone
        declined): nobody waits out the 30 s."""
        answers = [m.answer for m in check.members]
        if any(a is not None and a is not Answer.ACCEPT for a in answers) or \
                all(a is not None for a in answers):
            return await self.close_due()
        return None

    async def close_due(self, report: WaveReport | None = None) -> WaveReport:
        """Close every ready check decided by now: seat the tables whose people all
        accepted, tell the others."""
        report = report if report is not None else WaveReport(held=True)
        async with self._close_lock:
            now = self.clock()
            for check_id in await self.repo.due_ready_checks(now):
                closed = await self._close(check_id, now)
                if closed is None:
                    continue
                outcome, locales = closed
                report.closed.append(outcome)
                messenger = self.messenger
                try:
                    if outcome.seated:
                        table = await self._seat(outcome.check, locales)
                        if table is not None:
                            report.tables.append(table)
                        if messenger is not None:
                            await messenger.seated(outcome.check, table, locales)
                    elif messenger is not None:
                        await messenger.failed(outcome, locales)
                except Exception:
                    log.exception("the close of ready check %s could not be told", check_id)
        return report

    async def _close(self, check_id: int,
                     now: datetime) -> tuple[ReadyOutcome, dict[int, str]] | None:
        """Close the check; with its people's languages, read while their entries are
        still in the queue."""
        check = await self.repo.ready_check(check_id)
        if check is None:
            return None
        locales = await self._member_locales(check)
        try:
            return await self.repo.close_ready_check(check_id, now=now), locales
        except QueueRefusedError as exc:  # closed meanwhile, or still open
            log.debug("ready check %s not closed: %s", check_id, exc)
            return None

    async def _member_locales(self, check: ReadyCheck) -> dict[int, str]:
        locales = {}
        for member in check.members:
            entry: QueueEntry | None = await self.repo.queue_entry(member.user_id)
            locales[member.user_id] = entry.locale if entry is not None else "en"
        return locales

    async def _seat(self, check: ReadyCheck, locales: dict[int, str]) -> Table | None:
        """Open the check's table in its people's direct messages (None if it failed)."""
        pool = check.pool
        levels = self.lobby.core.spec_for(pool.game).levels
        level = "normal" if "normal" in levels else levels[len(levels) // 2]
        seats: list[DirectSeat | str] = []
        for user in check.seats:
            if user is None:
                seats.append(level)
                continue
            name = str(user)
            if self.messenger is not None:
                with contextlib.suppress(Exception):
                    name = await self.messenger.name_of(user)
            seats.append(DirectSeat(user, name, locales.get(user, "en")))
        try:
            table = await self.lobby.open_direct(
                game=pool.game, seats=seats, rated=check.rated,
                options={"players": pool.seats, "turn_timer": self.turn_timer,
                         "ready_check": check.id})
        except (TableError, StoreError):
            log.exception("the table of ready check %s could not be opened", check.id)
            try:
                await self.repo.unseat_ready_check(check.id, requeue=False)
            except StoreError:  # left seating: the next wave finishes it
                log.exception("ready check %s left seating", check.id)
            return None
        try:
            await self.repo.seat_ready_check(check.id)
        except StoreError:  # left seating: the next wave finds the table started
            log.exception("ready check %s left seating", check.id)
        return table

