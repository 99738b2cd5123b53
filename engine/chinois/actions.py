"""Chinois actions as small frozen records, and their JSON form (the replay contract's)."""

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
class Play:
    seat: int
    card: Card


Action = Bid | Play


def action_from_json(data: Any) -> Action:
    """Build an action from its replay form; raises :class:`BadActionError` (or a card error)."""
    if not isinstance(data, Mapping):
        raise BadActionError(f"an action must be an object, not {data!r}")
    if "seat" not in data:
        raise BadActionError("an action needs a 'seat'")
    seat = whole_number(data["seat"], "seat")
    do = data.get("do")
    if do == "bid":
        if "bid" not in data:
            raise BadActionError("a bid needs 'bid'")
        return Bid(seat, whole_number(data["bid"], "bid"))
    if do == "play":
        if "card" not in data:
            raise BadActionError("a play needs 'card'")
        return Play(seat, natural_card(data["card"]))
    raise BadActionError(f"unknown action {do!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The replay form of an action."""
    if isinstance(action, Bid):
        return {"seat": action.seat, "do": "bid", "bid": action.bid}
    return {"seat": action.seat, "do": "play", "card": str(action.card)}
