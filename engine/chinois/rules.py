"""Chinois arithmetic: the round schedule, the dealer, "tout sauf", scoring and the rating.

Plain functions of numbers, so the game, the views, the computer players and
the bot's screens all read the same schedule.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from engine.errors import BadActionError

N_SEATS = 4
ROUNDS = 28
MAX_CARDS = 13
FIRST_DEALER = 3
"""Round 1 is dealt by seat 3, so seat 0 bids and leads first."""

EXACT_BONUS = 10
PER_TRICK = 2


def check_round(round_: int) -> None:
    """Raise :class:`BadActionError` unless ``round_`` is a whole number 1..28."""
    if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= ROUNDS:
        raise BadActionError(f"a round is numbered 1 to {ROUNDS}, not {round_!r}")


def cards_in_round(round_: int) -> int:
    """Cards per seat: 1..12 going up, four rounds of 13, then 12 down to 1."""
    check_round(round_)
    if round_ <= 12:
        return round_
    if round_ <= 16:
        return MAX_CARDS
    return ROUNDS + 1 - round_


def has_trump(round_: int) -> bool:
    """Rounds of 13 cards deal the whole deck, so no card is left to turn up."""
    return cards_in_round(round_) < MAX_CARDS


def scheduled_dealer(round_: int) -> int:
    """The dealer of ``round_`` when the deal moves one seat on each round."""
    check_round(round_)
    return (FIRST_DEALER + round_ - 1) % N_SEATS


def bidding_order(dealer: int) -> tuple[int, ...]:
    """Seats in bidding order: the seat after the dealer first, the dealer last."""
    return tuple((dealer + step) % N_SEATS for step in range(1, N_SEATS + 1))


def forbidden_bid(n_cards: int, earlier_bids: Iterable[int]) -> int | None:
    """The dealer's "tout sauf" number: the bid that would make the bids add up to
    the number of tricks, or None when that number is out of range."""
    rest = n_cards - sum(earlier_bids)
    return rest if 0 <= rest <= n_cards else None


def deal_score(bid: int, tricks: int) -> int:
    """Exactly the bid: 10 + 2 per trick taken; otherwise -2 per trick of difference."""
    if tricks == bid:
        return EXACT_BONUS + PER_TRICK * tricks
    return -PER_TRICK * abs(tricks - bid)


class Rating(StrEnum):
    """The rule text's grid for a final score (codes the bot translates)."""

    HIGH_SCORE = "high_score"
    REMARKABLE = "remarkable"
    GOOD = "good"
    AVERAGE = "average"
    WEAK = "weak"
    BAD_SCORE = "bad_score"


_RATING_FLOORS = (
    (250, Rating.REMARKABLE),
    (200, Rating.GOOD),
    (150, Rating.AVERAGE),
    (100, Rating.WEAK),
)


def rating(score: int) -> Rating:
    """The grid of the text. Its bands share their edges ("between 250 and 300",
    "between 200 and 250"); an edge belongs to the band it opens, so 250 is
    remarkable and 100 is weak, while "high score" needs strictly more than 300."""
    if score > 300:
        return Rating.HIGH_SCORE
    for floor, grade in _RATING_FLOORS:
        if score >= floor:
            return grade
    return Rating.BAD_SCORE
