"""Tichu's own clicks on a seat's private message: calls, the exchange, plays, the wish,
the Phoenix's reading, the Dragon's gift. Already acknowledged and checked for
staleness by the controller."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.games.tichu.hand import (
    choice_step,
    exchange_targets,
    hand_message,
    parse_exchange_state,
    phoenix_items,
    wish_items,
)
from bot.tables import Table, TableError, ids
from engine.cards import Card
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
    from bot.views.controller import Controller


async def handle(controller: Controller, interaction: discord.Interaction[Any], table: Table,
                 seat: int, cid: ids.ComponentId, values: list[str], locale: str) -> None:
    action = cid.action
    game = table.game
    if action == "ex":
        await _exchange_choice(controller, interaction, table, seat, cid, values, locale)
        return
    if action in ("play", "cards"):
        cards = _chosen_cards(action, values)
        step = choice_step(game.view(seat), cards)
        if step == "wish":
            await controller.ask(interaction, wish_items(table, cards, locale), locale,
                                 "hand.choose_wish")
            return
        if step == "phoenix":
            await controller.ask(interaction, phoenix_items(table, game.view(seat), cards, locale),
                                 locale, "hand.choose_phoenix")
            return
        await controller.act(interaction, table, cid, lambda s: Play(s, cards), locale)
        return
    await controller.act(interaction, table, cid, _simple_action(cid, values, table, seat), locale)


async def _exchange_choice(controller: Controller, interaction: discord.Interaction[Any],
                           table: Table, seat: int, cid: ids.ComponentId, values: list[str],
                           locale: str) -> None:
    """A card picked for one of the three exchange slots: redraw with the choice."""
    game = table.game
    if game.phase is not Phase.EXCHANGE:
        raise TableError("stale")
    slot_text, _, state_text = (cid.arg or "").partition(".")
    state = parse_exchange_state(state_text)
    card = _one_card(values)
    if state is None or not slot_text.isdigit() or int(slot_text) > 2 or card is None \
            or card not in game.hands[seat]:
        raise TableError("forged")
    chosen = [None if c == card else c for c in state]
    chosen[int(slot_text)] = card
    message = await hand_message(table, seat, locale, exchange=(chosen[0], chosen[1], chosen[2]))
    await controller.show(interaction, table, seat, locale, message)


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


def _simple_action(cid: ids.ComponentId, values: list[str], table: Table,
                   seat: int) -> Any:
    """The action of a button or a final select, built for the clicker's seat."""
    action = cid.action
    simple = {"grand": GrandTichu, "nogrand": DeclineGrand, "tichu": CallTichu, "pass": Pass}
    if action in simple:
        return simple[action]
    if action == "gift":
        if cid.arg is None or not cid.arg.isdigit():
            raise TableError("forged")
        target = int(cid.arg)
        return lambda s: Gift(s, target)
    if action == "exok":
        state = parse_exchange_state(cid.arg)
        if state is None or any(c is None for c in state):
            raise TableError("exchange_incomplete")
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
