"""The coach bench's helpers (issue 25) on tiny settings: decision points in each phase,
a hint and a review timed, the printed lines. Nothing here is timed: figures are
printed by the bench, never asserted."""

from __future__ import annotations

import pytest

from tools import bench_coach as bench


def test_points_take_the_phases_in_turn_and_hints_are_timed() -> None:
    replays = [bench.played("bench-coach", 1, samples=2)]
    chosen = bench.points(replays, 4, "s")
    assert [p.phase for p in chosen] == ["grand", "exchange", "play", "grand"]
    for p in chosen:
        actions = p.cut()["deals"][-1]["actions"]
        assert len(actions) == p.index and p.data["deals"][-1]["actions"][p.index]["seat"] == p.seat
    assert chosen == bench.points(replays, 4, "s")
    costs = bench.hint_costs(chosen[:3])
    assert [c.kind for c in costs][:1] == ["grand"] and all(c.seconds >= 0 for c in costs)
    lines = bench.hint_lines(costs)
    assert lines[0].startswith("one hint, CPU: n ") and "(goal ≤ 0.3 s)" in lines[0]
    assert any(line.startswith("  grand: n 1, median ") for line in lines)


def test_a_review_of_one_deal_is_timed(capsys: pytest.CaptureFixture[str]) -> None:
    data = bench.played("bench-coach", 2, samples=2)
    assert len(data["deals"]) == 2
    seconds = bench.review_costs(1, "s", replays=[data])
    assert len(seconds) == 1 and seconds[0] >= 0
    assert bench.summary("x", [1.0, 3.0, 2.0], "≤ 20 s") == \
        "x: n 3, median 2.000 s, max 3.000 s (goal ≤ 20 s)"
    assert bench.summary("x", []) == "x: none"
    bench.main(["--hints", "0", "--reviews", "0"])
    assert capsys.readouterr().out == ""
