"""Tysiacha arithmetic: rounding defenders' points, and the totals with their barrel.

Kept apart from the state machine so that each rule of the score sheet is one
small function that the tests can read case by case.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

TARGET = 1000
BARREL = 880
"""A total landing from here up to 999 is set here: the player is "on the barrel"."""
BARREL_DEALS = 3
PENALTY = 120
"""Falling off the barrel, the third and later misses, the third and later concessions."""
CONCESSION_POINTS = 60
FREE_CONCESSIONS = 2
FREE_MISSES = 2
MIN_BID = 100
BID_STEP = 5


class Rounding(IntEnum):
    """How defenders' card points are rounded: the rule text's examples (to 10, 5 up)
    by default, or to the nearest 5 as many Russian tables play."""

    TEN = 10
    FIVE = 5


def round_points(points: int, rounding: Rounding = Rounding.TEN) -> int:
    """To the nearest 10 with 5 going up (36 -> 40, 35 -> 40, 34 -> 30); or to the
    nearest 5, a remainder of 1-2 going down and 3-4 up (33 -> 35, 32 -> 30)."""
    if rounding is Rounding.TEN:
        return (points + 5) // 10 * 10
    return (points + 2) // 5 * 5


def contract_made(points: int, marriages: int, contract: int) -> bool:
    """The soloist's unrounded card points plus marriages must reach the contract."""
    return points + marriages >= contract


def concession_cost(concessions: int) -> int:
    """What conceding costs the soloist, ``concessions`` counting this one."""
    return 0 if concessions <= FREE_CONCESSIONS else -PENALTY


def miss_cost(misses: int) -> int:
    """What a trickless deal costs a defender, ``misses`` counting this one."""
    return 0 if misses <= FREE_MISSES else -PENALTY


@dataclass(frozen=True, slots=True)
class Settled:
    """A seat's total after a deal, and its place on the barrel."""

    total: int
    barrel: int | None
    """Deals left on the barrel, or None when off it."""
    fell: bool = False
    """The barrel's deals ran out: the seat lost 120 and left it."""


def settle(total: int, earned: int, barrel: int | None, *, took_part: bool) -> Settled:
    """Add ``earned`` to ``total`` under the barrel rules.

    A total landing on 880..999 is set to 880. A seat newly there gets three deals;
    each later deal it takes part in uses one, until it reaches 1000 (only a won
    contract can do it, as defender points do not count on the barrel). Leaving
    880 downwards (a lost contract, a penalty) takes it off the barrel with no
    further cost. If the third deal ends with the seat still at 880, it loses 120.
    """
    new = total + earned
    if new >= TARGET or new < BARREL:
        return Settled(new, None)
    if barrel is None:
        return Settled(BARREL, BARREL_DEALS)
    left = barrel - 1 if took_part else barrel
    if left <= 0:
        return Settled(BARREL - PENALTY, None, fell=True)
    return Settled(BARREL, left)
