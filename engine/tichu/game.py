"""The Tichu state machine for one game: deals, calls, exchange, play and scoring.

Every action has a check that raises (``check``), a boolean twin (``can``) and
the action itself (``apply``), which runs the check before it changes anything.
A game is its options, its seed (or the hands given for each deal) and its list
of actions: replaying them rebuilds it exactly.

The same machine plays the four-player game and the six-player variant
("Tientsin", ``players=6``): the seat count decides the deal (14 cards each, or
10/10/9/9/9/9 from a rotating dealer), the Grand Tichu packet (8 or 6 cards), the
exchange (one card to each other seat, or to each of the two partners), the Dog's
lead (the partner, or the partner its player names), the end of the deal (three
or five seats out; a double or triple victory) and the scoring of the last seats.
Teams alternate in both: even seats against odd seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, shuffled
from engine.checked import CheckedGame
from engine.errors import (
    AlreadyDecidedError,
    BadActionError,
    BadSeatError,
    CardNotInHandError,
    DealOverError,
    DuplicateCardError,
    GameOverError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.fastinit import draft_class
from engine.tichu.actions import (
    PASSES,
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, POINTS, RANK
from engine.tichu.combos import ACE, BOMB_KINDS, KIND_DOG, KIND_SINGLE, Combo, beats, readings
from engine.tichu.errors import (
    AlreadyCalledError,
    AlreadyPlayedError,
    BadDogTargetError,
    BadExchangeError,
    BadGiftTargetError,
    BadPhoenixReadingError,
    BadWishError,
    CannotPassOnLeadError,
    DoesNotBeatError,
    DogOnlyOnLeadError,
    NoBombBeforeLeadError,
    NoBombOnDogError,
    NotACombinationError,
    SeatOutError,
    WishMustBePlayedError,
)
from engine.tichu.legal import analysis
from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay, exchange_targets

SEAT_COUNTS = (4, 6)
"""The seat counts the ruleset plays: the game for four and the Tientsin variant for six."""
GRAND_PACKET = 8
"""Cards seen before the Grand Tichu decision with four players."""
GRAND_PACKETS = {4: 8, 6: 6}
CALL_VALUES = {Call.TICHU: 100, Call.GRAND_TICHU: 200}
DOUBLE_VICTORY_POINTS = 200
TRIPLE_VICTORY_POINTS = 300
SWEEP_POINTS = {4: DOUBLE_VICTORY_POINTS, 6: TRIPLE_VICTORY_POINTS}
"""Card points of a double (4 players) or triple (6 players) victory."""
DEFAULT_DEALER = 5
"""Six players: the first deal's dealer when the game has no seed (the replay default)."""

# Enum members read on hot paths: a module name is read much faster than a
# member through its class (Python 3.11).
_PHASE_GRAND = Phase.GRAND
_PHASE_EXCHANGE = Phase.EXCHANGE
_PHASE_PLAY = Phase.PLAY
_PHASE_GIFT = Phase.GIFT
_PHASE_DEAL_OVER = Phase.DEAL_OVER
_PHASE_GAME_OVER = Phase.GAME_OVER


@dataclass(frozen=True, slots=True)
class Applied:
    """What an applied action did, for logs and messages."""

    action: Action
    combo: Combo | None = None
    out_of_turn: bool = False
    wish_fulfilled: bool = False
    went_out: bool = False
    trick_taken_by: int | None = None
    trick_given_to: int | None = None
    lead: int | None = None
    exchange_done: bool = False
    deal_result: DealResult | None = None
    winner: int | None = None


class TichuGame(CheckedGame[Action]):
    """One game of Tichu: four seats (partners opposite) or six (two teams of three,
    alternating seats)."""

    n_seats = 4

    def __init__(self, *, target: int = 1000, seed: int | str | None = None,
                 hands: Sequence[Sequence[Card]] | None = None, players: int = 4,
                 dealer: int | None = None) -> None:
        """Start a game and its first deal: from ``hands`` if given, else from ``seed``.

        ``players`` is 4 or 6. With six, ``dealer`` is the first deal's dealer
        (default: drawn from the seed, or seat 5 without a seed); the dealer then
        moves one seat on each deal. With four there is no dealer.
        """
        if isinstance(players, bool) or players not in SEAT_COUNTS:
            raise BadActionError(f"Tichu is played by 4 or 6 players, not {players!r}")
        if target <= 0:
            raise BadActionError("the target must be positive")
        self.n_seats = players
        self.grand_packet = GRAND_PACKETS[players]
        self.target = target
        self.seed = seed
        if players == 4:
            if dealer is not None:
                raise BadActionError("a four-player deal has no dealer")
        elif dealer is None:
            dealer = (random.Random(f"{seed}:dealer").randrange(players) if seed is not None
                      else DEFAULT_DEALER)
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or \
                not 0 <= dealer < players:
            raise BadActionError(f"no seat {dealer!r} to deal")
        self.dealer: int | None = None
        self.dealers: list[int | None] = []
        """The dealer of each deal so far (None with four players)."""
        self._first_dealer = dealer
        self.scores = [0] * 2
        self.history: list[DealResult] = []
        self.winner: int | None = None
        self.deal_number = -1
        self.actions: list[Action] = []
        self.deal_log: list[tuple[tuple[tuple[Card, ...], ...], list[Action]]] = []
        """Per deal: the hands as dealt and the actions applied in it."""
        self._views: dict[int | None, TichuView] = {}
        self._passed_tuple: tuple[bool, ...] | None = None
        """The view's ``passed`` (the one tuple every action changes), or None."""
        self._slow: tuple[tuple[Any, ...], ...] | None = None
        self._mid: tuple[tuple[Any, ...], ...] | None = None
        self._private: list[tuple[dict[int, Card], dict[int, Card]] | None] = [None] * players
        """Per seat: the ``given`` and ``received`` of its views (shared by its views
        until the exchange changes them: views are read, never changed), or None."""
        self._start_deal(hands, dealer)

    # ----------------------------------------------------------------- deals
    def deal_hands(self, number: int, dealer: int | None = None) -> list[list[Card]]:
        """The seeded hands of deal ``number``, each in the order its cards came.

        Four players: 14 cards each, the first 8 seen before the Grand Tichu
        decision. Six players: one card at a time from the seat after ``dealer``,
        so the two seats after it hold 10 and the others 9; the first 6 are seen
        first.
        """
        if self.seed is None:
            raise BadActionError("this game has no seed; give the hands of each deal")
        deck = shuffled(DECK, f"{self.seed}:{number}")
        n = self.n_seats
        if n == 4:
            size = len(deck) // n
            return [deck[s * size:(s + 1) * size] for s in range(n)]
        assert dealer is not None
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % n].append(card)
        return hands

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None,
                  dealer: int | None = None) -> None:
        """Start the next deal once the current one is over (six players: the dealer
        moves one seat on, unless ``dealer`` is given)."""
        if self.phase is _PHASE_GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is not _PHASE_DEAL_OVER:
            raise WrongPhaseError("the current deal is not over")
        if self.n_seats == 4:
            if dealer is not None:
                raise BadActionError("a four-player deal has no dealer")
        elif dealer is None:
            assert self.dealer is not None
            dealer = (self.dealer + 1) % self.n_seats
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or \
                not 0 <= dealer < self.n_seats:
            raise BadActionError(f"no seat {dealer!r} to deal")
        self._start_deal(hands, dealer)

    def _start_deal(self, hands: Sequence[Sequence[Card]] | None, dealer: int | None) -> None:
        n = self.n_seats
        dealt = [list(h) for h in (hands if hands is not None
                                   else self.deal_hands(self.deal_number + 1, dealer))]
        check_deal(dealt, n, dealer)
        self.touch()
        self.deal_number += 1
        self.dealer = dealer
        self.dealers.append(dealer)
        self.dealt: list[tuple[Card, ...]] = [tuple(h) for h in dealt]
        self._log: list[Action] = []
        """The actions of this deal (its entry of :attr:`deal_log`)."""
        self.deal_log.append((tuple(self.dealt), self._log))
        self.hands: list[list[Card]] = dealt
        self.phase = _PHASE_GRAND
        self.turn: int | None = None
        self.grand_decided = [False] * n
        self.calls: list[Call | None] = [None] * n
        self.has_played = [False] * n
        self.gives: list[dict[int, Card] | None] = [None] * n
        self.received: list[dict[int, Card]] = [{} for _ in range(n)]
        self.trick: list[TrickPlay] = []
        self.passed = [False] * n
        self.won: list[list[Card]] = [[] for _ in range(n)]
        self.won_points = [0] * n
        self.out: list[int] = []
        self.wish: int | None = None
        self.dog_led = False
        self.gift_cards: list[Card] = []
        self.bombs_played = [0] * n
        self.played: list[list[Card]] = [[] for _ in range(n)]
        """Per seat: the cards it played in this deal (public: every play is shown)."""
        self._played_tuple: tuple[tuple[Card, ...], ...] | None = None
        self.wish_voids: list[set[int]] = [set() for _ in range(n)]
        """Per seat: wished ranks it showed it does not hold (public: see
        :attr:`~engine.tichu.view.TichuView.wish_voids`)."""
        self._voids_tuple: tuple[frozenset[int], ...] | None = None
        self.last_trick: tuple[TrickPlay, ...] = ()
        self.last_trick_taker: int | None = None

    # --------------------------------------------------------------- helpers
    def partners(self, seat: int) -> tuple[int, ...]:
        """The seat's partners in playing order after it (one with four players, two with six)."""
        n = self.n_seats
        return tuple((seat + step) % n for step in range(2, n, 2))

    def partner(self, seat: int) -> int:
        """The partner (four players); with six, the first of :meth:`partners`."""
        return self.partners(seat)[0]

    def team(self, seat: int) -> int:
        """Teams alternate: even seats are team 0, odd seats team 1."""
        return seat % 2

    def next_with_cards(self, seat: int) -> int | None:
        """The first seat after ``seat`` (or ``seat`` itself, last) still holding cards."""
        for step in range(1, self.n_seats + 1):
            s = (seat + step) % self.n_seats
            if self.hands[s]:
                return s
        return None

    def _take(self, seat: int, cards: list[Card]) -> None:
        """Cards into a seat's pile of won tricks."""
        self.won[seat].extend(cards)
        self.won_points[seat] += sum(map(POINTS.__getitem__, cards))

    def _lead_from(self, seat: int) -> int | None:
        """``seat`` if it still holds cards, else the next seat that does."""
        return seat if self.hands[seat] else self.next_with_cards(seat)

    @property
    def top(self) -> Combo | None:
        return self.trick[-1].combo if self.trick else None

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None = None) -> TichuView:
        """What ``seat`` may know (None: the public view, with no hand).

        Views are immutable, so each is built once between two actions and shared:
        the next :meth:`apply` (or deal) drops them. (A seat's ``given`` and
        ``received`` dictionaries are shared by its views until the exchange
        changes them: read them, never change them.) Code that edits a game's
        fields directly must call :meth:`touch` before asking for views again.

        A view is built as a draft and sealed (:mod:`engine.fastinit`): a frozen
        dataclass's own constructor makes a call per field, and a view is built
        for every action.
        """
        cached = self._views.get(seat)
        if cached is not None:
            return cached
        if seat is not None and not 0 <= seat < self.n_seats:
            raise BadSeatError(f"no seat {seat}")
        slow = self._slow
        if slow is None:
            slow = self._slow_fields()
        grand_decided, calls, has_played, exchanged, out, scores, history, bombs = slow
        mid = self._mid
        if mid is None:
            mid = self._mid_fields()
        counts, trick, trick_points = mid
        passed = self._passed_tuple
        if passed is None:
            passed = self._passed_tuple = tuple(self.passed)
        phase = self.phase
        packet = self.grand_packet
        if seat is None:
            hand: tuple[Card, ...] = ()
            given: dict[int, Card] = {}
            received: dict[int, Card] = {}
        else:
            if phase is _PHASE_GRAND and not grand_decided[seat]:
                hand = self.dealt[seat][:packet]
            else:
                hand = tuple(self.hands[seat])
            private = self._private[seat]
            if private is None:
                gives = self.gives[seat]
                private = self._private[seat] = (
                    {} if gives is None else dict(gives), dict(self.received[seat]))
            given, received = private
        draft = _ViewDraft()
        draft.seat = seat
        draft.n_seats = self.n_seats
        draft.phase = phase
        draft.deal_number = self.deal_number
        draft.turn = self.turn
        draft.hand = hand
        draft.hand_counts = counts
        draft.grand_decided = grand_decided
        draft.calls = calls
        draft.has_played = has_played
        draft.exchanged = exchanged
        draft.given = given
        draft.received = received
        draft.trick = trick
        draft.passed = passed
        draft.wish = self.wish
        draft.out = out
        draft.trick_points = trick_points
        draft.scores = scores
        draft.target = self.target
        draft.history = history
        draft.winner = self.winner
        draft.bombs_played = bombs
        draft.last_trick = self.last_trick
        draft.last_trick_taker = self.last_trick_taker
        draft.dealer = self.dealer
        draft.grand_packet = packet
        played = self._played_tuple
        if played is None:
            played = self._played_tuple = tuple(map(tuple, self.played))
        draft.played = played
        voids = self._voids_tuple
        if voids is None:
            voids = self._voids_tuple = tuple(map(frozenset, self.wish_voids))
        draft.wish_voids = voids
        draft.__class__ = TichuView  # sealed (engine.fastinit.seal, written out)
        view: TichuView = draft
        self._views[seat] = view
        return view

    def touch(self) -> None:
        """Forget the views built so far (after editing the game's fields directly)."""
        self._views = {}
        self._passed_tuple = None
        self._slow = None
        self._mid = None
        self._private = [None] * self.n_seats
        self._played_tuple = None
        self._voids_tuple = None

    def _slow_fields(self) -> tuple[tuple[Any, ...], ...]:
        """The view tuples that change least (kept by passes and most plays)."""
        slow = self._slow = (
            tuple(self.grand_decided), tuple(self.calls), tuple(self.has_played),
            tuple([g is not None for g in self.gives]), tuple(self.out), tuple(self.scores),
            tuple(self.history), tuple(self.bombs_played))
        return slow

    def _mid_fields(self) -> tuple[tuple[Any, ...], ...]:
        """The hand counts, the trick and the points taken as view tuples (kept by a
        pass that leaves the trick open)."""
        if self.phase is _PHASE_GRAND:
            packet = self.grand_packet
            counts = tuple([len(h) if self.grand_decided[s] else packet
                            for s, h in enumerate(self.hands)])
        else:
            counts = tuple(map(len, self.hands))
        mid = self._mid = (counts, tuple(self.trick), tuple(self.won_points))
        return mid

    # ---------------------------------------------------------------- checks
    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise BadSeatError(f"no seat {seat!r}")

    def _check_live(self) -> None:
        if self.phase is _PHASE_GAME_OVER:
            raise GameOverError("the game is over")
        if self.phase is _PHASE_DEAL_OVER:
            raise DealOverError("the deal is over")

    def _check_phase(self, *phases: Phase) -> None:
        self._check_live()
        if self.phase not in phases:
            raise WrongPhaseError(f"not allowed in phase {self.phase.value}")

    def check(self, action: Action) -> Combo | None:
        """Raise the :class:`EngineError` that ``action`` would meet, else return
        the combination a play would be read as (None for other actions)."""
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.n_seats:
            self._check_seat(seat)
        kind = type(action)
        if kind is Pass:
            self._check_pass(seat)
            return None
        if kind is Play:
            return self._check_play(action)  # type: ignore[arg-type]
        if isinstance(action, (GrandTichu, DeclineGrand)):
            self._check_phase(_PHASE_GRAND)
            if self.grand_decided[seat]:
                raise AlreadyDecidedError("this seat has already decided on Grand Tichu")
            return None
        if isinstance(action, CallTichu):
            self._check_phase(_PHASE_EXCHANGE, _PHASE_PLAY)
            if self.calls[seat] is not None:
                raise AlreadyCalledError("this seat has already called")
            if self.has_played[seat]:
                raise AlreadyPlayedError("Tichu must be called before the first card")
            return None
        if isinstance(action, Exchange):
            self._check_exchange(action)
            return None
        if isinstance(action, Play):
            return self._check_play(action)
        if isinstance(action, Pass):
            self._check_pass(seat)
            return None
        if isinstance(action, Gift):
            self._check_phase(_PHASE_GIFT)
            if seat != self.turn:
                raise NotYourTurnError("only the Dragon's winner gives the trick away")
            if not isinstance(action.to, int) or action.to not in range(self.n_seats) or \
                    self.team(action.to) == self.team(seat):
                raise BadGiftTargetError("the Dragon trick must go to an opponent")
            return None
        raise BadActionError(f"unknown action {action!r}")

    def _check_exchange(self, action: Exchange) -> None:
        self._check_phase(_PHASE_EXCHANGE)
        seat = action.seat
        if self.gives[seat] is not None:
            raise AlreadyDecidedError("this seat has already given its cards")
        targets = [t for t, _ in action.give]
        wanted = sorted(exchange_targets(seat, self.n_seats))
        if sorted(targets) != wanted:
            if self.n_seats == 4:
                raise BadExchangeError("give exactly one card to each other seat")
            raise BadExchangeError(
                f"give exactly one card to each partner ({wanted[0]} and {wanted[1]}), "
                "none to an opponent")
        cards = [c for _, c in action.give]
        if len(set(cards)) != len(cards):
            raise DuplicateCardError("each gift must be a different card")
        for c in cards:
            if c not in self.hands[seat]:
                raise CardNotInHandError(f"{c} is not in this hand")

    def _wish_binds(self, seat: int) -> bool:
        """Whether the open wish obliges ``seat`` (on its turn) to play the wished rank."""
        if self.wish is None:
            return False
        return analysis(self.hands[seat], self.top, True, self.wish, True)[2]

    def _check_play(self, action: Play) -> Combo:
        if self.phase is not _PHASE_PLAY:
            self._check_phase(_PHASE_PLAY)
        seat = action.seat
        hand = self.hands[seat]
        if not hand:
            raise SeatOutError("this seat has no cards left")
        cards = action.cards
        if len(cards) > 1 and len(set(cards)) != len(cards):
            raise DuplicateCardError("a card is named twice")
        for c in cards:
            if c not in hand:
                raise CardNotInHandError(f"{c} is not in this hand")
        if action.to is not None and cards != (DOG,):
            raise BadDogTargetError("only a play of the Dog names who gets the lead")
        if action.wish is not None:
            if MAHJONG not in cards:
                raise BadWishError("only a play with the Mahjong may wish")
            if not 2 <= action.wish <= ACE:
                raise BadWishError("wish for a rank from 2 to A")
        trick = self.trick
        top = trick[-1].combo if trick else None
        options = readings(cards, top)
        if not options:
            if readings(cards):
                raise DoesNotBeatError("the Phoenix cannot be played on the Dragon")
            raise NotACombinationError("these cards are not a combination")
        if action.phoenix is not None:
            options = [o for o in options if o.phoenix == action.phoenix]
            if not options:
                raise BadPhoenixReadingError("the Phoenix cannot stand for that rank here")
        on_turn = seat == self.turn
        if not on_turn:
            bombs = [o for o in options if o.is_bomb]
            if not bombs:
                raise NotYourTurnError("it is not this seat's turn; only a bomb may be played")
            if top is None:
                if self.dog_led:
                    raise NoBombOnDogError("no bomb on the Dog")
                raise NoBombBeforeLeadError("out of turn, a bomb needs a combination to beat")
            if not beats(bombs[0], top):
                raise DoesNotBeatError("this bomb does not beat the one on the table")
            return bombs[0]
        for combo in options:
            if beats(combo, top):
                break
        else:
            if options[0].kind is KIND_DOG:
                raise DogOnlyOnLeadError("the Dog may only be led")
            raise DoesNotBeatError("this does not beat the combination on the table")
        if combo.kind is KIND_DOG:
            self._check_dog_target(seat, action.to)
        if self.wish is not None and combo.kind not in BOMB_KINDS and \
                not any(RANK[c] == self.wish for c in cards) and self._wish_binds(seat):
            raise WishMustBePlayedError("the wished rank must be played")
        return combo

    def dog_targets(self, seat: int) -> tuple[int, ...]:
        """The partners of ``seat`` still holding cards (who a Dog's ``to`` may name)."""
        return tuple(p for p in self.partners(seat) if self.hands[p])

    def _check_dog_target(self, seat: int, to: int | None) -> None:
        targets = self.dog_targets(seat)
        if to is None:
            if len(targets) > 1:
                raise BadDogTargetError(
                    f"name the partner who gets the lead: {targets[0]} or {targets[1]}")
            return
        if to not in self.partners(seat):
            raise BadDogTargetError("the Dog's lead goes to a partner, not to an opponent")
        if to not in targets:
            raise BadDogTargetError("that partner has no cards left")

    def _dog_lead(self, seat: int, to: int | None) -> int | None:
        """Who leads after ``seat`` played the Dog."""
        if to is not None:
            return to
        targets = self.dog_targets(seat)
        if targets:
            return targets[0]
        if self.n_seats == 4:
            return self.next_with_cards(self.partner(seat))
        return self.next_with_cards(seat)

    def _check_pass(self, seat: int) -> None:
        if self.phase is not _PHASE_PLAY:
            self._check_phase(_PHASE_PLAY)
        if not self.hands[seat]:
            raise SeatOutError("this seat has no cards left")
        if seat != self.turn:
            raise NotYourTurnError("it is not this seat's turn")
        if not self.trick:
            raise CannotPassOnLeadError("the lead must play")
        if self.wish is not None and self._wish_binds(seat):
            raise WishMustBePlayedError("the wished rank must be played")

    # ---------------------------------------------------------------- apply
    def apply(self, action: Action) -> Applied:
        """Check ``action`` and carry it out; raises :class:`EngineError` and changes
        nothing if it is refused."""
        kind = type(action)
        if kind is Pass:
            seat = action.seat
            # The usual pass (a seat on turn, a trick open, no wish) meets none of
            # check()'s refusals; any other goes through check() itself.
            if not (type(seat) is int and seat == self.turn and self.phase is _PHASE_PLAY
                    and self.trick and self.wish is None and self.hands[seat]):
                self.check(action)
            # A pass keeps the calls, exchange, seats out, scores, history and bombs
            # (unless the deal ends, which touches again), and the hands, the trick
            # and the points taken (unless it ends the trick: _apply_pass drops them).
            self._views.clear()
            self._passed_tuple = None
            self.actions.append(action)
            self._log.append(action)
            return self._apply_pass(action)  # type: ignore[arg-type]
        if kind is Play:
            seat = action.seat
            if type(seat) is not int or not 0 <= seat < self.n_seats:
                self._check_seat(seat)
            played = self._check_play(action)  # type: ignore[arg-type]
            # A play keeps the first group above unless it changes (see _apply_play).
            self._views.clear()
            self._passed_tuple = None
            self._mid = None
            self.actions.append(action)
            self._log.append(action)
            return self._apply_play(action, played)  # type: ignore[arg-type]
        combo = self.check(action)
        self._views = {}
        self._passed_tuple = None
        self._mid = None
        self._slow = None
        self.actions.append(action)
        self._log.append(action)
        seat = action.seat
        if isinstance(action, (GrandTichu, DeclineGrand)):
            self.grand_decided[seat] = True
            if isinstance(action, GrandTichu):
                self.calls[seat] = Call.GRAND_TICHU
            if all(self.grand_decided):
                self.phase = _PHASE_EXCHANGE
            return _applied(action)
        if isinstance(action, CallTichu):
            self.calls[seat] = Call.TICHU
            return _applied(action)
        if isinstance(action, Exchange):
            return self._apply_exchange(action)
        if isinstance(action, Play):
            assert combo is not None
            return self._apply_play(action, combo)
        if isinstance(action, Pass):
            return self._apply_pass(action)
        assert isinstance(action, Gift)
        return self._apply_gift(action)

    def _apply_exchange(self, action: Exchange) -> Applied:
        seat = action.seat
        gives = dict(action.give)
        for c in gives.values():
            self.hands[seat].remove(c)
        self.gives[seat] = gives
        self._private = [None] * self.n_seats
        if not all(g is not None for g in self.gives):
            return _applied(action)
        for giver, given in enumerate(self.gives):
            assert given is not None
            for target, c in given.items():
                self.hands[target].append(c)
                self.received[target][giver] = c
        self.phase = _PHASE_PLAY
        self.turn = next(s for s, h in enumerate(self.hands) if MAHJONG in h)
        return _applied(action, exchange_done=True, lead=self.turn)

    def _apply_play(self, action: Play, combo: Combo) -> Applied:
        seat = action.seat
        hand = self.hands[seat]
        for c in action.cards:
            hand.remove(c)
        self.played[seat].extend(action.cards)
        self._played_tuple = None
        if not self.has_played[seat]:
            self.has_played[seat] = True
            self._slow = None
        out_of_turn = seat != self.turn
        kind = combo.kind
        if kind in BOMB_KINDS:
            self.bombs_played[seat] += 1
            self._slow = None
        wish = self.wish
        fulfilled = wish is not None and any(RANK[c] == wish for c in combo.cards)
        if fulfilled:
            self.wish = None
        elif wish is not None and kind not in BOMB_KINDS and self._wish_beats_top(wish):
            self._void(seat, wish)  # it led, or could have beaten a single, without the rank
        if MAHJONG in combo.cards:
            self.wish = action.wish
        went_out = not hand
        if went_out:
            self.out.append(seat)
            self._slow = None
        self.dog_led = False
        if kind is KIND_DOG:
            self._take(seat, [DOG])
            self.dog_led = True
            result = self._maybe_end_deal(action, combo, went_out=went_out)
            if result is not None:
                return result
            self.turn = self._dog_lead(seat, action.to)
            return _applied(action, combo, went_out=went_out, lead=self.turn)
        self.trick.append(_trick_play(seat, combo, out_of_turn))
        n = self.n_seats
        self.passed = [False] * n
        if len(self.out) >= n // 2 and self._sweep() is not None:
            return self._end_deal(_applied(action, combo, out_of_turn, fulfilled, went_out))
        if went_out and len(self.out) == self.n_seats - 1:
            # The third (fifth) seat out takes its last trick, and gives it if the
            # Dragon won it.
            return self._take_trick(action, combo, out_of_turn, fulfilled, went_out)
        self.turn = self.next_with_cards(seat)
        return _applied(action, combo, out_of_turn, fulfilled, went_out)

    def _wish_beats_top(self, wish: int) -> bool:
        """Whether any natural card of the wished rank could be played now: on a lead,
        or on a single below it. A seat that then plays without the rank (no bomb),
        or passes, shows the whole table it holds no such card: the wish would have
        bound it (:meth:`_wish_binds`)."""
        top = self.top
        return top is None or (top.kind is KIND_SINGLE and top.rank < wish)

    def _void(self, seat: int, rank: int) -> None:
        voids = self.wish_voids[seat]
        if rank not in voids:
            voids.add(rank)
            self._voids_tuple = None

    def _maybe_end_deal(self, action: Action, combo: Combo, *, went_out: bool) -> Applied | None:
        if self._sweep() is not None or len(self.out) >= self.n_seats - 1:
            return self._end_deal(_applied(action, combo, went_out=went_out))
        return None

    def _apply_pass(self, action: Pass) -> Applied:
        seat = action.seat
        self.passed[seat] = True
        wish = self.wish
        if wish is not None and self.trick and self._wish_beats_top(wish):
            self._void(seat, wish)
        owner = self.trick[-1].seat
        hands = self.hands
        passed = self.passed
        for s in range(self.n_seats):
            if s != owner and hands[s] and not passed[s]:
                break  # someone may still play on the trick
        else:
            self._mid = None
            return self._take_trick(action)
        self.turn = self.next_with_cards(seat)
        # (the pass of a computer player is one of PASSES: what it did, built once)
        done = _PASSED[seat]
        return done if done.action is action else _applied(action)

    def _take_trick(self, action: Action, combo: Combo | None = None, out_of_turn: bool = False,
                    fulfilled: bool = False, went_out: bool = False) -> Applied:
        """The last play of the trick stands: its player takes the trick (or chooses
        who gets a Dragon trick); what ``action`` did, with the trick taken."""
        trick = self.trick
        winner = trick[-1].seat
        cards = [c for play in trick for c in play.combo.cards]
        dragon = trick[-1].combo.cards == (DRAGON,)
        self.last_trick, self.last_trick_taker = tuple(trick), winner
        self.trick = []
        self.passed = [False] * self.n_seats
        if dragon:
            self.gift_cards = cards
            self.phase = _PHASE_GIFT
            self.turn = winner
            return _applied(action, combo, out_of_turn, fulfilled, went_out, winner)
        self._take(winner, cards)
        if len(self.out) >= self.n_seats - 1:
            return self._end_deal(_applied(action, combo, out_of_turn, fulfilled, went_out, winner))
        self.turn = self._lead_from(winner)
        return _applied(action, combo, out_of_turn, fulfilled, went_out, winner, None, self.turn)

    def _apply_gift(self, action: Gift) -> Applied:
        self._take(action.to, self.gift_cards)
        self.gift_cards = []
        self.phase = _PHASE_PLAY
        done = _applied(action, trick_given_to=action.to)
        if len(self.out) >= self.n_seats - 1:
            return self._end_deal(done)
        self.turn = self._lead_from(action.seat)
        return _replace(done, lead=self.turn)

    # --------------------------------------------------------------- scoring
    def _sweep(self) -> int | None:
        """The team whose every seat went out first (a double victory with four
        players, a triple with six), if any."""
        size = self.n_seats // 2
        if len(self.out) >= size and len({self.team(s) for s in self.out[:size]}) == 1:
            return self.team(self.out[0])
        return None

    def _end_deal(self, done: Applied) -> Applied:
        self.touch()
        teams = 2
        card_points = [0] * teams
        sweep = self._sweep()
        if sweep is not None:
            card_points[sweep] = SWEEP_POINTS[self.n_seats]
        else:
            last = next(s for s in range(self.n_seats) if s not in self.out)
            piles = [list(p) for p in self.won]
            if self.n_seats == 4:
                # The last seat's tricks go to the first out.
                piles[self.out[0]].extend(piles[last])
            else:
                # The last seat's tricks go to the other team, the fifth seat's to the first out.
                card_points[1 - self.team(last)] += sum(POINTS[c] for c in piles[last])
                fifth = self.out[4]
                piles[self.out[0]].extend(piles[fifth])
                piles[fifth] = []
            piles[last] = []
            for s, pile in enumerate(piles):
                card_points[self.team(s)] += sum(POINTS[c] for c in pile)
            card_points[1 - self.team(last)] += sum(POINTS[c] for c in self.hands[last])
        call_points = [0] * teams
        first = self.out[0]
        for s, call in enumerate(self.calls):
            if call is not None:
                value = CALL_VALUES[call]
                call_points[self.team(s)] += value if s == first else -value
        result = DealResult(
            number=self.deal_number,
            out=tuple(self.out),
            card_points=tuple(card_points),
            call_points=tuple(call_points),
            calls=tuple(self.calls),
            double_victory=sweep if self.n_seats == 4 else None,
            triple_victory=sweep if self.n_seats == 6 else None,
        )
        self.history.append(result)
        for t in range(teams):
            self.scores[t] += result.scores[t]
        if self.trick:
            # A double or triple victory leaves a trick open; its cards no longer count.
            self._take(self.trick[-1].seat, [c for p in self.trick for c in p.combo.cards])
        self.trick = []
        self.turn = None
        best = max(self.scores)
        if best >= self.target and self.scores.count(best) == 1:
            self.winner = self.scores.index(best)
            self.phase = _PHASE_GAME_OVER
        else:
            self.phase = _PHASE_DEAL_OVER
        return _replace(done, deal_result=result, winner=self.winner)


_ViewDraft = draft_class(TichuView)
_AppliedDraft = draft_class(Applied)
_TrickPlayDraft = draft_class(TrickPlay)


def _trick_play(seat: int, combo: Combo, out_of_turn: bool) -> TrickPlay:
    """``TrickPlay(seat, combo, out_of_turn)``, built as a sealed draft (one a play)."""
    draft = _TrickPlayDraft()
    draft.seat = seat
    draft.combo = combo
    draft.out_of_turn = out_of_turn
    draft.__class__ = TrickPlay  # sealed (engine.fastinit.seal, written out)
    play: TrickPlay = draft
    return play


def _applied(action: Action, combo: Combo | None = None, out_of_turn: bool = False,
             wish_fulfilled: bool = False, went_out: bool = False,
             trick_taken_by: int | None = None, trick_given_to: int | None = None,
             lead: int | None = None, exchange_done: bool = False,
             deal_result: DealResult | None = None, winner: int | None = None) -> Applied:
    """``Applied(...)``, built as a sealed draft (one is built for every action)."""
    done = _AppliedDraft()
    done.action = action
    done.combo = combo
    done.out_of_turn = out_of_turn
    done.wish_fulfilled = wish_fulfilled
    done.went_out = went_out
    done.trick_taken_by = trick_taken_by
    done.trick_given_to = trick_given_to
    done.lead = lead
    done.exchange_done = exchange_done
    done.deal_result = deal_result
    done.winner = winner
    done.__class__ = Applied  # sealed (engine.fastinit.seal, written out)
    applied: Applied = done
    return applied


_PASSED: tuple[Applied, ...] = tuple(_applied(p) for p in PASSES)
"""What each of :data:`~engine.tichu.actions.PASSES` does when it leaves the trick
open (nothing more: immutable, so shared)."""


def _replace(done: Applied, **changes: Any) -> Applied:
    """``dataclasses.replace`` for :class:`Applied`, without its per-call field inspection."""
    get = changes.get
    return _applied(
        get("action", done.action), get("combo", done.combo),
        get("out_of_turn", done.out_of_turn), get("wish_fulfilled", done.wish_fulfilled),
        get("went_out", done.went_out), get("trick_taken_by", done.trick_taken_by),
        get("trick_given_to", done.trick_given_to), get("lead", done.lead),
        get("exchange_done", done.exchange_done), get("deal_result", done.deal_result),
        get("winner", done.winner))


def hand_sizes(n_seats: int, dealer: int | None = None) -> list[int]:
    """Cards per seat in a deal: 14 each with four players; with six, 10 for the two
    seats after ``dealer`` and 9 for the others."""
    if n_seats == 4:
        return [14] * 4
    assert dealer is not None
    return [10 if (s - dealer) % n_seats in (1, 2) else 9 for s in range(n_seats)]


def check_deal(hands: Sequence[Sequence[Card]], n_seats: int = 4,
               dealer: int | None = None) -> None:
    """Raise :class:`BadActionError` unless ``hands`` deal the whole deck as the seat
    count (and, with six players, the dealer) says."""
    if len(hands) != n_seats:
        raise BadActionError(f"a deal needs {n_seats} hands, not {len(hands)}")
    for s, (h, size) in enumerate(zip(hands, hand_sizes(n_seats, dealer), strict=True)):
        if len(h) != size:
            why = "" if dealer is None else f" (seat {dealer} deals)"
            raise BadActionError(f"hand {s} has {len(h)} cards, not {size}{why}")
    seen = [c for h in hands for c in h]
    if len(set(seen)) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise BadActionError(f"card {dup} is dealt twice")
