"""The generator's exact output, order included, on many seeded positions.

Seeded computer players pick from these lists by index, so a speed-up that
returns the same plays in another order would change every seeded game. The
digest below was taken from the generator before its per-hand caches; the
positions revisit hands (each hand against several tops, earlier hands again
later) so that cached and fresh answers are both covered.
"""

from __future__ import annotations

import hashlib
import random

from engine.tichu.cards import DECK
from engine.tichu.combos import Combo, readings
from engine.tichu.legal import analyse_hand, bombs_in

TOP_CARDS = [None, [0, 1], [22], [54], [0, 5, 10, 15, 16], [12, 13, 14, 24, 25], [8, 9, 12, 13],
             [32, 33, 34], [16, 17, 18, 19], [6, 10, 14, 18, 22], [55], [52], [48], [52, 1, 4, 8,
             12], [54, 40], [30, 31, 34, 35, 38, 39], [20, 21, 22, 28, 29], [1, 5, 9, 13, 17, 21]]
EXPECTED = "829a1b9f76adab232c56e08985b01a0dfe8bf7da132c309ce3ad31d8ab05bd3a"


def _tops() -> list[Combo | None]:
    out: list[Combo | None] = []
    for cards in TOP_CARDS:
        if cards is None:
            out.append(None)
            continue
        found = readings([DECK[c] for c in cards])
        if found:
            out.append(found[0])
    return out


def _line(hand: list[int], top: Combo | None, on_turn: bool, wish: int | None) -> str:
    plays, may_pass, bound = analyse_hand([DECK[c] for c in hand], top, on_turn=on_turn,
                                          wish=wish)
    return repr((plays, may_pass, bound))


def digest(positions: int = 1500) -> str:
    rng = random.Random(2026)
    tops = _tops()
    seen: list[list[int]] = []
    sha = hashlib.sha256()
    for i in range(positions):
        if seen and i % 3 == 0:
            hand = rng.choice(seen)
        else:
            hand = rng.sample(range(56), rng.choice([1, 2, 4, 6, 9, 11, 13, 14, 14, 14]))
            seen.append(hand)
        for top in rng.sample(tops, 4):
            wish = rng.choice([None, None, None, rng.randrange(2, 15)])
            on_turn = rng.random() < 0.85
            sha.update(_line(hand, top, on_turn, wish).encode())
        sha.update(repr(bombs_in([DECK[c] for c in hand])).encode())
    return sha.hexdigest()


def test_plays_come_in_the_same_order_as_before() -> None:
    assert digest() == EXPECTED
