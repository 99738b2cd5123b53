"""One place for every click: parse it, check who may do it, route it, answer it.

Refusals are ephemeral sentences in the clicker's language; nothing changes.
Lobby clicks and the table's public buttons are the same for every game; the
clicks on a seat's private message go to the table's game.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs import records
from bot.games.base import HandMessage
from bot.i18n import t
from bot.store.models import StoreError
from bot.tables import Table, TableError, ids
from bot.views.components import view_of
from bot.views.table import lobby_message
from engine.errors import EngineError

if TYPE_CHECKING:
    from bot.app import TichuBot
    from bot.tables import TableService

log = logging.getLogger(__name__)
LOBBY_ACTIONS = {"join", "leave", "cpu", "start"}
NEW_MESSAGE_ACTIONS = {"hand", "bomb", "rules"}


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


class Controller:
    """Routes component interactions to the table service and answers them."""

    def __init__(self, bot: TichuBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def refuse(self, interaction: discord.Interaction[Any], code: str,
                     **values: Any) -> None:
        """An ephemeral refusal in the clicker's language."""
        text = t(locale_of(interaction), f"error.{code}", **values)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str,
                     values: list[str]) -> None:
        cid = ids.parse(custom_id)
        if cid is None:
            await self.refuse(interaction, "forged")
            return
        # Answer Discord at once, before any lock or drawing: the outcome (a redrawn
        # message, or a refusal) follows. A busy table can never make a click time out.
        if cid.action in NEW_MESSAGE_ACTIONS or cid.action in records.EPHEMERAL_ACTIONS:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        try:
            await self._dispatch(interaction, cid, values)
        except TableError as exc:
            await self.refuse(interaction, exc.code, **exc.values)
        except EngineError as exc:
            await self.refuse(interaction, f"engine.{exc.code}")
        except StoreError:
            log.exception("store failure on %s", custom_id)
            await self.refuse(interaction, "store_failed")

    async def _dispatch(self, interaction: discord.Interaction[Any], cid: ids.ComponentId,
                        values: list[str]) -> None:
        action = cid.action
        if action in records.RECORD_ACTIONS:
            await records.handle_component(self.bot, interaction, cid, values)
            return
        if action in LOBBY_ACTIONS:
            await self._lobby(interaction, cid, values)
            return
        table = await self.service.get(cid.table)
        locale = locale_of(interaction)
        if action == "rules":
            await interaction.followup.send(t(locale, f"rules.{table.spec.name}"), ephemeral=True)
            return
        if table.game is None:
            raise TableError("not_playing")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if action in ("hand", "bomb"):
            message = await table.spec.hand_message(table, seat, locale,
                                                    bombs_only=action == "bomb")
            await interaction.followup.send(message.content, files=message.files(),
                                            view=message.view, ephemeral=True)
            return
        if action == "refresh":
            await self.show(interaction, table, seat, locale)
            return
        if cid.seq is not None and cid.seq != table.seq:
            raise TableError("stale")
        await table.spec.handle(self, interaction, table, seat, cid, values, locale)

    # ------------------------------------------------- helpers for the games
    async def act(self, interaction: discord.Interaction[Any], table: Table,
                  cid: ids.ComponentId, make: Any, locale: str) -> None:
        """Apply the clicker's action (``make(seat)``), then redraw their message."""
        await self.service.act(table.id, interaction.user.id, cid.seq, make)
        seat = table.seat_of(interaction.user.id)
        if seat is not None and table.game is not None:
            await self.show(interaction, table, seat, locale)

    async def show(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                   locale: str, message: HandMessage | None = None) -> None:
        """Redraw the clicker's private message (the click is already acknowledged)."""
        message = message or await table.spec.hand_message(table, seat, locale)
        await interaction.edit_original_response(content=message.content,
                                                 attachments=message.files(), view=message.view)

    async def ask(self, interaction: discord.Interaction[Any],
                  items: list[discord.ui.Item[discord.ui.View]], locale: str, key: str) -> None:
        """Replace the private message's controls with a follow-up question."""
        await interaction.edit_original_response(content=t(locale, key), view=view_of(*items))

    # ----------------------------------------------------------------- lobby
    async def _lobby(self, interaction: discord.Interaction[Any], cid: ids.ComponentId,
                     values: list[str]) -> None:
        user = interaction.user
        service = self.service
        if cid.action == "join":
            if cid.arg is None or not cid.arg.isdigit():
                raise TableError("forged")
            table = await service.join(cid.table, user.id, user.display_name, int(cid.arg))
        elif cid.action == "leave":
            table = await service.leave(cid.table, user.id)
        elif cid.action == "cpu":
            seat_text, _, level = (values[0] if values else "").partition(".")
            if not seat_text.isdigit():
                raise TableError("forged")
            table = await service.set_computer(cid.table, user.id, int(seat_text),
                                               None if level == "none" else level)
        else:
            table = await service.start(cid.table, user.id)
        message = lobby_message(table, table.record.locale)
        if table.game is not None:
            message.content += "\n" + t(table.record.locale, "lobby.started",
                                        where=f"<#{table.channel_id}>")
        await interaction.edit_original_response(content=message.content, view=message.view)
