"""A rematch at a table shown in direct messages (issue 53).

When a game in direct messages ends, each of its people may press Rematch. If every
person of the table presses it within :data:`REMATCH_SECONDS` of the game's end, a new
table opens in their DMs (:meth:`~bot.tables.lobby.Lobby.open_direct`) with the same
people in the same seats, the computers in theirs, the same game, options and
rated-ness. Each press is stored in the table's options (``rematch``: who pressed, in
order) before it is acknowledged, so a restart within the minute keeps it; the new
table's id is stored there too (``rematch_table``).

A press is refused, with one sentence and nothing written: by someone who was not at
the table (``not_seated``), a second time (``rematch_repeat``), after the minute
(``rematch_expired``), once the rematch is open (``rematch_open``), when a person of the
table left it during the game (``rematch_left``), or when one of them is queued or
seated at another live table (``rematch_busy``: this also keeps anyone with open tables
of a server, so the limit of open tables per person is checked before anything is
written). The last press, whose opening is then refused (a check of the new table's
start), is taken back before the refusal is answered: nothing changed.

A restart between the last press stored and the rematch opened (the bot stopped as it
opened) leaves every press stored and no table: :meth:`Rematch.resume`, at start, opens
it if the minute has not run out; after the minute it has expired, and a press says so.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from bot.store.models import GameResult, Repository, StoreError, TableStatus
from bot.tables.core import TableCore
from bot.tables.errors import TableError
from bot.tables.lobby import DIRECT_GUILD, DirectSeat, Lobby
from bot.tables.table import Table

log = logging.getLogger(__name__)

REMATCH_SECONDS = 60.0
"""How long after a game's end its people have to all press Rematch."""
RUN_TIME = frozenset({"surface", "rated", "locales", "dm_panels", "end_votes", "rematch",
                      "rematch_table", "out", "back", "finished_for_people", "ready_check"})
"""The options a table gathers as it is opened and played, not carried to its rematch
(:meth:`Lobby.open_direct` sets the first three again)."""


def people_of(table: Table) -> list[int]:
    """The people the table was opened with (its ``locales``), in the order stored."""
    locales = table.record.options.get("locales")
    if not isinstance(locales, dict):
        return []
    return [int(key) for key in locales if str(key).isdigit()]


def seated_people(table: Table) -> list[int]:
    """The people seated at the table now, seat by seat (a seat a computer keeps while its
    person is away is still theirs)."""
    return [seat.user_id for seat in table.seats if seat.user_id is not None]


def pressed_of(table: Table) -> list[int]:
    """Who pressed Rematch, in order (as stored)."""
    stored = table.record.options.get("rematch")
    if not isinstance(stored, list):
        return []
    return [user for user in stored if isinstance(user, int)]


def rematch_table(table: Table) -> int | None:
    """The rematch's table, once opened."""
    opened = table.record.options.get("rematch_table")
    return opened if isinstance(opened, int) and not isinstance(opened, bool) else None


async def finished_game(repo: Repository, table: Table) -> GameResult | None:
    """The stored result of the table's finished game (None while it is not stored)."""
    if table.status is not TableStatus.FINISHED or table.unrecorded:
        return None
    people = seated_people(table) or people_of(table)
    if not people:
        return None
    name = table.spec.result(table).game  # the name it is stored under (tichu6 …)
    for result in await repo.recent_games(table.record.guild_id, name, user_id=people[0],
                                          limit=5):
        if result.table_id == table.id:
            return result
    return None


class Rematch:
    """The Rematch presses of finished tables in direct messages, and the tables they open."""

    def __init__(self, core: TableCore, lobby: Lobby, *, seconds: float = REMATCH_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.core = core
        self.lobby = lobby
        self.seconds = seconds
        self.clock = clock
        """Now, in seconds since the epoch (injectable: the tests' minute passes at once)."""
        self._ended: dict[int, float] = {}
        """Per table: when its game ended (its stored result's time)."""

    async def ends_at(self, table: Table) -> float | None:
        """When the table's rematch time runs out (None while its result is not stored)."""
        ended = self._ended.get(table.id)
        if ended is None:
            result = await finished_game(self.core.repo, table)
            if result is None or result.finished_at is None:
                return None
            ended = self._ended[table.id] = result.finished_at.timestamp()
        return ended + self.seconds

    async def press(self, table_id: int, user_id: int) -> tuple[Table, Table | None]:
        """Store a person's Rematch press (under the table's lock), and open the rematch
        when every person of the table has pressed. Returns the table, and the new table
        if this press opened it; a refusal is a :class:`TableError`, nothing written."""
        table = await self.core.get(table_id)
        if not table.direct or table.game is None:
            raise TableError("forged")
        if table.status is not TableStatus.FINISHED:
            raise TableError("rematch_not_over")
        if user_id not in people_of(table):
            raise TableError("not_seated")
        ends_at = await self.ends_at(table)
        if ends_at is None:
            raise TableError("rematch_not_over")  # its result is not stored yet
        opened = None
        async with self.core.hold(table):
            if rematch_table(table) is not None:
                raise TableError("rematch_open")
            if self.clock() > ends_at:
                raise TableError("rematch_expired")  # every press stored too: too late now
            pressed = pressed_of(table)
            people = people_of(table)
            # Every press stored but no table (the opening failed): a press opens it.
            if user_id in pressed and not set(pressed) >= set(people):
                raise TableError("rematch_repeat")
            if set(people) - set(seated_people(table)):
                raise TableError("rematch_left")
            for person in people:
                if await self.busy(table, person):
                    raise TableError("rematch_busy")
            before = dict(table.record.options)
            if user_id not in pressed:
                pressed = [*pressed, user_id]
                await self.core.set_options(table, rematch=pressed)
            if set(pressed) >= set(people):
                try:
                    opened = await self._open(table)
                except TableError:
                    await self.core.put_options(table, before)  # the press taken back
                    raise
                await self.core.set_options(table, rematch_table=opened.id)
        self.core.notify(table)
        return table, opened

    async def resume(self) -> list[Table]:
        """At start: open the rematches every person pressed for whose table a restart
        kept from opening, if their minute has not run out (after it, they expired);
        the rematches opened."""
        if not self.lobby.shards.owns(DIRECT_GUILD):
            return []  # the tables in direct messages are another process's
        since = datetime.fromtimestamp(self.clock() - self.seconds, UTC)
        opened = []
        for table_id in await self.core.repo.finished_direct_tables(since):
            try:
                new = await self._resume(table_id)
            except TableError:  # expired, someone left or busy, or refused: a press says so
                continue
            except StoreError as exc:  # a press opens it, within the minute
                log.warning("the rematch of table %s is not opened: %s", table_id, exc)
                continue
            if new is not None:
                opened.append(new)
        return opened

    async def _resume(self, table_id: int) -> Table | None:
        """The rematch of one table, if every person pressed and none opened yet: as the
        last press again, its checks, then the table."""
        table = await self.core.get(table_id)
        pressed, people = pressed_of(table), people_of(table)
        if not people or rematch_table(table) is not None or not set(pressed) >= set(people):
            return None
        return (await self.press(table.id, pressed[-1]))[1]

    async def busy(self, table: Table, user_id: int) -> bool:
        """Whether the person waits in the queue of "Play now" or sits at another live
        table (of a server's channel, or in direct messages)."""
        if await self.core.repo.queue_entry(user_id) is not None:
            return True
        return await self.core.at_live_table(user_id, besides=table.id)

    async def _open(self, table: Table) -> Table:
        """The rematch: the same people and computers in the same seats, the same game,
        options and rated-ness, in their DMs."""
        options = table.record.options
        locales = options.get("locales")
        locales = locales if isinstance(locales, dict) else {}
        seats: list[DirectSeat | str] = []
        for seat in table.seats:
            if seat.user_id is not None:
                locale = locales.get(str(seat.user_id), table.record.locale)
                seats.append(DirectSeat(seat.user_id, seat.name, str(locale)))
            else:
                seats.append(seat.bot_level or table.spec.levels[0])
        return await self.lobby.open_direct(
            game=table.record.game, seats=seats, rated=options.get("rated") is not False,
            options={k: v for k, v in options.items() if k not in RUN_TIME})
