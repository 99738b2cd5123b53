"""The Tysiacha deck: 24 cards from the 9 to the Ace, their points and the marriages."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card, card, french_deck
from engine.trick import ACE_TEN_ORDER

DECK: tuple[Card, ...] = tuple(french_deck(9))
"""9c 9d 9h 9s Tc ... As: the 24 cards, 120 points in all."""

ORDER = ACE_TEN_ORDER
"""A 10 K Q J 9 in every suit."""

NINE, TEN, JACK, QUEEN, KING, ACE = 9, 10, 11, 12, 13, 14
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

_RANK_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2, NINE: 0}
POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(c // 4 + 2, 0) for c in range(52))
"""Card points by card value (cards outside the deck score 0)."""

TOTAL_POINTS = 120
MARRIAGE_VALUES: dict[int, int] = {HEARTS: 100, DIAMONDS: 80, CLUBS: 60, SPADES: 40}
"""A King and Queen of one suit, by suit."""

NINES: frozenset[Card] = frozenset(card(NINE, s) for s in range(4))


def card_points(cards: Iterable[int]) -> int:
    """The points of a pile of cards."""
    return sum(POINTS[c] for c in cards)


def marriage_partner(c: Card) -> Card | None:
    """The Queen for a King and the King for a Queen of the same suit, else None."""
    rank = c // 4 + 2
    if rank == KING:
        return card(QUEEN, c & 3)
    if rank == QUEEN:
        return card(KING, c & 3)
    return None


def marriages_in(hand: Iterable[Card]) -> tuple[int, ...]:
    """The suits in which ``hand`` holds both the King and the Queen."""
    held = set(hand)
    return tuple(s for s in range(4) if card(KING, s) in held and card(QUEEN, s) in held)


def bid_limit(hand: Iterable[Card]) -> int:
    """The highest bid ``hand`` allows: 120, plus the marriages it holds (above 120
    a bid needs one)."""
    return TOTAL_POINTS + sum(MARRIAGE_VALUES[s] for s in marriages_in(hand))
