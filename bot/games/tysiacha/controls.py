"""Tysiacha's own clicks on a seat's private message: bids, passes, the prikup (raise,
concede, the two gifts), the four-nines redeal and the plays. Already acknowledged and
checked for staleness by the controller."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import Responder
from bot.games.tysiacha.hand import gift_targets, hand_message, parse_gift_state
from bot.tables import Table, TableError, ids
from engine.cards import ALL
from engine.tysiacha.actions import Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.view import Phase


def _number(text: str | None) -> int:
    if text is None or not text.isdigit() or len(text) > 4:
        raise TableError("forged")
    return int(text)


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise TableError("forged")
    return values[0]


async def handle(controller: Responder, interaction: discord.Interaction[Any], table: Table,
                 seat: int, cid: ids.ComponentId, values: list[str], locale: str) -> None:
    action = cid.action
    if action == "gv":
        await _gift_choice(controller, interaction, table, seat, cid, values, locale)
        return
    await controller.act(interaction, table, cid, _make(table, seat, cid, values), locale)


async def _gift_choice(controller: Responder, interaction: discord.Interaction[Any],
                       table: Table, seat: int, cid: ids.ComponentId, values: list[str],
                       locale: str) -> None:
    """A card picked for one of the two opponents: redraw with the choice kept."""
    game = table.game
    if game.phase is not Phase.PRIKUP or game.turn != seat:
        raise TableError("stale")
    slot_text, _, state_text = (cid.arg or "").partition(".")
    state = parse_gift_state(state_text)
    value = _one(values)
    if state is None or slot_text not in ("0", "1") or not value.isdigit() \
            or int(value) >= 52 or ALL[int(value)] not in game.hands[seat]:
        raise TableError("forged")
    card = ALL[int(value)]
    slot = int(slot_text)
    chosen = [None if c == card else c for c in state]
    chosen[slot] = card
    message = await hand_message(table, seat, locale, gifts=(chosen[0], chosen[1]))
    await controller.show(interaction, table, seat, locale, message)


def _make(table: Table, seat: int, cid: ids.ComponentId, values: list[str]) -> Any:
    """The action of a button or a final select, built for the clicker's seat."""
    action = cid.action
    if action == "bid":
        amount = _number(cid.arg)
        return lambda s: Bid(s, amount)
    if action == "bids":
        amount = _number(_one(values))
        return lambda s: Bid(s, amount)
    if action == "raise":
        amount = _number(_one(values))
        return lambda s: Raise(s, amount)
    if action == "pass":
        return Pass
    if action == "concede":
        return Concede
    if action == "redeal":
        return Redeal
    if action == "give":
        state = parse_gift_state(cid.arg)
        if state is None or state[0] is None or state[1] is None:
            raise TableError("tysiacha_gifts_incomplete")
        game = table.game
        if game.phase is not Phase.PRIKUP:
            raise TableError("stale")
        targets = gift_targets(game.view(seat))
        give = ((targets[0], state[0]), (targets[1], state[1]))
        return lambda s: Give(s, give)
    if action == "play":
        value = _one(values)
        marriage = value.startswith("m")
        number = _number(value[1:] if marriage else value)
        if number >= 52:
            raise TableError("forged")
        card = ALL[number]
        return lambda s: Play(s, card, marriage)
    raise TableError("forged")
