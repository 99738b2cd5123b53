"""The evaluator's bench on a tiny run: both estimates, against the real outcomes."""

from __future__ import annotations

import pytest

from tools import bench_evaluator as bench


def test_positions_carry_the_deal_outcome_of_their_seat() -> None:
    found = bench.positions(2, 3, "t")
    assert found
    for p in found:
        assert p.view.turn == p.view.seat and p.outcome % 5 == 0


def test_the_tiny_bench_prints_both_estimates(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--deals", "2", "--samples", "2", "--every", "5"])
    printed = capsys.readouterr().out
    assert "model     RMSE against the outcome" in printed
    assert "play-outs RMSE against the outcome" in printed and "the two apart" in printed
