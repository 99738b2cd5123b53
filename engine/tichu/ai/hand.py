"""Hand evaluation: split a hand into the cheapest set of combinations to go out.

A hand is worth the number of times it must win or be given the lead before it
is empty, and combinations that rarely win a trick cost more than those that
usually do. :func:`evaluate` finds the split (the *plan*) with the lowest total
cost: bombs are kept whole, the Dragon and the Dog stand alone, and the rest is
split by a memoised search over rank counts (suits only matter for straight
flushes, which are taken out first). The players compare the cost of a hand
before and after a play to see whether the play helps or breaks the plan.

Costs are ``1 - strength``: strength is a rough chance that the combination
wins the trick it is led into (an Ace single 0.7, a pair of 3s almost 0, a
bomb more than 1 since it also wins a trick out of turn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, RANK
from engine.tichu.legal import bombs_in

ACE = 14
DRAGON_STRENGTH = 0.95
PHOENIX_SINGLE_STRENGTH = 0.6
DOG_COST = 0.6
"""The Dog takes one of our leads but hands it to the partner: not a full loser."""
BOMB_STRENGTH = 1.3

# Kinds of plan parts (plain strings keep the memoised search cheap).
SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
FULL = "full_house"
STRAIGHT = "straight"
STAIRS = "stairs"
BOMB = "bomb"
DOG_PART = "dog"

_SINGLE_S = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.04, 0.07, 0.1, 0.15, 0.22, 0.32, 0.45, 0.7)
"""Strength of a single by rank (index 1 is the Mahjong)."""
_PAIR_S = (0.0, 0.0, 0.02, 0.02, 0.02, 0.02, 0.03, 0.05, 0.08, 0.12, 0.18, 0.27, 0.38, 0.55, 0.8)


class Part(NamedTuple):
    """One combination of a plan, by ranks (suits are chosen when it is played)."""

    kind: str
    rank: int
    """The rank that decides comparisons (top of a straight, the triple of a full house)."""
    ranks: tuple[int, ...]
    """The ranks of its natural cards (1 for the Mahjong); the Phoenix not included."""
    phoenix: bool = False
    cards: tuple[int, ...] = ()
    """Exact cards, for bombs and special cards only."""

    @property
    def length(self) -> int:
        if self.cards:
            return len(self.cards)
        return len(self.ranks) + self.phoenix


def strength(kind: str, rank: int, length: int) -> float:
    """How likely a combination is to win the trick it is played into (roughly)."""
    if kind == SINGLE:
        if rank >= 16:
            return DRAGON_STRENGTH
        if rank == 15:  # the Phoenix alone
            return PHOENIX_SINGLE_STRENGTH
        return _SINGLE_S[rank]
    if kind == PAIR:
        return _PAIR_S[rank]
    if kind == TRIPLE:
        return min(0.9, 0.25 + 0.045 * (rank - 2))
    if kind == FULL:
        return min(0.92, 0.45 + 0.035 * (rank - 2))
    if kind == STRAIGHT:
        return min(0.95, 0.4 + 0.06 * (length - 5) + 0.025 * (rank - 5))
    if kind == STAIRS:
        return min(0.95, 0.3 + 0.12 * (length // 2 - 2) + 0.04 * (rank - 3))
    if kind == BOMB:
        return BOMB_STRENGTH
    if kind == DOG_PART:
        return 1.0 - DOG_COST
    return 0.0


def part_strength(part: Part) -> float:
    if part.kind == SINGLE and part.phoenix:
        return PHOENIX_SINGLE_STRENGTH
    return strength(part.kind, part.rank, part.length)


def part_cost(part: Part) -> float:
    return 1.0 - part_strength(part)


_INF = float("inf")
_Counts = tuple[int, ...]
_Plan = tuple[float, tuple[Part, ...]]
_Add = Callable[[Part], None]


def _take(counts: _Counts, ranks: Iterable[int]) -> _Counts:
    out = list(counts)
    for r in ranks:
        out[r] -= 1
    return tuple(out)


def _options(counts: _Counts, phoenix: bool, lo: int) -> list[tuple[Part, _Counts, bool]]:
    """Every combination holding one card of rank ``lo`` (the lowest left), with what remains."""
    out: list[tuple[Part, _Counts, bool]] = []
    n = counts[lo]

    def add(part: Part) -> None:
        out.append((part, _take(counts, part.ranks), phoenix and not part.phoenix))

    add(Part(SINGLE, lo, (lo,)))
    if lo >= 2:
        if n >= 2:
            add(Part(PAIR, lo, (lo, lo)))
        if phoenix:
            add(Part(PAIR, lo, (lo,), True))
        if n >= 3:
            add(Part(TRIPLE, lo, (lo,) * 3))
        if n >= 2 and phoenix:
            add(Part(TRIPLE, lo, (lo, lo), True))
        _full_houses(counts, phoenix, lo, n, add)
        _stairs(counts, phoenix, lo, add)
    _straights(counts, phoenix, lo, add)
    return out


def _full_houses(counts: _Counts, phoenix: bool, lo: int, n: int, add: _Add) -> None:
    for other in range(lo + 1, ACE + 1):
        m = counts[other]
        if not m:
            continue
        # Triple of lo, pair of other.
        if n >= 3 and m >= 2:
            add(Part(FULL, lo, (lo,) * 3 + (other,) * 2))
        if phoenix:
            if n >= 3 and m == 1:
                add(Part(FULL, lo, (lo,) * 3 + (other,), True))
            if n == 2 and m >= 2:
                # Two pairs and the Phoenix: it makes the higher pair a triple.
                add(Part(FULL, other, (lo,) * 2 + (other,) * 2, True))
        # Pair of lo, triple of other.
        if n >= 2 and m >= 3:
            add(Part(FULL, other, (lo,) * 2 + (other,) * 3))
        if phoenix and n == 1 and m >= 3:
            add(Part(FULL, other, (lo,) + (other,) * 3, True))


def _stairs(counts: _Counts, phoenix: bool, lo: int, add: _Add) -> None:
    short = 0
    ranks: list[int] = []
    for top in range(lo, ACE + 1):
        m = counts[top]
        if m == 0:
            return
        if m == 1:
            short += 1
            if short > (1 if phoenix else 0):
                return
            ranks.append(top)
        else:
            ranks.extend((top, top))
        if top > lo:
            add(Part(STAIRS, top, tuple(ranks), short == 1))


def _straights(counts: _Counts, phoenix: bool, lo: int, add: _Add) -> None:
    # From lo up, the Phoenix filling at most one missing rank (never the 1).
    missing = 0
    ranks: list[int] = []
    for top in range(lo, ACE + 1):
        if counts[top]:
            ranks.append(top)
        else:
            missing += 1
            if missing > (1 if phoenix else 0) or top < 2:
                break
        if top - lo >= 4:
            add(Part(STRAIGHT, top, tuple(ranks), missing == 1))
    # The Phoenix as the rank just below lo.
    if phoenix and lo >= 3:
        ranks = []
        for top in range(lo, ACE + 1):
            if not counts[top]:
                break
            ranks.append(top)
            if top - (lo - 1) >= 4:
                add(Part(STRAIGHT, top, tuple(ranks), True))


@lru_cache(maxsize=1 << 18)
def _best(counts: _Counts, phoenix: bool) -> _Plan:
    """The cheapest plan for these rank counts (index 1 the Mahjong, 2..14 naturals)."""
    lo = 0
    for r in range(1, ACE + 1):
        if counts[r]:
            lo = r
            break
    if not lo:
        if phoenix:
            part = Part(SINGLE, 15, (), True)
            return part_cost(part), (part,)
        return 0.0, ()
    best_cost = _INF
    best_parts: tuple[Part, ...] = ()
    for part, rest, ph in _options(counts, phoenix, lo):
        cost, parts = _best(rest, ph)
        cost += part_cost(part)
        if cost < best_cost - 1e-9:
            best_cost = cost
            best_parts = (part, *parts)
    return best_cost, best_parts


# ------------------------------------------------------------------- bombs
def find_bombs(cards: Iterable[int]) -> list[tuple[int, ...]]:
    """Every bomb in a set of cards: fours of a kind and straight flushes of 5+."""
    return [tuple(int(c) for c in bomb.cards) for bomb in bombs_in(DECK[c] for c in cards)]


def _bomb_sets(bombs: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """Sets of disjoint bombs worth trying: none, and each maximal choice."""
    out: list[list[tuple[int, ...]]] = [[]]

    def grow(start: int, chosen: list[tuple[int, ...]], used: set[int]) -> None:
        for i in range(start, len(bombs)):
            b = bombs[i]
            if used.isdisjoint(b):
                nxt = [*chosen, b]
                out.append(nxt)
                if len(out) < 64:
                    grow(i + 1, nxt, used | set(b))

    grow(0, [], set())
    return out


class HandEval(NamedTuple):
    """The best plan for a hand and what it says about the hand."""

    cost: float
    parts: tuple[Part, ...]

    @property
    def combos(self) -> int:
        return len(self.parts)

    @property
    def winners(self) -> int:
        """Parts that usually win their trick (Aces, Dragon, bombs, strong combos)."""
        return sum(1 for p in self.parts if part_strength(p) >= 0.65)

    @property
    def losers(self) -> int:
        return self.combos - self.winners

    @property
    def bombs(self) -> tuple[Part, ...]:
        return tuple(p for p in self.parts if p.kind == BOMB)


def _key(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def evaluate(cards: Iterable[int]) -> HandEval:
    """The cheapest plan for a hand (memoised on the exact cards)."""
    return _evaluate(_key(cards))


@lru_cache(maxsize=1 << 16)
def _evaluate(cards: tuple[int, ...]) -> HandEval:
    fixed: list[Part] = []
    fixed_cost = 0.0
    phoenix = False
    counts = [0] * (ACE + 1)
    naturals: list[int] = []
    for c in cards:
        if c == DRAGON:
            part = Part(SINGLE, 16, (), cards=(DRAGON,))
            fixed.append(part)
            fixed_cost += 1.0 - DRAGON_STRENGTH
        elif c == DOG:
            fixed.append(Part(DOG_PART, 0, (), cards=(DOG,)))
            fixed_cost += DOG_COST
        elif c == PHOENIX:
            phoenix = True
        elif c == MAHJONG:
            counts[1] = 1
        else:
            naturals.append(c)
            counts[c // 4 + 2] += 1
    bombs = find_bombs(naturals)
    best: HandEval | None = None
    for chosen in _bomb_sets(bombs):
        left = list(counts)
        bomb_parts = []
        for b in chosen:
            for c in b:
                left[c // 4 + 2] -= 1
            bomb_parts.append(Part(BOMB, b[-1] // 4 + 2, (), cards=b))
        cost, parts = _best(tuple(left), phoenix)
        total = cost + fixed_cost + len(chosen) * (1.0 - BOMB_STRENGTH)
        if best is None or total < best.cost - 1e-9:
            best = HandEval(total, (*fixed, *bomb_parts, *parts))
    assert best is not None
    return best


PlayKey = tuple[int, tuple[int, ...], bool]


def cards_key(cards: Iterable[int]) -> PlayKey:
    """What a set of cards is, suits aside: its size, natural ranks, and the Phoenix."""
    cs = list(cards)
    return (len(cs), tuple(sorted(RANK[c] for c in cs if c != PHOENIX)), PHOENIX in cs)


def part_key(part: Part) -> PlayKey:
    """The :func:`cards_key` of the plays that would be this plan part."""
    if part.cards:
        return cards_key(part.cards)
    return (part.length, tuple(sorted(part.ranks)), part.phoenix)


def cost_of(cards: Iterable[int]) -> float:
    """Shorthand for ``evaluate(cards).cost``."""
    return evaluate(cards).cost


def clear_caches() -> None:
    """Forget memoised plans (tests use it to measure cold timings)."""
    _best.cache_clear()
    _evaluate.cache_clear()
