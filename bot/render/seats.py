"""Seats, directions and short texts shared by the Tichu images.

Play goes from seat ``s`` to seat ``s + 1``, counter-clockwise as in Tichu:
seen from a seat, the next seat sits on its right, its partner across the
table (with six seats: its two partners two places away on either side) and the
previous seat on its left. The public table puts seat 0 at the bottom, so seat
1 is on the right, seat 2 at the top and seat 3 on the left.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from bot.render.draw import number as number
from bot.render.draw import signed as signed
from bot.render.labels import label
from engine.tichu.combos import Combo, Kind
from engine.tichu.view import TichuView


class Side(StrEnum):
    """Where a seat sits, seen from another seat."""

    SELF = "self"
    RIGHT = "right"
    PARTNER = "partner"
    LEFT = "left"
    ACROSS = "across"
    """With six seats: the opponent straight across the table."""


def side_of(me: int, other: int, n_seats: int = 4) -> Side:
    """Where ``other`` sits seen from ``me``: the next seat in play order is on the right,
    the previous one on the left. Seats an even number of places away are partners
    (one with four seats, two with six); with six, the seat three places away is
    :attr:`Side.ACROSS`."""
    offset = (other - me) % n_seats
    if offset == 0:
        return Side.SELF
    if offset == 1:
        return Side.RIGHT
    if offset == n_seats - 1:
        return Side.LEFT
    return Side.PARTNER if offset % 2 == 0 else Side.ACROSS


def seat_at(me: int, side: Side, n_seats: int = 4) -> int:
    """The seat at ``side`` of ``me`` (with six seats, :attr:`Side.PARTNER` is the
    partner two places on, on the right)."""
    offset = {Side.SELF: 0, Side.RIGHT: 1, Side.PARTNER: 2, Side.LEFT: n_seats - 1,
              Side.ACROSS: n_seats // 2}[side]
    return (me + offset) % n_seats


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
    """``"Alice & Chloé"`` for team 0 of four seats (seats 0 and 2), ``"Alice, Chloé & Eve"``
    for team 0 of six (seats 0, 2 and 4): teams alternate seats."""
    members = [seat_name(names, s) for s in range(n_seats) if s % 2 == team]
    if len(members) <= 2:
        return " & ".join(members)
    return f"{', '.join(members[:-1])} & {members[-1]}"


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
