"""Hypothesis playouts: random legal and illegal actions against the invariants,
for four players and for six."""

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
from engine.tichu.cards import DECK, DOG, MAHJONG, POINTS
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_pass, dog_targets, legal_plays
from engine.tichu.view import Phase, exchange_targets

PLAYERS = st.sampled_from([4, 6])


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
        targets = exchange_targets(seat, game.n_seats)
        cards = rng.sample(game.hands[seat], len(targets))
        return Exchange(seat, tuple(zip(targets, cards, strict=True)))
    if phase is Phase.GIFT:
        assert game.turn is not None
        return Gift(game.turn, rng.choice(game.view(game.turn).opponents(game.turn)))
    # Out-of-turn bombs now and then.
    for seat in rng.sample(range(game.n_seats), game.n_seats):
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
    partners = dog_targets(view) if play.cards == (DOG,) else ()
    to = rng.choice(partners) if partners and (len(partners) > 1 or rng.random() < 0.5) else None
    return Play(game.turn, play.cards, wish, to=to)


def random_action(game: TichuGame, rng: random.Random) -> Action:
    """Anything at all, mostly nonsense: wrong seats, cards from other hands, bad targets."""
    seat = rng.randrange(-1, 8)
    kind = rng.randrange(8)
    if kind == 0:
        return Play(seat, tuple(rng.sample(DECK, rng.randint(1, 6))), rng.choice([None, 1, 7, 15]),
                    rng.choice([None, 1, 5, 14, 16]), rng.choice([None, None, -1, 0, 2, 3, 7]))
    if kind == 7:
        return Play(seat, (DOG,), to=rng.randrange(-1, 8))
    if kind == 1:
        return Pass(seat)
    if kind == 2:
        return Gift(seat, rng.randrange(-1, 8))
    if kind == 3:
        count = rng.choice([2, 3])
        return Exchange(seat, tuple((rng.randrange(-1, 7), c) for c in rng.sample(DECK, count)))
    if kind == 4:
        return CallTichu(seat)
    if kind == 5:
        return GrandTichu(seat)
    return DeclineGrand(seat)


def check_out_order(game: TichuGame) -> None:
    """Seats go out once each, in order, and only when their hands are empty."""
    n = game.n_seats
    assert len(set(game.out)) == len(game.out)
    assert all(not game.hands[s] for s in game.out)
    if game.phase in (Phase.GRAND, Phase.EXCHANGE, Phase.PLAY, Phase.GIFT):
        assert all(game.hands[s] for s in range(n) if s not in game.out)
        # The last seat out may still owe the gift of a Dragon trick.
        assert len(game.out) < n - (game.phase is not Phase.GIFT)


def check_deal_end(game: TichuGame) -> None:
    n = game.n_seats
    result = game.history[-1]
    assert result.out == tuple(game.out)
    if result.sweep is None:
        assert sum(result.card_points) == 100
        assert len(result.out) == n - 1
    else:
        assert sorted(result.card_points) == [0, 100 * (n // 2)]
        assert len(result.out) == n // 2
        assert {s % 2 for s in result.out} == {result.sweep}
    if n == 4:
        assert result.triple_victory is None
    else:
        assert result.double_victory is None


def play_out(seed: int, noise: float, max_deals: int = 3, players: int = 4) -> TichuGame:
    rng = random.Random(seed)
    game = TichuGame(seed=seed, target=1000, players=players)
    deals = 0
    while game.phase is not Phase.GAME_OVER and deals < max_deals:
        if game.phase is Phase.DEAL_OVER:
            check_deal_end(game)
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
        check_out_order(game)
    if game.phase is Phase.GAME_OVER:
        check_deal_end(game)
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), noise=st.sampled_from([0.0, 0.3]), players=PLAYERS)
def test_playouts_keep_every_card_and_100_points(seed: int, noise: float, players: int) -> None:
    play_out(seed, noise, players=players)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=PLAYERS)
def test_same_seed_and_actions_give_the_same_state(seed: int, players: int) -> None:
    first = play_out(seed, 0.2, max_deals=2, players=players)
    second = TichuGame(seed=seed, target=1000, players=players)
    for action in first.actions:
        if second.phase is Phase.DEAL_OVER:
            second.next_deal()
        second.apply(action)
    assert second.dealers == first.dealers
    for s in (None, *range(players)):
        assert first.view(s) == second.view(s)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data(), players=PLAYERS)
def test_only_engine_errors_escape(seed: int, data: st.DataObject, players: int) -> None:
    game = TichuGame(seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 120))):
        if game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            break
        with contextlib.suppress(EngineError):
            game.apply(legal_action(game, rng) if rng.random() < 0.7 else random_action(game, rng))
