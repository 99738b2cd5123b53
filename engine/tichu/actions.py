"""Tichu actions as small frozen records, and their JSON form (the replay contract's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, parse_card, rank_from_token, rank_token
from engine.errors import BadActionError, EngineError
from engine.fastinit import draft_class
from engine.tichu import cards as _tichu_cards  # noqa: F401  (registers the special cards)


@dataclass(frozen=True, slots=True)
class GrandTichu:
    seat: int


@dataclass(frozen=True, slots=True)
class DeclineGrand:
    seat: int


@dataclass(frozen=True, slots=True)
class CallTichu:
    seat: int


@dataclass(frozen=True, slots=True)
class Exchange:
    seat: int
    give: tuple[tuple[int, Card], ...]
    """(target seat, card) pairs, one per exchange target (see
    :meth:`~engine.tichu.view.TichuView.exchange_targets`)."""


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    cards: tuple[Card, ...]
    wish: int | None = None
    phoenix: int | None = None
    to: int | None = None
    """With the Dog: the partner who gets the lead (six players; needed when two
    partners still hold cards)."""


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class Gift:
    seat: int
    to: int


Action = GrandTichu | DeclineGrand | CallTichu | Exchange | Play | Pass | Gift

_PlayDraft = draft_class(Play)


def new_play(seat: int, cards: tuple[Card, ...], wish: int | None = None,
             phoenix: int | None = None, to: int | None = None) -> Play:
    """``Play(seat, cards, wish, phoenix, to)``, built as a sealed draft
    (:mod:`engine.fastinit`): the computer players build one for every card they
    play, and a frozen dataclass's own constructor makes a call per field."""
    draft = _PlayDraft()
    draft.seat = seat
    draft.cards = cards
    draft.wish = wish
    draft.phoenix = phoenix
    draft.to = to
    draft.__class__ = Play  # sealed (engine.fastinit.seal, written out)
    play: Play = draft
    return play


PASSES: tuple[Pass, ...] = tuple(Pass(seat) for seat in range(6))
"""``Pass(seat)`` for each seat, built once (actions are immutable values: the
computer players hand these out rather than build one for every pass)."""

_NAMES: dict[type, str] = {
    GrandTichu: "grand_tichu",
    DeclineGrand: "decline_grand",
    CallTichu: "tichu",
    Exchange: "exchange",
    Play: "play",
    Pass: "pass",
    Gift: "gift",
}


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise BadActionError(f"{what} must be a whole number, not {value!r}")
    return value


def _rank(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise BadActionError(f"{what} must be a rank such as \"7\" or \"A\", not {value!r}")
    try:
        return rank_from_token(value)
    except EngineError as exc:
        raise BadActionError(f"{what}: {exc}") from None


def action_from_json(data: Any) -> Action:
    """Build an action from its replay form; raises :class:`BadActionError` (or a card error)."""
    if not isinstance(data, Mapping):
        raise BadActionError(f"an action must be an object, not {data!r}")
    if "seat" not in data:
        raise BadActionError("an action needs a 'seat'")
    seat = _int(data["seat"], "seat")
    do = data.get("do")
    if do == "grand_tichu":
        return GrandTichu(seat)
    if do == "decline_grand":
        return DeclineGrand(seat)
    if do == "tichu":
        return CallTichu(seat)
    if do == "pass":
        return Pass(seat)
    if do == "gift":
        if "to" not in data:
            raise BadActionError("a gift needs 'to'")
        return Gift(seat, _int(data["to"], "to"))
    if do == "exchange":
        give = data.get("give")
        if not isinstance(give, Mapping):
            raise BadActionError("an exchange needs 'give': an object from seat to card")
        pairs = tuple((_int(k, "exchange target"), parse_card(v)) for k, v in give.items())
        return Exchange(seat, pairs)
    if do == "play":
        cards = data.get("cards")
        if not isinstance(cards, list):
            raise BadActionError("a play needs 'cards': a list of cards")
        # An empty list is read: playing no card is the game's to refuse (no combination).
        wish = data.get("wish")
        phoenix = data.get("phoenix")
        to = data.get("to")
        return Play(
            seat,
            tuple(parse_card(c) for c in cards),
            None if wish is None else _rank(wish, "wish"),
            None if phoenix is None else _rank(phoenix, "phoenix"),
            None if to is None else _int(to, "to"),
        )
    raise BadActionError(f"unknown action {do!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The replay form of an action."""
    out: dict[str, Any] = {"seat": action.seat, "do": _NAMES[type(action)]}
    if isinstance(action, Exchange):
        out["give"] = {str(target): format_cards([c])[0] for target, c in action.give}
    elif isinstance(action, Play):
        out["cards"] = format_cards(action.cards)
        if action.wish is not None:
            out["wish"] = rank_token(action.wish)
        if action.phoenix is not None:
            out["phoenix"] = rank_token(action.phoenix)
        if action.to is not None:
            out["to"] = action.to
    elif isinstance(action, Gift):
        out["to"] = action.to
    return out
