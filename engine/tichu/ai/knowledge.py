"""What a seat knows beyond its hand: the cards it has seen played.

A :class:`~engine.tichu.view.TichuView` lists every card each seat played in the
deal (:attr:`~engine.tichu.view.TichuView.played`: every play is shown to the whole
table), so one view is enough to count cards: a computer that takes over mid-deal,
or whose previous decision ran in another worker process or before a restart,
knows as much as one that watched every play. :class:`Memory` reads that list,
and remembers from the views it was shown what one view cannot say: the ranks a
seat is known not to hold (from the wish).

:class:`Knowledge` is what the policies read: unseen cards, the cards each seat
played, ranks a seat is known not to hold (from the wish), and the cards this
seat gave away. The search builds the same record straight from a game it made
up itself (:func:`knowledge_from_hands`), where it is exact.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.tichu.cards import DECK, MAHJONG, RANK
from engine.tichu.combos import Kind
from engine.tichu.view import Phase, TichuView

ALL_CARDS = frozenset(int(c) for c in DECK)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat may know of the hidden cards at one moment."""

    seat: int
    unseen: frozenset[int]
    """Cards neither in this seat's hand nor seen played: in other hands (or missed)."""
    played_by: Mapping[int, frozenset[int]] = field(default_factory=dict)
    voids: Mapping[int, frozenset[int]] = field(default_factory=dict)
    """Per seat: natural ranks it is known not to hold."""
    given: Mapping[int, int] = field(default_factory=dict)
    """Cards this seat gave in the exchange (target seat -> card)."""

    def known_in_hand(self, seat: int) -> frozenset[int]:
        """Cards known to be in ``seat``'s hand: what we gave it and have not seen played."""
        card = self.given.get(seat)
        if card is None or card not in self.unseen:
            return frozenset()
        return frozenset({card})


def knowledge_from_hands(seat: int, hands: list[list[int]] | list[tuple[int, ...]],
                         given: Mapping[int, int] | None = None) -> Knowledge:
    """Exact knowledge for a seat in a made-up game: unseen = the other hands."""
    unseen = frozenset(int(c) for s, h in enumerate(hands) if s != seat for c in h)
    return Knowledge(seat, unseen, given=dict(given or {}))


class Memory:
    """The cards one seat has seen played in the current deal, fed view by view."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._deal: tuple[object, ...] | None = None
        self.played: set[int] = set()
        self.played_by: dict[int, set[int]] = {}
        self.voids: dict[int, set[int]] = {}

    def _reset(self, key: tuple[object, ...], n_seats: int) -> None:
        self._deal = key
        self.played = set()
        self.played_by = {s: set() for s in range(n_seats)}
        self.voids = {s: set() for s in range(n_seats)}

    def observe(self, view: TichuView) -> None:
        """Take in what ``view`` shows: the cards played in the deal, and wish
        inferences."""
        key = (view.deal_number, view.scores, len(view.history))
        before_play = view.phase in (Phase.GRAND, Phase.EXCHANGE)
        if key != self._deal or before_play or not \
                {int(c) for c in view.hand}.isdisjoint(self.played):
            # A new deal (or a new game with the same numbering): start over.
            self._reset(key, view.n_seats)
        if before_play:
            return
        for seat, by_seat in enumerate(view.played):
            if by_seat:
                taken = {int(c) for c in by_seat}
                self.played |= taken
                self.played_by.setdefault(seat, set()).update(taken)
        if view.wish is not None:
            self._infer_wish_voids(view, view.wish)

    def _infer_wish_voids(self, view: TichuView, wish: int) -> None:
        """A seat that did not fulfil an open wish when a single of it would have been
        legal holds no natural card of that rank (the wish would have bound it)."""
        trick = view.trick
        start = 0
        for i, play in enumerate(trick):
            if MAHJONG in play.combo.cards:
                start = i + 1  # the wish dates from this play
        for i in range(start, len(trick)):
            play = trick[i]
            combo = play.combo
            if combo.is_bomb or any(RANK[c] == wish for c in combo.cards):
                continue
            below = trick[i - 1].combo if i else None
            if below is None or (below.kind is Kind.SINGLE and below.rank < wish):
                self.voids.setdefault(play.seat, set()).add(wish)
        top = trick[-1].combo if trick else None
        if top is not None and top.kind is Kind.SINGLE and top.rank < wish:
            # Everyone who passed on this single since it was played could not play the wish.
            for s, passed in enumerate(view.passed):
                if passed:
                    self.voids.setdefault(s, set()).add(wish)

    def knowledge(self, view: TichuView) -> Knowledge:
        """What the seat knows now (call :meth:`observe` first)."""
        hand = {int(c) for c in view.hand}
        unseen = ALL_CARDS - hand - self.played
        return Knowledge(
            seat=self.seat,
            unseen=frozenset(unseen),
            played_by={s: frozenset(cs) for s, cs in self.played_by.items()},
            voids={s: frozenset(rs) for s, rs in self.voids.items() if rs},
            given={t: int(c) for t, c in view.given.items()},
        )


class Memories:
    """Memories for every deal a player object is playing, by seat and deal.

    The bot keeps one player object per level and process and asks it about
    any table, so a memory is keyed by the seat and a fingerprint of the deal
    as the seat sees it: the deal number, the scores, and the cards it gave and
    received in the exchange (the same all deal long, and all but unique to one
    table). Only the most recent deals are kept.
    """

    MAX_DEALS = 256

    def __init__(self) -> None:
        self._by_deal: OrderedDict[tuple[object, ...], Memory] = OrderedDict()

    def see(self, view: TichuView) -> Knowledge:
        """Observe ``view`` for its seat and return what that seat now knows."""
        assert view.seat is not None
        key = (view.seat, view.deal_number, view.scores, len(view.history),
               tuple(sorted((t, int(c)) for t, c in view.given.items())),
               tuple(sorted((t, int(c)) for t, c in view.received.items())))
        memory = self._by_deal.get(key)
        if memory is None:
            memory = self._by_deal[key] = Memory(view.seat)
            while len(self._by_deal) > self.MAX_DEALS:
                self._by_deal.popitem(last=False)
        else:
            self._by_deal.move_to_end(key)
        memory.observe(view)
        return memory.knowledge(view)


def unseen_ranks(unseen: Iterable[int]) -> list[int]:
    """How many unseen natural cards of each rank (index by rank, 0..14)."""
    counts = [0] * 15
    for c in unseen:
        if c < 52:
            counts[c // 4 + 2] += 1
    return counts
