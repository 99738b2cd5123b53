"""A slow, obviously-correct enumeration of legal plays: every subset, read and compared."""

from __future__ import annotations

from itertools import combinations

from engine.cards import Card
from engine.tichu.cards import RANK
from engine.tichu.combos import Combo, best_reading


def brute_force_plays(hand: list[Card], top: Combo | None, wish: int | None = None
                      ) -> dict[frozenset[Card], Combo]:
    """Map each playable subset of ``hand`` to its highest legal reading, with the wish duty."""
    found: dict[frozenset[Card], Combo] = {}
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            combo = best_reading(subset, top)
            if combo is not None:
                found[frozenset(subset)] = combo
    if wish is not None and any(c < 52 and RANK[c] == wish for c in hand):
        wished = {k: v for k, v in found.items() if any(c < 52 and RANK[c] == wish for c in k)}
        if wished:
            bombs = {k: v for k, v in found.items() if v.is_bomb}
            return {**wished, **bombs}
    return found
