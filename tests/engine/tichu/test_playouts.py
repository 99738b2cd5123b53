"""Hypothesis playouts: random legal and illegal actions against the invariants."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import EngineError
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DECK, MAHJONG, POINTS
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.view import Phase


def all_cards(game: TichuGame) -> list[Card]:
    """Every card the game holds somewhere: hands, tricks, piles, gifts in transit."""
    cards = [c for h in game.hands for c in h]
    cards += [c for p in game.trick for c in p.combo.cards]
    cards += [c for pile in game.won for c in pile]
    cards += game.gift_cards
    if game.phase is Phase.EXCHANGE:
        cards += [c for g in game.gives if g for c in g.values()]
    return cards


def legal_action(game: TichuGame, rng: random.Random) -> Action:
    """A random legal action for whoever may act."""
    phase = game.phase
    if phase is Phase.GRAND:
        seat = game.grand_decided.index(False)
        return GrandTichu(seat) if rng.random() < 0.05 else DeclineGrand(seat)
    if phase is Phase.EXCHANGE:
        seat = next(s for s, g in enumerate(game.gives) if g is None)
        if game.calls[seat] is None and rng.random() < 0.05:
            return CallTichu(seat)
        cards = rng.sample(game.hands[seat], 3)
        return Exchange(seat, tuple(zip([t for t in range(4) if t != seat], cards, strict=True)))
    if phase is Phase.GIFT:
        assert game.turn is not None
        return Gift(game.turn, rng.choice(game.view(game.turn).opponents(game.turn)))
    # Out-of-turn bombs now and then.
    for seat in rng.sample(range(4), 4):
        if seat != game.turn and game.trick and rng.random() < 0.2:
            bombs = legal_plays(game.view(seat))
            if bombs:
                return Play(seat, rng.choice(bombs).cards)
    assert game.turn is not None
    view = game.view(game.turn)
    plays = legal_plays(view)
    if can_pass(view) and (not plays or rng.random() < 0.4):
        return Pass(game.turn)
    play = rng.choice(plays)
    wish = rng.choice([None, *range(2, 15)]) if MAHJONG in play.cards else None
    return Play(game.turn, play.cards, wish)


def random_action(game: TichuGame, rng: random.Random) -> Action:
    """Anything at all, mostly nonsense: wrong seats, cards from other hands, bad targets."""
    seat = rng.randrange(-1, 6)
    kind = rng.randrange(7)
    if kind == 0:
        return Play(seat, tuple(rng.sample(DECK, rng.randint(1, 6))), rng.choice([None, 1, 7, 15]),
                    rng.choice([None, 1, 5, 14, 16]))
    if kind == 1:
        return Pass(seat)
    if kind == 2:
        return Gift(seat, rng.randrange(-1, 6))
    if kind == 3:
        return Exchange(seat, tuple((rng.randrange(-1, 5), c) for c in rng.sample(DECK, 3)))
    if kind == 4:
        return CallTichu(seat)
    if kind == 5:
        return GrandTichu(seat)
    return DeclineGrand(seat)


def play_out(seed: int, noise: float, max_deals: int = 3) -> TichuGame:
    rng = random.Random(seed)
    game = TichuGame(seed=seed, target=1000)
    deals = 0
    while game.phase is not Phase.GAME_OVER and deals < max_deals:
        if game.phase is Phase.DEAL_OVER:
            result = game.history[-1]
            if result.double_victory is None:
                assert sum(result.card_points) == 100
            else:
                assert sorted(result.card_points) == [0, 200]
            deals += 1
            if deals == max_deals:
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
        assert sorted(all_cards(game)) == sorted(DECK)
        assert sum(POINTS[c] for c in all_cards(game)) == 100
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), noise=st.sampled_from([0.0, 0.3]))
def test_playouts_keep_every_card_and_100_points(seed: int, noise: float) -> None:
    play_out(seed, noise)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_state(seed: int) -> None:
    first = play_out(seed, 0.2, max_deals=1)
    second = TichuGame(seed=seed, target=1000)
    for action in first.actions:
        if second.phase is Phase.DEAL_OVER:
            second.next_deal()
        second.apply(action)
    for s in (None, 0, 1, 2, 3):
        assert first.view(s) == second.view(s)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_only_engine_errors_escape(seed: int, data: st.DataObject) -> None:
    game = TichuGame(seed=seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 120))):
        if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            break
        with contextlib.suppress(EngineError):
            game.apply(legal_action(game, rng) if rng.random() < 0.7 else random_action(game, rng))
