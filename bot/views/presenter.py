"""Keeps each table's surface in step with the game: when it is shown, not where.

One update runs per table at a time; changes that arrive meanwhile are folded
into one more pass, so a quick run of computer moves costs a single edit. While a
pass waits (for the pace of the bot's writes), the private panels are redrawn at
each change: a person put on turn never waits for the table edit.

Where and how a table is shown is its surface (:mod:`bot.views.surfaces`): a server's
channel or thread (the lobby and table messages, announcements, pings, and each
person's private panel), the one private panel of a table played alone (a daily
board), or each seat's live panel in its direct messages. The presenter picks the table's surface and hands it every pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.store.models import Repository
from bot.tables import Table
from bot.views.pacing import Pacer
from bot.views.panels import Panels
from bot.views.surfaces import AlonePanel, DirectSurface, Surface, ThreadSurface

log = logging.getLogger(__name__)


class TablePresenter:
    """Runs one pass at a time per table on its surface, folding the changes that come
    in meanwhile into one more pass."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels], *, edit_interval: float = 1.5,
                 pacer: Pacer | None = None) -> None:
        self._changes: dict[int, int] = {}
        """Per table: how many changes were announced (:meth:`table_changed` calls)."""
        self.thread = ThreadSurface(client, repo, panels, changes=self.changes,
                                    edit_interval=edit_interval, pacer=pacer or Pacer(0))
        """Tables of a server's channel: their thread's messages and their panels."""
        self.alone = AlonePanel(panels)
        """Tables played alone: their one private panel."""
        self.direct = DirectSurface(client, repo, panels, changes=self.changes,
                                    edit_interval=edit_interval, pacer=self.thread.pacer)
        """Tables shown in their seats' direct messages: one live panel per seat."""
        self._running: set[int] = set()
        self._dirty: set[int] = set()
        self.idle = asyncio.Event()
        self.idle.set()

    def changes(self, table_id: int) -> int:
        """How many changes of the table were announced so far."""
        return self._changes.get(table_id, 0)

    def surface(self, table: Table) -> Surface:
        """Where ``table`` is shown."""
        if table.direct:
            return self.direct
        return self.alone if table.private else self.thread

    async def table_changed(self, table: Table, *, quiet: bool = False) -> None:
        """Show the change: a pass now, or one more after the running one. ``quiet``
        (a phrase said): nobody must act on it, so it waits for that pass and each
        surface's pace (a DM panel's ``edit_interval``), never a redraw of its own."""
        self._changes[table.id] = self._changes.get(table.id, 0) + 1
        surface = self.surface(table)
        if table.id in self._running:
            self._dirty.add(table.id)
            if quiet:
                return
            # The running pass may wait a long while for a channel write (the pace of the
            # global limit, shared by every table). Hand panels go through the interaction
            # webhook, which that limit does not bind: a person put on turn sees it now.
            await surface.push_panels(table)
            return
        self._running.add(table.id)
        self.idle.clear()
        try:
            while True:
                self._dirty.discard(table.id)
                await surface.present(table)
                if table.id not in self._dirty:
                    break
        finally:
            self._running.discard(table.id)
            if not self._running:
                self.idle.set()

    async def repost(self, table: Table) -> None:
        """Post the table message again, at the bottom of its channel."""
        await self.surface(table).repost(table)
