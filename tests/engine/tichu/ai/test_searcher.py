"""The hard level: its search respects its caps, and the position builder is faithful."""

from __future__ import annotations

import random
import time

from engine.tichu.ai.search import game_at, rollout
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase
from tests.engine.tichu.ai.tables import view_of
from tests.engine.tichu.helpers import position, run

CHOICE = dict(trick=[(3, "8c")], turn=0, counts=(7, 9, 10, 8))
HAND = "9d Jh Kc 3c 3d 6s 6h"


def test_sample_cap_without_clock() -> None:
    player = SearchPlayer(budget_ms=None, max_samples=5)
    player.act(view_of(HAND, **CHOICE), random.Random(1))  # type: ignore[arg-type]
    assert player.last_samples == 5


def test_time_budget_stops_the_search() -> None:
    player = SearchPlayer(budget_ms=30, max_samples=10_000)
    start = time.perf_counter()
    player.act(view_of(HAND, **CHOICE), random.Random(1))  # type: ignore[arg-type]
    spent = time.perf_counter() - start
    assert 1 <= player.last_samples < 10_000
    assert spent < 5.0  # generous: the budget is 30 ms; only a runaway search fails this


def test_no_search_without_a_choice() -> None:
    player = SearchPlayer(budget_ms=None, max_samples=5)
    player.act(view_of("9d", **CHOICE), random.Random(1))  # type: ignore[arg-type]
    assert player.last_samples == 0
    assert player.last_search == ()


def test_the_search_keeps_each_candidate_s_mean_and_the_choice_is_one() -> None:
    player = SearchPlayer(budget_ms=None, max_samples=5)
    action = player.act(view_of(HAND, **CHOICE), random.Random(1))  # type: ignore[arg-type]
    assert len(player.last_search) >= 2
    combos = [c for c, _ in player.last_search]
    assert None in combos  # the pass
    chosen = None if not hasattr(action, "cards") else action.cards
    assert chosen in [None if c is None else c.cards for c in combos]
    assert all(isinstance(m, float) for _, m in player.last_search)


def test_game_at_rebuilds_the_position() -> None:
    game = run(position(["MAHJONG 3c 9c Kd", "4c Tc", "5c", "6c"]), "0 play 3c", "1 play 4c")
    view = game.view(None)
    built = game_at(game.view(0), [list(h) for h in game.hands])
    for seat in range(4):
        mine, theirs = built.view(seat), game.view(seat)
        assert mine.hand == theirs.hand and mine.trick == theirs.trick
        assert mine.turn == theirs.turn and mine.hand_counts == theirs.hand_counts
    assert built.view(None).trick_points == view.trick_points
    assert rollout(built, 0) in range(-600, 601)
    assert built.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)


def test_rollout_scores_match_the_engine() -> None:
    # A rollout ends the deal in the engine itself: its score is the engine's.
    game = TichuGame(seed=3)
    from engine.tichu.ai.normal import NormalPlayer
    from engine.tichu.ai.selfplay import play_deal

    rng = random.Random(0)
    normal = NormalPlayer()
    while game.phase is not Phase.PLAY:
        for s in range(4):
            action = normal.act(game.view(s), rng)
            if action is not None:
                game.apply(action)
                break
    built = game_at(game.view(0), [list(h) for h in game.hands])
    diff = rollout(built, 1)
    result = built.history[-1].scores
    assert diff == result[1] - result[0]
    play_deal(game, [normal] * 4, rng)


def test_first_out_chance_is_a_share_of_capped_samples() -> None:
    from engine.tichu.ai.knowledge import knowledge_of

    player = SearchPlayer(budget_ms=None, max_samples=6)
    view = view_of("DRAGON Ac Ad Kc Kd Qh Jh Th 9s 8c 3d 3h 2c 2s", has_played=(False,) * 4)
    chance = player.first_out_chance(view, knowledge_of(view), random.Random(3))
    assert player.last_samples == 6
    assert chance in {i / 6 for i in range(7)}
