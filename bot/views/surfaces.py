"""Where a table is shown: its surface.

A table's game logic, its store and its clicks are the same wherever it is shown; only
its surface differs. :class:`Surface` is what the presenter (:mod:`bot.views.presenter`)
asks of one, after each change of the table:

- :class:`ThreadSurface`, a table of a server's channel: the lobby message, the table
  message in the table's thread (at most once per ``edit_interval``, Discord allowing
  about five writes per five seconds in a channel, always with the latest state, its
  image uploaded again only when the picture changed), announcements, the ping of the
  people due, and each person's private hand panel (an ephemeral message,
  :class:`~bot.views.panels.Panels`);
- :class:`AlonePanel`, a table played alone (a daily board): its one private panel
  shows the table and the hand; nothing public, no ping.

Render only what will be written: the table edit first waits for its turn (the edit
interval, then the pacer), and only then draws the message, from the state as it is at
that moment; a pass finds nothing to draw when no change came in since the last drawing.
Under load many changes fold into one picture instead of pictures drawn and then
superseded while they wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

import discord

from bot.games.base import PublicMessage, spec_of
from bot.i18n import Text, t
from bot.i18n.text import CONTENT, cut
from bot.store.models import Repository, StoreError, TableStatus
from bot.tables import SeatKind, Table
from bot.views.pacing import Pacer
from bot.views.panels import Panels
from bot.views.table import lobby_message

log = logging.getLogger(__name__)
THREAD_ARCHIVED = 50083


class Surface(Protocol):
    """Where a table is shown, as the presenter uses it."""

    async def present(self, table: Table) -> None:
        """Show the table as it is now: everything its surface shows, each part's
        failure logged without stopping the others."""

    async def push_panels(self, table: Table) -> None:
        """Redraw the people's private panels alone (while a :meth:`present` pass waits
        for its turn to write)."""

    async def repost(self, table: Table) -> None:
        """Show the table again where it is seen last (the bottom of its channel)."""


class AlonePanel:
    """A table played alone in its private panel (a daily board): the panel shows the
    table and, at the end, the result; nothing public, no ping."""

    def __init__(self, panels: Callable[[], Panels]) -> None:
        self._panels = panels

    async def present(self, table: Table) -> None:
        table.announcements.clear()
        await self.push_panels(table)

    async def push_panels(self, table: Table) -> None:
        await _push_panels(self._panels(), table)

    async def repost(self, table: Table) -> None:
        await self.push_panels(table)


async def _push_panels(panels: Panels, table: Table) -> None:
    if table.game is None:
        return
    try:
        await panels.push(table)
    except Exception:
        log.exception("presenting table %s: the panels' redraw failed", table.id)


class ThreadSurface:
    """Tables of a server's channel: edits the lobby and table messages, posts
    announcements and summaries, pings whoever must act, redraws their panels."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels], *, changes: Callable[[int], int],
                 edit_interval: float = 1.5, pacer: Pacer | None = None) -> None:
        self.bot = client
        self._repo = repo
        self._panels = panels
        self._changes = changes
        """How many changes of a table the presenter heard of so far."""
        self.edit_interval = edit_interval
        self.pacer = pacer or Pacer(0)
        self._written: dict[int, float] = {}
        """Per table: when its message was last written (monotonic)."""
        self._image: dict[int, str] = {}
        """Per table: a digest of the image its message shows, with its description."""
        self._drawn: dict[int, int] = {}
        """Per table: the count of changes its written message was drawn after."""
        self._pinged: dict[int, tuple[object, ...]] = {}
        self._lobby_shown: dict[int, TableStatus] = {}

    async def push_panels(self, table: Table) -> None:
        await _push_panels(self._panels(), table)

    async def present(self, table: Table) -> None:
        steps = [self._show_lobby]
        if table.game is not None:
            steps += [self._post_announcements, self._panels().push, self._ping,
                      self._show_table_soon]
        for step in steps:
            try:
                await step(table)
            except StoreError as exc:  # the database away: said in one line, no traceback
                log.warning("presenting table %s: %s failed: %s", table.id, step.__name__, exc)
            except Exception:  # one failed request never drops the others (the ping)
                log.exception("presenting table %s: %s failed", table.id, step.__name__)

    async def _show_table_soon(self, table: Table) -> None:
        """The table message, no sooner than ``edit_interval`` after the last write;
        nothing when it was drawn after the latest change already."""
        if self._drawn.get(table.id) == self._changes(table.id) and \
                table.record.message_id is not None:
            return
        wait = self._written.get(table.id, -1e9) + self.edit_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        await self._show_table(table)

    # ------------------------------------------------------------- lobby
    async def _show_lobby(self, table: Table) -> None:
        message_id = table.record.options.get("lobby_message_id")
        if not isinstance(message_id, int):
            return
        if table.game is not None and self._lobby_shown.get(table.id) is table.status:
            return
        self._lobby_shown[table.id] = table.status
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        await self.pacer.wait()
        msg = lobby_message(table, table.record.locale)  # as it is once its turn came
        if table.status is TableStatus.PLAYING:
            msg.content += "\n" + t(table.record.locale, "lobby.started",
                                    where=Text(f"<#{table.channel_id}>"))
        try:
            await channel.get_partial_message(message_id).edit(content=msg.content, view=msg.view)
        except discord.HTTPException:
            log.warning("cannot edit the lobby message of table %s", table.id)

    # -------------------------------------------------------------- table
    async def table_message(self, table: Table) -> PublicMessage:
        spec = spec_of(table)
        msg = await spec.table_message(table, table.record.locale)
        countdown = countdown_line(table, table.record.locale)
        if countdown:
            msg.content = cut(f"{msg.content}\n{countdown}", CONTENT)
        return msg

    async def _show_table(self, table: Table) -> None:
        """Write the table message: its turn first, then the drawing (of the latest state)."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        await self.pacer.wait()
        changes_seen = self._changes(table.id)
        msg = await self.table_message(table)
        message_id = table.record.message_id
        digest = msg.digest()
        self._written[table.id] = time.monotonic()
        if message_id is not None:
            message = channel.get_partial_message(message_id)
            # The image is sent again only when it changed (the same files on a retry).
            files = msg.files() if self._image.get(table.id) != digest else None
            for attempt in range(2):
                if attempt:
                    await self.pacer.wait()
                try:
                    if files is None:
                        await message.edit(content=msg.content, view=msg.view)
                    else:
                        await message.edit(content=msg.content, view=msg.view, attachments=files)
                    self._image[table.id] = digest
                    self._drawn[table.id] = changes_seen
                    return
                except discord.NotFound:
                    break
                except discord.HTTPException as error:
                    # Discord archives an idle thread after 24 h: open it again, once.
                    if error.code != THREAD_ARCHIVED or attempt or table.record.thread_id is None:
                        raise
                    await self.bot.http.edit_channel(table.record.thread_id, archived=False)
        if message_id is not None:
            await self.pacer.wait()  # the edit above took the first turn
        if msg.view is None:  # no view: ``send``'s own default
            sent = await channel.send(content=msg.content, files=msg.files())
        else:
            sent = await channel.send(content=msg.content, files=msg.files(), view=msg.view)
        self._image[table.id] = digest
        self._drawn[table.id] = changes_seen
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
            message = await spec_of(table).announcement(table, entry, table.record.locale)
            if message is not None:
                await self.pacer.wait()
                if message.view is None:
                    await channel.send(content=message.content, files=message.files())
                else:
                    await channel.send(content=message.content, files=message.files(),
                                       view=message.view)

    # --------------------------------------------------------------- pings
    async def _ping(self, table: Table) -> None:
        game = table.game
        waiting = tuple(s for s in table.spec.due_seats(game) if table.kind(s) is SeatKind.HUMAN)
        if table.status is not TableStatus.PLAYING:
            waiting = ()
        # A new ping whenever the people due change, or the same person is due again
        # after the table moved on.
        spec = spec_of(table)
        key = (waiting, tuple(table.moves[s] for s in waiting), spec.ping_key(game))
        if self._pinged.get(table.id) == key:
            return
        self._pinged[table.id] = key
        if not waiting and table.status is TableStatus.PLAYING:
            return  # computers' turns: the last ping goes when the next one comes
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.record.ping_message_id
        if old is not None:
            await self.pacer.wait()
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
            table.record.ping_message_id = None
            await self._repo().clear_ping(table.id)
        if not waiting:
            return
        people = [user for s in waiting if (user := table.seats[s].user_id) is not None]
        mentions = Text(" ".join(f"<@{user}>" for user in people))
        locale = table.record.locale
        text = t(locale, spec.ping_key(game), mentions=mentions) + " " + t(locale, "ping.panel")
        countdown = countdown_line(table, locale)
        if countdown:
            text += "\n" + countdown
        await self.pacer.wait()
        # The ping names exactly the people it is for: nobody else, whatever the text says.
        sent = await channel.send(text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in people]))
        table.record.ping_message_id = sent.id
        await self._repo().update_table(table.id, ping_message_id=sent.id)


def countdown_line(table: Table, locale: str) -> str:
    """When the waiting people's time runs out, as Discord's live relative timestamp."""
    if table.status is not TableStatus.PLAYING:
        return ""
    deadlines = [d for s in table.due_since if (d := table.deadline(s)) is not None]
    if not deadlines:
        return ""
    return t(locale, "table.countdown", when=Text(f"<t:{int(min(deadlines))}:R>"))
