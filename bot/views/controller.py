"""One place for every click: parse it, check who may do it, route it, answer it.

Refusals are ephemeral sentences in the clicker's language; nothing changes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.store.models import StoreError
from bot.tables import Table, TableError, ids
from bot.views.components import view_of
from bot.views.hand import (
    HandMessage,
    choice_step,
    exchange_targets,
    hand_message,
    parse_exchange_state,
    phoenix_items,
    wish_items,
)
from bot.views.table import lobby_message
from engine.cards import Card
from engine.errors import EngineError
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DECK
from engine.tichu.view import Phase

if TYPE_CHECKING:
    from bot.app import TichuBot

log = logging.getLogger(__name__)
LOBBY_ACTIONS = {"join", "leave", "cpu", "start"}
PUBLIC_ACTIONS = {"hand", "bomb", "rules", "refresh"}


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


class Controller:
    """Routes component interactions to the table service and answers them."""

    def __init__(self, bot: TichuBot) -> None:
        self.bot = bot

    @property
    def service(self):  # type: ignore[no-untyped-def]
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
        if cid.action in PUBLIC_ACTIONS - {"refresh"}:
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
        user = interaction.user
        action = cid.action
        if action in LOBBY_ACTIONS:
            await self._lobby(interaction, cid, values)
            return
        table = await self.service.get(cid.table)
        locale = locale_of(interaction)
        if action == "rules":
            await interaction.followup.send(t(locale, "rules.summary"), ephemeral=True)
            return
        if table.game is None:
            raise TableError("not_playing")
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("not_seated")
        if action in ("hand", "bomb"):
            message = await hand_message(table, seat, locale, bombs_only=action == "bomb")
            await interaction.followup.send(message.content, file=message.file(),
                                            view=message.view, ephemeral=True)
            return
        if action == "refresh":
            await self._show(interaction, table, seat, locale)
            return
        if cid.seq is not None and cid.seq != table.seq:
            raise TableError("stale")
        if action == "ex":
            await self._exchange_choice(interaction, table, seat, cid, values, locale)
            return
        if action in ("play", "cards"):
            cards = _chosen_cards(action, values)
            step = choice_step(table.game.view(seat), cards)
            if step == "wish":
                await self._ask(interaction, table, seat, locale, wish_items(table, cards, locale),
                                "hand.choose_wish")
                return
            if step == "phoenix":
                await self._ask(interaction, table, seat, locale,
                                phoenix_items(table, table.game.view(seat), cards, locale),
                                "hand.choose_phoenix")
                return
            await self._act(interaction, table, cid, lambda s: Play(s, cards), locale)
            return
        made = _simple_action(cid, values, table, seat)
        await self._act(interaction, table, cid, made, locale)

    async def _act(self, interaction: discord.Interaction[Any], table: Table,
                   cid: ids.ComponentId, make: Any, locale: str) -> None:
        await self.service.act(table.id, interaction.user.id, cid.seq, make)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.game is None:
            return
        await self._show(interaction, table, seat, locale)

    async def _show(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                    locale: str, message: HandMessage | None = None) -> None:
        """Redraw the clicker's hand message (the click is already acknowledged)."""
        message = message or await hand_message(table, seat, locale)
        await interaction.edit_original_response(content=message.content,
                                                 attachments=[message.file()], view=message.view)

    async def _ask(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                   locale: str, items: list[discord.ui.Item[discord.ui.View]], key: str) -> None:
        await interaction.edit_original_response(content=t(locale, key), view=view_of(*items))

    async def _exchange_choice(self, interaction: discord.Interaction[Any], table: Table,
                               seat: int, cid: ids.ComponentId, values: list[str],
                               locale: str) -> None:
        assert table.game is not None
        if table.game.phase is not Phase.EXCHANGE:
            raise TableError("stale")
        arg = cid.arg or ""
        slot_text, _, state_text = arg.partition(".")
        state = parse_exchange_state(state_text)
        card = _one_card(values)
        if state is None or not slot_text.isdigit() or int(slot_text) > 2 or card is None:
            raise TableError("forged")
        if card not in table.game.hands[seat]:
            raise TableError("forged")
        chosen = list(state)
        chosen = [None if c == card else c for c in chosen]
        chosen[int(slot_text)] = card
        message = await hand_message(table, seat, locale,
                                     exchange=(chosen[0], chosen[1], chosen[2]))
        await self._show(interaction, table, seat, locale, message)

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


def _one_card(values: list[str]) -> Card | None:
    if len(values) != 1 or not values[0].isdigit() or int(values[0]) >= len(DECK):
        return None
    return DECK[int(values[0])]


def _chosen_cards(action: str, values: list[str]) -> tuple[Card, ...]:
    if action == "play":
        cards = ids.decode_cards(values[0] if len(values) == 1 else None)
    else:
        cards = ids.decode_cards(".".join(values))
    if cards is None:
        raise TableError("forged")
    return cards


def _simple_action(cid: ids.ComponentId, values: list[str], table: Table, seat: int):  # type: ignore[no-untyped-def]
    """The action of a button or a final select, built for the clicker's seat."""
    action = cid.action
    if action == "grand":
        return GrandTichu
    if action == "nogrand":
        return DeclineGrand
    if action == "tichu":
        return CallTichu
    if action == "pass":
        return Pass
    if action == "gift":
        if cid.arg is None or not cid.arg.isdigit():
            raise TableError("forged")
        target = int(cid.arg)
        return lambda s: Gift(s, target)
    if action == "exok":
        state = parse_exchange_state(cid.arg)
        if state is None or any(c is None for c in state):
            raise TableError("exchange_incomplete")
        assert table.game is not None
        targets = exchange_targets(table.game.view(seat))

        def exchange(s: int) -> Action:
            return Exchange(s, tuple((tgt, c) for tgt, c in zip(targets, state, strict=True)
                                     if c is not None))
        return exchange
    if action in ("wish", "phx"):
        cards = ids.decode_cards(cid.arg)
        choice = values[0] if len(values) == 1 else ""
        if cards is None or not (choice == "none" or (choice.isdigit() and 2 <= int(choice) <= 14)):
            raise TableError("forged")
        rank = None if choice == "none" else int(choice)
        if action == "wish":
            return lambda s: Play(s, cards, wish=rank)
        return lambda s: Play(s, cards, phoenix=rank)
    raise TableError("forged")
