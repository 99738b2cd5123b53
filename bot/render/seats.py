"""Seats, directions and short texts shared by the Tichu images.

Play goes from seat ``s`` to seat ``s + 1``, counter-clockwise as in Tichu:
seen from a seat, the next seat sits on its right, its partner across the
table and the previous seat on its left. The public table puts seat 0 at the
bottom, so seat 1 is on the right, seat 2 at the top and seat 3 on the left.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from bot.render.labels import label
from engine.tichu.combos import Combo, Kind
from engine.tichu.view import TichuView


class Side(StrEnum):
    """Where a seat sits, seen from another seat."""

    SELF = "self"
    RIGHT = "right"
    PARTNER = "partner"
    LEFT = "left"


_SIDES = (Side.SELF, Side.RIGHT, Side.PARTNER, Side.LEFT)


def side_of(me: int, other: int, n_seats: int = 4) -> Side:
    """Where ``other`` sits seen from ``me``: the next seat in play order is on the right."""
    return _SIDES[(other - me) % n_seats]


def seat_at(me: int, side: Side, n_seats: int = 4) -> int:
    """The seat at ``side`` of ``me``."""
    return (me + _SIDES.index(side)) % n_seats


def rank_text(rank: float) -> str:
    """A rank as players say it: 2..10, J, Q, K, A (and 1 for the Mahjong)."""
    r = int(rank)
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(r, str(r))


def seat_name(names: Sequence[str], seat: int) -> str:
    """The name of ``seat``, or a neutral fallback for a missing or blank name."""
    if 0 <= seat < len(names) and names[seat].strip():
        return names[seat].strip()
    return f"#{seat + 1}"


def team_name(names: Sequence[str], team: int, n_seats: int = 4) -> str:
    """``"Alice & Chloé"`` for team 0 (seats 0 and 2), and so on."""
    return " & ".join(seat_name(names, s) for s in range(n_seats) if s % 2 == team)


def combo_text(combo: Combo, locale: str) -> str:
    """A short description of a play: ``pair``, ``straight (6)``, ``bomb``..."""
    text = label(locale, f"kind_{combo.kind.value}")
    if combo.kind in (Kind.STRAIGHT, Kind.STAIRS, Kind.STRAIGHT_FLUSH):
        text += f" ({combo.length})"
    return text


def check_names(view: TichuView, names: Sequence[str]) -> None:
    """Refuse a names list that does not cover every seat."""
    if len(names) < view.n_seats:
        raise ValueError(f"need {view.n_seats} names, got {len(names)}")
