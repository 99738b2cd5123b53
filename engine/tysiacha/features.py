"""The numbers the learned Tysiacha values read: a soloist's ten cards after the prikup.

One row describes the ten cards a soloist holds once it has taken the prikup (its
seven and the prikup's three), before it gives two away: which cards (24 inputs),
how many of each suit, the marriages, the Aces and Tens, the card points. The
layout is named by :data:`LAYOUT` and its digest (:data:`DIGEST`), which the model
file records: a model built for another layout is refused at load.

The network's outputs (:data:`THRESHOLDS`, then the defenders' points) are read
by :mod:`engine.tysiacha.values`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import numpy as np

from engine.cards import Card
from engine.tysiacha.cards import ACE, DECK, MARRIAGE_VALUES, POINTS, TEN, marriages_in

THRESHOLDS: tuple[int, ...] = tuple(range(100, 245, 5))
"""The soloist totals (card points and marriages) whose chance of being reached the
network gives, one output each, in this order."""
DEFENDER_SCALE = 100.0
"""The two last outputs, each defender's points (rounded, with its marriages), are in
hundreds: first the seat after the soloist (which gets the richer gift), then the other."""

_INDEX = {c: i for i, c in enumerate(DECK)}

LAYOUT: tuple[str, ...] = (
    *(f"card:{c}" for c in DECK),
    *(f"suit_count:{s}" for s in range(4)),
    *(f"marriage:{s}" for s in range(4)),
    "aces", "tens", "points", "marriage_points",
)
INPUTS = len(LAYOUT)
OUTPUTS = len(THRESHOLDS) + 2
DIGEST = hashlib.sha256("\n".join(LAYOUT).encode()).hexdigest()[:16]
"""Names the layout in the model file: a model is read only by the layout it was built for."""


def encode(cards: Iterable[Card]) -> np.ndarray:
    """The row of a soloist's ten cards (float32, :data:`INPUTS` numbers)."""
    row = np.zeros(INPUTS, dtype=np.float32)
    held = list(cards)
    base = len(DECK)
    for c in held:
        row[_INDEX[c]] = 1.0
        row[base + (c & 3)] += 0.25
    marriages = marriages_in(held)
    for s in marriages:
        row[base + 4 + s] = 1.0
    row[base + 8] = sum(1 for c in held if c >> 2 == ACE - 2) / 4
    row[base + 9] = sum(1 for c in held if c >> 2 == TEN - 2) / 4
    row[base + 10] = sum(POINTS[c] for c in held) / 100
    row[base + 11] = sum(MARRIAGE_VALUES[s] for s in marriages) / 100
    return row


def encode_many(hands: Sequence[Iterable[Card]]) -> np.ndarray:
    """The rows of several holdings, stacked."""
    if not hands:
        return np.zeros((0, INPUTS), dtype=np.float32)
    return np.stack([encode(h) for h in hands])


GIFT_LAYOUT: tuple[str, ...] = (
    *(f"kept:{name}" for name in LAYOUT),
    *(f"gift_after:{c}" for c in DECK),
    *(f"gift_other:{c}" for c in DECK),
    "gift_after_points", "gift_other_points",
)
"""The gift values' layout: the eight cards the soloist keeps (read as :data:`LAYOUT`
reads ten), the card given to the seat after it and the card given to the other seat
(one of 24 each), and those two cards' points."""
GIFT_INPUTS = len(GIFT_LAYOUT)
GIFT_DIGEST = hashlib.sha256("\n".join(GIFT_LAYOUT).encode()).hexdigest()[:16]
"""Names the gift layout in the gift model's file."""


def encode_gifts(kept: Iterable[Card], to_after: Card, to_other: Card) -> np.ndarray:
    """The row of a soloist's gifts (float32, :data:`GIFT_INPUTS` numbers): the eight cards
    it keeps, the card it gives the seat after it, the card it gives the other seat."""
    row = np.zeros(GIFT_INPUTS, dtype=np.float32)
    row[:INPUTS] = encode(kept)
    base = INPUTS
    row[base + _INDEX[to_after]] = 1.0
    row[base + len(DECK) + _INDEX[to_other]] = 1.0
    row[base + 2 * len(DECK)] = POINTS[to_after] / 100
    row[base + 2 * len(DECK) + 1] = POINTS[to_other] / 100
    return row


ROLES: tuple[str, ...] = ("soloist", "after", "other")
"""The seats of a deal in play, as the play values read them: the soloist, the seat after
it (which got the richer gift), the other defender."""
PLAY_LAYOUT: tuple[str, ...] = (
    *(f"{role}:{c}" for role in ROLES for c in DECK),
    *(f"trump:{s}" for s in range(4)),
    *(f"leads:{role}" for role in ROLES),
    *(f"points:{role}" for role in ROLES),
    *(f"marriages:{role}" for role in ROLES),
    *(f"took_trick:{role}" for role in ROLES),
    "cards_left",
)
"""The play values' layout: a deal in play between two tricks, every hand seen (the
values of one sampled deal): each seat's cards, the trump (none: all zero), who leads,
each seat's card points and marriage points so far, whether it has taken a trick, and
the cards each seat has left."""
PLAY_INPUTS = len(PLAY_LAYOUT)
PLAY_DIGEST = hashlib.sha256("\n".join(PLAY_LAYOUT).encode()).hexdigest()[:16]
"""Names the play layout in the play model's file."""


def encode_play(hands: Sequence[Iterable[Card]], trump: int | None, leader: int,
                points: Sequence[int], marriages: Sequence[int],
                took: Sequence[bool]) -> np.ndarray:
    """The row of a deal in play between two tricks (float32, :data:`PLAY_INPUTS` numbers),
    every sequence in the order of :data:`ROLES`, ``leader`` an index into it."""
    row = np.zeros(PLAY_INPUTS, dtype=np.float32)
    n = len(DECK)
    left = 0
    for r, hand in enumerate(hands):
        for c in hand:
            row[r * n + _INDEX[c]] = 1.0
            left += 1
    base = 3 * n
    if trump is not None:
        row[base + trump] = 1.0
    row[base + 4 + leader] = 1.0
    for r in range(3):
        row[base + 7 + r] = points[r] / 120
        row[base + 10 + r] = marriages[r] / 100
        row[base + 13 + r] = float(took[r])
    row[base + 16] = left / 24
    return row
