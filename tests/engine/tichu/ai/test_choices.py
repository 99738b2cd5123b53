"""The candidates of each decision: the heuristics' choice is the normal player's own,
and every candidate is legal."""

from __future__ import annotations

import random

import pytest

from engine.tichu.ai import make_player
from engine.tichu.ai.choices import choices, play_choices
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.learned import ChoicePlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.game import TichuGame


@pytest.mark.parametrize("players", [4, 6])
def test_the_heuristic_choices_play_exactly_as_the_normal_player(players: int) -> None:
    for seed in (1, 2):
        normal = play_game([make_player("normal")] * players, seed=seed, max_deals=3)
        chosen = play_game([ChoicePlayer()] * players, seed=seed, max_deals=3)
        assert [d.scores for d in normal.history] == [d.scores for d in chosen.history]
        assert [d.out for d in normal.history] == [d.out for d in chosen.history]


def test_every_candidate_is_legal() -> None:
    # Walk a deal; at every decision apply each candidate to a copy of the game.
    import copy

    from engine.tichu.ai.base import pending_seats
    from engine.tichu.view import Phase

    game = TichuGame(seed=7)
    rng = random.Random(7)
    player = ChoicePlayer()
    checked = 0
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        seat = pending_seats(game.view(None))[0]
        view = game.view(seat)
        know = knowledge_of(view)
        options = choices(view, know)
        if options.kind == "tichu":
            options = play_choices(view, know)
        for action in options.actions:
            if action is not None:
                copy.deepcopy(game).apply(action)  # raises if illegal
                checked += 1
        chosen = player.act(view, rng)
        assert chosen is not None
        game.apply(chosen)
    assert checked > 40
