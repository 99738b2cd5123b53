"""``python -m tools.review_quality``: its blunders are made as described, and it prints
its three figures (run here on one tiny case, with few samples)."""

from __future__ import annotations

from engine.tichu.replay import replay
from tools.review_quality import make_case, run


def test_a_dragon_case_gives_the_dragon_to_an_opponent() -> None:
    case = make_case("dragon", 0, "t", hard_samples=2)
    assert case is not None
    action = case.replay["deals"][0]["actions"][case.index]
    assert action["do"] == "exchange" and action["seat"] == case.seat
    to = next(int(t) for t, c in action["give"].items() if c == "DRAGON")
    assert to % 2 != case.seat % 2
    assert replay(case.replay)["ok"]


def test_the_tool_prints_the_three_figures() -> None:
    text = run(per_kind=1, hard_deals=1, samples=2, hard_samples=2, seed="t", jobs=1,
               kinds=("grand",))
    assert "1. blunders ranked first" in text and "grand" in text
    assert "2. hard v hard" in text and "3. CPU seconds" in text
