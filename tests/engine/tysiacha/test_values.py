"""Tysiacha's learned values (issue 54): the feature rows of the three models, each
shipped model read and checked (a missing, truncated or foreign file is one sentence
naming it), what they say of strong and weak holdings and deals, and the hard player's
bids, gifts and cards from them (options: they did not beat its playouts)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.mlp import ModelError, to_bytes
from engine.tysiacha import features, values
from engine.tysiacha.actions import Bid, Give, Pass, Play
from engine.tysiacha.ai import HardPlayer, _learned_gift, _next_seats, gift_pairs
from engine.tysiacha.legal import legal_cards
from tests.engine.tysiacha.helpers import played_deal, position, run


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


@pytest.mark.parametrize("kind", values.KINDS)
@pytest.mark.parametrize("damage", ["missing", "truncated", "other-features", "other-format"])
def test_a_bad_model_file_is_one_sentence_naming_it(tmp_path: Path, damage: str,
                                                    kind: values.Kind) -> None:
    for other in values.KINDS:  # the others as shipped
        if other != kind:
            (tmp_path / values.file_name(other)).write_bytes(values.path(other).read_bytes())
    broken = tmp_path / values.file_name(kind)
    layers = [(np.zeros((3, 2), np.float32), np.zeros(2, np.float32))]
    if damage == "truncated":
        broken.write_bytes(values.path(kind).read_bytes()[:500])
    elif damage == "other-features":
        broken.write_bytes(to_bytes(layers, {}, format=values.FILES[kind][1],
                                    features="0" * 16, inputs=3))
    elif damage == "other-format":
        broken.write_bytes(to_bytes(layers, {}, format="tichu-evaluator", features="x",
                                    inputs=3))
    read = {"values": values.values, "gifts": values.gift_values, "play": values.play_values}
    try:
        values.use_directory(tmp_path)
        with pytest.raises(ModelError) as caught:
            read[kind]()
        with pytest.raises(ModelError) as at_start:  # the bot reads each at start
            values.check()
    finally:
        values.use_directory(values.SHIPPED)
    assert str(at_start.value) == str(caught.value)
    message = str(caught.value)
    assert message.startswith(f"The model file {broken}") and message.endswith(".")
    values.check()  # the shipped ones again


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


def test_the_gift_feature_row() -> None:
    assert len(features.GIFT_LAYOUT) == features.GIFT_INPUTS
    assert features.GIFT_DIGEST != features.DIGEST
    kept = parse_cards(["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "Kd"])
    to_after, to_other = parse_cards(["Jc", "9c"])
    row = features.encode_gifts(kept, to_after, to_other)
    at = features.GIFT_LAYOUT.index
    assert row.dtype == np.float32 and row.shape == (features.GIFT_INPUTS,)
    assert (row[:features.INPUTS] == features.encode(kept)).all()  # the eight kept, as ten are
    assert row[at("kept:marriage:2")] == 1 and row[:24].sum() == 8
    assert row[at("gift_after:Jc")] == 1 and row[at("gift_other:9c")] == 1
    assert row[at("gift_after:9c")] == 0 and row[at("gift_other:Jc")] == 0
    after, other = features.INPUTS, features.INPUTS + 24
    assert row[after:after + 24].sum() == 1 and row[other:other + 24].sum() == 1
    assert row[at("gift_after_points")] == pytest.approx(0.02)
    assert row[at("gift_other_points")] == 0


def test_the_shipped_gift_model_reads_and_prefers_keeping_points() -> None:
    model = values.gift_values()
    kept = parse_cards(["Ah", "Th", "Kh", "Qh", "As", "Ts", "Ad", "Kd"])
    jc, nine, ah, th = parse_cards(["Jc", "9c", "Ah", "Th"])
    spent = parse_cards(["Jc", "9c", "Kh", "Qh", "As", "Ts", "Ad", "Kd"])
    cheap, dear = model.gift_outlooks([(kept, jc, nine), (spent, ah, th)])
    assert cheap.chance(120) > dear.chance(120)
    assert model.gift_outlooks([]) == []


def test_hard_may_choose_its_gifts_from_the_gift_values() -> None:
    game = run(position(["Ac Tc Kc Qc 9d Jh 9s", "", ""], "Th Js Qd"), "0 bid 100", "1 pass",
               "2 pass")
    view = game.view(0)
    pairs = gift_pairs(view.hand, 1, 2)
    assert len(pairs) == 6 and all(len({x, y}) == 2 for (_, x), (_, y) in pairs)
    learned = HardPlayer(samples=8, budget_ms=None, learned_gifts=True)
    ordered, contract, _ = learned.prikup_plan(view)
    chosen = _learned_gift(view, 0, pairs, _next_seats(view))
    assert ordered == tuple(sorted(chosen)) and chosen in pairs
    assert learned.prikup_plan(view) == (ordered, contract, _)  # deterministic
    action = learned.act(view, random.Random(0))
    if isinstance(action, Give):
        assert action.give == ordered


def test_the_play_feature_row() -> None:
    assert len(features.PLAY_LAYOUT) == features.PLAY_INPUTS
    assert features.PLAY_DIGEST not in (features.DIGEST, features.GIFT_DIGEST)
    hands = [parse_cards(h.split()) for h in ("Ah Th Kh Qh", "9c 9d Jc Jd", "As Ts Ks Qs")]
    row = features.encode_play(hands, 2, 1, [60, 12, 0], [100, 0, 0], [True, True, False])
    at = features.PLAY_LAYOUT.index
    assert row.dtype == np.float32 and row.shape == (features.PLAY_INPUTS,)
    assert row[at("soloist:Ah")] == row[at("after:9c")] == row[at("other:Qs")] == 1
    assert row[at("soloist:9c")] == row[at("after:Ah")] == 0 and row[:72].sum() == 12
    assert row[at("trump:2")] == 1 and row[at("trump:0"):at("trump:3") + 1].sum() == 1
    assert row[at("leads:after")] == 1 and row[at("leads:soloist")] == 0
    assert row[at("points:soloist")] == 0.5 and row[at("points:after")] == pytest.approx(0.1)
    assert row[at("marriages:soloist")] == 1 and row[at("took_trick:other")] == 0
    assert row[at("cards_left")] == 0.5
    assert features.encode_play(hands, None, 0, [0] * 3, [0] * 3,
                                [False] * 3)[at("trump:0"):at("trump:3") + 1].sum() == 0


def test_the_shipped_play_model_tells_a_made_contract_from_a_lost_one() -> None:
    model = values.play_values()
    strong = ["Ah Th Kh Qh As Ts", "9c 9d Jc Jd 9s Js", "Ac Tc Kc Ad Td Kd"]
    weak = [strong[1], strong[0], strong[2]]  # the soloist with the weak cards, leading
    rows = [features.encode_play([parse_cards(h.split()) for h in hands], None, 0,
                                 [10, 0, 4], [0, 0, 0], [True, False, True])
            for hands in (strong, weak)]
    made, lost = model.play_outlooks(np.stack(rows))
    for outlook in (made, lost):
        assert (np.diff(outlook.reach) <= 0).all()
    assert made.chance(100) > 0.5 > lost.chance(100)
    assert model.play_outlooks(np.zeros((0, features.PLAY_INPUTS), np.float32)) == []


def test_hard_may_play_from_the_learned_play_values() -> None:
    hard = HardPlayer(samples=6, budget_ms=None, learned_play=True)
    played = 0
    for seed in range(3):
        rng = random.Random(seed)
        for _, _, view, action in played_deal(f"learned-play:{seed}", rng, hard):
            if isinstance(action, Play):
                assert action.card in legal_cards(view)
                played += 1
            assert hard.act(view, random.Random(9)) == action  # deterministic
    assert played >= 24
