"""Hypothesis playouts: random legal and illegal actions against the invariants."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.chinois.actions import Action, Bid, Play
from engine.chinois.deal import DECK, seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.rules import ROUNDS
from engine.chinois.view import Phase
from engine.errors import EngineError


def legal_action(game: ChinoisGame, rng: random.Random) -> Action:
    assert game.turn is not None
    view = game.view(game.turn)
    if game.phase is Phase.BID:
        return Bid(game.turn, rng.choice(legal_bids(view)))
    return Play(game.turn, rng.choice(legal_cards(view)))


def random_action(game: ChinoisGame, rng: random.Random) -> Action:
    """Anything at all, mostly nonsense: wrong seats, cards from other hands, wild bids."""
    seat = rng.randrange(-1, 6)
    if rng.random() < 0.5:
        return Bid(seat, rng.randrange(-2, 16))
    return Play(seat, rng.choice(DECK))


def check_invariants(game: ChinoisGame) -> None:
    dealt = [c for h in game.deal.hands for c in h]
    now: list[Card] = [c for h in game.hands for c in h] + list(game.trick.cards) + game.played
    # Each card is played once: what was dealt is in a hand, the open trick or a taken trick.
    assert sorted(now) == sorted(dealt) and len(set(now)) == len(now)
    assert sum(game.tricks_won) * 4 == len(game.played)
    if game.phase is not Phase.BID:
        # "Tout sauf": the dealer's forbidden bid is never accepted.
        assert sum(b for b in game.bids if b is not None) != game.n_cards
    if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
        assert sum(game.tricks_won) == game.n_cards
        assert game.history[-1].tricks == tuple(game.tricks_won)


def play_out(seed: int, start: int, noise: float, max_rounds: int = 3) -> ChinoisGame:
    rng = random.Random(seed)
    game = ChinoisGame(seed=seed, deal=seeded_deal(seed, start))
    rounds = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL_OVER:
            rounds += 1
            if rounds == max_rounds:
                break
            game.next_deal()
            continue
        if rng.random() < noise:
            before = game.view(None)
            try:
                game.apply(random_action(game, rng))
            except EngineError:
                assert game.view(None) == before
        else:
            game.apply(legal_action(game, rng))
        check_invariants(game)
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), start=st.integers(1, ROUNDS),
       noise=st.sampled_from([0.0, 0.3]))
def test_playouts_keep_every_card_and_the_rules(seed: int, start: int, noise: float) -> None:
    play_out(seed, start, noise)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), start=st.integers(1, ROUNDS))
def test_same_seed_and_actions_give_the_same_state(seed: int, start: int) -> None:
    first = play_out(seed, start, 0.2, max_rounds=2)
    second = ChinoisGame(seed=seed, deal=seeded_deal(seed, start))
    for action in first.actions:
        if second.phase is Phase.DEAL_OVER:
            second.next_deal()
        second.apply(action)
    for s in (None, 0, 1, 2, 3):
        assert first.view(s) == second.view(s)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), start=st.integers(1, ROUNDS), data=st.data())
def test_only_engine_errors_escape(seed: int, start: int, data: st.DataObject) -> None:
    game = ChinoisGame(seed=seed, deal=seeded_deal(seed, start))
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 80))):
        if game.phase is not Phase.BID and game.phase is not Phase.PLAY:
            break
        with contextlib.suppress(EngineError):
            game.apply(legal_action(game, rng) if rng.random() < 0.6 else random_action(game, rng))
