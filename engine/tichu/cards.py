"""The Tichu deck: 52 natural cards in four suits and four special cards."""

from __future__ import annotations

from engine.cards import ALL, Card, register_special

MAHJONG = register_special(52, "MAHJONG", 1)
DOG = register_special(53, "DOG", 0)
PHOENIX = register_special(54, "PHOENIX", 15)
DRAGON = register_special(55, "DRAGON", 16)
SPECIALS = (MAHJONG, DOG, PHOENIX, DRAGON)

DECK: tuple[Card, ...] = tuple(ALL[:56])
"""All 56 cards, naturals first (2c 2d 2h 2s 3c ... As), then the four specials."""

SUIT_NAMES = ("jade", "pagoda", "star", "sword")
"""Tichu suit names by suit index (letters c d h s)."""

# Plain tables indexed by card value: the hot paths read these, not properties.
RANK: tuple[int, ...] = tuple(c.rank for c in DECK)
SUIT: tuple[int, ...] = tuple(c % 4 if c < 52 else -1 for c in DECK)
POINTS: tuple[int, ...] = tuple(
    5 if c < 52 and c.rank == 5
    else 10 if c < 52 and c.rank in (10, 13)
    else 25 if c == DRAGON
    else -25 if c == PHOENIX
    else 0
    for c in DECK
)


def card_points(cards: list[Card] | tuple[Card, ...] | set[Card]) -> int:
    """Card points of a pile: 5s 5, tens and Kings 10, Dragon 25, Phoenix -25."""
    return sum(POINTS[c] for c in cards)


def sort_key(c: int) -> tuple[int, int]:
    """Sort by rank (Dog, Mahjong, 2..A, Phoenix, Dragon), then suit."""
    return (RANK[c], SUIT[c])
