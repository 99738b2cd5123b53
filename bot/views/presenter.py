"""Keeps the public messages of each table in step with the game.

One update runs per table at a time; changes that arrive meanwhile are folded
into one more pass, so a quick run of computer moves costs a single edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import discord

from bot.games.base import GameSpec, PublicMessage
from bot.i18n import t
from bot.store.models import Repository, TableStatus
from bot.tables import SeatKind, Table
from bot.views.panels import Panels
from bot.views.table import lobby_message

log = logging.getLogger(__name__)


class TablePresenter:
    """Edits the lobby and table messages, posts summaries, pings whoever must act."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels]) -> None:
        self.bot = client
        self._repo = repo
        self._panels = panels
        self._running: set[int] = set()
        self._dirty: set[int] = set()
        self._pinged: dict[int, tuple[object, ...]] = {}
        self._lobby_shown: dict[int, TableStatus] = {}
        self.idle = asyncio.Event()
        self.idle.set()

    async def table_changed(self, table: Table) -> None:
        if table.id in self._running:
            self._dirty.add(table.id)
            return
        self._running.add(table.id)
        self.idle.clear()
        try:
            while True:
                self._dirty.discard(table.id)
                await self._present(table)
                if table.id not in self._dirty:
                    break
        finally:
            self._running.discard(table.id)
            if not self._running:
                self.idle.set()

    async def _present(self, table: Table) -> None:
        await self._show_lobby(table)
        if table.game is None:
            return
        await self._post_announcements(table)
        await self._show_table(table)
        await self._ping(table)
        await self._panels().push(table)

    # ------------------------------------------------------------- lobby
    async def _show_lobby(self, table: Table) -> None:
        message_id = table.record.options.get("lobby_message_id")
        if not isinstance(message_id, int):
            return
        if table.game is not None and self._lobby_shown.get(table.id) is table.status:
            return
        self._lobby_shown[table.id] = table.status
        msg = lobby_message(table, table.record.locale)
        if table.status is TableStatus.PLAYING:
            msg.content += "\n" + t(table.record.locale, "lobby.started",
                                    where=f"<#{table.channel_id}>")
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(content=msg.content, view=msg.view)
        except discord.HTTPException:
            log.warning("cannot edit the lobby message of table %s", table.id)

    # -------------------------------------------------------------- table
    async def _table_message(self, table: Table) -> PublicMessage:
        spec: GameSpec = table.spec  # type: ignore[assignment]
        msg = await spec.table_message(table, table.record.locale)
        countdown = countdown_line(table, table.record.locale)
        if countdown:
            msg.content = f"{msg.content}\n{countdown}"[:2000]
        return msg

    async def _show_table(self, table: Table) -> None:
        msg = await self._table_message(table)
        channel = self.bot.get_partial_messageable(table.channel_id)
        message_id = table.record.message_id
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(
                    content=msg.content, attachments=msg.files(), view=msg.view)
                return
            except discord.NotFound:
                pass
        sent = await channel.send(content=msg.content, files=msg.files(), view=msg.view)
        table.record.message_id = sent.id
        await self._repo().update_table(table.id, message_id=sent.id)

    async def repost(self, table: Table) -> None:
        """Post the table message again, at the bottom of the channel."""
        old = table.record.message_id
        table.record.message_id = None
        await self._show_table(table)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    old).delete()

    async def _post_announcements(self, table: Table) -> None:
        entries, table.announcements = table.announcements, []
        channel = self.bot.get_partial_messageable(table.channel_id)
        for entry in entries:
            message = await table.spec.announcement(table, entry, table.record.locale)
            if message is not None:
                await channel.send(content=message.content, files=message.files())

    # --------------------------------------------------------------- pings
    async def _ping(self, table: Table) -> None:
        game = table.game
        waiting = tuple(s for s in table.spec.due_seats(game) if table.kind(s) is SeatKind.HUMAN)
        if table.status is not TableStatus.PLAYING:
            waiting = ()
        # A new ping whenever the people due change, or the same person is due again
        # after the table moved on.
        spec: GameSpec = table.spec  # type: ignore[assignment]
        key = (waiting, tuple(table.moves[s] for s in waiting), spec.ping_key(game))
        if self._pinged.get(table.id) == key:
            return
        self._pinged[table.id] = key
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.record.ping_message_id
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
            table.record.ping_message_id = None
            await self._repo().clear_ping(table.id)
        if not waiting:
            return
        mentions = " ".join(f"<@{table.seats[s].user_id}>" for s in waiting)
        locale = table.record.locale
        text = t(locale, spec.ping_key(game), mentions=mentions) + " " + t(locale, "ping.panel")
        countdown = countdown_line(table, locale)
        if countdown:
            text += "\n" + countdown
        sent = await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        table.record.ping_message_id = sent.id
        await self._repo().update_table(table.id, ping_message_id=sent.id)


def countdown_line(table: Table, locale: str) -> str:
    """When the waiting people's time runs out, as Discord's live relative timestamp."""
    if table.status is not TableStatus.PLAYING:
        return ""
    deadlines = [d for s in table.due_since if (d := table.deadline(s)) is not None]
    if not deadlines:
        return ""
    return t(locale, "table.countdown", when=f"<t:{int(min(deadlines))}:R>")
