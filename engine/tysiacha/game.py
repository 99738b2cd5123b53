"""The Tysiacha state machine: bidding, the prikup, play, marriages, scoring and the barrel.

Every action has a check that raises (``check``), a boolean twin (``can``) and
the action itself (``apply``), which runs the check before it changes anything.
A game is its options, its seed (or the deal given each time) and its list of
actions: replaying them rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.checked import CheckedGame
from engine.errors import (
    BadActionError,
    BadSeatError,
    CardNotInHandError,
    DealOverError,
    DuplicateCardError,
    GameOverError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.trick import Trick, check_follow
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.cards import (
    MARRIAGE_VALUES,
    NINES,
    ORDER,
    TOTAL_POINTS,
    bid_limit,
    card_points,
    marriage_partner,
)
from engine.tysiacha.deal import (
    FIRST_DEALER,
    Deal,
    active_seats,
    check_deal,
    check_players,
    seeded_deal,
)
from engine.tysiacha.errors import (
    BadBidStepError,
    BadGiftError,
    BidNeedsMarriageError,
    BidOverLimitError,
    BidTooLowError,
    MarriageBeforeTrickError,
    MarriageNotOnLeadError,
    MustOpenError,
    NoFourNinesError,
    NotAMarriageError,
    RedealTooLateError,
    SeatSitsOutError,
)
from engine.tysiacha.scoring import (
    BID_STEP,
    CONCESSION_POINTS,
    MIN_BID,
    TARGET,
    Rounding,
    concession_cost,
    contract_made,
    miss_cost,
    round_points,
    settle,
)
from engine.tysiacha.view import DealKind, DealResult, Phase, TysiachaView

TRICKS = 8


@dataclass(frozen=True, slots=True)
class Applied:
    """What an applied action did, for logs and messages."""

    action: Action
    soloist: int | None = None
    """Set when the bidding closed."""
    trick: Trick | None = None
    trick_taken_by: int | None = None
    deal_result: DealResult | None = None
    winner: int | None = None


def check_bid(amount: int, floor: int, hand: Sequence[Card]) -> None:
    """Raise unless ``amount`` is a legal bid at or above ``floor`` for ``hand``."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BadBidStepError(f"a bid is a whole number, not {amount!r}")
    if amount % BID_STEP:
        raise BadBidStepError(f"bids go up in steps of {BID_STEP}; {amount} is not one")
    if amount < floor:
        raise BidTooLowError(f"the bid must be at least {floor}")
    if amount > TOTAL_POINTS:
        limit = bid_limit(hand)
        if limit == TOTAL_POINTS:
            raise BidNeedsMarriageError(f"a bid above {TOTAL_POINTS} needs a marriage in hand")
        if amount > limit:
            raise BidOverLimitError(f"with these marriages the bid may not exceed {limit}")


class TysiachaGame(CheckedGame[Action]):
    """One game of Tysiacha, to 1000, for 3 players (or 4, the dealer sitting out)."""

    def __init__(self, *, players: int = 3, rounding: Rounding | int = Rounding.TEN,
                 seed: int | str | None = None, deal: Deal | None = None) -> None:
        """Start a game and its first deal: ``deal`` if given, else dealt from ``seed``
        by seat 2."""
        check_players(players)
        if rounding not in (Rounding.TEN, Rounding.FIVE):
            raise BadActionError(f"rounding is to 10 or to 5, not {rounding!r}")
        if deal is None and seed is None:
            raise BadActionError("a game needs a seed or the cards of its first deal")
        self.n_seats = players
        self.rounding = Rounding(rounding)
        self.seed = seed
        self.scores = [0] * players
        self.barrel: list[int | None] = [None] * players
        self.misses = [0] * players
        self.concessions = [0] * players
        self.history: list[DealResult] = []
        self.winner: int | None = None
        self.deal_number = -1
        self.next_dealer = FIRST_DEALER % players
        """Who deals next: one seat on after each deal, the same seat after a redeal."""
        self.actions: list[Action] = []
        self.deal_log: list[tuple[Deal, list[Action]]] = []
        self._start(deal)

    # ----------------------------------------------------------------- deals
    def next_deal(self, deal: Deal | None = None) -> None:
        """Start the next deal once the current one is over (from the seed unless given)."""
        if self.phase is Phase.GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is not Phase.DEAL_OVER:
            raise WrongPhaseError("the current deal is not over")
        self._start(deal)

    def _start(self, deal: Deal | None) -> None:
        number = self.deal_number + 1
        if deal is None:
            if self.seed is None:
                raise BadActionError("this game has no seed; give the cards of each deal")
            deal = seeded_deal(self.seed, number, self.next_dealer, self.n_seats)
        check_deal(deal, self.n_seats)
        self.deal_number = number
        self.deal = deal
        self.deal_log.append((deal, []))
        self.dealer = deal.dealer
        self.active = active_seats(deal.dealer, self.n_seats)
        self.hands: list[list[Card]] = [list(h) for h in deal.hands]
        self.bids: list[int | None] = [None] * self.n_seats
        self.passed = [False] * self.n_seats
        self.high_bid: int | None = None
        self.soloist: int | None = None
        self.contract: int | None = None
        self.given: tuple[tuple[int, Card], ...] = ()
        self.trick = Trick()
        self.trump: int | None = None
        self.marriages: list[tuple[int, int]] = []
        self.won: list[list[Card]] = [[] for _ in range(self.n_seats)]
        self.tricks_taken = [0] * self.n_seats
        self.played: list[Card] = []
        self.phase = Phase.BIDDING
        self.turn: int | None = self.active[0]

    # --------------------------------------------------------------- helpers
    def after(self, seat: int) -> int:
        """The next seat in play after ``seat`` (the 4-player dealer is skipped)."""
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]

    @property
    def opponents(self) -> tuple[int, ...]:
        return tuple(s for s in self.active if s != self.soloist)

    @property
    def started(self) -> bool:
        return bool(self.played) or bool(self.trick.plays)

    def marriage_points(self, seat: int) -> int:
        return sum(MARRIAGE_VALUES[suit] for s, suit in self.marriages if s == seat)

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None = None) -> TysiachaView:
        """What ``seat`` may know (None: the public view, with no hand)."""
        if seat is not None and not 0 <= seat < self.n_seats:
            raise BadSeatError(f"no seat {seat}")
        shown = self.phase is not Phase.BIDDING
        received = next((c for t, c in self.given if t == seat), None)
        return TysiachaView(
            seat=seat,
            n_seats=self.n_seats,
            phase=self.phase,
            deal_number=self.deal_number,
            dealer=self.dealer,
            active=self.active,
            turn=self.turn,
            hand=() if seat is None else tuple(self.hands[seat]),
            hand_counts=tuple(len(h) for h in self.hands),
            prikup=self.deal.prikup if shown else (),
            bids=tuple(self.bids),
            passed=tuple(self.passed),
            high_bid=self.high_bid,
            soloist=self.soloist,
            contract=self.contract,
            given=self.given if seat is not None and seat == self.soloist else (),
            received=received,
            trick=self.trick,
            trump=self.trump,
            marriages=tuple(self.marriages),
            points=tuple(card_points(p) for p in self.won),
            tricks_taken=tuple(self.tricks_taken),
            played=tuple(self.played),
            scores=tuple(self.scores),
            barrel=tuple(self.barrel),
            misses=tuple(self.misses),
            concessions=tuple(self.concessions),
            rounding=self.rounding,
            history=tuple(self.history),
            winner=self.winner,
        )

    # ---------------------------------------------------------------- checks
    def _check_seat(self, seat: int, *phases: Phase) -> None:
        """Seat exists and plays this deal, the game is live and in one of ``phases``."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise BadSeatError(f"no seat {seat!r}")
        if self.phase is Phase.GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is Phase.DEAL_OVER:
            raise DealOverError("the deal is over")
        if seat not in self.active:
            raise SeatSitsOutError(f"seat {seat} deals and sits this deal out")
        if self.phase not in phases:
            raise WrongPhaseError(f"not allowed in phase {self.phase.value}")

    def _check_turn(self, seat: int, *phases: Phase) -> None:
        self._check_seat(seat, *phases)
        if seat != self.turn:
            raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def check(self, action: Action) -> None:
        """Raise the :class:`EngineError` that ``action`` would meet."""
        if not isinstance(action, (Bid, Pass, Raise, Concede, Give, Redeal, Play)):
            raise BadActionError(f"unknown action {action!r}")
        seat = action.seat
        if isinstance(action, Bid):
            self._check_turn(seat, Phase.BIDDING)
            floor = MIN_BID if self.high_bid is None else self.high_bid + BID_STEP
            check_bid(action.bid, floor, self.hands[seat])
        elif isinstance(action, Pass):
            self._check_turn(seat, Phase.BIDDING)
            if self.high_bid is None:
                raise MustOpenError("the seat after the dealer must open at 100 or more")
        elif isinstance(action, Raise):
            self._check_turn(seat, Phase.PRIKUP)
            assert self.contract is not None
            check_bid(action.bid, self.contract + BID_STEP, self.hands[seat])
        elif isinstance(action, Concede):
            self._check_turn(seat, Phase.PRIKUP)
        elif isinstance(action, Give):
            self._check_turn(seat, Phase.PRIKUP)
            self._check_give(action)
        elif isinstance(action, Redeal):
            self._check_redeal(seat)
        else:
            self._check_play(action)

    def _check_give(self, action: Give) -> None:
        targets = sorted(t for t, _ in action.give)
        if targets != sorted(self.opponents):
            raise BadGiftError(f"give one card to each opponent: seats {list(self.opponents)}")
        cards = [c for _, c in action.give]
        if len(set(cards)) != len(cards):
            raise DuplicateCardError("each opponent gets a different card")
        for c in cards:
            if c not in self.hands[action.seat]:
                raise CardNotInHandError(f"{c} is not in this hand")

    def _check_redeal(self, seat: int) -> None:
        self._check_seat(seat, Phase.PLAY)
        if self.started:
            raise RedealTooLateError("a redeal must be asked before the first card is played")
        if not set(self.hands[seat]) >= NINES:
            raise NoFourNinesError("only a seat holding the four 9s may ask for a redeal")

    def _check_play(self, action: Play) -> None:
        self._check_turn(action.seat, Phase.PLAY)
        hand = self.hands[action.seat]
        if action.card not in hand:
            raise CardNotInHandError(f"{action.card} is not in this hand")
        if action.marriage:
            if self.trick.plays:
                raise MarriageNotOnLeadError("a marriage is declared only with a lead")
            if not self.tricks_taken[action.seat]:
                raise MarriageBeforeTrickError("declare a marriage after winning a trick")
            partner = marriage_partner(action.card)
            if partner is None or partner not in hand:
                raise NotAMarriageError("lead a King or Queen while holding its partner")
        check_follow(action.card, hand, self.trick.led_suit, self.trump, must_trump=True)

    # ---------------------------------------------------------------- apply
    def apply(self, action: Action) -> Applied:
        """Check ``action`` and carry it out; raises :class:`EngineError` and changes
        nothing if it is refused."""
        self.check(action)
        self.actions.append(action)
        self.deal_log[-1][1].append(action)
        seat = action.seat
        if isinstance(action, Bid):
            self.bids[seat] = self.high_bid = action.bid
            self.turn = self._next_bidder(seat)
            return Applied(action)
        if isinstance(action, Pass):
            self.passed[seat] = True
            if sum(self.passed) < 2:
                self.turn = self._next_bidder(seat)
                return Applied(action)
            return self._close_bidding(action)
        if isinstance(action, Raise):
            self.contract = action.bid
            return Applied(action)
        if isinstance(action, Concede):
            return self._end_deal(action, DealKind.CONCEDED)
        if isinstance(action, Give):
            for target, c in action.give:
                self.hands[seat].remove(c)
                self.hands[target].append(c)
            self.given = tuple(sorted(action.give))
            self.phase = Phase.PLAY
            self.turn = self.soloist
            return Applied(action)
        if isinstance(action, Redeal):
            return self._end_deal(action, DealKind.REDEAL)
        return self._apply_play(action)

    def _next_bidder(self, seat: int) -> int:
        nxt = self.after(seat)
        while self.passed[nxt]:
            nxt = self.after(nxt)
        return nxt

    def _close_bidding(self, action: Action) -> Applied:
        soloist = next(s for s in self.active if not self.passed[s])
        self.soloist = soloist
        self.contract = self.high_bid
        # The prikup is shown to all (the view shows it from now on) and taken.
        self.hands[soloist].extend(self.deal.prikup)
        self.phase = Phase.PRIKUP
        self.turn = soloist
        return Applied(action, soloist=soloist)

    def _apply_play(self, action: Play) -> Applied:
        seat = action.seat
        if action.marriage:
            # The declared suit is trump at once, for this very trick.
            self.trump = action.card & 3
            self.marriages.append((seat, self.trump))
        self.hands[seat].remove(action.card)
        self.trick = self.trick.add(seat, action.card)
        if len(self.trick) < len(self.active):
            self.turn = self.after(seat)
            return Applied(action)
        done = self.trick
        winner = done.winning(ORDER, self.trump).seat
        self.won[winner].extend(done.cards)
        self.tricks_taken[winner] += 1
        self.played.extend(done.cards)
        self.trick = Trick()
        self.turn = winner
        if sum(self.tricks_taken) < TRICKS:
            return Applied(action, trick=done, trick_taken_by=winner)
        ended = self._end_deal(action, DealKind.PLAYED)
        return Applied(action, trick=done, trick_taken_by=winner,
                       deal_result=ended.deal_result, winner=ended.winner)

    # --------------------------------------------------------------- scoring
    def _earned(self, kind: DealKind) -> tuple[list[int], list[int], bool | None]:
        """Per seat what the sheet adds before the barrel rules, the defenders who
        missed, and whether the contract was made; the concession or the misses
        are counted on the way, as the sheet records them with the deal."""
        earned = [0] * self.n_seats
        missed: list[int] = []
        if kind is DealKind.REDEAL:
            return earned, missed, None
        soloist, contract = self.soloist, self.contract
        assert soloist is not None and contract is not None
        if kind is DealKind.CONCEDED:
            self.concessions[soloist] += 1
            earned[soloist] = concession_cost(self.concessions[soloist])
            for s in self.opponents:
                # Defender points, which do not count on the barrel.
                earned[s] = CONCESSION_POINTS if self.barrel[s] is None else 0
            return earned, missed, None
        made = contract_made(card_points(self.won[soloist]), self.marriage_points(soloist), contract)
        earned[soloist] = contract if made else -contract
        for s in self.opponents:
            if self.barrel[s] is None:
                earned[s] = round_points(card_points(self.won[s]), self.rounding) \
                    + self.marriage_points(s)
            if not self.tricks_taken[s]:
                missed.append(s)
                self.misses[s] += 1
                earned[s] += miss_cost(self.misses[s])
        return earned, missed, made

    def _end_deal(self, action: Action, kind: DealKind) -> Applied:
        earned, missed, made = self._earned(kind)
        before = list(self.scores)
        fell: list[int] = []
        if kind is not DealKind.REDEAL:
            for s in range(self.n_seats):
                settled = settle(self.scores[s], earned[s], self.barrel[s],
                                 took_part=s in self.active)
                self.scores[s], self.barrel[s] = settled.total, settled.barrel
                if settled.fell:
                    fell.append(s)
        result = DealResult(
            number=self.deal_number,
            dealer=self.dealer,
            kind=kind,
            soloist=self.soloist,
            contract=self.contract,
            made=made,
            points=tuple(card_points(p) for p in self.won),
            marriages=tuple(self.marriage_points(s) for s in range(self.n_seats)),
            earned=tuple(earned),
            scores=tuple(a - b for a, b in zip(self.scores, before, strict=True)),
            missed=tuple(missed),
            fell=tuple(fell),
            redeal_by=action.seat if kind is DealKind.REDEAL else None,
        )
        self.history.append(result)
        self.next_dealer = self.dealer if kind is DealKind.REDEAL else \
            (self.dealer + 1) % self.n_seats
        self.turn = None
        self.winner = self._winner()
        self.phase = Phase.GAME_OVER if self.winner is not None else Phase.DEAL_OVER
        return Applied(action, deal_result=result, winner=self.winner)

    def _winner(self) -> int | None:
        """The seat that reached 1000. Should two get there in one deal, the soloist
        wins (it reached it by its contract), else the higher total, else the seat
        nearer the dealer's left."""
        reached = [s for s in self.active if self.scores[s] >= TARGET]
        if not reached:
            return None
        if self.soloist in reached:
            return self.soloist
        return max(reached, key=lambda s: (self.scores[s], -self.active.index(s)))
