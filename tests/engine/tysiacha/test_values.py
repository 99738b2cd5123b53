"""Tysiacha's learned values (issue 54): the feature rows, the shipped model read and
checked (a missing, truncated or foreign file is one sentence naming it), what it
says of strong and weak holdings, and the hard player's bids from it (an option:
they did not beat its playouts' bids)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.mlp import ModelError, to_bytes
from engine.tysiacha import features, values
from engine.tysiacha.actions import Bid, Pass
from engine.tysiacha.ai import HardPlayer
from tests.engine.tysiacha.helpers import position, run


def test_the_feature_row() -> None:
    assert features.INPUTS == len(features.LAYOUT) == len(features.encode([]))
    ten = parse_cards(["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "9c", "Jc", "Kd"])
    row = features.encode(ten)
    assert row[:24].sum() == 10 and row.dtype == np.float32
    at = features.LAYOUT.index
    assert row[at("marriage:2")] == 1 and row[at("marriage:1")] == 0  # hearts, not diamonds
    assert row[at("aces")] == 0.75 and row[at("marriage_points")] == 1.0
    assert row[at("points")] == pytest.approx((3 * 11 + 2 * 10 + 4 + 3 + 0 + 2 + 4) / 100)


def test_the_shipped_model_reads_strong_and_weak_holdings() -> None:
    model = values.values()
    strong, weak = model.outlooks([parse_cards(["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "Td", "Kd", "Qd"]),
                                   parse_cards(["9c", "9d", "Jc", "Jd", "9h", "Jh", "Js", "Qc", "Qs", "Kc"])])
    for outlook in (strong, weak):
        assert (np.diff(outlook.reach) <= 0).all()
        assert ((outlook.reach >= 0) & (outlook.reach <= 1)).all()
    assert strong.chance(200) > 0.5 > weak.chance(100)
    assert strong.chance(100) >= strong.chance(120) and strong.chance(400) == 0.0
    assert model.outlooks([]) == []


@pytest.mark.parametrize("damage", ["missing", "truncated", "other-features", "other-format"])
def test_a_bad_model_file_is_one_sentence_naming_it(tmp_path: Path, damage: str) -> None:
    broken = tmp_path / values.FILE_NAME
    layers = [(np.zeros((3, 2), np.float32), np.zeros(2, np.float32))]
    if damage == "truncated":
        broken.write_bytes(values.path().read_bytes()[:500])
    elif damage == "other-features":
        broken.write_bytes(to_bytes(layers, {}, format=values.FORMAT, features="0" * 16,
                                    inputs=3))
    elif damage == "other-format":
        broken.write_bytes(to_bytes(layers, {}, format="tichu-evaluator", features="x",
                                    inputs=3))
    try:
        values.use_directory(tmp_path)
        with pytest.raises(ModelError) as caught:
            values.check()
    finally:
        values.use_directory(values.SHIPPED)
    message = str(caught.value)
    assert message.startswith(f"The model file {broken}") and message.endswith(".")
    values.check()  # the shipped one again


def test_hard_may_bid_from_the_learned_values() -> None:
    hard = HardPlayer(samples=24, budget_ms=None, learned_bids=True)
    strong = run(position(["", "Ah Th Kh Qh As Ts Ad", ""]), "0 bid 100")
    assert hard.act(strong.view(1), random.Random(0)) == Bid(1, 105)
    weak = run(position(["", "9c 9d Jc Jd 9h Jh Js", ""]), "0 bid 100")
    assert hard.act(weak.view(1), random.Random(0)) == Pass(1)
    # A fair hand goes on against a low bid and stops somewhere below a sure one's.
    stops = []
    for top in range(100, 200, 10):
        game = run(position(["Kd Qd 9h Jd Js Ts 9c", "Ac Tc Kc Qc 9d Jh 9s", ""]),
                   f"0 bid {top}")  # (seat 0's marriage allows bids above 120)
        stops.append(hard.act(game.view(1), random.Random(0)) == Pass(1))
    assert not stops[0] and stops[-1] and stops == sorted(stops)
    # The same view gets the same answer, whatever the random generator given.
    assert hard.act(strong.view(1), random.Random(5)) == Bid(1, 105)


def test_hard_bids_by_its_playouts_unless_told() -> None:
    hard = HardPlayer(samples=8, budget_ms=None)
    assert not hard.learned_bids
    strong = run(position(["", "Ah Th Kh Qh As Ts Ad", ""]), "0 bid 100")
    assert hard.act(strong.view(1), random.Random(0)) == Bid(1, 105)

