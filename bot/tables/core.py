"""The tables of this process and the one path of every change to them.

:class:`TableCore` holds the registry (each table loaded once, with one lock) and the
path every part of the service changes a table by: under the table's lock
(:meth:`TableCore.hold`), check with the engine, append to the store, apply to the game
(:meth:`TableCore.commit`, :meth:`TableCore.apply`), then tell the presenter and keep
the table moving (:meth:`TableCore.after_change`). A refused action raises and changes
nothing; an action the store could not keep is not applied; a write whose answer was
lost marks the table to be read again from the store before its next change.

The core calls up to three parts through small protocols, given to it once they are
built (:meth:`TableCore.connect`): what keeps a table moving (:class:`Motion`, the
drivers), what a deal's or a game's end does (:class:`Outcomes`, the results), and who
gives a shard up when another process took it (:class:`ShardKeeper`, the watch).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Collection, Mapping
from typing import Any, Protocol

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
from bot.tables.errors import TableError
from bot.tables.rules import LogEntry, TableRules
from bot.tables.shards import Shards
from bot.tables.table import OVER, Table, phase_of

log = logging.getLogger(__name__)


class Presenter(Protocol):
    """What the Discord layer does when a table changes (it must not raise)."""

    async def table_changed(self, table: Table, *, quiet: bool = False) -> None:
        """Show the change. ``quiet``: nothing anyone must act on (a phrase said), so it
        rides on the next pass rather than redrawing panels at once."""


class Motion(Protocol):
    """What keeps a playing table moving: its computer players and its turn timer
    (:class:`bot.tables.drivers.Drivers`)."""

    def kick_driver(self, table: Table) -> None:
        """Start the table's computer players, unless they are running."""

    def reset_timer(self, table: Table) -> None:
        """Keep the waiting people's deadlines and sleep until the first."""

    def stop(self, table_id: int) -> None:
        """Stop the table's computer players and its timer."""


class Outcomes(Protocol):
    """What the end of a deal or of a game does (:class:`bot.tables.results.Results`)."""

    async def record(self, table: Table) -> None:
        """Store the result of a finished game (under the table's lock)."""

    async def deal_ended(self, table: Table) -> None:
        """Tell whoever listens that a deal of the table ended."""


class ShardKeeper(Protocol):
    """Who gives a shard up when another process took it (:class:`bot.tables.watch.Watch`)."""

    def give_up(self, shards: Collection[int], why: str) -> None:
        """Never drive ``shards`` again, and tell the app."""


class TableCore:
    """The tables this process holds, each changed under its lock by one path."""

    motion: Motion
    """Keeps the tables moving (:meth:`connect`)."""
    outcomes: Outcomes
    """Records games and tells of deals' ends (:meth:`connect`)."""
    keeper: ShardKeeper
    """Gives up shards another process took (:meth:`connect`)."""

    def __init__(self, repo: Repository, specs: Mapping[str, TableRules], shards: Shards, *,
                 presenter: Presenter | None = None) -> None:
        self.repo = repo
        self.specs = dict(specs)
        self.shards = shards
        self.presenter = presenter
        self.tables: dict[int, Table] = {}
        self.broken: dict[int, str] = {}
        """Tables that could not be rebuilt, with the reason (reported, never crashed on)."""
        self.notices: set[asyncio.Task[None]] = set()
        """The presenter's calls still running (:meth:`notify`)."""

    def connect(self, *, motion: Motion, outcomes: Outcomes, keeper: ShardKeeper) -> None:
        """The parts the core calls up to, once they are built on it."""
        self.motion = motion
        self.outcomes = outcomes
        self.keeper = keeper

    # ------------------------------------------------------------- loading
    async def get(self, table_id: int) -> Table:
        """The table, loaded from the store if needed; TableError ``no_table`` if gone,
        ``store_unavailable`` while its shard's lock is being taken again."""
        table = self.tables.get(table_id)
        if table is not None:
            if not self.shards.held(table):
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
        if not self.shards.owns(record.guild_id):
            # Another process drives it; Discord never sends its clicks here.
            log.warning("table %s of guild %s is on another shard: not loaded", table_id,
                        record.guild_id)
            raise TableError("no_table")
        if self.shards.shard(record.guild_id) in self.shards.suspended:
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

    async def set_options(self, table: Table, **changes: Any) -> None:
        """Store changes to the table's options (under its lock: :meth:`hold`), then keep
        them in memory: what a table gathers as it is played (votes, Rematch presses,
        who is out or back)."""
        await self.put_options(table, {**table.record.options, **changes})

    async def put_options(self, table: Table, options: dict[str, Any]) -> None:
        """Store the table's options whole (under its lock), then keep them in memory: as
        they were before a change that was taken back."""
        await self.repo.update_table(table.id, options=options)
        table.record.options = options

    async def at_live_table(self, user_id: int, *, besides: int | None = None) -> bool:
        """Whether the person sits at a live table (a lobby or a game) other than
        ``besides``: of a server's channel (the store counts those) or in direct messages
        (held by this process: those tables live in shard 0's, where DM commands and
        clicks arrive; the store's count leaves them out)."""
        if await self.repo.count_open_tables_of(user_id):
            return True
        return any(table.id != besides and table.direct and table.status.is_active
                   and any(seat.user_id == user_id for seat in table.seats)
                   for table in self.tables.values())

    # ------------------------------------------------------------ forgetting
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

    # ------------------------------------------------------------ changing
    @contextlib.asynccontextmanager
    async def hold(self, table: Table) -> AsyncIterator[None]:
        """The table's lock, with the table in step with the store.

        A table whose shard lock is lost refuses (``store_unavailable``); one whose
        last write may or may not have been stored is read again first. A write that
        fails without an answer, or finds the store ahead of this copy, marks the table
        to be read again; a write refused because another process took the shard gives
        the shard up."""
        async with table.lock:
            if not self.shards.held(table):
                raise TableError("store_unavailable")
            if table.unsure:
                await self._reload(table)
            try:
                yield
            except (StoreUnavailableError, SequenceConflictError):
                table.unsure = True
                raise
            except ShardLostError as exc:
                self.shard_lost(table, exc)
                raise

    def shard_lost(self, table: Table, error: ShardLostError) -> None:
        """A write of ``table`` was refused: another process took its shard."""
        self.keeper.give_up({self.shards.shard(table.record.guild_id)}, str(error))

    async def _reload(self, table: Table) -> None:
        """Read the table again from the store (under its lock) and take that state."""
        try:
            record = await self.repo.load_table(table.id)
        except CorruptRowError as exc:
            self.broken[table.id] = str(exc)
            self.tables.pop(table.id, None)
            self.stop(table.id)
            log.error("table %s cannot be loaded again: %s", table.id, exc)
            raise TableError("table_broken") from None
        if record is None:
            raise TableError("no_table")
        try:
            fresh = Table.rebuild(record, table.spec)
        except CorruptRowError as exc:
            self.broken[table.id] = str(exc)
            self.tables.pop(table.id, None)
            self.stop(table.id)
            log.error("table %s cannot be rebuilt again: %s", table.id, exc)
            raise TableError("table_broken") from None
        moved = fresh.seq != table.seq
        if moved:
            log.info("table %s read again from the store: %d actions (this copy had %d)",
                     table.id, fresh.seq, table.seq)
        table.adopt(fresh)
        if moved:
            self.notify(table)  # the table and the panels show what was stored

    async def commit(self, table: Table, action: Any, *, by: str) -> Any:
        """A computer's or a timer's move: the engine checks it, then it is stored and
        applied. Called under the table's lock (:meth:`hold`)."""
        table.game.check(action)  # raises EngineError: nothing stored, nothing changed
        return await self.apply(table, action, by=by)

    async def apply(self, table: Table, action: Any, *, by: str) -> Any:
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
            await self.outcomes.record(table)
        if phase in OVER:
            await self.outcomes.deal_ended(table)
        if phase == "deal_over":
            game.next_deal()
        return applied

    async def seat_change(self, table: Table, seat: int, new: SeatRecord,
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

    # ------------------------------------------------------------- after
    def after_change(self, table: Table, *, notify: bool = True) -> None:
        """After a change (out of the lock): tell the presenter, then keep a playing
        table moving, or stop one that no longer plays."""
        if notify:
            self.notify(table)
        if table.status is not TableStatus.PLAYING:
            self.stop(table.id)
            return
        self.motion.kick_driver(table)
        self.motion.reset_timer(table)

    def stop(self, table_id: int) -> None:
        """Stop the table's computer players and its timer."""
        self.motion.stop(table_id)

    def notify(self, table: Table, *, quiet: bool = False) -> None:
        """Tell the presenter the table changed, in a task of its own (``quiet``: see
        :meth:`Presenter.table_changed`)."""
        if self.presenter is not None:
            task = asyncio.get_running_loop().create_task(self._safe_notify(table, quiet))
            self.notices.add(task)
            task.add_done_callback(self.notices.discard)

    async def _safe_notify(self, table: Table, quiet: bool = False) -> None:
        assert self.presenter is not None
        try:
            if quiet:
                await self.presenter.table_changed(table, quiet=True)
            else:
                await self.presenter.table_changed(table)
        except Exception:  # the presenter talks to Discord; a failure must not stop play
            log.exception("presenting table %s failed", table.id)
