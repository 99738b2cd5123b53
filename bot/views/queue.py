"""The queue of "Play now" in direct messages (issue 53): the ready checks, and what the
matchmaker tells people.

:class:`ReadyChecks` is the matchmaker's :class:`~bot.tables.matchmaker.Messenger`:

- a ready check is a DM to each person proposed, with Accept and Decline
  (``tichu:b:<check>:-:ready_yes`` / ``ready_no``, persistent :class:`GameButton`\\ s, so
  a click after a restart still reaches the store); a click answers the check
  (:meth:`~bot.tables.matchmaker.Matchmaker.answer`) and the message says so; a check
  that everyone accepted, or that someone declined, closes at once;
- a click on a check that is no longer open (expired, closed, or forgotten) gets one
  private sentence, ``error.queue_gone``, and nothing changes;
- when the check closes, each person's ready check message says what came of it: the
  table is ready (its panel follows in the same DM), they wait again at the head of the
  queue, or they are out. The message's channel, id and language are kept in the store
  with the check's member (:meth:`~bot.store.models.Repository.note_ready_message`), so
  that after a restart too the news edits the ready check rather than coming as a new
  DM.

:meth:`ReadyChecks.greet` is the DM sent before a person queues: if Discord refuses it,
the person is not queued.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.games.ui import GameButton, view_of
from bot.i18n import t
from bot.store.models import (
    Answer,
    Pool,
    QueueRefusedError,
    ReadyCheck,
    ReadyMember,
    ReadyMessage,
    ReadyOutcome,
    StoreError,
)
from bot.tables import Table, TableError, ids
from bot.tables.matchmaker import Matchmaker
from bot.views.pacing import Pacer

log = logging.getLogger(__name__)

READY_ACTIONS = frozenset({"ready_yes", "ready_no"})
"""The ready check's buttons (the ID's table field is the check's number)."""
DM_REFUSED = frozenset({50007, 50278})
"""Discord's answers to a DM it will not deliver: closed DMs or the bot blocked; no
mutual server or DMs off in it."""
GONE = frozenset({"check_expired", "check_closed", "no_check"})
"""The store's refusals of an answer to a check that no longer waits."""


def pool_name(pool: Pool, locale: str) -> str:
    """The game of a pool as people call it (Tichu for six has its own name)."""
    if pool.game == "tichu" and pool.seats == 6:
        return t(locale, "game.tichu6")
    return t(locale, f"game.{pool.game}")


class ReadyChecks:
    """Sends the ready checks and the matchmaker's news in direct messages, and answers
    the ready checks' clicks."""

    def __init__(self, client: discord.Client, matchmaker: Callable[[], Matchmaker],
                 pacer: Pacer | None = None) -> None:
        self.client = client
        self._matchmaker = matchmaker
        self.pacer = pacer
        self.names: dict[int, str] = {}
        """How people queued are named (from their command), kept for their table."""
        self.sent = 0

    @property
    def matchmaker(self) -> Matchmaker:
        return self._matchmaker()

    async def _send(self, user_id: int, **message: Any) -> discord.Message | None:
        """A DM to the person; None if Discord refuses it (closed DMs)."""
        if self.pacer is not None:
            await self.pacer.wait(first=True)  # someone waits on it, against a clock
        channel = await self.client.create_dm(discord.Object(user_id))
        try:
            sent = await channel.send(**message)
        except discord.Forbidden as error:
            if error.code not in DM_REFUSED:
                raise
            log.info("user %s does not take direct messages", user_id)
            return None
        self.sent += 1
        return sent

    async def greet(self, user_id: int, locale: str, pool: Pool) -> bool:
        """The DM before queueing; whether Discord delivered it."""
        return await self._send(user_id, content=t(locale, "queue.greeting",
                                                   game=pool_name(pool, locale))) is not None

    # -- the matchmaker's messenger

    async def ready_check(self, check: ReadyCheck, locales: dict[int, str]) -> None:
        seconds = round((check.expires_at - check.created_at).total_seconds())
        for member in check.members:
            locale = locales.get(member.user_id, "en")
            key = "queue.ready_filled" if check.filled else "queue.ready"
            view = view_of(
                GameButton(ids.button(check.id, "ready_yes"), label=t(locale, "queue.accept"),
                           style=discord.ButtonStyle.success),
                GameButton(ids.button(check.id, "ready_no"), label=t(locale, "queue.decline"),
                           style=discord.ButtonStyle.danger))
            sent = await self._send(member.user_id, view=view, content=t(
                locale, key, game=pool_name(check.pool, locale), seconds=seconds))
            if sent is not None:
                await self._keep(check.id, member.user_id,
                                 ReadyMessage(sent.channel.id, sent.id, locale))

    async def _keep(self, check_id: int, user_id: int, message: ReadyMessage) -> None:
        """Keep a ready check's message in the store; if the store fails, the others'
        checks still go out, and the news of this one comes as a new DM."""
        try:
            await self.matchmaker.repo.note_ready_message(check_id, user_id, message)
        except StoreError as exc:
            log.warning("ready check %s: the message to %s is not kept (%s)", check_id,
                        user_id, exc)

    async def seated(self, check: ReadyCheck, table: Table | None,
                     locales: dict[int, str]) -> None:
        key = "queue.seated" if table is not None else "queue.table_failed"
        for member in check.members:
            await self._news(member, key, locales)

    async def failed(self, outcome: ReadyOutcome, locales: dict[int, str]) -> None:
        # Everyone accepted, but their table was not made (a restart while it opened).
        everyone = all(m.answer is Answer.ACCEPT for m in outcome.check.members)
        back = "queue.back_unmade" if everyone else "queue.back"
        for member in outcome.check.members:
            if member.user_id in outcome.returned:
                await self._news(member, back, locales)
            elif member.user_id in outcome.removed and member.answer is not Answer.DECLINE:
                await self._news(member, "queue.out", locales)  # a decline says so already

    async def name_of(self, user_id: int) -> str:
        name = self.names.get(user_id)
        if name is not None:
            return name
        user = self.client.get_user(user_id)
        if user is None:
            with contextlib.suppress(discord.HTTPException):
                user = await self.client.fetch_user(user_id)
        return user.display_name if user is not None else str(user_id)

    async def _news(self, member: ReadyMember, key: str, locales: dict[int, str]) -> None:
        """The member's ready check message says what came of it (a new DM if it is not
        known)."""
        user_id, kept = member.user_id, member.message
        if kept is None:
            await self._send(user_id, content=t(locales.get(user_id, "en"), key))
            return
        channel_id, message_id, locale = kept.channel_id, kept.message_id, kept.locale
        if self.pacer is not None:
            await self.pacer.wait(first=True)  # someone waits on it, against a clock
        partial = self.client.get_partial_messageable(channel_id)
        try:
            await partial.get_partial_message(message_id).edit(content=t(locale, key),
                                                               view=None)
        except discord.NotFound:
            await self._send(user_id, content=t(locale, key))
        except discord.Forbidden as error:
            if error.code not in DM_REFUSED:
                raise

    # -- the clicks

    async def handle_component(self, interaction: discord.Interaction[Any],
                               cid: ids.ComponentId, values: list[str]) -> None:
        """Accept or Decline on a ready check (acknowledged as an update of its message)."""
        if cid.action not in READY_ACTIONS or cid.seq is not None or cid.arg is not None:
            raise TableError("forged")
        accept = cid.action == "ready_yes"
        matchmaker = self.matchmaker
        try:
            check = await matchmaker.answer(cid.table, interaction.user.id, accept)
        except QueueRefusedError as exc:
            if exc.code in GONE:
                raise TableError("queue_gone") from None
            if exc.code == "already_answered":
                raise TableError("queue_answered") from None
            raise TableError("forged") from None
        locale = str(interaction.locale.value if interaction.locale else "en")
        member = check.member(interaction.user.id)
        if interaction.message is not None and member is not None and member.message is None:
            # Sent, then a restart before it was kept: the click names it.
            await self._keep(check.id, member.user_id, ReadyMessage(
                interaction.message.channel.id, interaction.message.id, locale))
        await interaction.edit_original_response(
            content=t(locale, "queue.accepted" if accept else "queue.declined"), view=None)
        await matchmaker.settle(check)
