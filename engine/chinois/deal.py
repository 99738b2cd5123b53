"""One Chinois deal: the round it belongs to, its dealer, the hands and the turned card.

A seeded game deals each round itself with :func:`seeded_deal`; a replay gives
the hands and the trump card explicitly. Either way :func:`check_deal` makes
sure the cards add up before the game accepts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, french_deck, shuffled
from engine.chinois.rules import N_SEATS, cards_in_round, check_round, has_trump, scheduled_dealer
from engine.errors import BadActionError, BadSeatError

DECK: tuple[Card, ...] = tuple(french_deck())


@dataclass(frozen=True, slots=True)
class Deal:
    """What a round starts from."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None

    @property
    def trump(self) -> int | None:
        """The trump suit, given by the turned card (None in the 13-card rounds)."""
        return None if self.trump_card is None else self.trump_card & 3


def seeded_deal(seed: int | str, round_: int, dealer: int | None = None) -> Deal:
    """Shuffle the deck for ``round_`` from ``seed``, deal the hands, turn the next card."""
    n = cards_in_round(round_)
    deck = shuffled(DECK, f"{seed}:{round_}")
    hands = tuple(tuple(deck[s * n:(s + 1) * n]) for s in range(N_SEATS))
    turned = deck[N_SEATS * n] if has_trump(round_) else None
    return Deal(round_, scheduled_dealer(round_) if dealer is None else dealer, hands, turned)


def make_deal(round_: int, hands: Sequence[Sequence[Card]], trump_card: Card | None,
              dealer: int | None = None) -> Deal:
    """A deal from explicit cards, checked; ``dealer`` defaults to the schedule's."""
    deal = Deal(round_, scheduled_dealer(round_) if dealer is None else dealer,
                tuple(tuple(h) for h in hands), trump_card)
    check_deal(deal)
    return deal


def check_deal(deal: Deal) -> None:
    """Raise :class:`BadActionError` unless the deal fits its round of the schedule."""
    check_round(deal.round)
    if isinstance(deal.dealer, bool) or not isinstance(deal.dealer, int) or \
            not 0 <= deal.dealer < N_SEATS:
        raise BadSeatError(f"the dealer must be a seat 0..{N_SEATS - 1}, not {deal.dealer!r}")
    n = cards_in_round(deal.round)
    if len(deal.hands) != N_SEATS:
        raise BadActionError(f"a deal needs {N_SEATS} hands, not {len(deal.hands)}")
    for s, hand in enumerate(deal.hands):
        if len(hand) != n:
            raise BadActionError(f"round {deal.round} deals {n} cards: hand {s} has {len(hand)}")
    seen = [c for h in deal.hands for c in h]
    for c in [*seen, *([] if deal.trump_card is None else [deal.trump_card])]:
        if c not in DECK:
            raise BadActionError(f"{c} is not a card of the 52-card deck")
    if len(set(seen)) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise BadActionError(f"card {dup} is dealt twice")
    if has_trump(deal.round):
        if deal.trump_card is None:
            raise BadActionError(f"round {deal.round} needs the turned trump card")
        if deal.trump_card in seen:
            raise BadActionError(f"the trump card {deal.trump_card} is also in a hand")
    elif deal.trump_card is not None:
        raise BadActionError("a 13-card round deals the whole deck: it has no trump card")
