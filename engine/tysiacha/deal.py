"""One Tysiacha deal: its dealer, the seven-card hands and the three-card prikup.

At a 4-player table the dealer sits out and its hand is empty. A seeded game
deals itself with :func:`seeded_deal`; a replay gives the cards, which
:func:`check_deal` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, shuffled
from engine.errors import BadActionError, BadSeatError
from engine.tysiacha.cards import DECK

HAND_SIZE = 7
PRIKUP_SIZE = 3
PLAYER_COUNTS = (3, 4)
FIRST_DEALER = 2


@dataclass(frozen=True, slots=True)
class Deal:
    """What a deal starts from."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """Per seat, as dealt; the dealer's is empty at a 4-player table."""
    prikup: tuple[Card, ...]


def active_seats(dealer: int, players: int) -> tuple[int, ...]:
    """The three seats that play a deal, in order from the seat after the dealer."""
    seats = tuple((dealer + step) % players for step in range(1, players + 1))
    return seats if players == 3 else seats[:3]


def check_players(players: int) -> None:
    """Raise :class:`BadActionError` unless the table seats 3 or 4."""
    if isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise BadActionError(f"a Tysiacha table seats 3 or 4 players, not {players!r}")


def seeded_deal(seed: int | str, number: int, dealer: int, players: int = 3) -> Deal:
    """Shuffle for deal ``number`` from ``seed``: 7 cards to each playing seat, 3 to the prikup."""
    deck = shuffled(DECK, f"{seed}:{number}")
    hands: list[tuple[Card, ...]] = [() for _ in range(players)]
    for i, seat in enumerate(active_seats(dealer, players)):
        hands[seat] = tuple(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE])
    return Deal(dealer, tuple(hands), tuple(deck[3 * HAND_SIZE:]))


def make_deal(dealer: int, hands: Sequence[Sequence[Card]], prikup: Sequence[Card],
              players: int = 3) -> Deal:
    """A deal from explicit cards, checked."""
    deal = Deal(dealer, tuple(tuple(h) for h in hands), tuple(prikup))
    check_deal(deal, players)
    return deal


def check_deal(deal: Deal, players: int = 3) -> None:
    """Raise :class:`BadActionError` unless the deal places the 24 cards as the rules do."""
    check_players(players)
    if isinstance(deal.dealer, bool) or not isinstance(deal.dealer, int) or \
            not 0 <= deal.dealer < players:
        raise BadSeatError(f"the dealer must be a seat 0..{players - 1}, not {deal.dealer!r}")
    check_cards(deal.hands, deal.prikup, players)
    if deal.hands[deal.dealer] and players == 4:
        raise BadActionError(f"the dealer sits out: hand {deal.dealer} must be empty")


def check_cards(hands: Sequence[Sequence[Card]], prikup: Sequence[Card], players: int) -> None:
    """What :func:`check_deal` checks that does not depend on the dealer: 7 cards to
    each playing seat (and none to one seat at a 4-player table), 3 to the prikup,
    the 24 cards of the deck each once."""
    if len(hands) != players:
        raise BadActionError(f"a deal needs {players} hands, not {len(hands)}")
    sizes = sorted(len(h) for h in hands)
    wanted = [HAND_SIZE] * 3 if players == 3 else [0, *[HAND_SIZE] * 3]
    if sizes != wanted:
        counts = ", ".join(str(len(h)) for h in hands)
        rule = f"{HAND_SIZE} to each playing seat" + ("" if players == 3 else " and none to the dealer")
        raise BadActionError(f"wrong card count: the hands hold {counts} cards, not {rule}")
    if len(prikup) != PRIKUP_SIZE:
        raise BadActionError(f"the prikup has {PRIKUP_SIZE} cards, not {len(prikup)}")
    seen = [c for h in hands for c in h] + list(prikup)
    for c in seen:
        if c not in DECK:
            raise BadActionError(f"{c} is not a Tysiacha card (9 to Ace only)")
    if len(set(seen)) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise BadActionError(f"card {dup} is dealt twice")
