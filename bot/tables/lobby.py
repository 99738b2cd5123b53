"""A table before its game: opened, its seats filled by people and computers, started.

A lobby is opened within its limits (tables per channel, open tables per person,
checked before anything is written); people join, move and leave, the host seats
computers and starts the game once every seat is filled. The host, or anyone who may
manage the server, abandons a table; a lobby left idle expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.store.models import SeatRecord, StoreError, TableStatus
from bot.tables.core import TableCore
from bot.tables.errors import TableError
from bot.tables.seats import check_host, check_seat
from bot.tables.shards import Shards
from bot.tables.table import SeatKind, Table
from engine.errors import EngineError

Prepare = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""What a caller adds to a table's opening (:meth:`Lobby.open_lobby`): its checks, then
its writes; given the options, it returns the table's."""


@dataclass(frozen=True, slots=True)
class DirectSeat:
    """A person seated at a table shown in direct messages (:meth:`Lobby.open_direct`)."""

    user_id: int
    name: str
    locale: str


DIRECT_GUILD = 0
"""The guild of every table shown in direct messages: none. Its shard is 0, the one
Discord delivers DM interactions to, so the process of shard 0 drives these tables."""


class Lobby:
    """Opens tables, seats people and computers before the game, starts and ends them."""

    def __init__(self, core: TableCore, shards: Shards, *, lobby_timeout: float = 1800,
                 tables_per_person: int | None = None) -> None:
        self.core = core
        self.shards = shards
        self.lobby_timeout = lobby_timeout
        self.tables_per_person = tables_per_person
        """The most open tables one person may host or sit at, over every channel and
        server (tables played alone not counted; None: no limit)."""
        self.start_checks: list[Callable[[Table], Awaitable[None]]] = []
        """Called (under the table's lock) before a game starts; a TableError refuses the
        start (the duplicate boards' claims)."""
        self._opening = asyncio.Lock()
        """Held while a table is opened: its limits are checked and its rows written
        together, one opening at a time in this process."""

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
        spec = self.core.spec_for(game)
        if not self.shards.owns(guild_id):
            raise TableError("no_table")
        n = spec.seat_count(options)
        repo = self.core.repo
        async with self._opening:
            if limit is not None and await repo.count_active_tables(channel_id) >= limit:
                raise TableError("too_many_tables", limit=limit)
            if channel_id:  # a table played alone (a daily board) takes no one's room
                await self.check_room(host_id)
            if prepare is not None:
                options = await prepare(dict(options))
            await repo.ensure_guild(guild_id, locale)
            seats = [SeatRecord(seat=s) for s in range(n)]
            seats[0] = SeatRecord(seat=0, user_id=host_id, name=host_name)
            record = await repo.create_table(
                guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
                seed=secrets.token_hex(8), options=dict(options), locale=locale, seats=seats)
        table = Table(record, spec)
        self.core.tables[table.id] = table
        return table

    async def open_direct(self, *, game: str, seats: Sequence[DirectSeat | str],
                          rated: bool = True, options: dict[str, Any] | None = None) -> Table:
        """Open and start a table shown in its people's direct messages: ``seats`` in
        order, each a person (:class:`DirectSeat`) or a computer's level; the first
        person hosts. The same path as a server's table (open the lobby, join, seat the
        computers, start), in no channel and guild 0 (:data:`DIRECT_GUILD`); the table's
        options say where it is shown (``surface``), whether it is rated, and each
        person's language (``locales``, their panel's). A step that fails abandons the
        table and raises."""
        people = [s for s in seats if isinstance(s, DirectSeat)]
        if not people:
            raise TableError("seats_empty")
        if len({p.user_id for p in people}) != len(people):
            raise TableError("seat_taken")
        host = people[0]
        opening = {**(options or {}), "surface": "direct", "rated": rated,
                   "locales": {str(p.user_id): p.locale for p in people}}
        if self.core.spec_for(game).seat_count(opening) != len(seats):
            raise TableError("bad_options")
        await self.check_room(host.user_id)  # the others' room is checked as they join
        table = await self.open_lobby(game=game, guild_id=DIRECT_GUILD, channel_id=0,
                                      host_id=host.user_id, host_name=host.name,
                                      locale=host.locale, options=opening)
        try:
            where = list(seats).index(host)
            if where:  # the host moves to where ``seats`` puts them, first
                await self.join(table.id, host.user_id, host.name, where)
            for index, seat in enumerate(seats):
                if isinstance(seat, DirectSeat):
                    if table.seats[index].user_id != seat.user_id:
                        await self.join(table.id, seat.user_id, seat.name, index)
                else:
                    await self.set_computer(table.id, host.user_id, index, seat)
            return await self.start(table.id, host.user_id)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.abandon(table.id, host.user_id, can_manage=True)
            raise

    async def check_room(self, user_id: int) -> None:
        """Refuse (``too_many_open``) a person who already has :attr:`tables_per_person`
        open tables, over every channel and server."""
        most = self.tables_per_person
        if most is not None and await self.core.repo.count_open_tables_of(user_id) >= most:
            raise TableError("too_many_open", limit=most)

    async def _lobby_change(self, table_id: int, change: Callable[[Table], None]) -> Table:
        table = await self.core.get(table_id)
        async with self.core.hold(table):
            if table.status is not TableStatus.LOBBY:
                raise TableError("not_lobby")
            before = [replace(s) for s in table.seats]
            change(table)
            try:
                await self.core.repo.save_seats(table.id, table.seats)
            except StoreError:
                table.record.seats = before
                raise
            table.touch()
        self.core.notify(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str, seat: int) -> Table:
        """Sit down in an empty seat, or move there from another seat; a person new to the
        table is refused if they have their :attr:`tables_per_person` open tables."""
        table = await self.core.get(table_id)
        if table.seat_of(user_id) is None and table.record.host_id != user_id \
                and table.status is TableStatus.LOBBY and not table.private:
            await self.check_room(user_id)

        def change(table: Table) -> None:
            check_seat(table, seat)
            if table.kind(seat) is not SeatKind.EMPTY:
                raise TableError("seat_taken")
            current = table.seat_of(user_id)
            if current is not None:
                table.seats[current] = SeatRecord(seat=current)
            table.seats[seat] = SeatRecord(seat=seat, user_id=user_id, name=name)
        return await self._lobby_change(table_id, change)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Stand up from the lobby's seat."""
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
            check_host(table, actor_id)
            check_seat(table, seat)
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
        table = await self.core.get(table_id)
        async with self.core.hold(table):
            if table.status is not TableStatus.LOBBY:
                raise TableError("not_lobby")
            check_host(table, actor_id)
            if any(table.kind(s) is SeatKind.EMPTY for s in range(table.n_seats)):
                raise TableError("seats_empty")
            try:
                game = table.spec.new_game(table.record)
            except EngineError:
                raise TableError("bad_options") from None
            for check in self.start_checks:
                await check(table)  # a TableError refuses the start
            await self.core.repo.update_table(table.id, status=TableStatus.PLAYING)
            table.record.status = TableStatus.PLAYING
            table.game = game
            table.touch()
        self.core.after_change(table)
        return table

    async def abandon(self, table_id: int, actor_id: int, *, can_manage: bool) -> Table:
        """The host, or anyone who may manage the server, ends the table unrated."""
        table = await self.core.get(table_id)
        async with self.core.hold(table):
            if not table.status.is_active:
                raise TableError("not_active")
            if actor_id != table.record.host_id and not can_manage:
                raise TableError("not_host")
            await self.core.repo.update_table(table.id, status=TableStatus.ABANDONED)
            table.record.status = TableStatus.ABANDONED
        self.core.stop(table.id)
        self.core.notify(table)
        return table

    async def expire_idle_lobbies(self, now: float | None = None) -> list[Table]:
        """Close lobbies idle for longer than the lobby timeout."""
        now = time.monotonic() if now is None else now
        expired = []
        for table in list(self.core.tables.values()):
            if table.status is TableStatus.LOBBY and now - table.last_activity > self.lobby_timeout \
                    and self.shards.held(table):
                async with self.core.hold(table):
                    if table.status is not TableStatus.LOBBY:
                        continue
                    await self.core.repo.update_table(table.id, status=TableStatus.EXPIRED)
                    table.record.status = TableStatus.EXPIRED
                expired.append(table)
                self.core.notify(table)
        return expired
