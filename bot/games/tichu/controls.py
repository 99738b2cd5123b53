"""Tichu's own clicks on a seat's private panel: calls and their confirmation, the
exchange picks, the play menu, the wish, the Phoenix's reading, the Dragon's gift.
Already acknowledged by the controller; the engine checks every action again."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import Responder
from bot.games.tichu.hand import (
    KIND_ORDER,
    choice_step,
    draft_of,
    exchange_picks,
    exchange_targets,
    new_draft,
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
from engine.tichu.cards import DECK, DOG
from engine.tichu.legal import dog_targets
from engine.tichu.view import Phase

SIMPLE = {"grand": GrandTichu, "nogrand": DeclineGrand, "tichu": CallTichu, "pass": Pass}


async def handle(responder: Responder, interaction: discord.Interaction[Any], table: Table,
                 seat: int, cid: ids.ComponentId, values: list[str], locale: str) -> None:
    action = cid.action
    game = table.game
    if action == "ex":
        await _exchange_pick(responder, interaction, table, cid, values, locale)
        return
    if action in ("ask", "cancel", "kind", "page"):
        await responder.draft(interaction, table, _draft_change(table, cid, values), locale)
        return
    if action in ("play", "cards"):
        cards = _chosen_cards(action, values)
        if choice_step(game.view(seat), cards) is not None:
            # The wish or the Phoenix's reading is asked next; the play waits in the draft.
            if cid.seq is not None and cid.seq != table.moves[seat]:
                raise TableError("stale")
            targets = dog_targets(game.view(seat))
            game.check(Play(seat, cards, to=targets[0] if cards == (DOG,) and targets else None))
            await responder.draft(interaction, table, lambda s, d: new_draft(
                table, s, d, pending=ids.encode_cards(cards)), locale)
            return
        await responder.act(interaction, table, cid, lambda s: Play(s, cards), locale)
        return
    if action == "exok":
        picks = exchange_picks(game.view(seat), draft_of(table, seat))
        if game.phase is not Phase.EXCHANGE or any(c is None for c in picks):
            raise TableError("exchange_incomplete")
        targets = exchange_targets(game.view(seat))

        def exchange(s: int) -> Action:
            return Exchange(s, tuple((tgt, c) for tgt, c in zip(targets, picks, strict=True)
                                     if c is not None))
        await responder.act(interaction, table, cid, exchange, locale)
        return
    await responder.act(interaction, table, cid, _simple_action(cid, values), locale)


def _draft_change(table: Table, cid: ids.ComponentId, values: list[str]) -> Any:
    """A click that only changes what the panel shows: ask a confirmation, go back,
    look at another kind of play or another page."""
    action, arg = cid.action, cid.arg

    def change(seat: int, draft: dict[str, Any]) -> dict[str, Any] | None:
        if cid.seq is not None and cid.seq != table.moves[seat]:
            raise TableError("stale")
        if action == "ask":
            if arg not in ("tichu", "grand"):
                raise TableError("forged")
            return new_draft(table, seat, draft, confirm=arg)
        if action == "cancel":
            kept = {k: v for k, v in draft.items() if k not in ("confirm", "pending")}
            return new_draft(table, seat, kept)
        if action == "kind":
            kind = values[0] if len(values) == 1 else ""
            if kind not in KIND_ORDER:
                raise TableError("forged")
            return new_draft(table, seat, draft, kind=kind, page=0)
        if arg is None or not arg.lstrip("-").isdigit():
            raise TableError("forged")
        return new_draft(table, seat, draft, page=max(int(arg), 0))
    return change


async def _exchange_pick(responder: Responder, interaction: discord.Interaction[Any],
                         table: Table, cid: ids.ComponentId, values: list[str],
                         locale: str) -> None:
    """A card picked for one of the exchange slots (three with four players, two with six):
    kept in the seat's draft."""
    game = table.game
    slot_text = cid.arg or ""
    card = _one_card(values)
    if not slot_text.isdigit() or int(slot_text) > 2 or card is None:
        raise TableError("forged")
    slot = int(slot_text)

    def pick(seat: int, draft: dict[str, Any]) -> dict[str, Any]:
        view = game.view(seat)
        if game.phase is not Phase.EXCHANGE or view.exchanged[seat]:
            raise TableError("exchange_over")
        if slot >= len(exchange_targets(view)):
            raise TableError("forged")
        if card not in view.hand:
            raise TableError("forged")
        current = draft_of(table, seat)
        picks = [None if c == card else (None if c is None else int(c))
                 for c in exchange_picks(view, current)]
        picks[slot] = int(card)
        return new_draft(table, seat, current, ex=picks)
    await responder.draft(interaction, table, pick, locale)


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


def _simple_action(cid: ids.ComponentId, values: list[str]) -> Any:
    """The action of a button or a final select, built for the clicker's seat."""
    action = cid.action
    if action in SIMPLE:
        return SIMPLE[action]
    if action in ("gift", "dog"):
        if cid.arg is None or not cid.arg.isdigit():
            raise TableError("forged")
        target = int(cid.arg)
        if action == "dog":
            return lambda s: Play(s, (DOG,), to=target)
        return lambda s: Gift(s, target)
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
