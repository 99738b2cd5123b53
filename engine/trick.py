"""The trick-taking core shared by Chinois and Tysiacha: following suit and taking tricks.

Both games play one natural card per seat per trick. They differ in three
things only, which every function here takes as arguments: the order of the
ranks within a suit, the trump suit (or none), and whether a seat that cannot
follow suit must trump (Tysiacha) or may play anything (Chinois).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.cards import Card, parse_card
from engine.errors import BadActionError, BadCardError, EngineError

Move = TypeVar("Move")
RankOrder = tuple[int, ...]
"""Strength of each rank, indexed by rank 0..14: higher wins, 0 means not in the deck."""


def rank_order(high_to_low: Iterable[int]) -> RankOrder:
    """The :data:`RankOrder` of ranks listed from the strongest to the weakest."""
    ranks = list(high_to_low)
    strengths = [0] * 15
    for position, rank in enumerate(ranks):
        strengths[rank] = len(ranks) - position
    return tuple(strengths)


NATURAL_ORDER: RankOrder = rank_order(range(14, 1, -1))
"""A K Q J 10 9 ... 2 (Chinois)."""

ACE_TEN_ORDER: RankOrder = rank_order((14, 10, 13, 12, 11, 9))
"""A 10 K Q J 9 (Tysiacha): the ten ranks second, as in Belote without trump."""


class MustFollowSuitError(EngineError):
    """The seat holds the led suit and played another."""

    code = "must_follow_suit"


class MustTrumpError(EngineError):
    """The seat cannot follow suit, holds a trump, and the game makes trumping compulsory."""

    code = "must_trump"


def suit_of(card: int) -> int:
    """Suit index 0..3 of a natural card (cheaper than ``Card.suit`` in hot loops)."""
    return card & 3


def rank_of(card: int) -> int:
    """Natural rank 2..14 of a natural card."""
    return (card >> 2) + 2


def strength(card: int, order: RankOrder) -> int:
    """The card's strength within its suit under ``order``."""
    return order[(card >> 2) + 2]


def by_suit(card: int) -> tuple[int, int]:
    """Sort key showing a hand as the trick games' players hold it: by suit
    (c d h s), then from the Ace down."""
    return (card & 3, -card)


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One card played to a trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Trick:
    """The plays of one trick in order; the first play is the lead."""

    plays: tuple[TrickPlay, ...] = ()

    def __len__(self) -> int:
        return len(self.plays)

    @property
    def leader(self) -> int | None:
        return self.plays[0].seat if self.plays else None

    @property
    def led_suit(self) -> int | None:
        return self.plays[0].card & 3 if self.plays else None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.plays)

    def add(self, seat: int, card: Card) -> Trick:
        """The trick with one more play."""
        return Trick((*self.plays, TrickPlay(seat, card)))

    def winning(self, order: RankOrder, trump: int | None) -> TrickPlay:
        """The play that holds the trick so far (the lead if alone)."""
        return winning_play(self.plays, order, trump)


def beats(card: int, best: int, *, led_suit: int, trump: int | None, order: RankOrder) -> bool:
    """Whether ``card`` played now takes the trick from ``best``, the card holding it."""
    suit, best_suit = card & 3, best & 3
    if suit == best_suit:
        return order[(card >> 2) + 2] > order[(best >> 2) + 2]
    # A different suit wins only as a trump over a non-trump; a discard never wins.
    return trump is not None and suit == trump and best_suit != trump


def winning_play(plays: Sequence[TrickPlay], order: RankOrder, trump: int | None) -> TrickPlay:
    """The highest trump, failing that the highest card of the led suit."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = plays[0].card & 3
    best = plays[0]
    for play in plays[1:]:
        if beats(play.card, best.card, led_suit=led, trump=trump, order=order):
            best = play
    return best


def legal_cards(hand: Iterable[Card], led_suit: int | None, trump: int | None, *,
                must_trump: bool) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit``
    (None: on the lead, anything goes)."""
    cards = tuple(hand)
    if led_suit is None:
        return cards
    following = tuple(c for c in cards if c & 3 == led_suit)
    if following:
        return following
    if must_trump and trump is not None:
        trumps = tuple(c for c in cards if c & 3 == trump)
        if trumps:
            return trumps
    return cards


def check_follow(card: Card, hand: Iterable[Card], led_suit: int | None, trump: int | None, *,
                 must_trump: bool) -> None:
    """Raise :class:`MustFollowSuitError` or :class:`MustTrumpError` if ``card`` (in
    ``hand``) may not be played to a trick led in ``led_suit``."""
    if led_suit is None or card & 3 == led_suit:
        return
    cards = tuple(hand)
    if any(c & 3 == led_suit for c in cards):
        raise MustFollowSuitError(f"{card} does not follow the led suit, which this seat holds")
    if must_trump and trump is not None and card & 3 != trump and any(c & 3 == trump for c in cards):
        raise MustTrumpError(f"{card} is neither the led suit nor trump; this seat must trump")


def whole_number(value: Any, what: str) -> int:
    """Read a whole number from a replay file (bids, seats, rounds, dealers), as both
    trick games' action records and runners do; a digit string is accepted too.
    Raises :class:`BadActionError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise BadActionError(f"{what} must be a whole number, not {value!r}")
    return value


def natural_card(token: Any) -> Card:
    """Read one card of the trick games from a replay action: a rank and a suit
    letter. Tichu's special cards are no tokens of these games, so naming one is
    an unknown card (a malformed file), like any other unknown token; raises
    :class:`BadCardError`."""
    found = parse_card(token)
    if found.is_special:
        raise BadCardError(f"unknown card {token!r}")
    return found


def card_list(value: Any, what: str) -> list[Card]:
    """Read a list of card tokens from a replay file; raises :class:`BadActionError`
    naming ``what`` (a hand, the prikup)."""
    if not isinstance(value, list):
        raise BadActionError(f"{what} must be a list of cards")
    try:
        return [parse_card(t) for t in value]
    except EngineError as exc:
        raise BadActionError(f"{what}: {exc}") from None


def sampled_totals(legal: Sequence[Move], rng: random.Random, samples: int,
                   budget_ms: float | None, sample: Callable[[random.Random], Any],
                   play_out: Callable[[Any, Move], float]) -> dict[Move, float]:
    """For each legal card (or any move), its total result over deals of the unseen cards sampled by
    ``sample(rng)`` and played out by ``play_out(hands, card)`` (the hard players of the
    trick games): at most ``samples`` deals, and no new deal past ``budget_ms``."""
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1e3
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(samples):
        hands = sample(rng)
        for card in legal:
            totals[card] += play_out(hands, card)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return totals
