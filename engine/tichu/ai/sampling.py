"""Deal the cards a seat cannot see, consistently with what it knows.

A sample gives every other seat exactly as many cards as the view says it
holds, drawn from the cards this seat has not seen played; a card we gave a
seat in the exchange (and have not seen played) stays with that seat, and a
seat known not to hold a rank (it ignored an open wish) gets none of it. When
the memory missed a play (the Dog is led without entering a trick), there are
more unseen cards than places: the extra ones go to a pile of cards played
unseen, the Dog first.

The dealing itself is the shared :class:`engine.sampling.DealSampler`: uniform
among the deals that keep all of this (if the wish inferences contradict the
rest, they are dropped, then the gifts).
"""

from __future__ import annotations

import random

from engine.sampling import DealSampler
from engine.tichu.ai.knowledge import Knowledge
from engine.tichu.cards import DOG
from engine.tichu.view import TichuView

MISSED = -1
"""The pseudo-seat of the cards played while this seat was not looking."""

_last: tuple[TichuView, Knowledge, DealSampler[int]] | None = None
"""The sampler of the last (view, knowledge): the hard player asks for many deals of one."""


def hand_sampler(view: TichuView, know: Knowledge) -> DealSampler[int]:
    """The sampler of the other seats' hands (and of :data:`MISSED`) for ``view``'s seat."""
    seat = view.seat
    assert seat is not None
    others = [s for s in range(view.n_seats) if s != seat]
    pool = set(know.unseen)
    counts = {s: view.hand_counts[s] for s in others}
    while sum(counts.values()) > len(pool):  # never with a sound memory; keep dealing anyway
        counts[max(others, key=lambda s: counts[s])] -= 1
    held: dict[int, list[int]] = {
        s: sorted(know.known_in_hand(s))[:counts[s]] for s in others}
    extra = len(pool) - sum(counts.values())
    if extra > 0:
        # Cards played while we were not looking: most likely the Dog.
        counts[MISSED] = extra
        if DOG in pool and not any(DOG in cs for cs in held.values()):
            held[MISSED] = [DOG]
    barred = {s: [c for c in pool if c < 52 and c // 4 + 2 in ranks]
              for s, ranks in know.voids.items() if s in counts and s != MISSED}
    return DealSampler(pool, counts, held=held, barred=barred)


def sample_hands(view: TichuView, know: Knowledge, rng: random.Random) -> list[list[int]]:
    """Every seat's hand: the seat's own and a consistent guess at the others."""
    global _last
    seat = view.seat
    assert seat is not None
    last = _last
    if last is not None and last[0] is view and last[1] is know:
        sampler = last[2]
    else:
        sampler = hand_sampler(view, know)
        _last = (view, know, sampler)
    dealt = sampler.deal(rng)
    return [[int(c) for c in view.hand] if s == seat else [int(c) for c in dealt[s]]
            for s in range(view.n_seats)]
