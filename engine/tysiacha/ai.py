"""Computer players for Tysiacha, each deciding from its own seat's view only.

``easy`` picks at random among the legal choices (passing half the time in the
bidding). ``normal`` bids from an estimate of the points its hand can take,
marriages counted, picks the two cards to give, concedes a contract it cannot
make while conceding is still free, declares its marriages as soon as it
holds the lead, and plays the cards: masters first, points to its partner,
the cheapest card when it cannot win. ``hard`` makes every decision (bid or
pass, raise, concede, the gifts, each card and marriage) by playing the deal out
many times on sampled deals of the cards it cannot see, with fast playouts of the
``normal`` play, and in the last tricks by searching each sampled deal exactly
(see :class:`HardPlayer`); with ``learned_bids`` it bids or passes from a small
network's values of the cards a soloist holds with the prikup instead
(:mod:`engine.tysiacha.values`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from typing import Protocol

import numpy as np

from engine.cards import Card, card
from engine.sampling import DealSampler
from engine.trick import beats, sampled_totals
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.cards import (
    ACE,
    DECK,
    MARRIAGE_VALUES,
    ORDER,
    POINTS,
    TEN,
    TOTAL_POINTS,
    bid_limit,
    marriage_partner,
    marriages_in,
)
from engine.tysiacha.deal import PRIKUP_SIZE
from engine.tysiacha.features import encode_play
from engine.tysiacha.legal import (
    can_pass,
    can_redeal,
    legal_bids,
    legal_cards,
    legal_gifts,
    legal_raises,
    marriage_leads,
)
from engine.tysiacha.scoring import (
    BARREL,
    BID_STEP,
    CONCESSION_POINTS,
    FREE_CONCESSIONS,
    MIN_BID,
    TARGET,
    concession_cost,
    miss_cost,
    round_points,
    settle,
)
from engine.tysiacha.values import Outlook
from engine.tysiacha.values import gift_values as learned_gift_values
from engine.tysiacha.values import play_values as learned_play_values
from engine.tysiacha.values import values as learned
from engine.tysiacha.view import Phase, TysiachaView

RANKS_HIGH_TO_LOW = (ACE, TEN, 13, 12, 11, 9)
FOLLOW_POINTS = 3
"""What each opponent's card adds, on average, to a trick won with a master."""
PRIKUP_HOPE = 12
"""What the prikup is worth to a bidder who has not seen it, net of the two gifts."""
CONCEDE_MARGIN = 10
RAISE_MARGIN = 25
WIN_VALUE = 500.0
"""What the hard player counts a game won (or lost) for, beside the score changes."""
CONCESSION_RESERVE = 25.0
"""What the hard player counts a free concession kept for later as worth."""
RAISE_EDGE = 10.0
"""How much more a raise must be worth, in the hard player's playouts, than the contract."""
ENDGAME_CARDS = 3
PLAUSIBLE_TRIES = 12
"""Deals drawn, at most, for one whose hands fit the seats' bidding."""
PRIKUP = -1
"""The pseudo-seat of the prikup, when the hard player deals it before the bidding is over."""
"""With this many cards or fewer in hand, the hard player's playouts search the sampled
deals exactly instead of playing them out with ``normal`` play."""
"""What the hard player counts a game won (or lost) for, beside the score changes."""


class Player(Protocol):
    """A computer player: one decision at a time, from its own view only."""

    def act(self, view: TysiachaView, rng: random.Random) -> Action | None:
        """The seat's next action, or None if it has nothing to do now."""
        ...


def pending_seats(view: TysiachaView) -> tuple[int, ...]:
    """Seats worth asking now (from the public view): the seat on turn, and before
    the first card every playing seat, since one holding the four 9s may redeal.
    The seat on turn comes last, so a redeal is asked before anyone plays."""
    if view.turn is None:
        return ()
    if view.phase is Phase.PLAY and not view.started:
        return (*(s for s in view.active if s != view.turn), view.turn)
    return (view.turn,)


class EasyPlayer:
    """Random legal choices."""

    def act(self, view: TysiachaView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None:
            return None
        if can_redeal(view) and rng.random() < 0.5:
            return Redeal(seat)
        if view.turn != seat:
            return None
        if view.phase is Phase.BIDDING:
            bids = legal_bids(view)
            if can_pass(view) and (not bids or rng.random() < 0.5):
                return Pass(seat)
            return Bid(seat, rng.choice(bids))
        if view.phase is Phase.PRIKUP:
            roll = rng.random()
            raises = legal_raises(view)
            if roll < 0.1:
                return Concede(seat)
            if roll < 0.2 and raises:
                return Raise(seat, rng.choice(raises))
            return Give(seat, rng.choice(legal_gifts(view)))
        if view.phase is Phase.PLAY:
            choice = rng.choice(legal_cards(view))
            declare = choice in marriage_leads(view) and rng.random() < 0.5
            return Play(seat, choice, declare)
        return None


def _top_run(held: set[Card], suit: int) -> list[Card]:
    """The cards of ``suit`` that win in turn from the Ace down."""
    run = []
    for rank in RANKS_HIGH_TO_LOW:
        c = card(rank, suit)
        if c not in held:
            break
        run.append(c)
    return run


def estimate(hand: tuple[Card, ...] | list[Card]) -> float:
    """The points a soloist holding ``hand`` (and leading first) can count on: its
    masters with what falls on them, extra tricks from a long trump, and its
    marriages if it holds a master to win the lead first."""
    held = set(hand)
    marriages = marriages_in(held)
    trump = max(marriages, key=MARRIAGE_VALUES.__getitem__) if marriages else None
    total = 0.0
    masters = 0
    for suit in range(4):
        suit_cards = [c for c in held if c & 3 == suit]
        others = 6 - len(suit_cards)
        run = _top_run(held, suit)
        if trump is not None and suit != trump:
            # Once the opponents are out of the suit they trump it.
            run = run[:max(1, (others + 1) // 2)] if others else run
        masters += len(run)
        total += sum(POINTS[c] + 2 * FOLLOW_POINTS for c in run)
        if suit == trump:
            # A long trump suit takes tricks with its small cards too.
            extra = max(0, len(suit_cards) - len(run) - max(0, others - len(run)))
            total += extra * (2 * FOLLOW_POINTS + 2)
            if len(suit_cards) >= 4:
                total += 10
    if marriages:
        values = sorted((MARRIAGE_VALUES[s] for s in marriages), reverse=True)
        sure = 1.0 if masters else 0.4
        total += sure * values[0] + 0.6 * sure * sum(values[1:])
    return total


def _keep_value(c: Card, held: set[Card]) -> float:
    """How much the soloist wants to keep ``c`` rather than give it away."""
    suit = c & 3
    partner = marriage_partner(c)
    if partner is not None and partner in held:
        return 200 + MARRIAGE_VALUES[suit]
    if c in _top_run(held, suit):
        return 100 + POINTS[c]
    length = sum(1 for x in held if x & 3 == suit)
    # Points given away count against us; a short suit given away leaves a void.
    return POINTS[c] * 2 + length


class NormalPlayer:
    """Bids what its hand is worth, concedes while it is free, plays its marriages."""

    def act(self, view: TysiachaView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None:
            return None
        if can_redeal(view) and self._wants_redeal(view):
            return Redeal(seat)
        if view.turn != seat:
            return None
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.PRIKUP:
            return self._prikup(view)
        if view.phase is Phase.PLAY:
            return self._play(view)
        return None

    # ------------------------------------------------------------- bidding
    @staticmethod
    def _needed(view: TysiachaView) -> int:
        """On the barrel only a contract of 1000 - 880 can finish the game."""
        assert view.seat is not None
        score = view.scores[view.seat]
        return TARGET - score if score >= BARREL else 0

    def _bid(self, view: TysiachaView) -> Action:
        assert view.seat is not None
        bids = legal_bids(view)
        worth = estimate(view.hand) + PRIKUP_HOPE
        if not can_pass(view):
            return Bid(view.seat, bids[0])
        if bids and bids[0] <= worth:
            return Bid(view.seat, bids[0])
        return Pass(view.seat)

    def _wants_redeal(self, view: TysiachaView) -> bool:
        if view.seat != view.soloist or view.contract is None:
            return True  # four 9s are four blanks for a defender
        return estimate(view.hand) < view.contract

    # ----------------------------------------------------------- the prikup
    def _prikup(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None and view.contract is not None
        held = set(view.hand)
        gifts = sorted(view.hand, key=lambda c: _keep_value(c, held))[:2]
        kept = [c for c in view.hand if c not in gifts]
        worth = estimate(kept)
        contract = view.contract
        if worth < contract - CONCEDE_MARGIN and view.concessions[seat] < FREE_CONCESSIONS:
            return Concede(seat)
        target = max(self._needed(view), int(worth - RAISE_MARGIN) // BID_STEP * BID_STEP)
        raises = [b for b in legal_raises(view) if b <= target and b <= bid_limit(kept)]
        if raises and worth >= raises[-1] + RAISE_MARGIN // 2:
            return Raise(seat, raises[-1])
        first, second = sorted(view.opponents)
        # The richer of the two cards goes to the seat after the soloist, which
        # plays second to its leads and so cannot use it to lead through it.
        low, high = sorted(gifts, key=lambda c: POINTS[c])
        after = view.active[(view.active.index(seat) + 1) % 3]
        pairs = ((after, high), (first if after == second else second, low))
        return Give(seat, tuple(sorted(pairs)))

    # ------------------------------------------------------------------ play
    def _play(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None
        legal = legal_cards(view)
        trump = view.trump
        unseen = set(DECK) - set(view.hand) - set(view.played) - set(view.trick.cards)

        def is_master(c: Card) -> bool:
            mine = ORDER[(c >> 2) + 2]
            return not any(x & 3 == c & 3 and ORDER[(x >> 2) + 2] > mine for x in unseen)

        def cheapness(c: Card) -> tuple[int, int, int]:
            return (1 if c & 3 == trump else 0, POINTS[c], ORDER[(c >> 2) + 2])

        if not view.trick.plays:
            leads = marriage_leads(view)
            if leads:
                suit = max({c & 3 for c in leads}, key=MARRIAGE_VALUES.__getitem__)
                # Lead the Queen: the same cards beat it as the King, and it is worth less.
                queen = next(c for c in leads if c & 3 == suit and c >> 2 == 10)
                return Play(seat, queen, True)
            masters = [c for c in legal if is_master(c)]
            if masters:
                trumps = [c for c in masters if c & 3 == trump]
                pool = trumps if trumps and seat == view.soloist else masters
                return Play(seat, max(pool, key=lambda c: POINTS[c]))
            return Play(seat, min(legal, key=cheapness))
        led = view.trick.led_suit
        assert led is not None
        best = view.trick.winning(ORDER, trump)
        partner_holds = view.soloist not in (seat, best.seat)
        last = len(view.trick) == len(view.active) - 1
        winners = [c for c in legal if beats(c, best.card, led_suit=led, trump=trump, order=ORDER)]
        if partner_holds and (last or is_master(best.card) or view.soloist == view.trick.leader):
            # The partner holds the trick and the soloist has played or cannot beat it:
            # add points, keeping masters that win tricks of their own.
            return Play(seat, max(legal, key=lambda c: (not is_master(c), POINTS[c])))
        if winners and not partner_holds:
            if last:
                return Play(seat, max(winners, key=lambda c: (POINTS[c], -cheapness(c)[0])))
            masters = [c for c in winners if is_master(c) or (c & 3 == trump and led != trump)]
            if masters:
                return Play(seat, max(masters, key=lambda c: (-cheapness(c)[0], POINTS[c])))
            if sum(POINTS[c] for c in view.trick.cards) >= 10:
                return Play(seat, max(winners, key=lambda c: ORDER[(c >> 2) + 2]))
        return Play(seat, min(legal, key=cheapness))


class _Deal:
    """What the playouts need of a deal in play: who holds what, the trick, the trump,
    and each seat's points, tricks and marriages so far (lists indexed by seat)."""

    __slots__ = ("hands", "marr", "nxt", "points", "soloist", "trick", "tricks", "trump", "turn")

    def __init__(self, hands: list[list[Card]], nxt: list[int], turn: int,
                 trick: list[tuple[int, Card]], trump: int | None, points: list[int],
                 tricks: list[int], marr: list[int], soloist: int) -> None:
        self.hands = hands
        self.nxt = nxt
        self.turn = turn
        self.trick = trick
        self.trump = trump
        self.points = points
        self.tricks = tricks
        self.marr = marr
        self.soloist = soloist

    def copy(self) -> _Deal:
        return _Deal([list(h) for h in self.hands], self.nxt, self.turn, list(self.trick),
                     self.trump, list(self.points), list(self.tricks), list(self.marr),
                     self.soloist)


_STRENGTH: tuple[int, ...] = tuple(ORDER[(c >> 2) + 2] for c in range(52))
_KINGS: tuple[Card, ...] = tuple(card(13, s) for s in range(4))
_QUEENS: tuple[Card, ...] = tuple(card(12, s) for s in range(4))
_SUITS_BY_VALUE = sorted(range(4), key=lambda s: -MARRIAGE_VALUES[s])


def _wins(c: int, best: int, trump: int | None) -> bool:
    if c & 3 == best & 3:
        return _STRENGTH[c] > _STRENGTH[best]
    return trump is not None and c & 3 == trump


def _normal_move(hand: list[Card], others: list[Card], trick: list[tuple[int, Card]],
                 trump: int | None, seat: int, soloist: int, may_marry: bool) -> tuple[Card, bool]:
    """``NormalPlayer._play`` on bare lists, for the playouts: the same choices, with the
    unseen cards being the other two hands (all 24 cards are in hands or played)."""
    strength = _STRENGTH
    top = [0, 0, 0, 0]
    for x in others:
        if strength[x] > top[x & 3]:
            top[x & 3] = strength[x]
    if not trick:
        if may_marry:
            for suit in _SUITS_BY_VALUE:
                if _KINGS[suit] in hand and _QUEENS[suit] in hand:
                    return _QUEENS[suit], True
        masters = [c for c in hand if strength[c] > top[c & 3]]
        if masters:
            if seat == soloist and trump is not None:
                trumps = [c for c in masters if c & 3 == trump]
                if trumps:
                    masters = trumps
            return max(masters, key=POINTS.__getitem__), False
        return min(hand, key=lambda c: (c & 3 == trump, POINTS[c], strength[c])), False
    leader, best = trick[0]
    led = best & 3
    best_seat = leader
    for s, c in trick[1:]:
        if _wins(c, best, trump):
            best_seat, best = s, c
    legal = [c for c in hand if c & 3 == led]
    if not legal and trump is not None:
        legal = [c for c in hand if c & 3 == trump]
    if not legal:
        legal = hand
    partner_holds = soloist != seat and soloist != best_seat
    last = len(trick) == 2
    if partner_holds and (last or strength[best] > top[best & 3] or soloist == leader):
        return max(legal, key=lambda c: (strength[c] <= top[c & 3], POINTS[c])), False
    if not partner_holds:
        winners = [c for c in legal if _wins(c, best, trump)]
        if winners:
            if last:
                return max(winners, key=lambda c: (POINTS[c], c & 3 != trump)), False
            masters = [c for c in winners
                       if strength[c] > top[c & 3] or (c & 3 == trump and led != trump)]
            if masters:
                return max(masters, key=lambda c: (c & 3 != trump, POINTS[c])), False
            if sum(POINTS[c] for _, c in trick) >= 10:
                return max(winners, key=strength.__getitem__), False
    return min(legal, key=lambda c: (c & 3 == trump, POINTS[c], strength[c])), False


def _finish(d: _Deal, first: tuple[Card, bool] | None = None, until: int = 0) -> None:
    """Play ``d`` to its end, or to the first trick's end with ``until`` cards or fewer in
    each hand (``first`` the move of the seat on turn, then ``normal`` for everyone), in
    place."""
    hands, nxt, trick, trump = d.hands, d.nxt, d.trick, d.trump
    points, tricks, marr, soloist = d.points, d.tricks, d.marr, d.soloist
    turn = d.turn
    while True:
        hand = hands[turn]
        if first is not None:
            c, declare = first
            first = None
        else:
            a = nxt[turn]
            c, declare = _normal_move(hand, hands[a] + hands[nxt[a]], trick, trump, turn,
                                      soloist, not trick and tricks[turn] > 0)
        hand.remove(c)
        if declare:
            trump = c & 3
            marr[turn] += MARRIAGE_VALUES[trump]
        trick.append((turn, c))
        if len(trick) == 3:
            w, best = trick[0]
            for s, x in trick[1:]:
                if _wins(x, best, trump):
                    w, best = s, x
            tricks[w] += 1
            points[w] += POINTS[trick[0][1]] + POINTS[trick[1][1]] + POINTS[trick[2][1]]
            trick = []
            turn = w
            if len(hands[turn]) <= until:
                break
        else:
            turn = nxt[turn]
    d.trick, d.trump, d.turn = trick, trump, turn


def _moves(d: _Deal) -> list[tuple[Card, bool]]:
    """The seat on turn's legal moves in ``d``; a King or Queen led with its partner in
    hand, after a trick won, declares the marriage."""
    hand = d.hands[d.turn]
    if not d.trick:
        if not d.tricks[d.turn]:
            return [(c, False) for c in hand]
        return [(c, (c >> 2) in (10, 11) and (c ^ 4) in hand) for c in hand]
    led = d.trick[0][1] & 3
    legal = [c for c in hand if c & 3 == led]
    if not legal and d.trump is not None:
        legal = [c for c in hand if c & 3 == d.trump]
    return [(c, False) for c in (legal or hand)]


def _search(d: _Deal, leaf: Callable[[_Deal], float], alpha: float, beta: float) -> float:
    """The value of ``d`` (for the soloist, by ``leaf`` at the deal's end) when every seat
    sees every card: the soloist maximises it, the defenders minimise it. ``d`` is
    left as it was."""
    if not d.trick and not d.hands[d.turn]:
        return leaf(d)
    maximise = d.turn == d.soloist
    best = -math.inf if maximise else math.inf
    for move in _moves(d):
        value = _search_after(d, move, leaf, alpha, beta)
        if maximise:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def _search_after(d: _Deal, move: tuple[Card, bool], leaf: Callable[[_Deal], float],
                  alpha: float, beta: float) -> float:
    """:func:`_search` after the seat on turn plays ``move``; ``d`` is left as it was."""
    c, declare = move
    turn, trump, trick = d.turn, d.trump, d.trick
    d.hands[turn].remove(c)
    if declare:
        d.trump = c & 3
        d.marr[turn] += MARRIAGE_VALUES[c & 3]
    d.trick = [*trick, (turn, c)]
    if len(d.trick) == 3:
        w, best = d.trick[0]
        for s, x in d.trick[1:]:
            if _wins(x, best, d.trump):
                w, best = s, x
        won = POINTS[d.trick[0][1]] + POINTS[d.trick[1][1]] + POINTS[d.trick[2][1]]
        d.tricks[w] += 1
        d.points[w] += won
        d.trick = []
        d.turn = w
        value = _search(d, leaf, alpha, beta)
        d.tricks[w] -= 1
        d.points[w] -= won
    else:
        d.turn = d.nxt[turn]
        value = _search(d, leaf, alpha, beta)
    if declare:
        d.marr[turn] -= MARRIAGE_VALUES[c & 3]
    d.turn, d.trump, d.trick = turn, trump, trick
    d.hands[turn].append(c)
    return value


class _Sheet:
    """The score sheet as one seat sees it, to value a deal's end: each seat's change
    after the barrel rules, as ``me``'s change less the mean of the others', and a
    game won or lost counted as :data:`WIN_VALUE` more or less."""

    def __init__(self, view: TysiachaView, me: int) -> None:
        self.me = me
        self.active = view.active
        self.scores = view.scores
        self.barrel = view.barrel
        self.misses = view.misses
        self.concessions = view.concessions
        self.rounding = view.rounding

    def value(self, earned: dict[int, int], soloist: int) -> float:
        me = self.me
        total = 0.0
        winners = []
        for s in self.active:
            settled = settle(self.scores[s], earned[s], self.barrel[s], took_part=True)
            change = settled.total - self.scores[s]
            total += change if s == me else -change / 2
            if settled.total >= TARGET:
                winners.append(s)
        if winners:
            winner = soloist if soloist in winners else winners[0]
            total += WIN_VALUE if winner == me else -WIN_VALUE
        return total

    def played(self, d: _Deal, contract: int) -> float:
        """The value of a deal played out to ``d`` at ``contract``."""
        earned = {}
        for s in self.active:
            if s == d.soloist:
                earned[s] = contract if d.points[s] + d.marr[s] >= contract else -contract
            else:
                e = 0 if self.barrel[s] is not None else \
                    round_points(d.points[s], self.rounding) + d.marr[s]
                if not d.tricks[s]:
                    e += miss_cost(self.misses[s] + 1)
                earned[s] = e
        return self.value(earned, d.soloist)

    def conceded(self, soloist: int) -> float:
        earned = {s: 0 if self.barrel[s] is not None else CONCESSION_POINTS
                  for s in self.active}
        earned[soloist] = concession_cost(self.concessions[soloist] + 1)
        value = self.value(earned, soloist)
        if soloist == self.me and self.concessions[soloist] < FREE_CONCESSIONS:
            value -= CONCESSION_RESERVE  # one free concession fewer for later deals
        return value


def _next_seats(view: TysiachaView) -> list[int]:
    nxt = [0] * view.n_seats
    for i, s in enumerate(view.active):
        nxt[s] = view.active[(i + 1) % len(view.active)]
    return nxt


def _history(view: TysiachaView) -> tuple[dict[int, set[int]], int | None, dict[int, set[Card]]]:
    """The suits each seat has shown it lacks (it did not follow, or did not trump
    when it had to), the trump, and the cards each seat played, read from the
    finished tricks and the current one."""
    voids: dict[int, set[int]] = {s: set() for s in view.active}
    played_by: dict[int, set[Card]] = {s: set() for s in view.active}
    nxt = _next_seats(view)
    marriages = list(view.marriages)
    trump: int | None = None
    leader = view.soloist
    played = view.played
    tricks = [list(played[i:i + 3]) for i in range(0, len(played), 3)]
    current = list(view.trick.cards)
    for i, cards in enumerate([*tricks, current]):
        if not cards or leader is None:
            break
        lead = cards[0]
        if marriages and marriages[0][0] == leader and marriages[0][1] == lead & 3 and \
                lead >> 2 in (10, 11):
            trump = marriages.pop(0)[1]
        if i == len(tricks):
            trump = view.trump
        seats = [leader, nxt[leader], nxt[nxt[leader]]]
        led = lead & 3
        best_seat, best = leader, lead
        played_by[leader].add(lead)
        for s, c in zip(seats[1:], cards[1:], strict=False):
            played_by[s].add(c)
            if c & 3 != led:
                voids[s].add(led)
                if trump is not None and c & 3 != trump:
                    voids[s].add(trump)
            if _wins(c, best, trump):
                best_seat, best = s, c
        leader = best_seat
    return voids, trump, played_by


def _knowledge(view: TysiachaView) -> tuple[dict[int, set[int]], dict[int, set[Card]],
                                            dict[int, set[Card]]]:
    """What the play so far shows of the other hands: voids (suits) by seat; cards known
    to be in a seat's hand (the soloist's gifts, seen by the soloist; the other half of a
    marriage declared and not played since); cards taken to be with a seat (the prikup's
    unplayed cards, for a defender: with the soloist unless given to the other defender)."""
    voids, _, _ = _history(view)
    seat, soloist = view.seat, view.soloist
    gone = set(view.played) | set(view.trick.cards)
    held: dict[int, set[Card]] = {}
    likely: dict[int, set[Card]] = {}
    if seat == soloist:
        for target, c in view.given:
            if c not in gone:
                held.setdefault(target, set()).add(c)
    elif soloist is not None:
        for c in view.prikup:
            if c not in gone and c not in view.hand:
                likely.setdefault(soloist, set()).add(c)
    for who, suit in view.marriages:
        if who != seat:
            held.setdefault(who, set()).update(
                c for c in (_KINGS[suit], _QUEENS[suit]) if c not in gone)
    return voids, held, likely


def _needs_marriage(view: TysiachaView) -> Callable[[dict[int, list[Card]]], bool] | None:
    """For a defender facing a contract above 120: a test that a sampled deal leaves the
    soloist a marriage among the ten cards it held with the prikup (the rules allow such
    a bid or raise only then): its hand now, the cards it played, the gift received.
    (A marriage card given to the other defender is not looked for.)"""
    soloist = view.soloist
    if soloist is None or view.seat == soloist or view.contract is None or \
            view.contract <= TOTAL_POINTS:
        return None
    _, _, played_by = _history(view)
    shown = set(played_by.get(soloist, ()))
    if view.received is not None:
        shown.add(view.received)

    def accept(hands: dict[int, list[Card]]) -> bool:
        return bool(marriages_in(shown.union(hands[soloist])))

    return accept


MARRIAGE_TRIES = 64
"""Deals drawn, at most, for one that leaves a high contract's soloist its marriage."""


def hidden_hands(view: TysiachaView) -> Callable[[random.Random], dict[int, list[Card]]]:
    """Deals of the other playing seats' hands for ``view``'s seat, by the shared sampler
    (:class:`~engine.sampling.DealSampler`, uniform among the consistent deals): the
    unseen cards in the seats' counts, keeping :func:`_knowledge` (the prikup pins only
    where they fit the rest) and, for a contract above 120, the soloist's marriage."""
    seat = view.seat
    assert seat is not None
    others = [s for s in view.active if s != seat]
    known = set(view.hand) | set(view.played) | set(view.trick.cards)
    unseen = [c for c in DECK if c not in known]
    voids, held, likely = _knowledge(view)
    barred = {s: [c for c in unseen if c & 3 in voids.get(s, ())] for s in others}
    sampler = DealSampler(unseen, {s: view.hand_counts[s] for s in others}, held=held,
                          barred=barred, likely=likely)
    accept = _needs_marriage(view)
    tries = MARRIAGE_TRIES if accept is not None else 1

    def deal(rng: random.Random) -> dict[int, list[Card]]:
        return sampler.deal(rng, accept, tries)

    return deal


def _deal_unseen(view: TysiachaView, rng: random.Random) -> dict[int, list[Card]]:
    """One deal of :func:`hidden_hands`."""
    return hidden_hands(view)(rng)


class HardPlayer(NormalPlayer):
    """Decides by playing deals out, many times over, on sampled deals of the cards it
    cannot see, every seat playing the ``normal`` cards in the playouts.

    - Bidding: it raises the bidding by one step while taking the contract (with a
      sampled prikup, the best raise or a concession, and its two worst cards given)
      is worth more than defending against the seat holding the bid. Hands sampled
      for a seat that bid are ones ``normal`` would have bid with. With
      ``learned_bids`` both sides of that choice are valued by the learned values of
      :mod:`engine.tysiacha.values` instead of playouts (:func:`_learned_bid`): as
      strong, measured against the playouts' bidding, in half the time; not the
      default, since it does not beat them.
    - The prikup: it tries the gifts among its cheapest cards, and every contract it
      may raise to, on the same sampled deals; it concedes when that is worth more.
      With ``learned_gifts`` the learned gift values choose the gifts among the same
      candidates, and the playouts weigh the contracts for those gifts alone.
    - Play: each legal card (and each marriage it may declare) is tried on the same
      sampled deals, which respect what the play so far has shown (a seat that did
      not follow or trump lacks the suit; the other half of a declared marriage
      stays with its seat; the prikup's cards are with the soloist where that fits;
      a contract above 120 leaves the soloist a marriage): see :func:`hidden_hands`.
      With ``learned_play`` each card (and each marriage declared) is valued on each
      sampled deal by the learned play values at the end of its trick, mixed with the
      playout's result (:func:`_learned_totals`), and so are the prikup's gifts and
      contracts at the first lead: measured, not the default, as it does not beat the
      playouts alone.

    A deal's end is valued as the score sheet would change it, barrel and penalties
    included: the seat's change less the mean of the others', and a game won or lost
    as :data:`WIN_VALUE` more or less. Sampling stops at the sample counts or after
    ``budget_ms`` per decision (None: no time limit, fully deterministic).
    """

    def __init__(self, *, samples: int = 64, budget_ms: float | None = 60.0,
                 bid_samples: int | None = None, bid_budget_ms: float | None = None,
                 learned_bids: bool = False, learned_gifts: bool = False,
                 learned_play: bool = False) -> None:
        self.learned_play = learned_play
        """Value each card, and the prikup's choices, by the learned play values mixed with
        the playouts (:func:`_learned_totals`), else by the playouts alone."""
        self.learned_bids = learned_bids
        """Bid from the learned values (:mod:`engine.tysiacha.values`), else by playouts."""
        self.learned_gifts = learned_gifts
        """Choose the gifts by the learned gift values (:func:`_learned_gift`), and the
        contract (raise, concede) by playouts of those gifts only; else both by playouts."""
        self.samples = max(1, samples)
        self.budget_ms = budget_ms
        self.bid_samples = max(1, bid_samples if bid_samples is not None else samples)
        self.bid_budget_ms = bid_budget_ms if bid_budget_ms is not None else \
            (None if budget_ms is None else 1.5 * budget_ms)
        self._plan: tuple[tuple[int, frozenset[Card]], int, tuple[tuple[int, Card], ...]] | None \
            = None
        """The contract and gifts chosen on seeing the prikup, kept while a raise is applied."""

    def _deadline(self, budget: float | None) -> float | None:
        return None if budget is None else time.perf_counter() + budget / 1e3

    # ------------------------------------------------------------- bidding
    def _bid(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None
        bids = legal_bids(view)
        if not can_pass(view) or not bids:
            return super()._bid(view)
        assert view.high_bid is not None
        bid = bids[0]
        holder = max((s for s in view.active if view.bids[s] == view.high_bid),
                     key=lambda s: s != seat)
        if self.learned_bids:
            return _learned_bid(view, seat, bid, holder, self.bid_samples, self._needed(view))
        others = [s for s in view.active if s != seat]
        rng = random.Random(repr((view.deal_number, view.hand, view.bids, view.passed)))
        sheet = _Sheet(view, seat)
        unseen = [c for c in DECK if c not in view.hand]
        nxt = _next_seats(view)
        deadline = self._deadline(self.bid_budget_ms)
        bid_value = pass_value = 0.0
        counts = {s: view.hand_counts[s] for s in others}
        piles = DealSampler(unseen, {PRIKUP: PRIKUP_SIZE, **counts})

        def plausible(hands: dict[int, list[Card]]) -> bool:
            return _plausible(view, hands)

        for _ in range(max(1, self.bid_samples // 2)):
            # One prikup, four deals of the rest: two decide whether the soloist would
            # concede on seeing it, two value the choice (so no luck of the deciding
            # deals is counted in the value).
            prikup = piles.deal(rng)[PRIKUP]
            rest = DealSampler([c for c in unseen if c not in prikup], counts)
            kept, gifts = _cheap_gifts(view, seat, [*view.hand, *prikup])
            # The contract held, or on the barrel the raise that would win the game.
            needed = self._needed(view)
            levels = [bid] + ([needed] if bid < needed <= bid_limit([*view.hand, *prikup])
                              else [])
            results: list[list[float]] = []
            for _ in range(4):
                hands = rest.deal(rng, plausible, PLAUSIBLE_TRIES)
                d = _solo_deal(view, seat, kept, {s: [*h, gifts[s]] for s, h in hands.items()},
                               nxt)
                _finish(d)
                results.append([sheet.played(d, b) for b in levels])
                # Had this seat passed, the seat holding the bid would have taken it.
                pass_value += _normal_soloist(view, sheet, holder, hands[holder], prikup,
                                              {s: (list(view.hand) if s == seat else hands[s])
                                               for s in view.active if s != holder}, nxt) / 4
            concede = sheet.conceded(seat)
            level = max(range(len(levels)), key=lambda i: results[0][i] + results[1][i])
            bid_value += concede if 2 * concede > results[0][level] + results[1][level] else \
                (results[2][level] + results[3][level]) / 2
            if deadline is not None and time.perf_counter() > deadline:
                break
        return Bid(seat, bid) if bid_value > pass_value else Pass(seat)

    # ----------------------------------------------------------- the prikup
    def _prikup(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None and view.contract is not None
        key = (view.deal_number, frozenset(view.hand))
        if self._plan is not None and self._plan[0] == key:
            _, planned, planned_give = self._plan
            return Raise(seat, planned) if planned > view.contract else Give(seat, planned_give)
        ordered, contract, concede = self.prikup_plan(view)
        if concede:
            return Concede(seat)
        self._plan = (key, contract, ordered)
        if contract > view.contract:
            return Raise(seat, contract)
        return Give(seat, ordered)

    def prikup_plan(self, view: TysiachaView,
                    values: tuple[dict[tuple[Gifts, int], float], int] | None = None,
                    ) -> tuple[tuple[tuple[int, Card], ...], int, bool]:
        """The soloist's best gifts and contract on seeing the prikup, and whether
        conceding is worth more than playing them (from ``values``, else
        :meth:`prikup_values`)."""
        seat = view.seat
        assert seat is not None
        sums, n = values if values is not None else self.prikup_values(view)
        # (in the order they were weighed: the contract held first)
        gifts = list(dict.fromkeys(g for g, _ in sums))
        contracts = list(dict.fromkeys(b for _, b in sums))
        give = max(gifts, key=lambda g: sums[(g, contracts[0])])
        # A raise must be worth a margin more than the contract held (the best of many
        # sampled means is a little lucky); then the best contract, against conceding.
        contract = max(contracts, key=lambda b: sums[(give, b)] - (b > contracts[0]) *
                       RAISE_EDGE * n)
        return tuple(sorted(give)), contract, \
            sums[(give, contract)] < _Sheet(view, seat).conceded(seat) * n

    def prikup_values(self, view: TysiachaView) -> tuple[dict[tuple[Gifts, int], float], int]:
        """For each pair of gifts the soloist may make on seeing the prikup, and each
        contract it may hold or raise to, the total value of playing them over the
        sampled deals, and the count of those deals."""
        seat = view.seat
        assert seat is not None and view.contract is not None
        held = set(view.hand)
        after = view.active[(view.active.index(seat) + 1) % 3]
        other = next(s for s in view.opponents if s != after)
        nxt = _next_seats(view)
        gifts = gift_pairs(view.hand, after, other)
        if self.learned_gifts:
            gifts = [_learned_gift(view, seat, gifts, nxt)]
        contracts = [view.contract, *legal_raises(view)]
        unseen = [c for c in DECK if c not in held]
        rng = random.Random(repr((view.deal_number, view.hand, view.contract)))
        sheet = _Sheet(view, seat)
        sums = {(g, b): 0.0 for g in gifts for b in contracts}
        deadline = self._deadline(self.bid_budget_ms)
        n = 0
        hidden = DealSampler(unseen, {s: view.hand_counts[s] for s in (after, other)})

        def plausible(hands: dict[int, list[Card]]) -> bool:
            return _plausible(view, hands)

        learned = LEARNED_PLAY_SHARE[len(view.hand) - 2] if self.learned_play else 0.0
        rows: list[np.ndarray] = []
        keys: list[Gifts] = []
        for _ in range(self.bid_samples):
            hands = hidden.deal(rng, plausible, PLAUSIBLE_TRIES)
            for g in gifts:
                (_, x), (_, y) = g
                kept = [c for c in view.hand if c != x and c != y]
                d = _solo_deal(view, seat, kept, {after: [*hands[after], x],
                                                  other: [*hands[other], y]}, nxt)
                if learned:
                    rows.append(_play_row(d))
                    keys.append(g)
                _finish(d)
                for b in contracts:
                    sums[(g, b)] += (1.0 - learned) * sheet.played(d, b)
            n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        if rows:
            for g, outlook in zip(keys, learned_play_values().play_outlooks(np.stack(rows)),
                                  strict=True):
                for b in contracts:
                    sums[(g, b)] += learned * _outcome(sheet, seat, nxt, outlook, b)
        return sums, n

    # ------------------------------------------------------------------ play
    def _play(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None
        options = [(c, False) for c in legal_cards(view)]
        options += [(c, True) for c in marriage_leads(view)]
        if len(options) == 1:
            return Play(seat, *options[0])
        if view.soloist is None or view.contract is None:
            return super()._play(view)
        contract = view.contract
        fallback = super()._play(view)
        assert isinstance(fallback, Play)
        base = _view_deal(view)
        sheet = _Sheet(view, seat)
        deal = hidden_hands(view)

        def sample(r: random.Random) -> _Deal:
            d = base.copy()
            for s, h in deal(r).items():
                d.hands[s] = h
            return d

        if len(view.hand) <= ENDGAME_CARDS:
            # Few cards left: each sampled deal is searched exactly.
            exact = _exact_value(view)

            def play_out(d: _Deal, option: tuple[Card, bool]) -> float:
                return exact(d, option)
        else:
            def play_out(d: _Deal, option: tuple[Card, bool]) -> float:
                d = d.copy()
                _finish(d, option)
                return sheet.played(d, contract)

        rng = random.Random(repr((view.deal_number, view.hand, view.played, view.trick.cards)))
        if self.learned_play and len(view.hand) > ENDGAME_CARDS:
            totals = _learned_totals(view, options, rng, self.samples, self.budget_ms, sample)
        else:
            totals = sampled_totals(options, rng, self.samples, self.budget_ms, sample,
                                    play_out)
        best = max(options, key=lambda o: (totals[o], o == (fallback.card, fallback.marriage)))
        return Play(seat, *best)


LEARNED_PLAY_SHARE = {8: 0.6, 7: 0.6, 6: 0.6, 5: 0.4, 4: 0.3}
"""The learned play values' share of a card's value on a sampled deal (the playout's the
rest), by the cards each seat holds at the end of the trick: the mix that best foretold
how ``hard`` players ended held-out deals (Brier score 0.027 at every depth together,
against 0.037 for the network alone and 0.038 for the playout alone: the play model's
card). The first lead (8 cards) is the prikup's."""


def _exact_value(view: TysiachaView) -> Callable[[_Deal, tuple[Card, bool] | None], float]:
    """The value for ``view``'s seat of a sampled deal after a move (None: as it stands)
    searched exactly, every seat seeing every card: the soloist for its result at the
    contract, the defenders against it."""
    assert view.soloist is not None and view.contract is not None
    solo, contract = _Sheet(view, view.soloist), view.contract
    sign = 1.0 if view.seat == view.soloist else -1.0

    def leaf(d: _Deal) -> float:
        return solo.played(d, contract)

    def value(d: _Deal, move: tuple[Card, bool] | None) -> float:
        if move is None:
            return sign * _search(d, leaf, -math.inf, math.inf)
        return sign * _search_after(d, move, leaf, -math.inf, math.inf)

    return value


def _play_row(d: _Deal) -> np.ndarray:
    """:func:`engine.tysiacha.features.encode_play` of ``d`` between two tricks."""
    soloist = d.soloist
    after = d.nxt[soloist]
    roles = (soloist, after, d.nxt[after])
    return encode_play([d.hands[s] for s in roles], d.trump, roles.index(d.turn),
                       [d.points[s] for s in roles], [d.marr[s] for s in roles],
                       [d.tricks[s] > 0 for s in roles])


def _learned_totals(view: TysiachaView, options: list[tuple[Card, bool]], rng: random.Random,
                    samples: int, budget_ms: float | None,
                    sample: Callable[[random.Random], _Deal]) -> dict[tuple[Card, bool], float]:
    """Each option's total value over sampled deals, as :func:`engine.trick.sampled_totals`
    gives the playouts', but each deal is played by ``normal`` to the end of the trick,
    then valued: with more than :data:`ENDGAME_CARDS` cards left, as the mix
    (:data:`LEARNED_PLAY_SHARE`) of the learned play values there (the score sheet's
    expected change, for this seat, of the chance the soloist makes the contract and the
    defenders' points) and the playout on to the deal's end; else searched exactly."""
    assert view.seat is not None and view.soloist is not None and view.contract is not None
    contract, soloist = view.contract, view.soloist
    until = len(view.hand) - 1
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1e3
    totals = dict.fromkeys(options, 0.0)
    exact = _exact_value(view)
    sheet = _Sheet(view, view.seat)
    learned = LEARNED_PLAY_SHARE.get(until, 0.0)
    rows: list[np.ndarray] = []
    keys: list[tuple[Card, bool]] = []
    for _ in range(samples):
        dealt = sample(rng)
        for option in options:
            d = dealt.copy()
            _finish(d, option, until)
            if until <= ENDGAME_CARDS:
                totals[option] += exact(d, None)
                continue
            rows.append(_play_row(d))
            keys.append(option)
            _finish(d)
            totals[option] += (1.0 - learned) * sheet.played(d, contract)
        if deadline is not None and time.perf_counter() > deadline:
            break
    if rows:
        nxt = _next_seats(view)
        for option, outlook in zip(keys, learned_play_values().play_outlooks(np.stack(rows)),
                                   strict=True):
            totals[option] += learned * _outcome(sheet, soloist, nxt, outlook, contract)
    return totals


def _view_deal(view: TysiachaView) -> _Deal:
    """The deal in play as ``view`` shows it, other seats' hands left empty."""
    assert view.seat is not None and view.soloist is not None
    hands: list[list[Card]] = [[] for _ in range(view.n_seats)]
    hands[view.seat] = list(view.hand)
    marr = [0] * view.n_seats
    for who, suit in view.marriages:
        marr[who] += MARRIAGE_VALUES[suit]
    return _Deal(hands, _next_seats(view), view.seat,
                 [(p.seat, p.card) for p in view.trick.plays], view.trump, list(view.points),
                 list(view.tricks_taken), marr, view.soloist)


def _solo_deal(view: TysiachaView, soloist: int, kept: list[Card],
               hands: dict[int, list[Card]], nxt: list[int]) -> _Deal:
    """A deal about to be played: ``soloist`` holds ``kept`` and leads."""
    all_hands: list[list[Card]] = [[] for _ in range(view.n_seats)]
    all_hands[soloist] = list(kept)
    for s, h in hands.items():
        all_hands[s] = list(h)
    zero = [0] * view.n_seats
    return _Deal(all_hands, nxt, soloist, [], None, list(zero), list(zero), list(zero), soloist)


_POLICY = NormalPlayer()


def _plausible(view: TysiachaView, hands: dict[int, list[Card]]) -> bool:
    """Whether the other seats' sampled hands (as dealt, 7 cards) fit their bidding as
    ``normal`` bids: a seat bids only what its hand is worth (the opening 100 is forced)
    and passes when the next bid is worth more."""
    for s, hand in hands.items():
        bid = view.bids[s]
        if bid is not None and bid > TOTAL_POINTS and not marriages_in(hand):
            return False  # the rules allow a bid above 120 only with a marriage
        worth = estimate(hand) + PRIKUP_HOPE
        if bid is not None and not (s == view.active[0] and bid == MIN_BID) and worth < bid:
            return False
        if view.passed[s] and view.high_bid is not None and worth >= view.high_bid + BID_STEP:
            return False
    return True


Gifts = tuple[tuple[int, Card], tuple[int, Card]]
"""Two gifts: (the seat after the soloist, its card), (the other seat, its card)."""


def gift_pairs(hand: tuple[Card, ...] | list[Card], after: int, other: int) -> list[Gifts]:
    """The gifts ``hard`` weighs for a soloist holding ``hand`` (its ten cards): each two
    of its four least useful cards, the richer to the seat ``after`` it (as ``normal``
    gives), the other to ``other``."""
    held = set(hand)
    cheap = sorted(hand, key=lambda c: _keep_value(c, held))[:4]
    return [((after, y), (other, x)) for a, b in combinations(cheap, 2)
            for x, y in [sorted((a, b), key=POINTS.__getitem__)]]


def _learned_gift(view: TysiachaView, seat: int, gifts: list[Gifts], nxt: list[int]) -> Gifts:
    """The gifts of ``gifts`` the learned gift values (:func:`engine.tysiacha.values.gift_values`)
    rate best for ``seat``, the soloist: the score sheet's expected value of the contract
    held with the eight cards kept, as :func:`_outcome` values a bid."""
    assert view.contract is not None
    sheet = _Sheet(view, seat)
    outlooks = learned_gift_values().gift_outlooks(
        [([c for c in view.hand if c not in (x, y)], x, y) for (_, x), (_, y) in gifts])
    worth = [_outcome(sheet, seat, nxt, o, view.contract) for o in outlooks]
    return gifts[max(range(len(gifts)), key=worth.__getitem__)]


def _cheap_gifts(view: TysiachaView, soloist: int,
                 ten: list[Card]) -> tuple[list[Card], dict[int, Card]]:
    """The soloist's two least useful cards, the richer to the seat after it (as
    ``normal`` gives them), and the eight it keeps."""
    held = set(ten)
    low, high = sorted(sorted(ten, key=lambda c: _keep_value(c, held))[:2],
                       key=POINTS.__getitem__)
    after = view.active[(view.active.index(soloist) + 1) % 3]
    other = next(s for s in view.active if s not in (soloist, after))
    return [c for c in ten if c not in (low, high)], {after: high, other: low}


def _normal_soloist(view: TysiachaView, sheet: _Sheet, holder: int, hand: list[Card],
                    prikup: list[Card], hands: dict[int, list[Card]], nxt: list[int]) -> float:
    """The value for ``sheet``'s seat of ``holder`` taking the contract at the high bid
    with ``hand`` and deciding as ``normal`` does (others holding ``hands``)."""
    assert view.high_bid is not None
    ten = (*hand, *prikup)
    seen = replace(view, seat=holder, turn=holder, phase=Phase.PRIKUP, hand=ten,
                   prikup=tuple(prikup), soloist=holder, contract=view.high_bid)
    action = _POLICY._prikup(seen)
    if isinstance(action, Concede):
        return sheet.conceded(holder)
    contract = view.high_bid
    if isinstance(action, Raise):
        contract = action.bid
        action = _POLICY._prikup(replace(seen, contract=contract))
    assert isinstance(action, Give)
    given = {t: c for t, c in action.give}
    kept = [c for c in ten if c not in given.values()]
    d = _solo_deal(view, holder, kept, {s: [*h, given[s]] for s, h in hands.items()}, nxt)
    _finish(d)
    return sheet.played(d, contract)


LEARNED_RAISES = 4
"""Contracts above the bid that the learned bidding weighs for a soloist after the prikup
(in steps of 10 points), besides the bid itself and, on the barrel, the game's."""


def _outcome(sheet: _Sheet, soloist: int, nxt: list[int], outlook: Outlook,
             contract: int) -> float:
    """The value for ``sheet``'s seat of ``soloist`` playing ``contract`` with cards the
    network sees as ``outlook`` (its chance of making it, the defenders' points)."""
    after = nxt[soloist]
    points = dict(zip((after, nxt[after]), outlook.defenders, strict=True))
    earned = {s: round(p) for s, p in points.items()}
    chance = outlook.chance(contract)
    made = sheet.value({**earned, soloist: contract}, soloist)
    lost = sheet.value({**earned, soloist: -contract}, soloist)
    return chance * made + (1 - chance) * lost


def _soloist_value(sheet: _Sheet, soloist: int, nxt: list[int], outlook: Outlook, bid: int,
                   ten: list[Card], needed: int) -> float:
    """What ``soloist`` holding ``ten`` after the prikup makes of a contract at ``bid``, for
    ``sheet``'s seat (its own when it is the soloist): the best of conceding, playing the
    bid and raising it (a raise by a margin, :data:`RAISE_EDGE`, as ``hard`` raises)."""
    limit = bid_limit(ten)
    raises = [b for b in range(bid + 10, bid + 10 * LEARNED_RAISES + 1, 10) if b <= limit]
    if bid < needed <= limit:
        raises.append(needed)
    best = max([_outcome(sheet, soloist, nxt, outlook, bid)] +
               [_outcome(sheet, soloist, nxt, outlook, b) - RAISE_EDGE for b in raises])
    return max(best, sheet.conceded(soloist))


def _learned_bid(view: TysiachaView, seat: int, bid: int, holder: int, samples: int,
                 needed: int) -> Action:
    """Bid ``bid`` or pass, by the learned values: bidding is worth the mean over sampled
    prikups of the best this seat can make of the contract with it (conceding, playing,
    raising); passing, the mean over sampled deals (hands that fit the bidding) of the
    seat holding the bid taking the contract at it, conceding when that is worth more
    to it, and this seat defending."""
    others = [s for s in view.active if s != seat]
    unseen = [c for c in DECK if c not in view.hand]
    rng = random.Random(repr((view.deal_number, view.hand, view.bids, view.passed)))
    nxt = _next_seats(view)
    sheet = _Sheet(view, seat)
    prikups = [rng.sample(unseen, PRIKUP_SIZE) for _ in range(samples)]
    tens = [[*view.hand, *p] for p in prikups]
    sampler = DealSampler(unseen, {PRIKUP: PRIKUP_SIZE, **{s: view.hand_counts[s]
                                                          for s in others}})

    def plausible(hands: dict[int, list[Card]]) -> bool:
        return _plausible(view, {s: h for s, h in hands.items() if s != PRIKUP})

    deals = [sampler.deal(rng, plausible, PLAUSIBLE_TRIES) for _ in range(samples)]
    theirs = [[*d[holder], *d[PRIKUP]] for d in deals]
    outlooks = learned().outlooks([*tens, *theirs])
    mine, held = outlooks[:samples], outlooks[samples:]
    bid_value = sum(_soloist_value(sheet, seat, nxt, o, bid, ten, needed)
                    for o, ten in zip(mine, tens, strict=True)) / samples
    assert view.high_bid is not None
    theirs_sheet = _Sheet(view, holder)
    pass_value = 0.0
    for o in held:
        play = _outcome(theirs_sheet, holder, nxt, o, view.high_bid)
        conceding = theirs_sheet.conceded(holder)
        pass_value += sheet.conceded(holder) if conceding > play else \
            _outcome(sheet, holder, nxt, o, view.high_bid)
    pass_value /= samples
    return Bid(seat, bid) if bid_value > pass_value else Pass(seat)


def make_player(level: str) -> Player:
    """A computer player of ``level``: ``easy``, ``normal`` or ``hard``."""
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        return HardPlayer()
    raise ValueError(f"unknown level {level!r} (known: easy, normal, hard)")
