"""Tysiacha actions as small frozen records, and their JSON form (the replay contract's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.errors import BadActionError
from engine.trick import natural_card, whole_number


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class Raise:
    """The soloist raises its contract after taking the prikup."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Concede:
    """"Rospisat": the soloist gives the deal up before play."""

    seat: int


@dataclass(frozen=True, slots=True)
class Give:
    seat: int
    give: tuple[tuple[int, Card], ...]
    """(opponent seat, card) pairs, one per opponent."""


@dataclass(frozen=True, slots=True)
class Redeal:
    """A seat holding the four 9s after the giving asks for a new deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card
    marriage: bool = False
    """Declare the marriage of this King or Queen with the lead."""


Action = Bid | Pass | Raise | Concede | Give | Redeal | Play

_NAMES: dict[type, str] = {
    Bid: "bid", Pass: "pass", Raise: "raise", Concede: "concede", Give: "give",
    Redeal: "redeal", Play: "play",
}


def action_from_json(data: Any) -> Action:
    """Build an action from its replay form; raises :class:`BadActionError` (or a card error)."""
    if not isinstance(data, Mapping):
        raise BadActionError(f"an action must be an object, not {data!r}")
    if "seat" not in data:
        raise BadActionError("an action needs a 'seat'")
    seat = whole_number(data["seat"], "seat")
    do = data.get("do")
    if do in ("bid", "raise"):
        if "bid" not in data:
            raise BadActionError(f"a {do} needs 'bid'")
        amount = whole_number(data["bid"], "bid")
        return Bid(seat, amount) if do == "bid" else Raise(seat, amount)
    if do == "pass":
        return Pass(seat)
    if do == "concede":
        return Concede(seat)
    if do == "redeal":
        return Redeal(seat)
    if do == "give":
        give = data.get("give")
        if not isinstance(give, Mapping):
            raise BadActionError("a give needs 'give': an object from opponent seat to card")
        return Give(seat, tuple((whole_number(k, "give target"), natural_card(v))
                                for k, v in give.items()))
    if do == "play":
        if "card" not in data:
            raise BadActionError("a play needs 'card'")
        marriage = data.get("marriage", False)
        if not isinstance(marriage, bool):
            raise BadActionError(f"'marriage' must be true or false, not {marriage!r}")
        return Play(seat, natural_card(data["card"]), marriage)
    raise BadActionError(f"unknown action {do!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The replay form of an action."""
    out: dict[str, Any] = {"seat": action.seat, "do": _NAMES[type(action)]}
    if isinstance(action, (Bid, Raise)):
        out["bid"] = action.bid
    elif isinstance(action, Give):
        out["give"] = {str(target): str(c) for target, c in action.give}
    elif isinstance(action, Play):
        out["card"] = str(action.card)
        if action.marriage:
            out["marriage"] = True
    return out
