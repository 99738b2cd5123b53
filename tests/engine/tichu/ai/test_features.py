"""The evaluator's input: what a seat knows, as numbers, and nothing it does not."""

from __future__ import annotations

import random

import numpy as np

from engine.tichu.actions import CallTichu, Pass
from engine.tichu.ai import make_player
from engine.tichu.ai.features import encode, layout, layout_digest, width
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import TichuView
from tests.engine.tichu.ai.tables import view_of


def slot(name: str, n: int = 4) -> int:
    return layout(n).index(name)


def test_the_layout_names_every_slot_once_and_its_digest_tells_the_seat_counts_apart() -> None:
    for n in (4, 6):
        names = layout(n)
        assert len(set(names)) == len(names) == width(n)
    assert layout_digest(4) != layout_digest(6)


def test_a_play_leaves_the_hand_tops_the_trick_and_clears_the_passes() -> None:
    view = view_of("3c 3d 9h Kc", trick=[(3, "8c")], turn=0, counts=(4, 9, 10, 8),
                   passed=(False, True, True, False))
    before = encode(view)
    play = next(c for c in __import__("engine.tichu.legal", fromlist=["x"]).legal_plays(view)
                if c.cards == tuple(view_of("9h").hand))
    after = encode(view, play)
    nine = slot("hand.rank7")  # ranks 2..A are slots 0..12
    assert before[nine] == 0.25 and after[nine] == 0.0
    assert after[slot("top.rank_slot7")] == 0.25
    assert after[slot("top.owner0")] == 1.0 and before[slot("top.owner3")] == 1.0
    assert after[slot("kind.follow")] == 1.0
    assert before[slot("seat1.passed")] == 1.0 and after[slot("seat1.passed")] == 0.0
    assert after[slot("seat0.count3")] == 1.0 and before[slot("seat0.count4")] == 1.0


def test_a_pass_and_a_call_are_written_as_such() -> None:
    view = view_of("3c 3d 9h Kc", trick=[(3, "8c")], turn=0, counts=(4, 9, 10, 8))
    passed = encode(view, Pass(0))
    assert passed[slot("seat0.passed")] == 1.0 and passed[slot("kind.pass")] == 1.0
    called = encode(view, CallTichu(0))
    assert called[slot("seat0.tichu")] == 1.0 and called[slot("call.mine_now")] == 1.0
    not_now = encode(view, None, kind="tichu")
    assert not_now[slot("seat0.tichu")] == 0.0 and not_now[slot("kind.tichu")] == 1.0


def _views(seed: int) -> list[TichuView]:
    game = TichuGame(seed=seed)
    views: list[TichuView] = []

    def observe(g: TichuGame, seat: int, action: object, spent: float) -> None:
        views.append(g.view(0))

    play_deal(game, [make_player("normal")] * 4, random.Random(seed), observe)
    return views


def test_the_vector_holds_only_what_the_seat_may_see() -> None:
    # Two deals where seat 0 holds the same cards and the others hold different ones:
    # seat 0's vectors are equal; and its hand is exactly the hand slots set.
    game = TichuGame(seed=11)
    hands = [list(h) for h in game.hands]
    others = hands[1] + hands[2] + hands[3]
    random.Random(2).shuffle(others)
    shuffled = [hands[0], others[:14], others[14:28], others[28:]]
    twin = TichuGame(hands=shuffled)
    a, b = encode(game.view(0)), encode(twin.view(0))
    assert np.array_equal(a, b)
    assert not np.array_equal(encode(game.view(1)), encode(twin.view(1)))
    ranks = a[slot("hand.rank0"):slot("hand.rank0") + 17]
    assert ranks.sum() * 4 == len(game.view(0).hand) == 8


def test_encoding_is_deterministic_and_finite_over_a_deal() -> None:
    for view in _views(5):
        a, b = encode(view), encode(view)
        assert np.array_equal(a, b) and np.isfinite(a).all()
