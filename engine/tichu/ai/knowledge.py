"""What a seat knows beyond its hand: the cards it has seen played.

A :class:`~engine.tichu.view.TichuView` lists every card each seat played in the
deal (:attr:`~engine.tichu.view.TichuView.played`: every play is shown to the whole
table), so one view is enough to count cards: a computer that takes over mid-deal,
or whose previous decision ran in another worker process or before a restart,
knows as much as one that watched every play. The view also lists the wished ranks
each seat showed it does not hold (:attr:`~engine.tichu.view.TichuView.wish_voids`).
:func:`knowledge_of` reads both lists: nothing is remembered from one view to the
next.

:class:`Knowledge` is what the policies read: unseen cards, the cards each seat
played, ranks a seat is known not to hold (from the wish), and the cards this
seat gave away. The search builds the same record straight from a game it made
up itself (:func:`knowledge_from_hands`), where it is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.tichu.cards import DECK
from engine.tichu.view import Phase, TichuView

_GRAND = Phase.GRAND
_EXCHANGE = Phase.EXCHANGE

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


def knowledge_of(view: TichuView) -> Knowledge:
    """What the view's seat knows: the cards it has seen played in the deal, who
    played them, the wished ranks a seat showed it lacks, and what it gave (nothing
    but the gifts before play)."""
    seat = view.seat
    assert seat is not None
    hand = {int(c) for c in view.hand}
    given = {t: int(c) for t, c in view.given.items()}
    if view.phase in (_GRAND, _EXCHANGE):
        return Knowledge(seat=seat, unseen=ALL_CARDS - hand,
                         played_by={s: frozenset() for s in range(view.n_seats)}, given=given)
    played_by = {s: frozenset(int(c) for c in cs) for s, cs in enumerate(view.played)}
    played = frozenset().union(*played_by.values())
    return Knowledge(
        seat=seat,
        unseen=ALL_CARDS - hand - played,
        played_by=played_by,
        voids={s: ranks for s, ranks in enumerate(view.wish_voids) if ranks},
        given=given,
    )


def unseen_ranks(unseen: Iterable[int]) -> list[int]:
    """How many unseen natural cards of each rank (index by rank, 0..14)."""
    counts = [0] * 15
    for c in unseen:
        if c < 52:
            counts[c // 4 + 2] += 1
    return counts
