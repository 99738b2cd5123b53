"""The Chinois state machine for one game of 28 rounds: bidding, play and scoring.

Every action has a check that raises (``check``), a boolean twin (``can``) and
the action itself (``apply``), which runs the check before it changes anything.
A game is its seed (or the deal given for each round) and its list of actions:
replaying them rebuilds it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.checked import CheckedGame
from engine.chinois.actions import Action, Bid, Play
from engine.chinois.deal import Deal, check_deal, seeded_deal
from engine.chinois.errors import BidOutOfRangeError, ForbiddenBidError
from engine.chinois.rules import N_SEATS, ROUNDS, cards_in_round, deal_score, forbidden_bid
from engine.chinois.view import ChinoisView, Phase, RoundResult
from engine.errors import (
    BadActionError,
    BadSeatError,
    CardNotInHandError,
    DealOverError,
    GameOverError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.trick import NATURAL_ORDER, Trick, check_follow

ORDER = NATURAL_ORDER


@dataclass(frozen=True, slots=True)
class Applied:
    """What an applied action did, for logs and messages."""

    action: Action
    trick: Trick | None = None
    """The trick this play completed, if any."""
    trick_taken_by: int | None = None
    lead: int | None = None
    """Who leads next, when the bidding closed or a trick was taken."""
    round_result: RoundResult | None = None
    winners: tuple[int, ...] | None = None


class ChinoisGame(CheckedGame[Action]):
    """One game of Chinois for four seats, each playing for itself."""

    n_seats = N_SEATS

    def __init__(self, *, seed: int | str | None = None, deal: Deal | None = None) -> None:
        """Start a game and its first round: ``deal`` if given, else round 1 dealt from ``seed``."""
        if deal is None and seed is None:
            raise BadActionError("a game needs a seed or the deal of its first round")
        self.seed = seed
        self.scores = [0] * N_SEATS
        self.history: list[RoundResult] = []
        self.winners: tuple[int, ...] | None = None
        self.actions: list[Action] = []
        self.deal_log: list[tuple[Deal, list[Action]]] = []
        """Per round: the deal and the actions applied in it."""
        self._start(deal if deal is not None else seeded_deal(seed if seed is not None else 0, 1))

    # ----------------------------------------------------------------- deals
    def next_deal(self, deal: Deal | None = None) -> None:
        """Start the next round once the current one is over: ``deal`` if given (its
        round must come later), else the next round dealt from the seed."""
        if self.phase is Phase.GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is not Phase.DEAL_OVER:
            raise WrongPhaseError("the current round is not over")
        if deal is None:
            if self.seed is None:
                raise BadActionError("this game has no seed; give the deal of each round")
            deal = seeded_deal(self.seed, self.round + 1, (self.dealer + 1) % N_SEATS)
        elif deal.round <= self.round:
            raise BadActionError(f"round {deal.round} cannot follow round {self.round}")
        self._start(deal)

    def _start(self, deal: Deal) -> None:
        check_deal(deal)
        self.deal = deal
        self.deal_log.append((deal, []))
        self.round = deal.round
        self.n_cards = cards_in_round(deal.round)
        self.dealer = deal.dealer
        self.trump = deal.trump
        self.hands: list[list[Card]] = [list(h) for h in deal.hands]
        self.bids: list[int | None] = [None] * N_SEATS
        self.tricks_won = [0] * N_SEATS
        self.trick = Trick()
        self.played: list[Card] = []
        self.phase = Phase.BID
        self.turn: int | None = (self.dealer + 1) % N_SEATS

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None = None) -> ChinoisView:
        """What ``seat`` may know (None: the public view, with no hand)."""
        if seat is not None and not 0 <= seat < N_SEATS:
            raise BadSeatError(f"no seat {seat}")
        return ChinoisView(
            seat=seat,
            phase=self.phase,
            round=self.round,
            cards_per_seat=self.n_cards,
            dealer=self.dealer,
            turn=self.turn,
            hand=() if seat is None else tuple(self.hands[seat]),
            hand_counts=tuple(len(h) for h in self.hands),
            trump_card=self.deal.trump_card,
            bids=tuple(self.bids),
            tricks_won=tuple(self.tricks_won),
            trick=self.trick,
            played=tuple(self.played),
            scores=tuple(self.scores),
            history=tuple(self.history),
            winners=self.winners,
        )

    # ---------------------------------------------------------------- checks
    def _check_turn(self, seat: int, phase: Phase) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < N_SEATS:
            raise BadSeatError(f"no seat {seat!r}")
        if self.phase is Phase.GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is Phase.DEAL_OVER:
            raise DealOverError("the round is over")
        if self.phase is not phase:
            raise WrongPhaseError(f"not allowed in phase {self.phase.value}")
        if seat != self.turn:
            raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def check(self, action: Action) -> None:
        """Raise the :class:`EngineError` that ``action`` would meet."""
        if isinstance(action, Bid):
            self._check_turn(action.seat, Phase.BID)
            bid = action.bid
            if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= self.n_cards:
                raise BidOutOfRangeError(f"bid a whole number from 0 to {self.n_cards}")
            if action.seat == self.dealer:
                others = [b for b in self.bids if b is not None]
                if bid == forbidden_bid(self.n_cards, others):
                    raise ForbiddenBidError(
                        f"the dealer may not bid {bid}: the bids would add up to {self.n_cards}")
            return
        if isinstance(action, Play):
            self._check_turn(action.seat, Phase.PLAY)
            hand = self.hands[action.seat]
            if action.card not in hand:
                raise CardNotInHandError(f"{action.card} is not in this hand")
            check_follow(action.card, hand, self.trick.led_suit, self.trump, must_trump=False)
            return
        raise BadActionError(f"unknown action {action!r}")

    # ---------------------------------------------------------------- apply
    def apply(self, action: Action) -> Applied:
        """Check ``action`` and carry it out; raises :class:`EngineError` and changes
        nothing if it is refused."""
        self.check(action)
        self.actions.append(action)
        self.deal_log[-1][1].append(action)
        if isinstance(action, Bid):
            self.bids[action.seat] = action.bid
            if action.seat == self.dealer:
                self.phase = Phase.PLAY
                self.turn = (self.dealer + 1) % N_SEATS
                return Applied(action, lead=self.turn)
            self.turn = (action.seat + 1) % N_SEATS
            return Applied(action)
        return self._apply_play(action)

    def _apply_play(self, action: Play) -> Applied:
        self.hands[action.seat].remove(action.card)
        self.trick = self.trick.add(action.seat, action.card)
        if len(self.trick) < N_SEATS:
            self.turn = (action.seat + 1) % N_SEATS
            return Applied(action)
        done = self.trick
        winner = done.winning(ORDER, self.trump).seat
        self.tricks_won[winner] += 1
        self.played.extend(done.cards)
        self.trick = Trick()
        if any(self.hands):
            self.turn = winner
            return Applied(action, done, winner, lead=winner)
        result = self._end_round()
        return Applied(action, done, winner, round_result=result, winners=self.winners)

    def _end_round(self) -> RoundResult:
        bids = tuple(b if b is not None else 0 for b in self.bids)
        result = RoundResult(
            round=self.round,
            dealer=self.dealer,
            trump=self.trump,
            bids=bids,
            tricks=tuple(self.tricks_won),
            scores=tuple(deal_score(b, t) for b, t in zip(bids, self.tricks_won, strict=True)),
        )
        self.history.append(result)
        for s in range(N_SEATS):
            self.scores[s] += result.scores[s]
        self.turn = None
        if self.round == ROUNDS:
            best = max(self.scores)
            self.winners = tuple(s for s in range(N_SEATS) if self.scores[s] == best)
            self.phase = Phase.GAME_OVER
        else:
            self.phase = Phase.DEAL_OVER
        return result
