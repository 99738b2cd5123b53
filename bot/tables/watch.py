"""Tables brought back at start, and kept going while the store and the shard locks fail.

:meth:`Watch.restore` rebuilds the active tables of this process's shards after a
restart and sets them going. :meth:`Watch.check`, run now and then, watches the store
(logs when it stops and starts answering), watches the locks of this process's shards
(a shard whose lock is lost is not driven until the lock is taken again, and one that
another process took is given up), records games whose result could not be stored, and
restarts any driver or timer that is missing.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Collection

from bot.store.models import StoreError, TableStatus
from bot.tables.core import TableCore
from bot.tables.drivers import Drivers
from bot.tables.errors import TableError
from bot.tables.results import Results
from bot.tables.shards import Shards
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Watch:
    """Restores tables, watches the store and the shard locks, and gives shards up."""

    def __init__(self, core: TableCore, shards: Shards, drivers: Drivers, results: Results, *,
                 shard_lock_wait: float = 300.0,
                 on_lost: Callable[[str], None] | None = None) -> None:
        self.core = core
        self.shards = shards
        self.drivers = drivers
        self.results = results
        self.shard_lock_wait = shard_lock_wait
        """Seconds a lost shard lock is tried again before the shard is given up."""
        self.on_lost = on_lost
        """Called with a sentence when this process gives a shard up (the app stops)."""
        self.watched: frozenset[int] = frozenset()
        """The shards whose locks this process took and :meth:`check` watches."""
        self._lost_since: float | None = None
        self.database_down_since: float | None = None
        """Wall-clock time since which the store has not answered (None: it answers)."""
        self._gave_up = False

    async def restore(self, shards: Collection[int] | None = None) -> list[Table]:
        """Rebuild every active table of this process's shards (or of ``shards``) after a
        restart and set its players going again. A game that ended without its result
        stored is recorded now."""
        restored = []
        if self.shards.shard_count is None:
            found = await self.core.repo.active_table_ids()
        else:
            found = await self.core.repo.active_table_ids(
                shard_count=self.shards.shard_count,
                shard_ids=self.shards.shard_ids if shards is None else shards)
        for table_id in found:
            try:
                table = await self.core.get(table_id)
            except TableError:
                continue
            restored.append(table)
            if table.unrecorded:
                with contextlib.suppress(StoreError, TableError):  # check() tries again
                    async with self.core.hold(table):
                        await self.results.record(table)
            # A private table is seen only in its panel, a direct table in its DM panels:
            # show it as the store has it.
            self.core.after_change(table, notify=table.private or table.direct)
        return restored

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
        for table in list(self.core.tables.values()):
            if table.status is not TableStatus.PLAYING or not self.shards.held(table):
                continue
            if table.unrecorded:
                with contextlib.suppress(StoreError, TableError):
                    async with self.core.hold(table):
                        if table.unrecorded:
                            await self.results.record(table)
                if not table.unrecorded:  # recorded now: the final sheet follows
                    self.core.after_change(table)
                continue
            self.drivers.supervise(table)

    async def _check_store(self) -> bool:
        """Whether the store answers; logs when it stops and starts answering."""
        try:
            await self.core.repo.ping()
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
            held = await self.core.repo.check_shards()
        except StoreError:
            return  # the store cannot tell now: nothing is known to be lost
        lost = self.watched - held - self.shards.suspended
        if lost:
            self._suspend(lost)
            log.warning("lost the lock of shard(s) %s (its database session is gone): their "
                        "tables wait until this process holds it again", sorted(lost))
        if not self.shards.suspended:
            return
        shards = sorted(self.shards.suspended)
        try:
            taken = await self.core.repo.lock_shards(
                shards, shard_count=self.shards.shard_count or 1)
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
        self.shards.suspended.update(shards)
        if self._lost_since is None:
            self._lost_since = time.monotonic()
        for table in list(self.core.tables.values()):
            if self.shards.shard(table.record.guild_id) in shards:
                self.core.stop(table.id)
                table.unsure = True  # another process may have written meanwhile

    async def _resume(self, shards: set[int]) -> None:
        """The locks of ``shards`` are held again: read their tables again and drive them."""
        self.shards.suspended -= shards
        if not self.shards.suspended:
            self._lost_since = None
        log.info("holding shard(s) %s again: their tables play on", sorted(shards))
        try:
            await self.restore(shards if self.shards.shard_count is not None else None)
        except StoreError as exc:
            log.warning("shard(s) %s: reading their tables again failed (%s); they are read "
                        "at their next change", sorted(shards), exc)
        for table in list(self.core.tables.values()):
            if self.shards.shard(table.record.guild_id) in shards and table.status.is_active:
                self.core.after_change(table)

    def give_up(self, shards: Collection[int], why: str) -> None:
        """Another process owns ``shards`` now: never drive them again, and tell the app."""
        shards = set(shards)
        if shards <= self.shards.suspended and self._gave_up:
            return
        self._suspend(shards)
        self._gave_up = True
        message = (f"shard(s) {sorted(shards)} are no longer this process's: {why}. "
                   "This process stops driving them")
        log.error("%s", message)
        if self.on_lost is not None:
            self.on_lost(message)
