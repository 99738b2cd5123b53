"""Tichu combinations: what a set of cards is, and what beats what.

A :class:`Combo` names one reading of a set of cards: its kind, its rank (the
rank that decides comparisons: the top of a straight or stairs, the triple of
a full house, half a rank above the single beneath for a Phoenix single) and
its length in cards. ``phoenix`` is the rank the Phoenix stands for in a
multi-card combination, else None.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from engine.cards import Card
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, RANK, SUIT

DRAGON_RANK = 16
ACE = 14


class Kind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    STAIRS = "stairs"
    TRIPLE = "triple"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    DOG = "dog"
    FOUR_BOMB = "four_bomb"
    STRAIGHT_FLUSH = "straight_flush"


BOMB_KINDS = frozenset({Kind.FOUR_BOMB, Kind.STRAIGHT_FLUSH})

# Enum members read on hot paths: a module name is read much faster than a
# member through its class (Python 3.11).
KIND_SINGLE = Kind.SINGLE
KIND_PAIR = Kind.PAIR
KIND_STAIRS = Kind.STAIRS
KIND_TRIPLE = Kind.TRIPLE
KIND_FULL_HOUSE = Kind.FULL_HOUSE
KIND_STRAIGHT = Kind.STRAIGHT
KIND_DOG = Kind.DOG
KIND_FOUR_BOMB = Kind.FOUR_BOMB
KIND_STRAIGHT_FLUSH = Kind.STRAIGHT_FLUSH


class Combo(NamedTuple):
    kind: Kind
    rank: float
    length: int
    cards: tuple[Card, ...]
    phoenix: int | None = None

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMB_KINDS


def bomb_strength(combo: Combo) -> tuple[int, int, float]:
    """Order of bombs: any straight flush above any four; longer, then higher."""
    if combo.kind is KIND_STRAIGHT_FLUSH:
        return (1, combo.length, combo.rank)
    return (0, 4, combo.rank)


def beats(new: Combo, top: Combo | None) -> bool:
    """Whether ``new`` may be played on ``top`` (None: on a lead)."""
    if top is None:
        return True
    if new.kind is KIND_DOG or top.kind is KIND_DOG:
        return False
    new_bomb = new.kind in BOMB_KINDS
    if top.kind in BOMB_KINDS:
        return new_bomb and bomb_strength(new) > bomb_strength(top)
    if new_bomb:
        return True
    return new.kind == top.kind and new.length == top.length and new.rank > top.rank


def phoenix_single_rank(top: Combo | None) -> float | None:
    """The Phoenix single's value on ``top``: 1½ on a lead, half above a single,
    None where it cannot be played as a single (on the Dragon or on a non-single)."""
    if top is None:
        return 1.5
    if top.kind is not KIND_SINGLE or top.rank >= DRAGON_RANK:
        return None
    return top.rank + 0.5


_new = tuple.__new__
"""``_new(Combo, (kind, rank, length, cards, phoenix))`` builds the same named tuple
as ``Combo(...)`` without its keyword-handling constructor (plays are read often)."""
_SAME_RANK_KINDS = {2: KIND_PAIR, 3: KIND_TRIPLE}


def _classify(counts: dict[int, int], cards: tuple[Card, ...], phoenix: int | None,
              has_mahjong: bool) -> Combo | None:
    """Classify a multiset of ranks (rank -> count, Phoenix already placed)."""
    n = len(cards)
    ranks = sorted(counts)
    distinct = len(ranks)
    if has_mahjong:
        # The Mahjong is a 1 and only fits a straight.
        if n >= 5 and distinct == n and ranks[-1] - ranks[0] == n - 1:
            return _new(Combo, (KIND_STRAIGHT, ranks[-1], n, cards, phoenix))
        return None
    if distinct == 1:
        kind = _SAME_RANK_KINDS.get(n)
        if kind is not None:
            return _new(Combo, (kind, ranks[0], n, cards, phoenix))
        if n == 4 and phoenix is None:
            return _new(Combo, (KIND_FOUR_BOMB, ranks[0], 4, cards, None))
        return None
    if n == 5 and distinct == 2:
        low, high = ranks
        if counts[low] == 3 and counts[high] == 2:
            return _new(Combo, (KIND_FULL_HOUSE, low, 5, cards, phoenix))
        if counts[high] == 3 and counts[low] == 2:
            return _new(Combo, (KIND_FULL_HOUSE, high, 5, cards, phoenix))
        return None
    consecutive = ranks[-1] - ranks[0] == distinct - 1
    if not consecutive:
        return None
    if distinct == n and n >= 5:
        if phoenix is None and len({SUIT[c] for c in cards}) == 1:
            return _new(Combo, (KIND_STRAIGHT_FLUSH, ranks[-1], n, cards, None))
        return _new(Combo, (KIND_STRAIGHT, ranks[-1], n, cards, phoenix))
    if n == 2 * distinct and distinct >= 2 and all(counts[r] == 2 for r in ranks):
        return _new(Combo, (KIND_STAIRS, ranks[-1], n, cards, phoenix))
    return None


_ORDER: tuple[int, ...] = tuple(RANK[c] * 8 + SUIT[c] + 1 for c in range(len(RANK)))
"""Per card: a number that sorts as (rank, suit) does."""


_ONE_CARD: tuple[Combo, ...] = tuple(
    Combo(KIND_DOG, 0, 1, (c,)) if c == DOG else Combo(KIND_SINGLE, RANK[c], 1, (c,))
    for c in DECK)
"""The reading of each card of the deck played alone (the Phoenix's depends on the
trick: not used for it)."""


def readings(cards: tuple[Card, ...] | list[Card], top: Combo | None = None) -> list[Combo]:
    """Every reading of a set of cards, highest first (empty: not a combination).

    ``top`` only matters for a lone Phoenix, whose value depends on what it is
    played on; a lone Phoenix that cannot be played there has no reading.
    """
    n = len(cards)
    if n == 1:
        c = cards[0]
        if c != PHOENIX and 0 <= c < len(DECK) and c is DECK[c]:
            return [_ONE_CARD[c]]  # (the deck's own card: its reading, built once)
        cs: tuple[Card, ...] = (c,)
        if c == DOG:
            return [Combo(KIND_DOG, 0, 1, cs)]
        if c == PHOENIX:
            value = phoenix_single_rank(top)
            return [] if value is None else [Combo(KIND_SINGLE, value, 1, cs)]
        return [Combo(KIND_SINGLE, RANK[c], 1, cs)]
    cs = tuple(sorted(cards, key=_ORDER.__getitem__))
    if n == 0 or len(set(cs)) != n:
        return []
    if DOG in cs or DRAGON in cs:
        return []
    has_phoenix = PHOENIX in cs
    has_mahjong = MAHJONG in cs
    counts: dict[int, int] = {}
    for c in cs:
        if c != PHOENIX:
            counts[RANK[c]] = counts.get(RANK[c], 0) + 1
    if not has_phoenix:
        found = _classify(counts, cs, None, has_mahjong)
        return [] if found is None else [found]
    out: list[Combo] = []
    for stand_in in range(ACE, 1, -1):
        trial = dict(counts)
        trial[stand_in] = trial.get(stand_in, 0) + 1
        found = _classify(trial, cs, stand_in, has_mahjong)
        if found is not None:
            out.append(found)
    out.sort(key=lambda combo: combo.rank, reverse=True)
    return out


def best_reading(cards: tuple[Card, ...] | list[Card], top: Combo | None,
                 phoenix: int | None = None) -> Combo | None:
    """The highest reading that may be played on ``top`` (None if there is none).

    With ``phoenix``, only the reading where the Phoenix stands for that rank.
    """
    for combo in readings(cards, top):
        if phoenix is not None and combo.phoenix != phoenix:
            continue
        if beats(combo, top):
            return combo
    return None
