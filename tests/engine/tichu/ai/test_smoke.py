"""Every level plays only legal actions, at mixed tables, over a few deals."""

from __future__ import annotations

import random

import pytest

from engine.tichu.actions import Action
from engine.tichu.ai import LEVELS, EasyPlayer, make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.selfplay import play_deal, play_game
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView


def _player(level: str) -> Player:
    # (the search with a small fixed sample count: fast and deterministic here)
    return SearchPlayer(budget_ms=None, max_samples=2) if level == "search" else make_player(level)


def test_levels_and_factory() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in LEVELS:
        assert hasattr(make_player(level), "act")
    with pytest.raises(ValueError):
        make_player("expert")


@pytest.mark.parametrize("table", [
    ("normal", "easy"), ("hard", "normal"), ("easy", "hard"), ("normal", "normal"),
    ("search", "hard"),
])
def test_only_legal_actions(table: tuple[str, str]) -> None:
    seen: list[Action] = []

    def observe(game: TichuGame, seat: int, action: Action, spent: float) -> None:
        seen.append(action)  # play_deal applies through game.apply: illegal would raise

    a, b = _player(table[0]), _player(table[1])
    deals = 2 if "search" in table else 4
    for seed in range(deals):
        game = TichuGame(seed=f"smoke:{table}:{seed}")
        play_deal(game, [a, b, a, b], random.Random(seed), observe)
        assert game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
        assert game.history[-1].out
    assert seen


def test_a_whole_short_game() -> None:
    game = play_game([make_player("normal"), make_player("easy")] * 2, seed=1, target=300)
    assert game.winner is not None


def test_players_are_deterministic_given_the_rng() -> None:
    for level in (*LEVELS, "search"):
        games = [play_game([_player(level) for _ in range(4)], seed=7, max_deals=1)
                 for _ in range(2)]
        assert games[0].actions == games[1].actions, level


class _ViewedEasy:
    """An easy player that play_deal cannot tell from any other: always asked
    from its view, out of turn as well."""

    def __init__(self) -> None:
        self.easy = EasyPlayer()

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        return self.easy.act(view, rng)


@pytest.mark.parametrize("seats", [4, 6])
def test_easy_players_decide_alike_without_their_view(seats: int) -> None:
    # play_deal hands an easy player its hand, the top and the wish in phase
    # play, not its view, and never asks it out of turn: the same game comes out.
    for seed in range(12):
        games = [TichuGame(seed=f"easy:{seed}", players=seats) for _ in range(2)]
        play_deal(games[0], [EasyPlayer()] * seats, random.Random(seed))
        play_deal(games[1], [_ViewedEasy() for _ in range(seats)], random.Random(seed))
        assert games[0].actions == games[1].actions
        assert games[0].history == games[1].history
