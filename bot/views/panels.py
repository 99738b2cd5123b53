"""Live hand panels: each person's latest private hand message follows the game.

A panel is the ephemeral message "My hand" opens. Discord lets the bot edit it
through that interaction's webhook token for 15 minutes; the token is stored, so
the panel keeps following the game across a restart. When what a seat may do
changes (its turn, a new trick, cards received, a wish), the bot redraws the
panel itself; a person who keeps it open never needs "My hand" again until the
token runs out or the message is dismissed.

Redraws go through the interaction's webhook, which Discord does not bind to the
bot's global limit: they never wait for the pacer of the bot's own channel writes
(discord.py keeps to the token's own bucket, five edits per two seconds).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Hashable
from datetime import UTC, datetime
from typing import Any

import discord

from bot.games.base import HandMessage, spec_of
from bot.store.models import PanelRecord, Repository, StoreError, TableStatus
from bot.tables import SeatKind, Table

log = logging.getLogger(__name__)
TOKEN_LIFETIME = 15 * 60
SAFETY = 30
"""Seconds before the token's end when the bot stops using it (an edit must not fail)."""
RENEW_AFTER = 5 * 60
"""A click on a kept panel older than this hands the panel its own, fresh token: a person
who keeps playing keeps a panel that follows the game, however long the game lasts."""
FOLLOWED = (TableStatus.PLAYING, TableStatus.FINISHED)
"""The tables whose open panels follow their game: played, or just finished (the final
state, the result of a daily board, is the last thing a panel shows)."""


class Images:
    """The picture each of the bot's messages shows, as a digest: an edit uploads the
    picture again only when it changed (hand panels, DM panels)."""

    def __init__(self) -> None:
        self._images: dict[int, str] = {}

    def edits(self, message_id: int | None, message: HandMessage) -> dict[str, Any]:
        """What an edit of message ``message_id`` must send to show ``message``: the
        image only when it is not the one already shown."""
        changes: dict[str, Any] = {"content": message.content, "view": message.view}
        digest = hashlib.sha256(message.images()).hexdigest()
        if message_id is None or self._images.get(message_id) != digest:
            changes["attachments"] = message.files()
            if message_id is not None:
                self._images[message_id] = digest
        return changes

    def sent(self, message_id: int, message: HandMessage) -> None:
        """Message ``message_id`` was posted with ``message``'s image."""
        self._images[message_id] = hashlib.sha256(message.images()).hexdigest()


class Panels:
    """Opens, remembers and redraws the hand panels of every table."""

    def __init__(self, client: discord.Client, repo: Any) -> None:
        self.client = client
        self.repo: Repository = repo
        self._shown: dict[tuple[int, int], Hashable] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self.locales: dict[int, str] = {}
        """The language each person last used (panels follow their owner's locale)."""
        self.opened = 0
        self.pushed = 0
        self.images = Images()
        """The picture each hand message shows (uploaded again only when it changed)."""

    def edits(self, message_id: int | None, message: HandMessage) -> dict[str, Any]:
        """What an edit of hand message ``message_id`` must send to show ``message``."""
        return self.images.edits(message_id, message)

    def sent(self, message_id: int, message: HandMessage) -> None:
        """A hand message was posted with ``message``'s image."""
        self.images.sent(message_id, message)

    def lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((table_id, user_id), asyncio.Lock())

    def key(self, table: Table, seat: int) -> Hashable:
        """What the seat's panel offers now (taken before drawing it)."""
        spec = spec_of(table)
        return spec.panel_key(table, seat)

    def shown(self, table: Table, seat: int, key: Hashable) -> None:
        """The person's panel was just drawn from the options ``key`` stood for (taken
        before drawing: if the game moved on meanwhile, the next push redraws it)."""
        user_id = table.seats[seat].user_id
        if user_id is not None:
            self._shown[(table.id, user_id)] = key

    async def opened_panel(self, table: Table, seat: int, interaction: discord.Interaction[Any],
                           message_id: int, key: Hashable) -> None:
        """A new panel was posted through ``interaction``: it is the one to keep in step."""
        user_id = interaction.user.id
        self.locales[user_id] = str(interaction.locale.value if interaction.locale else "en")
        record = PanelRecord(user_id=user_id, application_id=int(interaction.application_id),
                             token=interaction.token, message_id=message_id,
                             created_at=datetime.now(UTC))
        try:
            await self.repo.save_panel(table.id, record)
        except StoreError as exc:
            # The panel is shown and kept in step; only a restart of the bot before the
            # person opens another one would forget it.
            log.warning("table %s: the hand panel of %s is not stored (%s)", table.id,
                        user_id, exc)
        table.record.panels[user_id] = record
        self.opened += 1
        self.shown(table, seat, key)

    async def renew(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """A click on the kept panel: from now on the panel is edited with the click's
        token (Discord makes the clicked message the click's original response), when
        the stored token is old enough to be worth the write."""
        panel = table.record.panels.get(interaction.user.id)
        message = interaction.message
        if panel is None or message is None or panel.message_id != message.id or \
                _age(panel) < RENEW_AFTER:
            return
        record = PanelRecord(user_id=panel.user_id,
                             application_id=int(interaction.application_id),
                             token=interaction.token, message_id=panel.message_id,
                             created_at=datetime.now(UTC))
        try:
            await self.repo.save_panel(table.id, record)
        except StoreError as exc:
            log.warning("table %s: the renewed panel of %s is not stored (%s)", table.id,
                        panel.user_id, exc)
        table.record.panels[panel.user_id] = record

    async def push(self, table: Table) -> None:
        """Redraw every open panel of the table whose options changed: while its game is
        played, and at its end. The move that ends a game records it (the table is
        finished) before its redraws run, whoever made it: a computer's, a timer's or
        another person's last move is shown by this redraw alone. An abandoned table's
        panels are left as they were."""
        if table.game is None or table.status not in FOLLOWED:
            return
        for seat in range(table.n_seats):
            user_id = table.seats[seat].user_id
            if user_id is None or table.kind(seat) is SeatKind.EMPTY:
                continue
            panel = table.record.panels.get(user_id)
            if panel is not None:
                await self._push_one(table, seat, panel)

    async def _push_one(self, table: Table, seat: int, panel: PanelRecord) -> None:
        key = (table.id, panel.user_id)
        spec = spec_of(table)
        async with self.lock(*key):
            while True:
                # The person may have opened a new panel while this push waited for the
                # lock: that one (drawn from older options, maybe) is the one to redraw.
                current = table.record.panels.get(panel.user_id)
                if current is None:
                    return
                panel = current
                if _age(panel) > TOKEN_LIFETIME - SAFETY:
                    await self.forget(table, panel.user_id)
                    return
                wanted = spec.panel_key(table, seat)
                if self._shown.get(key) == wanted:
                    return
                locale = self.locales.get(panel.user_id, table.record.locale)
                message = await spec.hand_message(table, seat, locale)
                if not await self._edit(panel, message):
                    await self.forget(table, panel.user_id)
                    return
                self.pushed += 1
                self._shown[key] = wanted

    async def _edit(self, panel: PanelRecord, message: HandMessage) -> bool:
        webhook = discord.Webhook.partial(panel.application_id, panel.token, client=self.client)
        try:
            await webhook.edit_message(panel.message_id, **self.edits(panel.message_id, message))
        except (discord.NotFound, discord.Forbidden):
            return False  # dismissed, or the token ran out
        except discord.HTTPException:
            log.warning("cannot redraw the hand panel of user %s", panel.user_id)
            return True
        return True

    async def forget(self, table: Table, user_id: int) -> None:
        """Stop following a panel (its token ran out or it was dismissed)."""
        table.record.panels.pop(user_id, None)
        self._shown.pop((table.id, user_id), None)
        try:
            await self.repo.delete_panel(table.id, user_id)
        except Exception:
            log.warning("cannot delete the panel of user %s at table %s", user_id, table.id)


def _age(panel: PanelRecord) -> float:
    created = panel.created_at if panel.created_at.tzinfo else \
        panel.created_at.replace(tzinfo=UTC)
    return (datetime.now(UTC) - created).total_seconds()
