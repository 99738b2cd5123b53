"""tools.calibrate_tysiacha on a few deals (issue 54): the soloist's estimate is the one
its decision came from, the truth is the score sheet's of the deal played on, the run is
the same for any job count, and the report gives both side by side."""

from __future__ import annotations

import random

import pytest

from engine.tysiacha.ai import HardPlayer
from tools import calibrate_tysiacha
from tools.calibrate_tysiacha import Prikup


def test_a_deal_s_estimate_and_truth() -> None:
    found = [p for k in range(12) if (p := calibrate_tysiacha.one_deal(k, samples=8))]
    assert len(found) >= 10
    for p in found:
        assert p.held >= 100 and p.chosen >= p.held and 0 <= p.points <= 120 + 100 + 80
        # At a game's first deal the soloist's value is +-the contract less the mean of
        # the defenders' points, or (had it conceded, which the truth never does) -60.
        assert abs(p.truth) <= p.held + 120
        assert -400 < p.estimate < 400
    assert any(p.conceded for p in found) and any(not p.conceded for p in found)


def test_the_estimate_is_the_one_the_soloist_decides_by() -> None:
    p = calibrate_tysiacha.one_deal(1, samples=8)
    assert p is not None
    player = HardPlayer(budget_ms=None, samples=8)
    game = calibrate_tysiacha.bid(1, player, random.Random(1))
    assert game.soloist is not None
    view = game.view(game.soloist)
    gifts, chosen, conceded = player.prikup_plan(view)
    assert (chosen, conceded) == (p.chosen, p.conceded)
    sums, n = player.prikup_values(view)
    assert p.estimate == pytest.approx(max(v for (g, b), v in sums.items()
                                           if tuple(sorted(g)) == gifts and b == p.held) / n)


def test_any_job_count_and_the_report() -> None:
    one = calibrate_tysiacha.run(4, first=3, samples=4)
    assert one == calibrate_tysiacha.run(4, first=3, samples=4, jobs=2)
    text = calibrate_tysiacha.report(one)
    assert text.splitlines()[1].split()[:2] == ["all", str(len(one))]
    assert "estimate" in text and "truth" in text
    rows = [Prikup(0, 100, 100, False, 50.0, 20.0, 110),
            Prikup(1, 100, 120, False, 90.0, 100.0, 130),
            Prikup(2, 100, 100, True, -150.0, -140.0, 40)]
    text = calibrate_tysiacha.report(rows)
    assert "  all                        3  estimate    -3.3  truth    -6.7  conceded    1" \
        in text.splitlines()
    assert "+40 to +80" in text and "+80 to +120" in text and "-160 to -120" in text
    assert "raises 1: the points played at the contract held reach the raised contract in " \
        "1 (100%)" in text
    assert calibrate_tysiacha.report([]) == "no prikup was seen"


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        calibrate_tysiacha.main(["--deals", "0"])
    assert exit_.value.code == 2 and "at least 1" in capsys.readouterr().err
