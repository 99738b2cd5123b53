"""Computer players for Tysiacha, each deciding from its own seat's view only.

``easy`` picks at random among the legal choices (passing half the time in the
bidding). ``normal`` bids from an estimate of the points its hand can take,
marriages counted, picks the two cards to give, concedes a contract it cannot
make while conceding is still free, declares its marriages as soon as it
holds the lead, and plays the cards: masters first, points to its partner,
the cheapest card when it cannot win. ``hard`` decides like ``normal`` but
chooses each card by playing the deal out on sampled deals of the unseen cards.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Protocol

from engine.cards import Card, card
from engine.trick import Trick, beats, sampled_totals
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.cards import (
    ACE,
    DECK,
    MARRIAGE_VALUES,
    ORDER,
    POINTS,
    TEN,
    bid_limit,
    marriage_partner,
    marriages_in,
)
from engine.tysiacha.legal import (
    can_pass,
    can_redeal,
    legal_bids,
    legal_cards,
    legal_gifts,
    legal_raises,
    marriage_leads,
)
from engine.tysiacha.scoring import BARREL, BID_STEP, FREE_CONCESSIONS, TARGET
from engine.tysiacha.view import Phase, TysiachaView

RANKS_HIGH_TO_LOW = (ACE, TEN, 13, 12, 11, 9)
FOLLOW_POINTS = 3
"""What each opponent's card adds, on average, to a trick won with a master."""
PRIKUP_HOPE = 12
"""What the prikup is worth to a bidder who has not seen it, net of the two gifts."""
CONCEDE_MARGIN = 10
RAISE_MARGIN = 25


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


class HardPlayer(NormalPlayer):
    """Bids, gives and declares like ``normal``; plays each card by sampling.

    For each legal card it deals the cards it cannot see at random among the other
    playing seats (in their public counts; cards the viewer gave stay where they
    went), plays the deal out with the ``normal`` play for every seat (marriages
    declared on the way change the trump and add their points), and keeps the card
    whose deals end best for it: a soloist's contract made or lost, less half the
    defenders' points; a defender's own points, less half the soloist's result.
    The same sampled deals serve every card; sampling stops at ``samples`` or
    after ``budget_ms``.
    """

    def __init__(self, *, samples: int = 32, budget_ms: float | None = 30.0) -> None:
        self.samples = max(1, samples)
        self.budget_ms = budget_ms

    def _play(self, view: TysiachaView) -> Action:
        seat = view.seat
        assert seat is not None
        legal = legal_cards(view)
        if len(legal) == 1 or marriage_leads(view) or view.soloist is None or \
                view.contract is None:
            return super()._play(view)
        rng = random.Random(hash((view.deal_number, view.hand, view.played, view.trick.cards)))
        totals = sampled_totals(legal, rng, self.samples, self.budget_ms,
                                lambda r: _sample_hands(view, r),
                                lambda hands, c: _play_out(view, hands, c))
        fallback = super()._play(view)
        assert isinstance(fallback, Play)
        best = max(legal, key=lambda c: (totals[c], c == fallback.card))
        return Play(seat, best)


def _sample_hands(view: TysiachaView, rng: random.Random) -> dict[int, list[Card]]:
    """Each playing seat's hand: the viewer's own; the unseen cards dealt at random
    to the others, after the cards the viewer gave them."""
    seat = view.seat
    assert seat is not None
    placed: dict[int, list[Card]] = {s: [] for s in view.active if s != seat}
    gone = set(view.played) | set(view.trick.cards)
    for target, c in view.given if seat == view.soloist else ():
        if c not in gone and target in placed:
            placed[target].append(c)
    known = set(view.hand) | gone | {c for cs in placed.values() for c in cs}
    unseen = [c for c in DECK if c not in known]
    rng.shuffle(unseen)
    hands: dict[int, list[Card]] = {seat: list(view.hand)}
    for s, cs in placed.items():
        take = view.hand_counts[s] - len(cs)
        hands[s] = cs + unseen[:take]
        del unseen[:take]
    return hands


_POLICY = NormalPlayer()


def _play_out(view: TysiachaView, hands: dict[int, list[Card]], first: Card) -> float:
    """The viewer plays ``first``; everyone then plays ``normal`` to the deal's end.
    The result for the viewer (see :class:`HardPlayer`)."""
    seat = view.seat
    soloist = view.soloist
    contract = view.contract
    assert seat is not None and soloist is not None and contract is not None
    active = view.active
    hands = {s: list(h) for s, h in hands.items()}
    points = list(view.points)
    tricks = list(view.tricks_taken)
    played = list(view.played)
    marriages = list(view.marriages)
    trick = view.trick
    trump = view.trump
    turn = seat
    action = Play(seat, first)
    while True:
        card = action.card
        hands[turn].remove(card)
        if action.marriage:
            trump = card & 3
            marriages.append((turn, trump))
        trick = trick.add(turn, card)
        if len(trick) == len(active):
            winner = trick.winning(ORDER, trump).seat
            tricks[winner] += 1
            points[winner] += sum(POINTS[c] for c in trick.cards)
            played.extend(trick.cards)
            trick = Trick()
            turn = winner
            if not hands[turn]:
                break
        else:
            turn = active[(active.index(turn) + 1) % len(active)]
        seen = replace(view, seat=turn, turn=turn, hand=tuple(hands[turn]),
                       hand_counts=tuple(len(hands.get(s, ())) for s in range(view.n_seats)),
                       tricks_taken=tuple(tricks), points=tuple(points), played=tuple(played),
                       trick=trick, trump=trump, marriages=tuple(marriages))
        chosen = _POLICY._play(seen)  # the normal play, as the rollout policy
        assert isinstance(chosen, Play)
        action = chosen
    total = [points[s] + sum(MARRIAGE_VALUES[suit] for who, suit in marriages if who == s)
             for s in range(view.n_seats)]
    result = contract if total[soloist] >= contract else -contract
    defenders = [s for s in active if s != soloist]
    if seat == soloist:
        return result - sum(total[s] for s in defenders) / 2
    return total[seat] - result / 2


def make_player(level: str) -> Player:
    """A computer player of ``level``: ``easy``, ``normal`` or ``hard``."""
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        return HardPlayer()
    raise ValueError(f"unknown level {level!r} (known: easy, normal, hard)")
