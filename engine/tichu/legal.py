"""Legal plays: every distinct set of cards a seat may play now, each with its reading.

The generators build card sets rank by rank from the hand, so that no set is
produced twice: where the Phoenix gives a set two readings (``5 6 7 8 P`` as
4-8 or 5-9), only the highest is produced. Everything here reads a
:class:`~engine.tichu.view.TichuView`, so the bot's menus, the computer
players and the engine's own checks share one source.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product
from typing import Any, NamedTuple

from engine.cards import Card
from engine.tichu.cards import DECK as _CARD
from engine.tichu.cards import DOG, DRAGON, MAHJONG, PHOENIX, RANK
from engine.tichu.combos import (
    ACE,
    BOMB_KINDS,
    DRAGON_RANK,
    KIND_DOG,
    KIND_FOUR_BOMB,
    KIND_FULL_HOUSE,
    KIND_PAIR,
    KIND_SINGLE,
    KIND_STAIRS,
    KIND_STRAIGHT,
    KIND_STRAIGHT_FLUSH,
    KIND_TRIPLE,
    Combo,
    bomb_strength,
)
from engine.tichu.view import Phase, TichuView

# Enum members read on hot paths: a module name is read much faster than a
# member through its class (Python 3.11).
_PHASE_EXCHANGE = Phase.EXCHANGE
_PHASE_PLAY = Phase.PLAY
_PHASE_GIFT = Phase.GIFT


_new = tuple.__new__
"""Combos are built as ``_new(Combo, (kind, rank, length, cards, phoenix))``: the same
named tuple as ``Combo(...)``, without the keyword-handling constructor (hot path)."""
_SINGLE, _PAIR, _TRIPLE, _STRAIGHT, _STAIRS, _FULL = (
    KIND_SINGLE, KIND_PAIR, KIND_TRIPLE, KIND_STRAIGHT, KIND_STAIRS, KIND_FULL_HOUSE)
_PHOENIX_CARD = _CARD[PHOENIX]
_SINGLES: tuple[Combo, ...] = tuple(
    _new(Combo, (_SINGLE, c // 4 + 2, 1, (c,), None)) for c in _CARD[:52])
"""The single of each natural card, built once (combos are immutable)."""

CardSets = tuple[tuple[Card, ...], ...]


class _RankTables(NamedTuple):
    """What the cards of one rank make, built once for every rank and every set of
    its suits: each table is indexed ``[rank][suits]``, ``suits`` being the 4-bit
    set of suits held at that rank (:attr:`_Hand.nibs`)."""

    cards: list[list[tuple[Card, ...]]]
    singles: list[list[tuple[Combo, ...]]]
    pairs: list[list[tuple[Combo, ...]]]
    triples: list[list[tuple[Combo, ...]]]
    pairs_and_phoenix_pairs: list[list[tuple[Combo, ...]]]
    """The natural pairs, then each card with the Phoenix (a pair of that rank)."""
    triples_and_phoenix_triples: list[list[tuple[Combo, ...]]]
    """The natural triples, then each natural pair with the Phoenix."""
    pair_sets: list[list[CardSets]]
    """The cards of each natural pair (for stairs and full houses)."""
    phoenix_pair_sets: list[list[CardSets]]
    """Each card with the Phoenix beside it (a stairs step the Phoenix completes)."""
    triple_sets: list[list[CardSets]]


def _rank_tables() -> _RankTables:
    def blank() -> list[list[Any]]:
        return [[()] * 16 for _ in range(ACE + 1)]

    tables = _RankTables(*(blank() for _ in _RankTables._fields))
    for r in range(2, ACE + 1):
        for nib in range(16):
            cs = tuple(_CARD[(r - 2) * 4 + s] for s in range(4) if nib >> s & 1)
            two = tuple(combinations(cs, 2))
            three = tuple(combinations(cs, 3))
            pairs = tuple(_new(Combo, (_PAIR, r, 2, p, None)) for p in two)
            triples = tuple(_new(Combo, (_TRIPLE, r, 3, t, None)) for t in three)
            tables.cards[r][nib] = cs
            tables.singles[r][nib] = tuple(_SINGLES[c] for c in cs)
            tables.pairs[r][nib] = pairs
            tables.triples[r][nib] = triples
            tables.pairs_and_phoenix_pairs[r][nib] = pairs + tuple(
                _new(Combo, (_PAIR, r, 2, (c, _PHOENIX_CARD), r)) for c in cs)
            tables.triples_and_phoenix_triples[r][nib] = triples + tuple(
                _new(Combo, (_TRIPLE, r, 3, (*p, _PHOENIX_CARD), r)) for p in two)
            tables.pair_sets[r][nib] = two
            tables.phoenix_pair_sets[r][nib] = tuple((c, _PHOENIX_CARD) for c in cs)
            tables.triple_sets[r][nib] = three
    return tables


_TABLES = _rank_tables()
_CARDS_OF = _TABLES.cards
_SINGLES_OF = _TABLES.singles
_PAIR_SETS_OF = _TABLES.pair_sets
_PHOENIX_PAIR_SETS_OF = _TABLES.phoenix_pair_sets
_TRIPLE_SETS_OF = _TABLES.triple_sets
_OF_A_KIND = {2: (_TABLES.pairs, _TABLES.pairs_and_phoenix_pairs),
              3: (_TABLES.triples, _TABLES.triples_and_phoenix_triples)}
"""Per size (pair, triple): the sets of each rank for a hand without the Phoenix
(index False) and with it (True)."""
_MAHJONG_ONLY: tuple[Card, ...] = (_CARD[MAHJONG],)
_PHOENIX_ONLY: tuple[Card, ...] = (_PHOENIX_CARD,)


_RANKS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(2, ACE + 1) if bits >> (r - 2) & 1) for bits in range(1 << (ACE - 1)))
"""The natural ranks (2..A) of each set of them, lowest first, the set given as a
mask with the 2 in bit 0 (a hand's ``present >> 2``)."""


_BITS = tuple((c // 4 + 2, 1 << (c & 3), c & 3, 4 << (c >> 2)) if c < 52 else (0, 1 << (c - 52), 0, 0)
              for c in range(56))
"""Per card: (its rank 2..14, its suit's bit in that rank's 4-bit set, its suit, its
rank's bit in that suit's set of ranks). A special card is rank 0 with its own bit
(Mahjong, Dog, Phoenix, Dragon) in that spare set, and in no suit."""


class _Hand:
    """A hand as bitmasks: the 4-bit set of suits held at each rank (``nibs``), each
    suit's set of ranks (``suit_masks``), the ranks holding one card or more,
    two or more and three or more (``present``, ``paired``, ``tripled``; bit 1 of
    ``present`` is the Mahjong), and its special cards flagged. ``by_rank[r]``
    lists the cards of rank ``r`` (1: the Mahjong) in suit order, shared from a
    table. The bombs are listed on first use and kept (a hand in
    :func:`_analyse`'s cache is asked again with other tops)."""

    __slots__ = ("_bombs", "_by_rank", "dog", "dragon", "mahjong", "nibs", "paired", "phoenix",
                 "present", "suit_masks", "tripled")

    def __init__(self, hand: Iterable[Card]) -> None:
        nibs = [0] * (ACE + 1)
        masks = [0, 0, 0, 0]
        bits = _BITS
        for c in hand:
            rank, suit_bit, suit, rank_bit = bits[c]
            nibs[rank] |= suit_bit
            masks[suit] |= rank_bit
        specials = nibs[0]
        nibs[0] = 0
        self.mahjong = bool(specials & 1)
        self.dog = bool(specials & 2)
        self.phoenix = bool(specials & 4)
        self.dragon = bool(specials & 8)
        self.nibs = nibs
        self.suit_masks = masks
        m0, m1, m2, m3 = masks
        self.present = m0 | m1 | m2 | m3 | (specials & 1) << 1
        self.paired = (m0 | m1) & (m2 | m3) | m0 & m1 | m2 & m3
        self.tripled = m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)
        self._by_rank: list[tuple[Card, ...]] | None = None
        self._bombs: list[Combo] | None = None

    @property
    def by_rank(self) -> list[tuple[Card, ...]]:
        """The cards of each rank, built on first use (singles, pairs, triples and
        bombs read the nibbles alone)."""
        if self._by_rank is None:
            table = _CARDS_OF
            nibs = self.nibs
            self._by_rank = [(), _MAHJONG_ONLY if self.mahjong else (),
                             *[table[r][nibs[r]] for r in range(2, ACE + 1)]]
        return self._by_rank


_DOG_LEAD = Combo(KIND_DOG, 0, 1, (DOG,))
_MAHJONG_SINGLE = Combo(KIND_SINGLE, 1, 1, (MAHJONG,))
_DRAGON_SINGLE = Combo(KIND_SINGLE, DRAGON_RANK, 1, (DRAGON,))
_PHOENIX_SINGLES: dict[float, Combo] = {}
"""The Phoenix single by its value (half a rank above what it is played on)."""


def _phoenix_single(value: float) -> Combo:
    combo = _PHOENIX_SINGLES.get(value)
    if combo is None:
        combo = _PHOENIX_SINGLES[value] = Combo(KIND_SINGLE, value, 1, (PHOENIX,))
    return combo


def _singles(h: _Hand, top: Combo | None, out: list[Combo]) -> None:
    floor = top.rank if top is not None else 0
    if top is None:
        if h.dog:
            out.append(_DOG_LEAD)
        if h.mahjong:
            out.append(_MAHJONG_SINGLE)
    singles = _SINGLES_OF
    nibs = h.nibs
    for r in range(max(2, int(floor) + 1), ACE + 1):
        nib = nibs[r]
        if nib:
            out += singles[r][nib]
    if h.phoenix and floor < DRAGON_RANK:
        out.append(_phoenix_single((floor if top is not None else 1) + 0.5))
    if h.dragon and floor < DRAGON_RANK:
        out.append(_DRAGON_SINGLE)


def _of_a_kind(h: _Hand, k: int, floor: float, out: list[Combo]) -> None:
    """Pairs (``k`` 2) or triples (3) above ``floor``, rank by rank: the natural
    sets of a rank, then those the Phoenix completes."""
    table = _OF_A_KIND[k][h.phoenix]
    nibs = h.nibs
    for r in range(max(2, int(floor) + 1), ACE + 1):
        nib = nibs[r]
        if nib:
            out += table[r][nib]


def _sets_on_lead(h: _Hand, out: list[Combo]) -> None:
    """On a lead: :func:`_singles`, then the pairs, then the triples (as
    :func:`_of_a_kind` lists them), in one pass over the ranks."""
    if h.dog:
        out.append(_DOG_LEAD)
    if h.mahjong:
        out.append(_MAHJONG_SINGLE)
    singles = _SINGLES_OF
    pairs_of, triples_of = (_OF_A_KIND[2][h.phoenix], _OF_A_KIND[3][h.phoenix])
    pairs: list[Combo] = []
    triples: list[Combo] = []
    phoenix = h.phoenix
    nibs = h.nibs
    for r in _RANKS_IN[h.present >> 2]:  # (the ranks held, lowest first)
        nib = nibs[r]
        out += singles[r][nib]
        if nib & (nib - 1):  # two cards or more
            pairs += pairs_of[r][nib]
            triples += triples_of[r][nib]
        elif phoenix:  # one card, which the Phoenix pairs
            pairs += pairs_of[r][nib]
    if phoenix:
        out.append(_phoenix_single(1.5))
    if h.dragon:
        out.append(_DRAGON_SINGLE)
    out += pairs
    out += triples


def _stairs(h: _Hand, pairs: int | None, floor: float, out: list[Combo]) -> None:
    """Stairs of ``pairs`` pairs above ``floor``; of every length when ``pairs`` is None.

    From each low rank ``lo`` the stairs grow one rank at a time while every rank
    holds a pair, but one that holds a single card when the Phoenix can pair it;
    an empty rank ends them. The stairs on ranks ``lo..top`` are those on
    ``lo..top-1`` with each pair of ``top`` added, so no set is built twice. They
    come as ``product`` over the ranks would give them, the lowest rank varying
    slowest: first those without the Phoenix, then those where the Phoenix pairs
    ``lo``, ``lo+1``, ... ``top``.
    """
    present, paired = h.present, h.paired
    phoenix = h.phoenix
    # Each bit of ``starts``: a rank whose stairs may go one rank up (both ranks
    # paired, or with the Phoenix both present and one paired).
    starts = (paired & present >> 1 | present & paired >> 1) if phoenix else paired & paired >> 1
    if pairs is None:
        starts &= (1 << ACE) - 4  # lo from 2 to the King
    else:
        first = max(2, int(floor) + 2 - pairs)  # the stairs must top above the floor
        last = ACE + 1 - pairs
        if first > last:
            return
        starts &= (1 << (last + 1)) - (1 << first)
    allowed = 1 if phoenix else 0
    nibs = h.nibs
    pair_sets, phoenix_pair_sets = _PAIR_SETS_OF, _PHOENIX_PAIR_SETS_OF
    while starts:
        low = starts & -starts
        starts ^= low
        lo = low.bit_length() - 1
        short = 0 if paired & low else 1
        natural: Sequence[tuple[Card, ...]] = pair_sets[lo][nibs[lo]]
        # (the rank the Phoenix pairs, the stairs so far with it there), by rank
        helped: list[tuple[int, Sequence[tuple[Card, ...]]]] = (
            [(lo, phoenix_pair_sets[lo][nibs[lo]])] if phoenix else [])
        for top in range(lo + 1, ACE + 1):
            if not paired >> top & 1:
                short += 1
                if short > allowed or not present >> top & 1:
                    break
            nib = nibs[top]
            step = pair_sets[top][nib]
            if phoenix:
                helped = [(gap, [s + p for s in sets for p in step]) for gap, sets in helped]
                helped.append((top, [s + p for s in natural for p in phoenix_pair_sets[top][nib]]))
            natural = [s + p for s in natural for p in step]
            length = 2 * (top - lo + 1)
            if pairs is None or length == 2 * pairs:
                out += [_new(Combo, (_STAIRS, top, length, cards, None)) for cards in natural]
                for gap, sets in helped:
                    out += [_new(Combo, (_STAIRS, top, length, cards, gap)) for cards in sets]
                if pairs is not None:
                    break


def _full_houses(h: _Hand, floor: float, out: list[Combo]) -> None:
    """Full houses above ``floor``: for each triple (by rank), the natural pairs of
    the other ranks, then (with the Phoenix) each lone card the Phoenix pairs; then
    two natural pairs with the Phoenix joining the higher one."""
    lowest = max(2, int(floor) + 1)
    triple_ranks = h.tripled >> lowest << lowest
    paired = h.paired
    phoenix = h.phoenix
    if not triple_ranks and not (phoenix and paired.bit_count() >= 2):
        return  # no triple above the floor, and no two pairs for the Phoenix
    nibs = h.nibs
    pair_sets = _PAIR_SETS_OF
    pairs = {r: pair_sets[r][nibs[r]] for r in _RANKS_IN[paired >> 2]}
    for t in _RANKS_IN[triple_ranks >> 2]:
        others = [pair for p, options in pairs.items() if p != t for pair in options]
        lone = [((c, _PHOENIX_CARD), p) for p in range(2, ACE + 1) if p != t
                for c in _CARDS_OF[p][nibs[p]]] if phoenix else []
        for triple in _TRIPLE_SETS_OF[t][nibs[t]]:
            out += [_new(Combo, (_FULL, t, 5, triple + pair, None)) for pair in others]
            if phoenix:
                out += [_new(Combo, (_FULL, t, 5, triple + pair, p)) for pair, p in lone]
    if phoenix:
        ranks = list(pairs)
        for i, low in enumerate(ranks):
            for high in ranks[i + 1:]:
                if high <= floor:
                    continue
                out += [_new(Combo, (_FULL, high, 5, lp + hp + _PHOENIX_ONLY, high))
                        for lp in pairs[low] for hp in pairs[high]]


_LEAD_WINDOWS: dict[int, list[tuple[int, int, int]]] = {}
"""The windows of a lead by ``present << 1 | phoenix``, worked out once each (they
depend on the ranks held alone, which hands share; 2**16 keys at most). Shared
answers: read them, never change them."""


def _straight_windows(present: int, phoenix: bool, length: int | None, floor: float
                      ) -> list[tuple[int, int, int]]:
    """The runs of ranks ``lo..top`` that may hold straights, as (lo, top, ranks
    missing): of ``length`` ranks topping above ``floor``, or of every length from
    5 when ``length`` is None; at most one rank missing with the Phoenix, none
    without. Lowest ``lo`` first, then shortest. (On a lead, a run missing its
    lowest rank is listed only when it ends on the Ace: below, the same cards
    read higher as the run one rank up, the Phoenix on top.)"""
    windows: list[tuple[int, int, int]] = []
    if length is None:
        known = _LEAD_WINDOWS.get(present << 1 | phoenix)
        if known is not None:
            return known
        _LEAD_WINDOWS[present << 1 | phoenix] = windows  # (filled in below)
        if not phoenix:
            # Each bit of ``starts``: five ranks present from there.
            starts = present & present >> 1 & present >> 2 & present >> 3 & present >> 4
            while starts:
                low = starts & -starts
                starts ^= low
                lo = low.bit_length() - 1
                top = lo + 4
                while top <= ACE and present >> top & 1:
                    windows.append((lo, top, 0))
                    top += 1
            return windows
        for lo in range(1, ACE - 3):
            if not present >> lo & 1:
                # The Phoenix standing for the lowest rank reads lower than on top,
                # so it does only when the straight ends on the Ace.
                if lo >= 2 and present >> (lo + 1) == (1 << (ACE - lo)) - 1:
                    windows.append((lo, ACE, 1))
                continue
            if (present >> lo & 31).bit_count() < 4:
                continue  # every window from lo misses two of these five ranks
            missing = 0
            for top in range(lo, ACE + 1):
                if not present >> top & 1:
                    missing += 1
                    if missing > 1:
                        break
                if top >= lo + 4:
                    windows.append((lo, top, missing))
        return windows
    span = (1 << length) - 1
    for top in range(max(length, int(floor) + 1), ACE + 1):
        lo = top - length + 1
        missing = length - ((present >> lo) & span).bit_count()
        if missing <= phoenix:
            windows.append((lo, top, missing))
    return windows


def _straights(h: _Hand, length: int | None, floor: float, out: list[Combo]) -> None:
    """Straights of ``length`` above ``floor``; of every length when ``length`` is None.

    Window by window (see :func:`_straight_windows`), a set read at its highest:
    first every choice of one card per rank, then with the Phoenix standing for
    the missing rank, or for each rank in turn when none is missing (not the
    lowest unless the straight ends on the Ace: that set reads higher with the
    Phoenix on top; never the Mahjong). A suit holding every rank of a window makes
    straight flushes, which are listed with the bombs. The sets are planned first
    and built in one pass.
    """
    present = h.present
    phoenix = h.phoenix
    windows = _straight_windows(present, phoenix, length, floor)
    if not windows:
        return
    by_rank = h.by_rank
    flush_suits = [m for m in h.suit_masks if m & m >> 1 & m >> 2 & m >> 3 & m >> 4]
    # (top, length, rank the Phoenix stands for, the card sets)
    plan: list[tuple[int, int, int | None, Iterable[tuple[Card, ...]]]] = []
    for lo, top, missing in windows:
        n = top - lo + 1
        cols = by_rank[lo:top + 1]
        if missing:
            i = cols.index(())
            if lo + i >= 2 and (i or top == ACE):
                cols[i] = _PHOENIX_ONLY  # (cols is a slice: a list of its own)
                plan.append((top, n, lo + i, product(*cols)))
            continue
        span = ((1 << n) - 1) << lo
        if flush_suits and lo >= 2 and any(m & span == span for m in flush_suits):
            plan.append((top, n, None, [cards for cards in product(*cols)
                                        if len({c & 3 for c in cards}) > 1]))
        else:
            plan.append((top, n, None, product(*cols)))
        if phoenix:
            for i in range(0 if top == ACE and lo >= 2 else 1, n):
                options = cols.copy()
                options[i] = _PHOENIX_ONLY
                plan.append((top, n, lo + i, product(*options)))
    out += [_new(Combo, (_STRAIGHT, top, n, cards, gap)) for top, n, gap, sets in plan
            for cards in sets]


def bombs_in(hand: Iterable[Card]) -> list[Combo]:
    """Every bomb a set of cards holds: fours of a kind, then straight flushes of 5+."""
    out: list[Combo] = []
    _bombs(_Hand(hand), None, out)
    return out


def may_hold_bomb(hand: Sequence[Card]) -> bool:
    """A cheap test before the full work: four of a rank, or five cards of a suit."""
    if len(hand) < 4:
        return False
    masks = [0, 0, 0, 0]
    bits = _BITS
    for c in hand:
        _, _, suit, rank_bit = bits[c]
        masks[suit] |= rank_bit
    m0, m1, m2, m3 = masks
    return bool(m0 & m1 & m2 & m3) or m0.bit_count() >= 5 or m1.bit_count() >= 5 or \
        m2.bit_count() >= 5 or m3.bit_count() >= 5



def _all_bombs(h: _Hand) -> list[Combo]:
    """Every bomb of the hand, fours first, listed once per :class:`_Hand`."""
    found = h._bombs
    if found is not None:
        return found
    masks = h.suit_masks
    m0, m1, m2, m3 = masks
    four = m0 & m1 & m2 & m3
    # (the four suits side by side, 16 bits apart: five ranks in a row in one suit
    # are five bits in a row here, as the bits between two suits are never set)
    lanes = m0 | m1 << 16 | m2 << 32 | m3 << 48
    if not four and not lanes & lanes >> 1 & lanes >> 2 & lanes >> 3 & lanes >> 4:
        h._bombs = found = []
        return found  # (the usual hand: no four of a kind, no five ranks in a row in a suit)
    found = []
    while four:
        low = four & -four
        r = low.bit_length() - 1
        found.append(Combo(KIND_FOUR_BOMB, r, 4, _CARDS_OF[r][15]))
        four ^= low
    for suit, mask in enumerate(masks):
        if not mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4:
            continue  # no five ranks in a row in this suit
        r = 2
        while r <= ACE:
            if not mask >> r & 1:
                r += 1
                continue
            end = r
            while mask >> (end + 1) & 1:
                end += 1
            for lo in range(r, end - 3):
                for hi in range(lo + 4, end + 1):
                    cards = tuple(_CARD[(x - 2) * 4 + suit] for x in range(lo, hi + 1))
                    found.append(Combo(KIND_STRAIGHT_FLUSH, hi, hi - lo + 1, cards))
            r = end + 1
    h._bombs = found
    return found


def _bombs(h: _Hand, top: Combo | None, out: list[Combo]) -> None:
    found = _all_bombs(h)
    if not found:
        return
    if top is None or top.kind not in BOMB_KINDS:
        out.extend(found)
    else:
        strength = bomb_strength(top)
        out.extend(b for b in found if bomb_strength(b) > strength)


def _plain_plays(h: _Hand, top: Combo | None) -> list[Combo]:
    """Non-bomb combinations: all of them on a lead, else those beating ``top``."""
    out: list[Combo] = []
    if top is None:
        _sets_on_lead(h, out)
        _stairs(h, None, 0, out)
        _full_houses(h, 0, out)
        _straights(h, None, 0, out)
        return out
    kind = top.kind
    if kind is KIND_SINGLE:
        _singles(h, top, out)
    elif kind is KIND_PAIR:
        _of_a_kind(h, 2, top.rank, out)
    elif kind is KIND_TRIPLE:
        _of_a_kind(h, 3, top.rank, out)
    elif kind is KIND_STAIRS:
        _stairs(h, top.length // 2, top.rank, out)
    elif kind is KIND_FULL_HOUSE:
        _full_houses(h, top.rank, out)
    elif kind is KIND_STRAIGHT:
        _straights(h, top.length, top.rank, out)
    return out


def analyse_hand(hand: Sequence[Card], top: Combo | None, *, on_turn: bool = True,
                 wish: int | None = None, bombs_allowed: bool = True,
                 ) -> tuple[list[Combo], bool, bool]:
    """Legal plays for a hand in a given position, whether it may pass, and whether
    the wish binds it.

    ``on_turn`` False means the seat may only bomb (out of turn, on an open trick).
    A seat bound by ``wish`` (it holds a natural card of that rank and some legal
    play contains one) keeps only the plays holding such a card, plus every
    bomb, and may not pass.
    """
    plays, may_pass, bound = analysis(hand, top, on_turn, wish, bombs_allowed)
    return list(plays), may_pass, bound


_NOTHING: tuple[list[Combo], bool, bool] = ([], False, False)


def analysis(hand: Sequence[Card], top: Combo | None, on_turn: bool, wish: int | None,
             bombs_allowed: bool) -> tuple[list[Combo], bool, bool]:
    """:func:`analyse_hand` without the copy: the answer as kept, shared with later
    callers (read it, never change it)."""
    if not hand:
        return _NOTHING
    if not on_turn and not may_hold_bomb(hand):
        return _NOTHING
    cards = hand if type(hand) is tuple else tuple(hand)
    key = (cards, top, on_turn, wish, bombs_allowed)
    last_key, result = _last[0]
    if key != last_key:
        result = _analyse(cards, top, on_turn, wish, bombs_allowed)
        _last[0] = (key, result)  # one assignment: safe if threads share it
    return result


_Key = tuple[tuple[Card, ...], Combo | None, bool, int | None, bool]
_last: list[tuple[_Key | None, tuple[list[Combo], bool, bool]]] = [(None, ([], False, False))]
"""The last position analysed and its answer: a seat's menu, its pass button and the
engine's wish check ask about the same position in a row. (Only the last: keeping
more answers alive costs every other analysis more than it saves, as their
objects no longer reuse the memory of the last ones. The hard player's search,
which comes back to the same positions, keeps its own.)"""


_HANDS: dict[tuple[Card, ...], _Hand] = {}
"""The hands analysed lately (a seat's hand stays the same while it passes, and is
asked about again on each trick), with what was worked out once for them."""
HANDS_KEPT = 16
"""How many hands :data:`_HANDS` keeps before it starts afresh: a table's seats,
with room to spare."""


def _hand_of(cards: tuple[Card, ...]) -> _Hand:
    h = _HANDS.get(cards)
    if h is None:
        if len(_HANDS) >= HANDS_KEPT:
            _HANDS.clear()
        h = _HANDS[cards] = _Hand(cards)
    return h


def _analyse(hand: tuple[Card, ...], top: Combo | None, on_turn: bool, wish: int | None,
             bombs_allowed: bool) -> tuple[list[Combo], bool, bool]:
    # (_hand_of, _bombs and the single's branch of _plain_plays written out: this
    # runs for every decision)
    h = _HANDS.get(hand)
    if h is None:
        if len(_HANDS) >= HANDS_KEPT:
            _HANDS.clear()
        h = _HANDS[hand] = _Hand(hand)
    bombs: list[Combo] = _NO_BOMBS
    # (four of a kind and straight flushes read from the suit bitmasks)
    if bombs_allowed and len(hand) >= 4:
        found = h._bombs
        if found is None:
            found = _all_bombs(h)
        if found:
            if top is None or top.kind not in BOMB_KINDS:
                bombs = found
            else:
                strength = bomb_strength(top)
                bombs = [b for b in found if bomb_strength(b) > strength]
    if not on_turn:
        return list(bombs), False, False
    if top is not None and top.kind is KIND_SINGLE:
        plain: list[Combo] = []
        _singles(h, top, plain)
    else:
        plain = _plain_plays(h, top)
    if wish is not None and h.nibs[wish]:
        wished = [c for c in plain if any(RANK[x] == wish for x in c.cards)]
        if wished or any(any(RANK[x] == wish for x in b.cards) for b in bombs):
            return wished + bombs, False, True
    return (plain + bombs if bombs else plain), top is not None, False


_NO_BOMBS: list[Combo] = []
"""Shared empty list (only ever read)."""


def plays_for_hand(hand: Sequence[Card], top: Combo | None, *, on_turn: bool = True,
                   wish: int | None = None, bombs_allowed: bool = True) -> tuple[list[Combo], bool]:
    """Legal plays for a hand in a given position, and whether it may pass."""
    plays, may_pass, _ = analyse_hand(hand, top, on_turn=on_turn, wish=wish,
                                      bombs_allowed=bombs_allowed)
    return plays, may_pass


def _position(view: TichuView) -> tuple[bool, bool] | None:
    """(on_turn, bombs_allowed) for the viewing seat, or None if it may not play."""
    seat = view.seat
    if seat is None or view.phase is not _PHASE_PLAY or not view.hand:
        return None
    if view.turn == seat:
        return True, True
    if view.trick:
        return False, True
    return None


def legal_plays(view: TichuView) -> list[Combo]:
    """Every distinct set of cards the viewing seat may play now, bombs included.

    On its turn: the combinations that may be led or that beat the trick (only
    those fulfilling the wish where it binds), and every playable bomb. Out of
    turn: the bombs that beat the open trick. Otherwise nothing.
    """
    return play_options(view)[0]


def play_options(view: TichuView) -> tuple[list[Combo], bool]:
    """:func:`legal_plays` and :func:`can_pass` in one call."""
    # (_position inlined: this runs for every decision)
    seat = view.seat
    hand = view.hand
    if seat is None or view.phase is not _PHASE_PLAY or not hand:
        return [], False
    trick = view.trick
    if view.turn == seat:
        on_turn = True
    elif trick:
        on_turn = False
    else:
        return [], False
    top = trick[-1].combo if trick else None
    plays, may_pass, _ = analysis(hand, top, on_turn, view.wish, True)
    return list(plays), may_pass and on_turn and top is not None


def can_pass(view: TichuView) -> bool:
    """Whether the viewing seat may pass now (its turn, a trick open, no wish duty)."""
    position = _position(view)
    if position is None or not position[0] or view.top is None:
        return False
    _, allowed = plays_for_hand(view.hand, view.top, wish=view.wish)
    return allowed


def can_call_tichu(view: TichuView) -> bool:
    """Whether the viewing seat may call Tichu now."""
    seat = view.seat
    return (
        seat is not None
        and view.phase in (_PHASE_EXCHANGE, _PHASE_PLAY)
        and view.calls[seat] is None
        and not view.has_played[seat]
    )


def gift_targets(view: TichuView) -> tuple[int, ...]:
    """The seats the viewing seat may give the Dragon trick to (empty if none)."""
    seat = view.seat
    if seat is None or view.phase is not _PHASE_GIFT or view.turn != seat:
        return ()
    return view.opponents(seat)


def dog_targets(view: TichuView) -> tuple[int, ...]:
    """The partners the viewing seat's Dog may hand the lead to (``Play.to``): its
    partners still holding cards. With two (six players) the play must name one;
    with one it may; with none the lead goes on by itself. Empty in a public view.
    """
    seat = view.seat
    if seat is None:
        return ()
    return view.dog_targets(seat)
