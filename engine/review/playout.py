"""What each option of a decision is worth by playing it out on sampled deals: the
coach's valuation before the learned evaluator (:mod:`~engine.review.value`), kept as
the slower reference that ``tools.review_quality`` measures blunders with.

:func:`option_scores` deals the cards the seat could not see, consistently with
its :class:`~engine.review.moment.Moment`, and for every such deal plays each
option out to the end of the deal: the same deals for every
option (common random numbers), so the differences between options are measured
far more precisely than the values themselves. A sample's score is the deal's
score of the seat's team minus the other team's, call bonuses and penalties
included.

How many deals: rounds of them until the decision is settled (:func:`settled`):
no option beats the chosen one by more than :data:`SMALL_COST` points at two
standard errors, or the best one's lead is known to within :data:`PRECISE`. A
clear decision stops after a quarter of ``samples``; a close one goes on up to
:data:`CLOSE_FACTOR` times ``samples`` (a call, whose ``samples`` are already
four times the others', up to ``samples``). The rounds are fixed by ``samples``,
so the same random numbers give the same figures.

How a deal is dealt:

- In play (and at the Dragon's gift): the hard player's sampler
  (:func:`~engine.tichu.ai.sampling.hand_sampler`): the other hands get as many
  cards as they hold, from the cards not seen played; a card the seat gave stays
  with its receiver until played; wish voids are kept. The game is rebuilt at the
  seat's position (:func:`~engine.tichu.ai.search.game_at`).
- Before play: the cards the seat has not seen are dealt at random among the
  other hands (and, before its Grand Tichu decision, the rest of its own hand).
  The deal's actions so far are replayed on that deal, public ones and the seat's
  own as they were; another seat's hidden exchange is made by the hard player's
  heuristics on its guessed hand.

How a deal is played on after the option, for every seat: the hard player's
heuristics for what is left of the Grand Tichu decisions, the early Tichu calls
and the exchange, its Tichu call before the first card (once play starts, for
every seat still free to call), and then the rollout policy of its search
(:func:`~engine.tichu.ai.search.rollout`), which makes no further call.
A seat whose option is not calling Tichu stays silent for the rest of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial

from engine.cards import Card
from engine.review.moment import Hidden, Moment
from engine.review.options import Abstain, Option
from engine.sampling import DealSampler
from engine.tichu.actions import CallTichu, DeclineGrand, Exchange, GrandTichu
from engine.tichu.ai import bidding
from engine.tichu.ai.knowledge import ALL_CARDS
from engine.tichu.ai.sampling import hand_sampler
from engine.tichu.ai.search import RolloutPolicy, game_at, rollout
from engine.tichu.ai.searcher import mean_error
from engine.tichu.cards import DECK
from engine.tichu.game import TichuGame, hand_sizes
from engine.tichu.legal import can_call_tichu
from engine.tichu.view import Phase, TichuView

_POLICY = RolloutPolicy()

_memo: dict[tuple[object, ...], object] = {}
"""The heuristics' answers before play, within one :func:`option_scores` call: every
option of a sampled deal meets the same hands and mostly the same calls. Keyed by
everything the heuristic reads of the view (the seat, its hand in order, the calls,
the scores and target, the seat count)."""


def _key(view: TichuView, what: str) -> tuple[object, ...]:
    return (what, view.seat, view.n_seats, view.dealer, tuple(view.hand), tuple(view.calls),
            view.scores, view.target, view.out)


SETTLE_FROM = 4
"""The first look at whether a decision is settled comes after ``samples // SETTLE_FROM``
deals, and then every ``samples // SETTLE_STEP`` deals."""
SETTLE_STEP = 8
CLOSE_FACTOR = 2
"""A decision not settled after ``samples`` deals gets up to this many times as many
(calls excepted: they already have four times the samples)."""
SMALL_COST = 10.0
"""A decision is settled when no option beats the chosen one by more than this, at two
standard errors..."""
PRECISE = (4.0, 0.15)
"""...or when the best option's lead is known to within this many points, or this
share of the lead (one standard error)."""
SWING = 200.0
"""What one deal in which the decision mattered can swing by: going out first or not,
a call made or failed. The standard error of a difference is never taken below the
share of such a swing that ``n`` deals cannot rule out, ``3 / n`` by the rule of three,
halved (a bound at two standard errors, :func:`settled`): eight deals alike do not show
that a pass which lets an opponent out first in one deal of seven cost nothing (they
miss it three times in ten), and it takes 60 deals alike to settle within
:data:`SMALL_COST`."""


def option_scores(moment: Moment, options: list[Option], samples: int,
                  rng: random.Random) -> list[list[int]]:
    """Per option, the score of each sampled deal played out (see the module's notes).

    Deals are played in rounds until the decision is settled (:func:`settled`): a
    clear one stops after a quarter of ``samples``, a close one goes on up to
    :data:`CLOSE_FACTOR` times ``samples`` (calls: ``samples``). Every option is played
    on the same deals, so the lists have one length."""
    scores: list[list[int]] = [[] for _ in options]
    team = moment.seat % 2
    calls = any(isinstance(o, (GrandTichu, DeclineGrand, CallTichu)) for o in options)
    most = samples if calls else samples * CLOSE_FACTOR
    first = max(1, samples // SETTLE_FROM)
    step = max(1, samples // SETTLE_STEP)
    _memo.clear()
    deal = _dealer(moment, team, rng)
    done = 0
    target = first
    while done < most:
        for _ in range(min(target, most) - done):
            for i, value in enumerate(deal(options)):
                scores[i].append(value)
        done = min(target, most)
        if settled(scores):
            break
        target = done + step
    _memo.clear()
    return scores


def settled(scores: list[list[int]]) -> bool:
    """Whether more deals would not change what the review says of the decision: no
    option is better than the chosen one (``scores[0]``) by more than
    :data:`SMALL_COST` at two standard errors, or the best option's lead is
    :data:`PRECISE`; a standard error is at least what a rare :data:`SWING` leaves."""
    chosen = scores[0]
    n = len(chosen)
    if n < 2:
        return False
    upper = float("-inf")
    best = (0.0, 0.0)
    unseen = SWING * 3.0 / n / 2.0
    for other in scores[1:]:
        mean, error = mean_error([a - b for a, b in zip(other, chosen, strict=True)])
        error = max(error, unseen)
        upper = max(upper, mean + 2.0 * error)
        if mean > best[0]:
            best = (mean, error)
    if upper <= SMALL_COST:
        return True
    lead, error = best
    return lead > 0.0 and error <= max(PRECISE[0], PRECISE[1] * lead)


def positions(moment: Moment, rng: random.Random) -> Iterator[Callable[[], TichuGame]]:
    """Endlessly, one deal of the cards the seat could not see, dealt consistently with
    its moment (see the module's notes): a maker of fresh games in the moment's
    position on that deal, the option not yet carried out."""
    if moment.pre_play:
        sampler = _pre_play_sampler(moment)
        while True:
            hands = _pre_play_hands(moment, sampler, rng)
            yield partial(_pre_play_game, moment, hands)
    sampler_play = hand_sampler(moment.view, moment.know)
    seat = moment.seat
    view = moment.view
    while True:
        dealt = sampler_play.deal(rng)
        played = [[int(c) for c in view.hand] if s == seat else [int(c) for c in dealt[s]]
                  for s in range(view.n_seats)]
        yield partial(_play_game, moment, played)


def _dealer(moment: Moment, team: int, rng: random.Random
            ) -> Callable[[list[Option]], list[int]]:
    """One sampled deal played out for every option: the scores, in the options' order."""
    deals = positions(moment, rng)

    def one(options: list[Option]) -> list[int]:
        make = next(deals)
        _memo.clear()
        out = []
        for option in options:
            game = make()
            quiet = _apply(game, option)
            if moment.pre_play:
                _finish_pre_play(game, quiet)
            out.append(rollout(game, team, _POLICY))
        return out

    return one


# ------------------------------------------------------------------ in play
def _play_game(moment: Moment, hands: list[list[int]]) -> TichuGame:
    view = moment.view
    game = game_at(view, hands)
    if view.phase is Phase.GIFT:
        # The Dragon's trick waits for the gift: its cards are the last trick's.
        game.gift_cards = [c for play in view.last_trick for c in play.combo.cards]
    return game


def _apply(game: TichuGame, option: Option) -> int | None:
    """Carry the option out; the seat that stays silent from now on, if any."""
    if isinstance(option, Abstain):
        if option.what == "tichu":
            return option.seat
        # No bomb now: the seat on turn acts (then anyone may bomb again).
        turn = game.turn
        assert turn is not None
        action = _POLICY.decide(game, turn)
        if action is not None:
            game.apply(action)
        return None
    game.apply(option)
    return None


# -------------------------------------------------------------- before play
def _pre_play_sampler(moment: Moment) -> DealSampler[int]:
    view = moment.view
    seat = moment.seat
    sizes = hand_sizes(view.n_seats, view.dealer)
    own = {int(c) for c in moment.own}
    counts = {s: sizes[s] - (len(own) if s == seat else 0) for s in range(view.n_seats)}
    return DealSampler(sorted(ALL_CARDS - own), counts)


def _pre_play_hands(moment: Moment, sampler: DealSampler[int], rng: random.Random
                    ) -> list[list[Card]]:
    """A whole deal: the seat's known cards first, the rest in a random order (a
    hand's first cards are its Grand Tichu packet)."""
    dealt = sampler.deal(rng)
    hands: list[list[Card]] = []
    for s in range(moment.view.n_seats):
        cards = [DECK[c] for c in dealt[s]]
        rng.shuffle(cards)
        if s == moment.seat:
            cards = list(moment.own) + cards
        hands.append(cards)
    return hands


def _pre_play_game(moment: Moment, hands: list[list[Card]]) -> TichuGame:
    """The deal as it stood at the moment, on the guessed hands."""
    view = moment.view
    game = TichuGame(target=view.target, hands=hands, players=view.n_seats,
                     dealer=view.dealer if view.n_seats == 6 else None)
    game.scores = list(view.scores)
    game.touch()
    for action in moment.seen:
        if isinstance(action, Hidden):
            game.apply(_exchange(game, action.seat, None))
        else:
            game.apply(action)
    return game


def _exchange(game: TichuGame, seat: int, quiet: int | None) -> Exchange:
    """The hard player's exchange for ``seat`` (meaning to call on a Tichu hand,
    unless it is the silent seat)."""
    view = game.view(seat)
    calling = view.calls[seat] is not None or (
        seat != quiet and _wants_tichu(view, bidding.TICHU_THRESHOLD))
    key = (*_key(view, "exchange"), calling)
    found = _memo.get(key)
    if found is None:
        found = _memo[key] = bidding.choose_exchange(view, calling)
    assert isinstance(found, Exchange)
    return found


def _wants_tichu(view: TichuView, threshold: float) -> bool:
    key = (*_key(view, "tichu"), len(view.hand), threshold)
    found = _memo.get(key)
    if found is None:
        found = _memo[key] = bidding.wants_tichu(view, threshold)
    return bool(found)


def _early_call(game: TichuGame, seat: int) -> bool:
    """The hard player's Tichu call before its exchange, on a very strong hand."""
    view = game.view(seat)
    return can_call_tichu(view) and _wants_tichu(
        view, bidding.TICHU_THRESHOLD + bidding.EARLY_TICHU_MARGIN)


def _finish_pre_play(game: TichuGame, quiet: int | None) -> None:
    """Grand Tichu decisions, exchanges and Tichu calls by the hard player's
    heuristics, until the first card is due (if no card has been played yet: the
    option may have been the last exchange)."""
    if game.phase not in (Phase.GRAND, Phase.EXCHANGE, Phase.PLAY) or any(game.has_played):
        return
    while game.phase is Phase.GRAND:
        seat = game.grand_decided.index(False)
        if bidding.wants_grand(game.view(seat)):
            game.apply(GrandTichu(seat))
        else:
            game.apply(DeclineGrand(seat))
    while game.phase is Phase.EXCHANGE:
        seat = next(s for s, g in enumerate(game.gives) if g is None)
        if seat != quiet and _early_call(game, seat):
            game.apply(CallTichu(seat))
        game.apply(_exchange(game, seat, quiet))
    for seat in range(game.n_seats):
        if seat == quiet or game.calls[seat] is not None:
            continue
        view = game.view(seat)
        if can_call_tichu(view) and _wants_tichu(view, bidding.TICHU_THRESHOLD):
            game.apply(CallTichu(seat))
