"""Tichu's own clicks on a seat's private panel, read into decisions: calls and their
confirmation, the exchange picks, the play menu, the wish, the Phoenix's reading, the
Dragon's gift.

:func:`read` is pure. The table service has found the seat and decided the click is
not stale before it reads; the engine checks whatever it returns (a play waiting for
its wish or its reading is checked before the question is asked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.tichu.hand import (
    KIND_ORDER,
    choice_step,
    draft_of,
    exchange_picks,
    exchange_targets,
    new_draft,
)
from bot.tables import Table, TableError, ids
from bot.tables.clicks import Decision, Draft, Move
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

SIMPLE: dict[str, Callable[[int], Action]] = {
    "grand": GrandTichu, "nogrand": DeclineGrand, "tichu": CallTichu, "pass": Pass}
LOOKS = ("ask", "cancel", "kind", "page")
"""Clicks that only change what the panel shows (kept in the seat's draft)."""


def read(table: Table, seat: int, click: ids.Click) -> Decision:
    """The decision of a click by ``seat`` now."""
    action = click.action
    if action == "ex":
        return _exchange_pick(table, seat, click)
    if action in LOOKS:
        return Draft(_draft_change(table, seat, click))
    if action in ("play", "cards"):
        cards = _chosen_cards(click)
        view = table.game.view(seat)
        if choice_step(view, cards) is not None:
            # The wish, the Phoenix's reading or the Dog's partner is asked next; the
            # play waits in the draft, once the engine allows it.
            targets = dog_targets(view)
            return Draft(new_draft(table, seat, dict(table.drafts.get(seat, {})),
                                   pending=ids.encode_cards(cards)),
                         provisional=Play(seat, cards, to=targets[0]
                                          if cards == (DOG,) and targets else None))
        return Move(Play(seat, cards))
    if action == "exok":
        return Move(_exchange(table, seat))
    return Move(_simple_action(seat, click))


def _exchange(table: Table, seat: int) -> Action:
    """The exchange of the picks in the seat's draft, one card to each target."""
    game = table.game
    picks = exchange_picks(game.view(seat), draft_of(table, seat))
    if game.phase is not Phase.EXCHANGE or any(c is None for c in picks):
        raise TableError("exchange_incomplete")
    targets = exchange_targets(game.view(seat))
    return Exchange(seat, tuple((tgt, c) for tgt, c in zip(targets, picks, strict=True)
                                if c is not None))


def _draft_change(table: Table, seat: int, click: ids.Click) -> dict[str, Any]:
    """A click that only changes what the panel shows: ask a confirmation, go back,
    look at another kind of play or another page."""
    action, arg = click.action, click.arg
    draft = dict(table.drafts.get(seat, {}))
    if action == "ask":
        if arg not in ("tichu", "grand"):
            raise TableError("forged")
        return new_draft(table, seat, draft, confirm=arg)
    if action == "cancel":
        kept = {k: v for k, v in draft.items() if k not in ("confirm", "pending")}
        return new_draft(table, seat, kept)
    if action == "kind":
        kind = click.one() or ""
        if kind not in KIND_ORDER:
            raise TableError("forged")
        return new_draft(table, seat, draft, kind=kind, page=0)
    if arg is None or not arg.lstrip("-").isdigit():
        raise TableError("forged")
    return new_draft(table, seat, draft, page=max(int(arg), 0))


def _exchange_pick(table: Table, seat: int, click: ids.Click) -> Draft:
    """A card picked for one of the exchange slots (three with four players, two with six):
    kept in the seat's draft."""
    game = table.game
    slot_text = click.arg or ""
    card = _one_card(click)
    if not slot_text.isdigit() or int(slot_text) > 2 or card is None:
        raise TableError("forged")
    slot = int(slot_text)
    view = game.view(seat)
    if game.phase is not Phase.EXCHANGE or view.exchanged[seat]:
        raise TableError("exchange_over")
    if slot >= len(exchange_targets(view)) or card not in view.hand:
        raise TableError("forged")
    current = draft_of(table, seat)
    picks = [None if c == card else (None if c is None else int(c))
             for c in exchange_picks(view, current)]
    picks[slot] = int(card)
    return Draft(new_draft(table, seat, current, ex=picks))


def _one_card(click: ids.Click) -> Card | None:
    value = click.one()
    if value is None or not value.isdigit() or int(value) >= len(DECK):
        return None
    return DECK[int(value)]


def _chosen_cards(click: ids.Click) -> tuple[Card, ...]:
    if click.action == "play":
        cards = ids.decode_cards(click.one())
    else:
        cards = ids.decode_cards(".".join(click.values))
    if cards is None:
        raise TableError("forged")
    return cards


def _simple_action(seat: int, click: ids.Click) -> Action:
    """The action of a button or a final select."""
    action = click.action
    if action in SIMPLE:
        return SIMPLE[action](seat)
    if action in ("gift", "dog"):
        if click.arg is None or not click.arg.isdigit():
            raise TableError("forged")
        target = int(click.arg)
        if action == "dog":
            return Play(seat, (DOG,), to=target)
        return Gift(seat, target)
    if action in ("wish", "phx"):
        cards = ids.decode_cards(click.arg)
        choice = click.one() or ""
        if cards is None or not (choice == "none" or (choice.isdigit() and 2 <= int(choice) <= 14)):
            raise TableError("forged")
        rank = None if choice == "none" else int(choice)
        if action == "wish":
            return Play(seat, cards, wish=rank)
        return Play(seat, cards, phoenix=rank)
    raise TableError("forged")
