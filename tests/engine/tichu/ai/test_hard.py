"""The hard level: the shipped model's choice among the heuristics' candidates, from the
view alone."""

from __future__ import annotations

import random

import numpy as np

from engine.tichu.actions import CallTichu, Pass, Play
from engine.tichu.ai import make_player, model
from engine.tichu.ai.choices import play_choices
from engine.tichu.ai.features import encode_many
from engine.tichu.ai.hard import HardPlayer
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.selfplay import play_game
from tests.engine.tichu.ai.tables import view_of

CHOICE = dict(trick=[(3, "8c")], turn=0, counts=(7, 9, 10, 8))
HAND = "9d Jh Kc 3c 3d 6s 6h"


def test_hard_is_the_learned_player_on_the_shipped_models() -> None:
    player = make_player("hard")
    assert isinstance(player, HardPlayer)
    for n in model.SEAT_COUNTS:
        assert player.model(n) is model.evaluator(n)


def test_it_takes_the_candidate_the_model_values_most() -> None:
    view = view_of(HAND, **CHOICE)  # type: ignore[arg-type]
    player = HardPlayer()
    action = player.act(view, random.Random(1))
    options = play_choices(view, knowledge_of(view))
    values = model.evaluator(4).values(encode_many(view, options.actions, kind="play"))
    assert player.last_values == tuple(float(v) for v in values)
    best = int(np.argmax(values))
    expected = options.actions[best if values[best] > values[options.heuristic] else
                               options.heuristic]
    assert action == expected and isinstance(action, (Play, Pass))


def test_a_decision_depends_on_the_view_alone() -> None:
    view = view_of(HAND, **CHOICE)  # type: ignore[arg-type]
    answers = {HardPlayer().act(view, random.Random(seed)) for seed in range(5)}
    assert len(answers) == 1
    games = [play_game([HardPlayer()] * 4, seed=3, max_deals=2) for _ in range(2)]
    games += [play_game([make_player("hard")] * 4, seed=3, max_deals=2)]
    assert games[0].actions == games[1].actions == games[2].actions


def test_a_tichu_call_is_weighed_before_the_first_card() -> None:
    strong = view_of("DRAGON PHOENIX As Ad Ks Kd Qc Qd Jc Js Tc 9c 8c 7c",
                     turn=0, counts=(14, 14, 14, 14))
    action = HardPlayer().act(strong, random.Random(0))
    assert action == CallTichu(0)
