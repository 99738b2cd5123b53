"""Who plays each seat of a game in play.

A person leaves (a computer takes the seat; the last person leaving closes the table),
comes back to the seat a computer kept after missed turns (:meth:`Seats.back`, also
when they click a move), votes to end the table; the host hands to a computer for good
a seat whose person has stopped playing it (:meth:`Seats.takeover`). Each change is
stored under the table's lock before the table plays on.
"""

from __future__ import annotations

import logging
import time

from bot.store.models import SeatRecord, TableStatus
from bot.tables.core import TableCore
from bot.tables.drivers import TIMER_LEVEL, keep_out, note_departure
from bot.tables.errors import TableError
from bot.tables.rules import LogEntry
from bot.tables.table import Table

log = logging.getLogger(__name__)


def check_seat(table: Table, seat: int) -> None:
    """Refuse (``bad_seat``) a seat the table does not have."""
    if not 0 <= seat < table.n_seats:
        raise TableError("bad_seat")


def check_host(table: Table, actor_id: int) -> None:
    """Refuse (``not_host``) anyone but the table's host."""
    if actor_id != table.record.host_id:
        raise TableError("not_host")


class Seats:
    """The seats of games in play: leaving, coming back, handing over, voting to end."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def _playing(self, table_id: int) -> Table:
        table = await self.core.get(table_id)
        if table.status is not TableStatus.PLAYING or table.game is None:
            raise TableError("not_playing")
        return table

    async def takeover(self, table_id: int, actor_id: int, seat: int) -> Table:
        """Host only: hand a person's seat to a computer player for good, once its person
        has stopped playing it (:meth:`Table.idle`: away, or the turn timer ran out on
        their last decision); a seat still played is refused (``seat_active``), and
        nothing is written."""
        table = await self._playing(table_id)
        async with self.core.hold(table):
            check_host(table, actor_id)
            check_seat(table, seat)
            if table.seats[seat].user_id is None:
                raise TableError("not_human_seat")
            if not table.idle(seat):
                raise TableError("seat_active", seat=seat + 1)
            old = table.seats[seat]
            await self.core.seat_change(table, seat, SeatRecord(seat=seat, name=old.name,
                                                                bot_level=TIMER_LEVEL),
                                        LogEntry("log.takeover", {"seat": seat}))
            if old.user_id is not None and table.humans():
                await self._departed(old.user_id, table, "away")
        self.core.after_change(table)
        return table

    async def _departed(self, user_id: int, table: Table, reason: str) -> None:
        """Note that ``user_id`` left ``table``'s game before its end, while other people
        played on (the queue of "Play now" seats people who leave games with each
        other first). The seat's change is stored already: a store that fails here
        costs only the note."""
        await note_departure(self.core, user_id, table, reason)

    async def leave_game(self, table_id: int, user_id: int) -> Table:
        """A seated person leaves a game in play: a computer player takes the seat. When
        the last person leaves, the table closes (unrated). At a table in DMs they are
        kept in :attr:`Table.out`, as someone out after missed turns is: the result counts
        them as their seat's player."""
        table = await self._playing(table_id)
        async with self.core.hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            old = table.seats[seat]
            if table.direct:
                await keep_out(self.core, table, seat)
            await self.core.seat_change(table, seat, SeatRecord(seat=seat, name=old.name,
                                                                bot_level=TIMER_LEVEL),
                                        LogEntry("log.left", {"seat": seat}))
            if table.humans():
                await self._departed(user_id, table, "left")
            else:
                await self.core.repo.update_table(table.id, status=TableStatus.ABANDONED)
                table.record.status = TableStatus.ABANDONED
        self.core.after_change(table)
        return table

    async def come_back(self, table_id: int, user_id: int) -> Table:
        """A person whose seat a computer kept after missed turns takes it back."""
        table = await self._playing(table_id)
        async with self.core.hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("seat_lost" if table.lost_seat(user_id) else "not_seated")
            if not table.seats[seat].away:
                raise TableError("not_away")
            await self.back(table, seat)
        self.core.after_change(table)
        return table

    async def back(self, table: Table, seat: int) -> None:
        """The person of an away seat takes it back (under the table's lock);
        ``time_over`` once the table's finishing time has come."""
        finish_at = table.finish_at
        if finish_at is not None and time.time() >= finish_at:
            raise TableError("time_over")  # the computers finish it now
        # Where the count of their missed decisions starts again, kept first: after a
        # restart, the decisions made for them before it no longer count.
        await self.core.set_options(
            table, back={**{str(k): v for k, v in table.back_at.items()}, str(seat): table.seq})
        old = table.seats[seat]
        await self.core.seat_change(table, seat, SeatRecord(seat=seat, user_id=old.user_id,
                                                            name=old.name),
                                    LogEntry("log.back", {"seat": seat}))
        table.misses[seat] = 0

    async def vote_end(self, table_id: int, user_id: int) -> tuple[Table, bool]:
        """A seated person votes to end the table (again: takes the vote back). A strict
        majority of the people seated ends it, unrated. Returns the table and whether
        the clicker's vote now counts."""
        table = await self._playing(table_id)
        async with self.core.hold(table):
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
                await self.core.repo.update_table(table.id, status=TableStatus.ABANDONED,
                                                  options=options)
                table.record.status = TableStatus.ABANDONED
            else:
                await self.core.repo.update_table(table.id, options=options)
            table.record.options = options
            seat = table.seat_of(user_id)
            table.log.append(LogEntry("log.vote_end" if voting else "log.vote_back",
                                      {"seat": seat, "votes": len(votes),
                                       "needed": len(people) // 2 + 1}))
            if ended:
                table.log.append(LogEntry("log.voted_end"))
        self.core.after_change(table)
        return table, voting
