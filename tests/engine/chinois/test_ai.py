"""The computer players: legal at every step, and normal plays for its bid."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.chinois.ai import EasyPlayer, NormalPlayer, estimate_tricks, make_player
from engine.chinois.selfplay import play_game
from tests.engine.chinois.helpers import bids, position, run


def test_make_player_levels() -> None:
    assert isinstance(make_player("easy"), EasyPlayer)
    assert isinstance(make_player("normal"), NormalPlayer)
    hard = make_player("hard")
    assert isinstance(hard, NormalPlayer) and type(hard).__name__ == "HardPlayer"
    with pytest.raises(ValueError):
        make_player("expert")


def test_a_whole_game_between_computer_players() -> None:
    players = [make_player(level) for level in ("normal", "easy", "normal", "easy")]
    game = play_game(players, seed=3)
    assert game.winners is not None and len(game.history) == 28


def test_normal_beats_easy_over_a_few_games() -> None:
    normal = sum(play_game([NormalPlayer(), EasyPlayer(), EasyPlayer(), EasyPlayer()],
                           seed=s).scores[0] for s in range(3))
    assert normal > 150


@pytest.mark.parametrize(
    ("hand", "trump_card", "low", "high"),
    [
        ("As Ks Qs Js Ts", "2s", 4.0, 5.5),  # five top trumps
        ("2c 3d 4h 5c 6d", "As", 0.0, 0.8),  # nothing
        ("Ah", "2c", 0.4, 1.0),  # an Ace alone in round 1: a ruff is the risk
        ("Ac Ad Ah As 2c 3c 4c 5d 6d 7h 8h 9s Ts", None, 4.5, 5.5),  # four Aces and length
    ],
)
def test_estimate_tricks(hand: str, trump_card: str | None, low: float, high: float) -> None:
    cards = tuple(parse_cards(hand.split()))
    turned = None if trump_card is None else parse_cards([trump_card])[0]
    assert low <= estimate_tricks(cards, turned, len(cards)) <= high


@pytest.mark.parametrize(
    ("bid", "card"),
    [
        (0, "Jh"),  # its bid is made: it ducks under the Queen
        (1, "Ah"),  # under its bid: it wins
    ],
)
def test_normal_plays_for_its_bid_exactly(bid: int, card: str) -> None:
    # Round 2 is dealt by seat 0, so seat 1 leads; seat 2 holds the Ace and Jack of hearts.
    game = bids(position(2, ["2c 3c", "Qh 4c", "Ah Jh", "5c 6c"], trump_card="2s"), 1, bid, 1, 1)
    run(game, "1 play Qh")
    action = NormalPlayer().act(game.view(2), random.Random(0))
    assert action is not None and str(getattr(action, "card", "")) == card


def test_hard_plays_legal_cards_and_is_deterministic_without_a_budget() -> None:
    from engine.chinois.ai import HardPlayer
    from engine.chinois.game import ChinoisGame
    from engine.chinois.legal import legal_cards
    from engine.chinois.selfplay import play_round
    from engine.chinois.view import Phase

    hard = HardPlayer(samples=4, budget_ms=None)
    seen = 0
    game = ChinoisGame(seed=5)
    for _ in range(4):
        rng = random.Random(1)
        while game.phase in (Phase.BID, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            action = hard.act(view, rng) if seat == 0 else NormalPlayer().act(view, rng)
            assert action is not None
            if seat == 0 and view.phase is Phase.PLAY:
                assert action.card in legal_cards(view)  # type: ignore[union-attr]
                assert hard.act(view, rng) == action  # same view, same card
                seen += 1
            game.apply(action)
        game.next_deal()
    assert seen >= 6
    play_round(game, [HardPlayer(samples=2, budget_ms=None)] * 4, random.Random(2))


def test_hard_beats_normal_over_a_few_games() -> None:
    from engine.chinois.ai import HardPlayer

    hard = normal = 0
    for s in range(4):
        seat = s % 4
        players = [HardPlayer(samples=6, budget_ms=None) if i == seat else NormalPlayer()
                   for i in range(4)]
        scores = play_game(players, seed=f"hard:{s}", max_rounds=8).scores
        hard += scores[seat]
        normal += (sum(scores) - scores[seat]) / 3
    assert hard > normal
