"""Deal the cards a seat cannot see, consistently with what it knows.

A sample gives every other seat exactly as many cards as the view says it
holds, drawn from the cards this seat has not seen played; a card we gave a
seat in the exchange (and have not seen played) stays with that seat, and a
seat known not to hold a rank (it ignored an open wish) gets none of it. When
the memory missed a play (the Dog is led without entering a trick), there are
more unseen cards than places: the Dog goes first, then random ones.
"""

from __future__ import annotations

import random

from engine.tichu.ai.knowledge import Knowledge
from engine.tichu.cards import DOG
from engine.tichu.view import TichuView

_TRIES = 20


def sample_hands(view: TichuView, know: Knowledge, rng: random.Random) -> list[list[int]]:
    """Every seat's hand: the seat's own and a consistent guess at the others."""
    seat = view.seat
    assert seat is not None
    n = view.n_seats
    others = [s for s in range(n) if s != seat]
    need = {s: view.hand_counts[s] for s in others}
    fixed: dict[int, list[int]] = {s: [] for s in others}
    pool = set(know.unseen)
    for s in others:
        for c in know.known_in_hand(s):
            if len(fixed[s]) < need[s]:
                fixed[s].append(c)
                pool.discard(c)
    free = sorted(pool)
    room = sum(need[s] - len(fixed[s]) for s in others)
    extra = len(free) - room
    if extra > 0:
        # Cards played while we were not looking: most likely the Dog.
        if DOG in free:
            free.remove(DOG)
            extra -= 1
        rng.shuffle(free)
        free = free[extra:] if extra > 0 else free
    voids = {s: know.voids.get(s, frozenset()) for s in others}
    for attempt in range(_TRIES):
        dealt = _deal(free, fixed, need, voids if attempt < _TRIES - 1 else {}, rng)
        if dealt is not None:
            hands = [list(view.hand) if s == seat else dealt[s] for s in range(n)]
            return [[int(c) for c in h] for h in hands]
    raise RuntimeError("could not deal the hidden cards")  # unreachable: last try ignores voids


def _deal(free: list[int], fixed: dict[int, list[int]], need: dict[int, int],
          voids: dict[int, frozenset[int]], rng: random.Random) -> dict[int, list[int]] | None:
    """Deal ``free`` to fill each seat up to ``need``, keeping voids; None if stuck."""
    hands = {s: list(cs) for s, cs in fixed.items()}
    cards = list(free)
    rng.shuffle(cards)
    # Cards some seat may not hold go first, while there is still room to choose.
    cards.sort(key=lambda c: -sum(1 for v in voids.values() if c < 52 and c // 4 + 2 in v))
    for c in cards:
        rank = c // 4 + 2 if c < 52 else None
        seats = [s for s in hands if len(hands[s]) < need[s]
                 and (rank is None or rank not in voids.get(s, frozenset()))]
        if not seats:
            return None
        weights = [need[s] - len(hands[s]) for s in seats]
        hands[rng.choices(seats, weights)[0]].append(c)
    return hands
