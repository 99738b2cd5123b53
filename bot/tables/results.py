"""How a game ends and what it records.

A game that ends has its result stored under the table's lock (:meth:`Results.record`);
if the store fails, it stays to be recorded (:meth:`bot.tables.watch.Watch.check` tries
again, and so does the next start). Every deal that ends is told to the
:attr:`Results.deal_listeners` (the duplicate results, the coach's reviews). A game
nobody plays any more is closed as idle, and one with a finishing time is finished by
computers once its time has come (:meth:`Results.close_idle_tables`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.store.models import GameResult, SeatRecord, ShardLostError, StoreError, TableStatus
from bot.tables.core import TableCore
from bot.tables.rules import LogEntry
from bot.tables.shards import Shards
from bot.tables.table import SeatKind, Table

log = logging.getLogger(__name__)


def counted_players(table: Table, result: GameResult) -> GameResult:
    """The result with each person who lost their seat for good (:attr:`Table.out`: gone
    for too many decisions in a row, or left, at a table in DMs) as that seat's player,
    in place of the computer that finished it: leaving never takes a person out of a
    game's result, and the others' game is rated as it was played
    (docs/players/ratings.md, "Leaving a game of Play now")."""
    out = table.out
    if not out:
        return result
    players = [replace(p, user_id=out[p.seat][0], name=out[p.seat][1], bot_level=None)
               if p.seat in out else p for p in result.players]
    return replace(result, players=players)


class Results:
    """The end of deals and games: results stored, listeners told, idle games closed."""

    def __init__(self, core: TableCore, shards: Shards, *,
                 idle_timeout: float = 86400) -> None:
        self.core = core
        self.shards = shards
        self.idle_timeout = idle_timeout
        """Seconds without any person's action before a game in play is closed."""
        self.deal_listeners: list[Callable[[Table], Awaitable[None]]] = []
        """Called (under the table's lock) after each deal that ends, the last included."""

    async def deal_ended(self, table: Table) -> None:
        """Tell the :attr:`deal_listeners` that a deal of the table ended (its result is
        the game's last in ``history``). What they keep is derived from the stored
        actions, so a listener that fails loses nothing: it is logged, and the listener
        can rebuild it later."""
        for listener in self.deal_listeners:
            try:
                await listener(table)
            except Exception as exc:  # never the action's failure: it is stored and applied
                log.warning("table %s: a deal-over listener failed: %r", table.id, exc)

    async def record(self, table: Table) -> None:
        """Store the result of a finished game (under the table's lock). If the store
        fails, the game stays to be recorded: :meth:`bot.tables.watch.Watch.check` tries
        again, and so does the next start (:meth:`bot.tables.watch.Watch.restore`)."""
        try:
            result = counted_players(table, table.spec.result(table))
            if table.record.options.get("rated") is False:  # asked unrated at its opening
                result = replace(result, rated=False)
            await self.core.repo.record_game(result)
        except StoreError as exc:
            if exc.code != "game_already_recorded":  # else: an earlier try got through
                if isinstance(exc, ShardLostError):
                    self.core.shard_lost(table, exc)
                log.warning("table %s: the game is over but its result is not stored yet "
                            "(%s); trying again", table.id, exc)
                return
        table.unrecorded = False
        table.record.status = TableStatus.FINISHED

    async def close_idle_tables(self, now: float | None = None) -> list[Table]:
        """Close, as abandoned, games in play where no person has acted for the idle
        timeout (a table nobody plays at never stays open). A game with a finishing time
        (:attr:`Table.finish_at`) is never closed: once its time has come, computers
        finish it for its people."""
        now = time.time() if now is None else now
        closed = []
        for table in list(self.core.tables.values()):
            if table.status is not TableStatus.PLAYING or not self.shards.held(table):
                continue
            finish_at = table.finish_at
            if finish_at is not None:
                if now >= finish_at:
                    await self.finish_for_people(table)
                continue
            if now - table.last_human > self.idle_timeout:
                async with self.core.hold(table):
                    if table.status is not TableStatus.PLAYING:
                        continue
                    await self.core.repo.update_table(table.id, status=TableStatus.ABANDONED)
                    table.record.status = TableStatus.ABANDONED
                    table.log.append(LogEntry("log.idle_closed"))
                self.core.stop(table.id)
                closed.append(table)
                self.core.notify(table)
        return closed

    async def finish_for_people(self, table: Table, level: str | None = None) -> None:
        """Computers (``level``, default the strongest) take every person's seat for good,
        to finish the game (the people are still its players)."""
        level = level or table.spec.levels[-1]
        async with self.core.hold(table):
            if table.status is not TableStatus.PLAYING:
                return
            # Stored first: the computers play the seats for their people from now on, so
            # none of them is counted away or out of a table in DMs (Drivers._missed).
            await self.core.set_options(table, finished_for_people=True)
            for seat in range(table.n_seats):
                old = table.seats[seat]
                if table.kind(seat) is SeatKind.HUMAN:
                    await self.core.seat_change(
                        table, seat, SeatRecord(seat=seat, user_id=old.user_id, name=old.name,
                                                bot_level=level, away=True),
                        LogEntry("log.away", {"seat": seat}))
        self.core.after_change(table)
