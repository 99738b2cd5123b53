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

from collections.abc import Iterable
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
    kind, rank, ranks, phoenix, cards = part
    if kind == SINGLE and phoenix:
        return PHOENIX_SINGLE_STRENGTH
    return strength(kind, rank, len(cards) if cards else len(ranks) + phoenix)


def part_cost(part: Part) -> float:
    return 1.0 - part_strength(part)


_INF = float("inf")
_Plan = tuple[float, tuple[Part, ...]]
_Option = tuple[str, int, tuple[int, ...], bool, int, bool, float]
"""A part's kind, rank, ranks and Phoenix, the packed counts it takes, whether
the Phoenix is left, and its cost (the part is made only if it is kept)."""
_new = tuple.__new__

# Rank counts are packed in one int, three bits a rank (index 1 the Mahjong,
# 2..14 naturals): taking cards out is a subtraction, and the int is the memo key.
_UNIT = tuple(1 << 3 * r for r in range(ACE + 2))
_DECODE = tuple(tuple(k >> 3 * i & 7 for i in range(4)) for k in range(1 << 12))
"""Four packed counts (12 bits) as a tuple: :func:`_best` decodes a key in four look-ups."""
_NAT_UNIT = tuple(_UNIT[c // 4 + 2] for c in range(52))
"""The packed count of one natural card, by card."""
_FOURS = sum(4 << 3 * r for r in range(2, ACE + 1))
"""The top bit of every natural rank's count: set where the count is 4."""
_SUIT_BIT = tuple(1 << (16 * (c % 4) + c // 4) for c in range(52))
"""A natural card's bit in a mask of four 16-bit lanes, one a suit, by rank (five
ranks in a row in a lane never reach into the next: 13 ranks, 3 spare bits)."""


def _cost_table(kind: str, length: int) -> tuple[float, ...]:
    return tuple(1.0 - strength(kind, r, length) for r in range(ACE + 1))


_SINGLE_COST = _cost_table(SINGLE, 1)
_PAIR_COST = _cost_table(PAIR, 2)
_TRIPLE_COST = _cost_table(TRIPLE, 3)
_FULL_COST = _cost_table(FULL, 5)
_STRAIGHT_COST = tuple(_cost_table(STRAIGHT, n) for n in range(ACE + 1))
"""By length, then top rank."""
_STAIRS_COST = tuple(_cost_table(STAIRS, n) for n in range(2 * ACE + 1))
"""By length, then top rank."""


def _options(counts: tuple[int, ...], phoenix: bool, lo: int) -> list[_Option]:
    """Every combination holding one card of rank ``lo`` (the lowest left): the
    part, the packed counts it takes, whether the Phoenix is left, and its cost."""
    unit = _UNIT[lo]
    out: list[_Option] = [(SINGLE, lo, (lo,), False, unit, phoenix, _SINGLE_COST[lo])]
    n = counts[lo]
    if lo >= 2:
        if n >= 2:
            out.append((PAIR, lo, (lo, lo), False, 2 * unit, phoenix, _PAIR_COST[lo]))
        if phoenix:
            out.append((PAIR, lo, (lo,), True, unit, False, _PAIR_COST[lo]))
        if n >= 3:
            out.append((TRIPLE, lo, (lo,) * 3, False, 3 * unit, phoenix, _TRIPLE_COST[lo]))
        if n >= 2 and phoenix:
            out.append((TRIPLE, lo, (lo, lo), True, 2 * unit, False, _TRIPLE_COST[lo]))
        if n >= 2 or phoenix:
            _full_houses(counts, phoenix, lo, n, out)
        _stairs(counts, phoenix, lo, out)
    _straights(counts, phoenix, lo, out)
    return out


def _full_houses(counts: tuple[int, ...], phoenix: bool, lo: int, n: int, out: list[_Option]) -> None:
    unit = _UNIT[lo]
    cost = _FULL_COST
    for other in range(lo + 1, ACE + 1):
        m = counts[other]
        if not m:
            continue
        ou = _UNIT[other]
        # Triple of lo, pair of other.
        if n >= 3 and m >= 2:
            out.append((FULL, lo, (lo,) * 3 + (other,) * 2, False, 3 * unit + 2 * ou, phoenix,
                        cost[lo]))
        if phoenix:
            if n >= 3 and m == 1:
                out.append((FULL, lo, (lo,) * 3 + (other,), True, 3 * unit + ou, False,
                            cost[lo]))
            if n == 2 and m >= 2:
                # Two pairs and the Phoenix: it makes the higher pair a triple.
                out.append((FULL, other, (lo,) * 2 + (other,) * 2, True,
                            2 * unit + 2 * ou, False, cost[other]))
        # Pair of lo, triple of other.
        if n >= 2 and m >= 3:
            out.append((FULL, other, (lo,) * 2 + (other,) * 3, False, 2 * unit + 3 * ou, phoenix,
                        cost[other]))
        if phoenix and n == 1 and m >= 3:
            out.append((FULL, other, (lo,) + (other,) * 3, True, unit + 3 * ou, False,
                        cost[other]))


def _stairs(counts: tuple[int, ...], phoenix: bool, lo: int, out: list[_Option]) -> None:
    short = 0
    ranks: list[int] = []
    taken = 0
    for top in range(lo, ACE + 1):
        m = counts[top]
        if m == 0:
            return
        if m == 1:
            short += 1
            if short > (1 if phoenix else 0):
                return
            ranks.append(top)
            taken += _UNIT[top]
        else:
            ranks.extend((top, top))
            taken += 2 * _UNIT[top]
        if top > lo:
            ph = short == 1
            out.append((STAIRS, top, tuple(ranks), ph, taken, phoenix and not ph,
                        _STAIRS_COST[len(ranks) + ph][top]))


def _straights(counts: tuple[int, ...], phoenix: bool, lo: int, out: list[_Option]) -> None:
    # From lo up, the Phoenix filling at most one missing rank (never the 1).
    missing = 0
    ranks: list[int] = []
    taken = 0
    for top in range(lo, ACE + 1):
        if counts[top]:
            ranks.append(top)
            taken += _UNIT[top]
        else:
            missing += 1
            if missing > (1 if phoenix else 0) or top < 2:
                break
        if top - lo >= 4:
            ph = missing == 1
            out.append((STRAIGHT, top, tuple(ranks), ph, taken, phoenix and not ph,
                        _STRAIGHT_COST[len(ranks) + ph][top]))
    # The Phoenix as the rank just below lo.
    if phoenix and lo >= 3:
        ranks = []
        taken = 0
        for top in range(lo, ACE + 1):
            if not counts[top]:
                break
            ranks.append(top)
            taken += _UNIT[top]
            if top - (lo - 1) >= 4:
                out.append((STRAIGHT, top, tuple(ranks), True, taken, False,
                            _STRAIGHT_COST[len(ranks) + 1][top]))


_PHOENIX_PART = Part(SINGLE, 15, (), True)
_BEST: dict[int, _Plan] = {}
_BEST_MAX = 1 << 19
"""Plans kept (forgotten all at once past this many: a pure function, only time is lost)."""


def _best(key: int, phoenix: bool) -> _Plan:
    """The cheapest plan for these packed rank counts (see :data:`_UNIT`)."""
    memo = key << 1 | phoenix
    plan = _BEST.get(memo)
    if plan is not None:
        return plan
    if not key:
        plan = (part_cost(_PHOENIX_PART), (_PHOENIX_PART,)) if phoenix else (0.0, ())
    else:
        lo = ((key & -key).bit_length() - 1) // 3
        dec = _DECODE
        counts = dec[key & 4095] + dec[key >> 12 & 4095] + dec[key >> 24 & 4095] + \
            dec[key >> 36]
        best_cost = _INF
        best_parts: tuple[Part, ...] = ()
        memo_get = _BEST.get
        for kind, rank, ranks, with_ph, taken, ph, part_c in _options(counts, phoenix, lo):
            rest = key - taken
            sub = memo_get(rest << 1 | ph)
            cost, parts = sub if sub is not None else _best(rest, ph)
            cost += part_c
            if cost < best_cost - 1e-9:
                best_cost = cost
                best_parts = (_new(Part, (kind, rank, ranks, with_ph, ())), *parts)
        plan = (best_cost, best_parts)
    if len(_BEST) >= _BEST_MAX:
        _BEST.clear()
    _BEST[memo] = plan
    return plan


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
        return tuple([p for p in self.parts if p.kind == BOMB])


def evaluate(cards: Iterable[int]) -> HandEval:
    """The cheapest plan for a hand (memoised on the exact cards)."""
    return _evaluate(tuple(sorted(cards)))


_DRAGON_PART = Part(SINGLE, 16, (), cards=(DRAGON,))
_DOG_PART = Part(DOG_PART, 0, (), cards=(DOG,))


@lru_cache(maxsize=1 << 16)
def _evaluate(cards: tuple[int, ...]) -> HandEval:
    fixed: list[Part] = []
    fixed_cost = 0.0
    phoenix = False
    key = 0
    suits = 0
    nat, suit_bit = _NAT_UNIT, _SUIT_BIT
    for c in cards:
        if c < 52:
            key += nat[c]
            suits |= suit_bit[c]
        elif c == DRAGON:
            fixed.append(_DRAGON_PART)
            fixed_cost += 1.0 - DRAGON_STRENGTH
        elif c == DOG:
            fixed.append(_DOG_PART)
            fixed_cost += DOG_COST
        elif c == PHOENIX:
            phoenix = True
        elif c == MAHJONG:
            key |= _UNIT[1]
    if not key & _FOURS and not suits & suits >> 1 & suits >> 2 & suits >> 3 & suits >> 4:
        # No four of a kind, no five ranks in a row in a suit: no bomb (the usual hand).
        cost, parts = _best(key, phoenix)
        return HandEval(cost + fixed_cost + 0 * (1.0 - BOMB_STRENGTH), (*fixed, *parts))
    naturals = [c for c in cards if c < 52]
    bombs = find_bombs(naturals)
    best: HandEval | None = None
    for chosen in _bomb_sets(bombs):
        left = key
        bomb_parts = []
        for b in chosen:
            for c in b:
                left -= _NAT_UNIT[c]
            bomb_parts.append(Part(BOMB, b[-1] // 4 + 2, (), cards=b))
        cost, parts = _best(left, phoenix)
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
    _, _, ranks, phoenix, cards = part
    if cards:
        return cards_key(cards)
    return (len(ranks) + phoenix, tuple(sorted(ranks)), phoenix)


def cost_of(cards: Iterable[int]) -> float:
    """Shorthand for ``evaluate(cards).cost``."""
    return evaluate(cards).cost


def clear_caches() -> None:
    """Forget memoised plans (tests use it to measure cold timings)."""
    _BEST.clear()
    _evaluate.cache_clear()
