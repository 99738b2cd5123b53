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
    Kind,
    bomb_strength,
)
from engine.tichu.view import Phase, TichuView

# Enum members read on hot paths: a module name is read much faster than a
# member through its class (Python 3.11).
_PHASE_EXCHANGE = Phase.EXCHANGE
_PHASE_PLAY = Phase.PLAY
_PHASE_GIFT = Phase.GIFT


_PAIR_SETS = [(KIND_PAIR, 2), (KIND_TRIPLE, 3)]

_new = tuple.__new__
"""Combos are built as ``_new(Combo, (kind, rank, length, cards, phoenix))``: the same
named tuple as ``Combo(...)``, without the keyword-handling constructor (hot path)."""
_SINGLE, _PAIR, _TRIPLE, _STRAIGHT, _STAIRS, _FULL = (
    KIND_SINGLE, KIND_PAIR, KIND_TRIPLE, KIND_STRAIGHT, KIND_STAIRS, KIND_FULL_HOUSE)
_SINGLES: tuple[Combo, ...] = tuple(
    _new(Combo, (_SINGLE, c // 4 + 2, 1, (c,), None)) for c in _CARD[:52])
"""The single of each natural card, built once (combos are immutable)."""


def _rank_tables() -> tuple[list[list[tuple[Card, ...]]], list[list[tuple[Combo, ...]]],
                              list[list[tuple[Combo, ...]]], list[list[tuple[Combo, ...]]],
                              list[list[tuple[Combo, ...]]], list[list[tuple[Combo, ...]]]]:
    """Per rank and per 4-bit set of suits held: the cards, and every single, pair
    and triple they make (with and without the Phoenix), built once."""
    cards: list[list[tuple[Card, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    singles: list[list[tuple[Combo, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    pairs: list[list[tuple[Combo, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    triples: list[list[tuple[Combo, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    phoenix_pairs: list[list[tuple[Combo, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    phoenix_triples: list[list[tuple[Combo, ...]]] = [[()] * 16 for _ in range(ACE + 1)]
    for r in range(2, ACE + 1):
        for nib in range(16):
            cs = tuple(_CARD[(r - 2) * 4 + s] for s in range(4) if nib >> s & 1)
            cards[r][nib] = cs
            singles[r][nib] = tuple(_SINGLES[c] for c in cs)
            pairs[r][nib] = tuple(_new(Combo, (_PAIR, r, 2, p, None)) for p in combinations(cs, 2))
            triples[r][nib] = tuple(
                _new(Combo, (_TRIPLE, r, 3, t, None)) for t in combinations(cs, 3))
            phoenix_pairs[r][nib] = tuple(
                _new(Combo, (_PAIR, r, 2, (c, _CARD[PHOENIX]), r)) for c in cs)
            phoenix_triples[r][nib] = tuple(
                _new(Combo, (_TRIPLE, r, 3, (*p, _CARD[PHOENIX]), r)) for p in combinations(cs, 2))
    return cards, singles, pairs, triples, phoenix_pairs, phoenix_triples


_CARDS_OF, _SINGLES_OF, _PAIRS_OF, _TRIPLES_OF, _PHOENIX_PAIRS_OF, _PHOENIX_TRIPLES_OF = \
    _rank_tables()
_MAHJONG_ONLY: tuple[Card, ...] = (_CARD[MAHJONG],)
_PHOENIX_ONLY: tuple[Card, ...] = (_CARD[PHOENIX],)


_RANK_OF = tuple(c // 4 + 2 if c < 52 else 0 for c in range(56))
"""Per card: its rank 2..14, or 0 for the four special cards."""
_SUIT_BIT = tuple(1 << (c & 3) if c < 52 else 1 << (c - 52) for c in range(56))
"""Per card: its suit's bit in its rank's 4-bit set; for a special card its own bit
(Mahjong, Dog, Phoenix, Dragon) in the spare set at index 0."""
_SUIT_OF = tuple(c & 3 if c < 52 else 0 for c in range(56))
_RANK_BIT = tuple(4 << (c >> 2) if c < 52 else 0 for c in range(56))
"""Per card: its rank's bit in its suit's set of ranks (0 for a special card)."""


class _Hand:
    """A hand as bitmasks: the 4-bit set of suits held at each rank, each suit's
    set of ranks, and its special cards flagged. ``by_rank[r]`` lists the cards of
    rank ``r`` (1: the Mahjong) in suit order, shared from a table. The bombs are
    listed on first use and kept (a hand in :func:`_hand_of`'s cache is asked
    again with other tops)."""

    __slots__ = ("_bombs", "_by_rank", "dog", "dragon", "mahjong", "nibs", "phoenix",
                 "suit_masks")

    def __init__(self, hand: Iterable[Card]) -> None:
        nibs = [0] * (ACE + 1)
        masks = [0, 0, 0, 0]
        rank_of, suit_bit, suit_of, rank_bit = _RANK_OF, _SUIT_BIT, _SUIT_OF, _RANK_BIT
        for c in hand:
            nibs[rank_of[c]] |= suit_bit[c]
            masks[suit_of[c]] |= rank_bit[c]
        specials = nibs[0]
        nibs[0] = 0
        self.mahjong = bool(specials & 1)
        self.dog = bool(specials & 2)
        self.phoenix = bool(specials & 4)
        self.dragon = bool(specials & 8)
        self.nibs = nibs
        self.suit_masks = masks
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

    def rank_masks(self) -> tuple[int, int]:
        """(ranks holding a card, ranks holding two or more) as bitmasks; bit 1 is
        the Mahjong."""
        m0, m1, m2, m3 = self.suit_masks
        present = m0 | m1 | m2 | m3 | (2 if self.mahjong else 0)
        paired = (m0 | m1) & (m2 | m3) | m0 & m1 | m2 & m3
        return present, paired

    def triples_mask(self) -> int:
        """Ranks holding three cards or more."""
        m0, m1, m2, m3 = self.suit_masks
        return m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)


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


KIND_TABLES = {2: (_PAIRS_OF, _PHOENIX_PAIRS_OF), 3: (_TRIPLES_OF, _PHOENIX_TRIPLES_OF)}


def _of_a_kind(h: _Hand, kind: Kind, k: int, floor: float, out: list[Combo]) -> None:
    natural, with_phoenix = KIND_TABLES[k]
    nibs = h.nibs
    if h.phoenix:
        for r in range(max(2, int(floor) + 1), ACE + 1):
            nib = nibs[r]
            if nib:
                out += natural[r][nib]
                out += with_phoenix[r][nib]
    else:
        for r in range(max(2, int(floor) + 1), ACE + 1):
            nib = nibs[r]
            if nib:
                out += natural[r][nib]


def _stairs_window(h: _Hand, lo: int, top: int, short_count: int, out: list[Combo]) -> None:
    """Every stairs on ranks lo..top, the Phoenix pairing the one short rank, or any
    rank when none is short."""
    by_rank = h.by_rank
    length = 2 * (top - lo + 1)
    window = range(lo, top + 1)
    if not short_count:
        out += [_new(Combo, (_STAIRS, top, length, sum(parts, ()), None))
                for parts in product(*[combinations(by_rank[r], 2) for r in window])]
    if not h.phoenix:
        return
    gaps = [r for r in window if len(by_rank[r]) < 2] if short_count else window
    for gap in gaps:
        if not by_rank[gap]:
            continue
        options = [
            [(c, PHOENIX) for c in by_rank[r]] if r == gap else combinations(by_rank[r], 2)
            for r in window
        ]
        out += [_new(Combo, (_STAIRS, top, length, sum(parts, ()), gap))
                for parts in product(*options)]


def _stairs(h: _Hand, pairs: int | None, floor: float, out: list[Combo]) -> None:
    """Stairs of ``pairs`` pairs above ``floor``; of every length when ``pairs`` is None.

    A window of ranks is open while every rank holds a pair, but one that holds a
    single card when the Phoenix can pair it; an empty rank closes it.
    """
    present, paired = h.rank_masks()
    allowed = 1 if h.phoenix else 0
    if pairs is None:
        if not paired & paired >> 1 and not (
                allowed and (paired & present >> 1 or present & paired >> 1)):
            return  # no two neighbouring ranks make pairs
        for lo in range(2, ACE):
            if not present >> lo & 1:
                continue
            short = 0
            for top in range(lo, ACE + 1):
                if not paired >> top & 1:
                    short += 1
                    if short > allowed or not present >> top & 1:
                        break
                if top > lo:
                    _stairs_window(h, lo, top, short, out)
        return
    span = (1 << pairs) - 1
    for top in range(max(1 + pairs, int(floor) + 1), ACE + 1):
        lo = top - pairs + 1
        short_count = pairs - ((paired >> lo) & span).bit_count()
        if short_count <= allowed:
            _stairs_window(h, lo, top, short_count, out)


def _full_houses(h: _Hand, floor: float, out: list[Combo]) -> None:
    if not h.triples_mask() >> (max(1, int(floor)) + 1) and not (
            h.phoenix and h.rank_masks()[1].bit_count() >= 2):
        return  # no triple above the floor, and no two pairs for the Phoenix
    by_rank = h.by_rank
    pairs = {r: list(combinations(by_rank[r], 2)) for r in range(2, ACE + 1) if len(by_rank[r]) >= 2}
    for t in range(max(2, int(floor) + 1), ACE + 1):
        if len(by_rank[t]) < 3:
            continue
        for triple in combinations(by_rank[t], 3):
            out += [_new(Combo, (_FULL, t, 5, triple + pair, None))
                    for p, options in pairs.items() if p != t for pair in options]
            if h.phoenix:
                # Triple plus a lone card that the Phoenix pairs.
                out += [_new(Combo, (_FULL, t, 5, (*triple, c, PHOENIX), p))
                        for p in range(2, ACE + 1) if p != t for c in by_rank[p]]
    if h.phoenix:
        # Two natural pairs and the Phoenix: it joins the higher pair.
        ranks = sorted(pairs)
        for i, low in enumerate(ranks):
            for high in ranks[i + 1:]:
                if high <= floor:
                    continue
                out += [_new(Combo, (_FULL, high, 5, (*lp, *hp, PHOENIX), high))
                        for lp in pairs[low] for hp in pairs[high]]


def _straight_window(h: _Hand, lo: int, top: int, missing_count: int, out: list[Combo]) -> None:
    """Every straight on ranks lo..top (a set read at its highest), the Phoenix filling
    the one missing rank, or any rank when none is missing."""
    by_rank = h.by_rank
    length = top - lo + 1
    window = range(lo, top + 1)
    if not missing_count:
        # A suit holding every rank of the window (never with the Mahjong) makes
        # straight flushes, which are listed with the bombs.
        span = ((1 << length) - 1) << lo
        flush = lo >= 2 and any(m & span == span for m in h.suit_masks)
        if flush:
            out += [_new(Combo, (_STRAIGHT, top, length, cards, None))
                    for cards in product(*[by_rank[r] for r in window])
                    if len({c & 3 for c in cards}) > 1]
        else:
            out += [_new(Combo, (_STRAIGHT, top, length, cards, None))
                    for cards in product(*[by_rank[r] for r in window])]
    if not h.phoenix:
        return
    gaps = [r for r in window if not by_rank[r]] if missing_count else window
    for gap in gaps:
        if gap < 2:
            continue  # the Phoenix never stands for the Mahjong
        if gap == lo and top < ACE:
            continue  # same set reads higher with the Phoenix on top
        options = [by_rank[r] if r != gap else _PHOENIX_ONLY for r in window]
        out += [_new(Combo, (_STRAIGHT, top, length, cards, gap)) for cards in product(*options)]


def _straights(h: _Hand, length: int | None, floor: float, out: list[Combo]) -> None:
    """Straights of ``length`` above ``floor``; of every length when ``length`` is None."""
    present, _ = h.rank_masks()
    allowed = 1 if h.phoenix else 0
    if length is None:
        if not allowed and not present & present >> 1 & present >> 2 & present >> 3 \
                & present >> 4:
            return  # no five ranks in a row
        need = 5 - allowed
        for lo in range(1, ACE - 3):
            if (present >> lo & 31).bit_count() < need:
                continue  # every window from lo holds these five ranks: too many missing
            missing = 0
            for top in range(lo, ACE + 1):
                if not present >> top & 1:
                    missing += 1
                    if missing > allowed:
                        break
                if top >= lo + 4:
                    _straight_window(h, lo, top, missing, out)
        return
    span = (1 << length) - 1
    for top in range(max(length, int(floor) + 1), ACE + 1):
        lo = top - length + 1
        missing_count = length - ((present >> lo) & span).bit_count()
        if missing_count <= allowed:
            _straight_window(h, lo, top, missing_count, out)


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
    suit_of, rank_bit = _SUIT_OF, _RANK_BIT
    for c in hand:
        masks[suit_of[c]] |= rank_bit[c]
    m0, m1, m2, m3 = masks
    return bool(m0 & m1 & m2 & m3) or m0.bit_count() >= 5 or m1.bit_count() >= 5 or \
        m2.bit_count() >= 5 or m3.bit_count() >= 5


_may_hold_bomb = may_hold_bomb


def _all_bombs(h: _Hand) -> list[Combo]:
    """Every bomb of the hand, fours first, listed once per :class:`_Hand`."""
    found = h._bombs
    if found is not None:
        return found
    masks = h.suit_masks
    four = masks[0] & masks[1] & masks[2] & masks[3]
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
        _singles(h, None, out)
        for kind, k in _PAIR_SETS:
            _of_a_kind(h, kind, k, 0, out)
        _stairs(h, None, 0, out)
        _full_houses(h, 0, out)
        _straights(h, None, 0, out)
        return out
    kind = top.kind
    if kind is KIND_SINGLE:
        _singles(h, top, out)
    elif kind is KIND_PAIR:
        _of_a_kind(h, KIND_PAIR, 2, top.rank, out)
    elif kind is KIND_TRIPLE:
        _of_a_kind(h, KIND_TRIPLE, 3, top.rank, out)
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
engine's wish check ask about the same position in a row."""


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
    return plain + bombs, top is not None, False


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
