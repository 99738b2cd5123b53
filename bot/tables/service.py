"""The table service: the parts that keep this process's tables, built and wired.

Each part answers for one thing, and callers go to the part that does:

- :attr:`TableService.core` (:class:`~bot.tables.core.TableCore`): the tables held in
  memory (``get``, ``active_in``, ``tables``) and the one path of every change: under
  the table's lock, check with the engine, append to the store, apply, tell the
  presenter;
- :attr:`TableService.shards` (:class:`~bot.tables.shards.Shards`): which guilds'
  tables are this process's, and which of them it may drive now;
- :attr:`TableService.lobby` (:class:`~bot.tables.lobby.Lobby`): opening a table,
  seating people and computers, starting, abandoning, idle lobbies;
- :attr:`TableService.seats` (:class:`~bot.tables.seats.Seats`): the seats of a game in
  play (leave, come back, takeover, the vote to end);
- :attr:`TableService.clicks` (:class:`~bot.tables.clicks.Clicks`): a person's click or
  action, down one path;
- :attr:`TableService.talk` (:class:`~bot.tables.talk.Talk`): the phrases people say
  at a table, at their pace;
- :attr:`TableService.drivers` (:class:`~bot.tables.drivers.Drivers`): the computer
  players and the turn timers;
- :attr:`TableService.results` (:class:`~bot.tables.results.Results`): a game's result,
  the deal listeners, games closed as idle or finished by computers;
- :attr:`TableService.watch` (:class:`~bot.tables.watch.Watch`): restore at start, and the
  watch of the store and of the shard locks;
- :attr:`TableService.rematch` (:class:`~bot.tables.rematch.Rematch`): the Rematch presses
  at the end of a game in direct messages, and the tables they open;
- :attr:`TableService.matchmaker` (:class:`~bot.tables.matchmaker.Matchmaker`): the
  queue of "Play now" in waves, its ready checks, and the tables they seat in direct
  messages (in the process of shard 0, while it holds the store's lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable, Collection, Mapping

from bot.store.models import Repository
from bot.tables.clicks import Clicks
from bot.tables.core import Presenter, TableCore
from bot.tables.drivers import Drivers
from bot.tables.lobby import Lobby
from bot.tables.matching import WAVE_SECONDS
from bot.tables.matchmaker import DEFAULT_TURN_TIMER, Matchmaker
from bot.tables.rematch import Rematch
from bot.tables.results import Results
from bot.tables.rules import TableRules
from bot.tables.seats import Seats
from bot.tables.shards import Shards
from bot.tables.talk import Talk
from bot.tables.watch import Watch


class TableService:
    """Owns the tables of this process: builds the parts that keep them and stops them.

    With ``shard_count`` (and ``shard_ids``, default all of them) the process owns only
    the tables of guilds on its shards: it restores and drives those alone, and
    refuses to load or open any other (another process drives them).
    """

    def __init__(self, repo: Repository, specs: Mapping[str, TableRules], *,
                 ai_delay: float = 1.2, lobby_timeout: float = 1800,
                 idle_timeout: float = 86400, presenter: Presenter | None = None,
                 shard_count: int | None = None,
                 shard_ids: Collection[int] | None = None,
                 shard_lock_wait: float = 300.0,
                 on_lost: Callable[[str], None] | None = None,
                 tables_per_person: int | None = None,
                 wave_seconds: float = WAVE_SECONDS,
                 queue_turn_timer: int = DEFAULT_TURN_TIMER) -> None:
        self.shards = Shards(shard_count, shard_ids)
        self.repo = repo
        """The store every part keeps the tables in (the app's and the commands' too)."""
        self.core = TableCore(repo, specs, self.shards, presenter=presenter)
        self.drivers = Drivers(self.core, self.shards, ai_delay=ai_delay)
        self.results = Results(self.core, self.shards, idle_timeout=idle_timeout)
        self.seats = Seats(self.core)
        self.lobby = Lobby(self.core, self.shards, lobby_timeout=lobby_timeout,
                           tables_per_person=tables_per_person)
        self.clicks = Clicks(self.core, self.seats)
        self.rematch = Rematch(self.core, self.lobby)
        self.talk = Talk(self.core)
        self.watch = Watch(self.core, self.shards, self.drivers, self.results,
                           shard_lock_wait=shard_lock_wait, on_lost=on_lost)
        self.core.connect(motion=self.drivers, outcomes=self.results, keeper=self.watch)
        # Not secrets.token_hex: the tables' deal seeds come from it (seeded in tests).
        self.matchmaker = Matchmaker(
            repo, self.lobby, self.shards, wave_seconds=wave_seconds,
            turn_timer=queue_turn_timer, holder=f"{socket.gethostname()}:{os.getpid()}:{os.urandom(4).hex()}")

    async def close(self) -> None:
        """Stop every driver, timer and notice (the store keeps everything already
        acknowledged)."""
        await self.matchmaker.stop()
        tasks = [*self.drivers.tasks(), *self.core.notices]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.drivers.forget_tasks()
        self.core.notices.clear()
