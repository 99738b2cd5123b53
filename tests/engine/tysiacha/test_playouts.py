"""Hypothesis playouts: random legal and illegal actions against the invariants."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import EngineError
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.cards import DECK, POINTS, bid_limit, marriage_partner, marriages_in
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import (
    can_pass,
    can_redeal,
    legal_bids,
    legal_cards,
    legal_gifts,
    legal_raises,
    marriage_leads,
)
from engine.tysiacha.scoring import Rounding, miss_cost, round_points
from engine.tysiacha.view import DealKind, Phase


def legal_action(game: TysiachaGame, rng: random.Random) -> Action:
    """A random legal action for whoever may act."""
    if game.phase is Phase.PLAY and rng.random() < 0.5:
        for seat in game.active:
            if can_redeal(game.view(seat)):
                return Redeal(seat)
    assert game.turn is not None
    seat = game.turn
    view = game.view(seat)
    if game.phase is Phase.BIDDING:
        if can_pass(view) and (rng.random() < 0.6 or not legal_bids(view)):
            return Pass(seat)
        return Bid(seat, rng.choice(legal_bids(view)))
    if game.phase is Phase.PRIKUP:
        roll = rng.random()
        if roll < 0.1:
            return Concede(seat)
        if roll < 0.25 and legal_raises(view):
            return Raise(seat, rng.choice(legal_raises(view)))
        return Give(seat, rng.choice(legal_gifts(view)))
    card = rng.choice(legal_cards(view))
    return Play(seat, card, card in marriage_leads(view) and rng.random() < 0.7)


def random_action(game: TysiachaGame, rng: random.Random) -> Action:
    """Anything at all, mostly nonsense: wrong seats, cards from other hands, wild bids."""
    seat = rng.randrange(-1, game.n_seats + 2)
    kind = rng.randrange(7)
    amount = rng.choice([0, 95, 100, 103, 105, 120, 125, 160, 220, 225, 400])
    if kind == 0:
        return Bid(seat, amount)
    if kind == 1:
        return Raise(seat, amount)
    if kind == 2:
        return Pass(seat)
    if kind == 3:
        return Concede(seat)
    if kind == 4:
        return Redeal(seat)
    if kind == 5:
        cards = rng.sample(DECK, 2)
        return Give(seat, tuple((rng.randrange(-1, 4), c) for c in cards))
    return Play(seat, rng.choice(DECK), rng.random() < 0.3)


def all_cards(game: TysiachaGame) -> list[Card]:
    cards = [c for h in game.hands for c in h] + list(game.trick.cards)
    cards += [c for pile in game.won for c in pile]
    if game.phase is Phase.BIDDING:
        cards += game.deal.prikup
    return cards


def check_duties(game: TysiachaGame, action: Action) -> None:
    """What an accepted action must respect, worked out from first principles."""
    seat = action.seat
    hand = game.hands[seat]
    if isinstance(action, (Bid, Raise)):
        floor = game.contract if isinstance(action, Raise) else game.high_bid
        assert action.bid % 5 == 0 and action.bid >= 100
        assert floor is None or action.bid > floor
        assert action.bid <= bid_limit(hand)
        assert action.bid <= 120 or marriages_in(hand)
    if isinstance(action, Play):
        led = game.trick.led_suit
        suits = {c & 3 for c in hand}
        if led is not None and led in suits:
            assert action.card & 3 == led
        elif led is not None and game.trump is not None and game.trump in suits:
            assert action.card & 3 == game.trump
        if action.marriage:
            assert not game.trick.plays and game.tricks_taken[seat] >= 1
            assert marriage_partner(action.card) in hand


def check_deal_result(game: TysiachaGame) -> None:
    result = game.history[-1]
    if result.kind is not DealKind.PLAYED:
        return
    assert sum(result.points) == 120
    soloist, contract = result.soloist, result.contract
    assert soloist is not None and contract is not None
    made = result.points[soloist] + result.marriages[soloist] >= contract
    assert result.made is made and result.earned[soloist] == (contract if made else -contract)
    for s in game.active:
        if s == soloist:
            continue
        missed = s in result.missed
        assert missed == (game.tricks_taken[s] == 0)
        penalty = miss_cost(game.misses[s]) if missed else 0
        defender = result.earned[s] - penalty
        assert defender in (0, round_points(result.points[s], game.rounding) + result.marriages[s])


def play_out(seed: int, noise: float, players: int = 3, rounding: Rounding = Rounding.TEN,
             max_deals: int = 4) -> TysiachaGame:
    rng = random.Random(seed)
    game = TysiachaGame(players=players, rounding=rounding, seed=seed)
    deals = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL_OVER:
            check_deal_result(game)
            deals += 1
            if deals == max_deals:
                break
            game.next_deal()
            continue
        if rng.random() < noise:
            action = random_action(game, rng)
            before = game.view(None)
            try:
                game.check(action)
            except EngineError:
                with contextlib.suppress(EngineError):
                    game.apply(action)
                assert game.view(None) == before
                continue
        else:
            action = legal_action(game, rng)
        check_duties(game, action)
        game.apply(action)
        cards = all_cards(game)
        assert sorted(cards) == sorted(DECK)
        assert sum(POINTS[c] for c in cards) == 120
        assert sum(len(h) for h in game.hands) + len(game.trick) + sum(
            len(p) for p in game.won) + (3 if game.phase is Phase.BIDDING else 0) == 24
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), noise=st.sampled_from([0.0, 0.3]),
       players=st.sampled_from([3, 4]), rounding=st.sampled_from(list(Rounding)))
def test_playouts_keep_120_points_and_the_duties(seed: int, noise: float, players: int,
                                                 rounding: Rounding) -> None:
    play_out(seed, noise, players, rounding)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]))
def test_same_seed_and_actions_give_the_same_state(seed: int, players: int) -> None:
    first = play_out(seed, 0.2, players, max_deals=2)
    second = TysiachaGame(players=players, seed=seed)
    for action in first.actions:
        if second.phase is Phase.DEAL_OVER:
            second.next_deal()
        second.apply(action)
    for s in (None, *range(players)):
        assert first.view(s) == second.view(s)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), data=st.data())
def test_only_engine_errors_escape(seed: int, players: int, data: st.DataObject) -> None:
    game = TysiachaGame(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 60))):
        if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            break
        with contextlib.suppress(EngineError):
            game.apply(legal_action(game, rng) if rng.random() < 0.6 else random_action(game, rng))
