"""Computer players for Chinois, each deciding from its own seat's view only.

``easy`` bids and plays at random among the legal choices. ``normal`` bids
the tricks it expects from the strength of its hand and its trump length, then
plays to take exactly that many: it tries to win tricks while under its bid
and ducks once it has made it. ``hard`` bids the bid of the highest learned value
(:mod:`engine.chinois.values`: the deal score each legal bid is worth, learned from
self-play; ``normal``'s bid in the 13-card rounds) and chooses each card by playing the
round out on sampled deals of the cards it cannot see. :class:`PlayoutPlayer`, ``hard``
before its learned bids, bids like ``normal`` and plays the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

import numpy as np

from engine.cards import Card
from engine.chinois import features, values
from engine.chinois.actions import Action, Bid, Play
from engine.chinois.deal import DECK
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.rules import deal_score
from engine.chinois.view import ChinoisView, Phase
from engine.sampling import DealSampler
from engine.trick import NATURAL_ORDER, Trick, beats, sampled_totals

SUIT_SIZE = 13


class Player(Protocol):
    """A computer player: one decision at a time, from its own view only."""

    def act(self, view: ChinoisView, rng: random.Random) -> Action | None:
        """The seat's next action, or None if it has nothing to do."""
        ...


class EasyPlayer:
    """A uniformly random legal bid or card."""

    def act(self, view: ChinoisView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None or view.turn != seat:
            return None
        if view.phase is Phase.BID:
            return Bid(seat, rng.choice(legal_bids(view)))
        if view.phase is Phase.PLAY:
            return Play(seat, rng.choice(legal_cards(view)))
        return None


def _poisson_at_most(mean: float, k: int) -> float:
    """P(X <= k) for X ~ Poisson(mean): the chance an opponent holds at most k cards of a suit."""
    term = total = math.exp(-mean)
    for i in range(1, k + 1):
        term *= mean / i
        total += term
    return min(1.0, total)


def estimate_tricks(hand: tuple[Card, ...], trump_card: Card | None, n_cards: int) -> float:
    """Expected tricks of ``hand``: each card's chance to stand up, with the trump
    suit's length and the risk of side winners being ruffed counted."""
    trump = None if trump_card is None else trump_card & 3
    mine = set(hand)
    unseen = len(DECK) - len(hand) - (0 if trump_card is None else 1)
    # Chance that a card we cannot see sits in one of the three other hands.
    p = min(1.0, 3 * n_cards / unseen)
    trumps_out = 0 if trump is None else sum(
        1 for c in DECK if c & 3 == trump and c not in mine and c != trump_card)
    p_has_trump = 1.0 - (1.0 - trumps_out / unseen) ** n_cards if trump is not None else 0.0
    total = 0.0
    low_trumps = 0
    short_sides = 0
    for suit in range(4):
        cards = sorted((c for c in hand if c & 3 == suit), reverse=True)
        length = len(cards)
        if suit != trump and length <= 1 and trump is not None:
            short_sides += 1
        out = SUIT_SIZE - length - (1 if trump_card is not None and trump_card & 3 == suit else 0)
        opp_len = out * p / 3
        for i, c in enumerate(cards):
            higher = sum(1 for r in range(c + 4, 52, 4) if r not in mine and r != trump_card)
            # Each higher card outside must be undealt or fall before ours; guards help.
            fall = min(0.5, 0.25 * (length - 1 - i) + 0.15 * i)
            chance = ((1 - p) + p * fall) ** higher
            if trump is not None and suit != trump:
                ruff = _poisson_at_most(opp_len, i) * p_has_trump
                chance *= (1 - ruff) ** 3
            total += chance
            if suit == trump and chance < 0.5:
                low_trumps += 1
    # Small trumps take tricks by ruffing once a short side suit is led.
    total += 0.4 * min(low_trumps, short_sides) * min(1.0, n_cards / 6)
    # Card by card, the estimate misses the tricks that long hands pick up at the
    # end of the play; self-play measures about 0.1 of a trick per card above 4.
    return total + 0.1 * max(0, n_cards - 4)


class NormalPlayer:
    """Bids its expected tricks, then plays for exactly that many."""

    def act(self, view: ChinoisView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None or view.turn != seat:
            return None
        if view.phase is Phase.BID:
            return Bid(seat, self.bid(view))
        if view.phase is Phase.PLAY:
            return Play(seat, self.card(view))
        return None

    def bid(self, view: ChinoisView) -> int:
        expected = estimate_tricks(view.hand, view.trump_card, view.cards_per_seat)
        options = legal_bids(view)
        # Nearest allowed bid; on a tie the lower one, as ducking is easier than winning.
        return min(options, key=lambda b: (abs(b - expected), b))

    def card(self, view: ChinoisView) -> Card:
        legal = legal_cards(view)
        assert view.seat is not None
        bid = view.bids[view.seat] or 0
        need = bid - view.tricks_won[view.seat]
        trump = view.trump
        gone = set(view.played) | set(view.hand) | set(view.trick.cards)
        if view.trump_card is not None:
            gone.add(view.trump_card)

        def weakness(c: Card) -> tuple[int, int]:
            return (1 if c & 3 == trump else 0, c >> 2)

        def is_master(c: Card) -> bool:
            return all(r in gone for r in range(c + 4, 52, 4))

        if not view.trick.plays:
            side = [c for c in legal if c & 3 != trump] or list(legal)
            if need > 0:
                masters = [c for c in legal if is_master(c)]
                if masters:
                    return max(masters, key=lambda c: (c & 3 != trump, c >> 2))
                return min(side, key=weakness)
            return min(legal, key=weakness)
        best = view.trick.winning(NATURAL_ORDER, trump).card
        led = view.trick.led_suit
        assert led is not None
        winners = [c for c in legal if beats(c, best, led_suit=led, trump=trump,
                                             order=NATURAL_ORDER)]
        last = len(view.trick) == view.n_seats - 1
        if need > 0:
            if not winners:
                return min(legal, key=weakness)
            if last:
                return min(winners, key=weakness)
            masters = [c for c in winners if is_master(c) or (c & 3 == trump and led != trump)]
            return min(masters, key=weakness) if masters else max(winners, key=weakness)
        losers = [c for c in legal if c not in winners]
        if losers:
            return max(losers, key=weakness)
        return max(winners, key=weakness) if last else min(winners, key=weakness)


class PlayoutPlayer(NormalPlayer):
    """Bids like ``normal``; plays each card by sampling the hidden hands.

    For each legal card it deals the cards it cannot see at random among the other
    seats (their counts are public; no seat gets a suit it has shown void in: see
    :func:`hidden_hands`), plays the rest of the round out with the ``normal`` play
    for every seat, and keeps the card whose rounds score best: its
    own round score minus the mean of the others' (a seat wins a game against the
    table, not alone). The same sampled deals serve every card, so the
    comparison is fair; sampling stops at ``samples`` or after ``budget_ms``.
    """

    def __init__(self, *, samples: int = 32, budget_ms: float | None = 30.0) -> None:
        self.samples = max(1, samples)
        self.budget_ms = budget_ms

    def card(self, view: ChinoisView) -> Card:
        legal = legal_cards(view)
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        assert seat is not None
        rng = random.Random(repr((view.round, view.hand, view.played, view.trick.cards)))
        totals = sampled_totals(legal, rng, self.samples, self.budget_ms, self.sampler(view),
                                lambda hands, c: _play_out(view, hands, c))
        fallback = super().card(view)
        best = max(legal, key=lambda c: (totals[c], c == fallback))
        return best

    def sampler(self, view: ChinoisView) -> Callable[[random.Random], list[list[Card]]]:
        """The deals of the hidden hands this decision is tried on (:func:`hidden_hands`)."""
        return hidden_hands(view)


BID_SPREAD = 2.5
"""How far from ``normal``'s estimate the bids tried in self-play go, and so the bids
whose values were learned (and ``hard`` chooses among)."""


def near_bids(view: ChinoisView, estimate: float) -> tuple[int, ...]:
    """The legal bids within :data:`BID_SPREAD` of ``estimate`` (all of them if none is)."""
    options = legal_bids(view)
    return tuple(b for b in options if abs(b - estimate) <= BID_SPREAD) or options


class HardPlayer(PlayoutPlayer):
    """Bids by learned values (:mod:`engine.chinois.values`) and plays as
    :class:`PlayoutPlayer`, sampled deals played out.

    The bid network reads the hand, the turned card, the seat's place, the round size,
    the earlier bids and one candidate bid, and gives the deal score the seat may expect
    from that bid, learned from self-play deals; ``hard`` bids the best of the legal bids
    near the hand's worth (:func:`near_bids`: those self-play tried), so the dealer's
    forbidden one is never among them. In the 13-card rounds (no trump) it bids like
    ``normal``: there the learned bids, made for ``normal``'s play, did not gain with the
    sampled play (docs/learned.md).

    With ``learned_play`` it plays the legal card of the best learned value instead (the
    play network: the state once a card is played, the seat's bid and tricks, what the
    other seats still need and the suits they showed void in): a hundred times faster,
    but measured weaker than the sampled play, so kept for the arenas."""

    def __init__(self, *, learned_play: bool = False, samples: int = 32,
                 budget_ms: float | None = 30.0) -> None:
        super().__init__(samples=samples, budget_ms=budget_ms)
        self.learned_play = learned_play

    def bid(self, view: ChinoisView) -> int:
        if view.trump_card is None:
            return super().bid(view)
        estimate = estimate_tricks(view.hand, view.trump_card, view.cards_per_seat)
        options = near_bids(view, estimate)
        worth = values.network("bid").values(features.bid_rows(view, options, estimate))
        return options[int(np.argmax(worth))]

    def card(self, view: ChinoisView) -> Card:
        if not self.learned_play:
            return super().card(view)
        legal = legal_cards(view)
        if len(legal) == 1:
            return legal[0]
        worth = values.network("play").values(
            features.play_rows(view, legal, shown_voids(view)))
        return legal[int(np.argmax(worth))]


UNDEALT = -1
"""The pseudo-seat of the cards left in the pack (every round but those of 13 cards)."""


def shown_voids(view: ChinoisView) -> dict[int, set[int]]:
    """The suits each seat has shown it lacks, from this round's tricks: a seat that did
    not follow the led suit holds none of it. Chinois never obliges a seat to trump, so
    a discard shows nothing about the trump suit."""
    n = view.n_seats
    voids: dict[int, set[int]] = {s: set() for s in range(n)}

    def note(trick: Trick) -> None:
        led = trick.led_suit
        if led is None:
            return
        for play in trick.plays[1:]:
            if play.card & 3 != led:
                voids[play.seat].add(led)

    # The seat after the dealer leads the first trick; each trick's winner the next.
    leader = (view.dealer + 1) % n
    played = view.played
    for start in range(0, len(played) - n + 1, n):
        trick = Trick()
        for k, c in enumerate(played[start:start + n]):
            trick = trick.add((leader + k) % n, c)
        note(trick)
        leader = trick.winning(NATURAL_ORDER, view.trump).seat
    note(view.trick)
    return voids


def unseen_cards(view: ChinoisView) -> list[Card]:
    """The cards ``view``'s seat has not seen (not in its hand, not played, not turned up
    for trump), in deck order."""
    seen = set(view.hand) | set(view.played) | set(view.trick.cards)
    if view.trump_card is not None:
        seen.add(view.trump_card)
    return [c for c in DECK if c not in seen]


def hidden_hands(view: ChinoisView) -> Callable[[random.Random], list[list[Card]]]:
    """Deals of every seat's hand for ``view``'s seat: its own, and the cards it has not
    seen dealt at random (:class:`~engine.sampling.DealSampler`, uniform among the
    consistent deals) to the other seats in their public counts, the rest to the pack,
    no seat getting a suit it has shown void in."""
    seat = view.seat
    assert seat is not None
    unseen = unseen_cards(view)
    counts = {s: n for s, n in enumerate(view.hand_counts) if s != seat}
    counts[UNDEALT] = len(unseen) - sum(counts.values())
    voids = shown_voids(view)
    barred = {s: [c for c in unseen if c & 3 in voids[s]] for s in counts if s != UNDEALT}
    sampler = DealSampler(unseen, counts, barred=barred)

    def deal(rng: random.Random) -> list[list[Card]]:
        hands = sampler.deal(rng)
        return [list(view.hand) if s == seat else hands[s] for s in range(view.n_seats)]

    return deal


def _sample_hands(view: ChinoisView, rng: random.Random) -> list[list[Card]]:
    """One deal of :func:`hidden_hands`."""
    return hidden_hands(view)(rng)


_POLICY = NormalPlayer()


def _play_out(view: ChinoisView, hands: list[list[Card]], first: Card) -> float:
    """The viewer plays ``first``; everyone then plays ``normal`` to the round's end.
    The viewer's round score minus the mean of the others'."""
    seat = view.seat
    assert seat is not None and view.turn == seat
    n = view.n_seats
    hands = [list(h) for h in hands]
    trick = view.trick
    tricks = list(view.tricks_won)
    played = list(view.played)
    trump = view.trump
    turn = seat
    card = first
    while True:
        hands[turn].remove(card)
        trick = trick.add(turn, card)
        if len(trick) == n:
            winner = trick.winning(NATURAL_ORDER, trump).seat
            tricks[winner] += 1
            played.extend(trick.cards)
            trick = Trick()
            turn = winner
            if not hands[turn]:
                break
        else:
            turn = (turn + 1) % n
        seen = replace(view, seat=turn, turn=turn, hand=tuple(hands[turn]),
                       hand_counts=tuple(len(h) for h in hands), tricks_won=tuple(tricks),
                       trick=trick, played=tuple(played))
        card = _POLICY.card(seen)
    bids = [b or 0 for b in view.bids]
    scores = [deal_score(bids[s], tricks[s]) for s in range(n)]
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


def make_player(level: str) -> Player:
    """A computer player of ``level``: ``easy``, ``normal`` or ``hard``."""
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        return HardPlayer()
    raise ValueError(f"unknown level {level!r} (known: easy, normal, hard)")
