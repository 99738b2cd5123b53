"""tools.versus_tricks on tiny runs (issue 54): every deal is played in each arrangement
of the two sides with both present, the recorded actions replay to the reported
scores, identical deterministic players tie every deal, a run repeats exactly for any
job count, and the report gives the figures. This tree plays both sides (no worktree
made); the levels are the fast ones."""

from __future__ import annotations

import re

import pytest

from engine.chinois.game import ChinoisGame
from engine.tysiacha.game import TysiachaGame
from tools import versus_tricks
from tools.versus import ROOT
from tools.versus_tricks import DealPlayed, arrangements, play_deals


def played(game: str, deals: int, level: str = "normal", vs: str = "easy",
           jobs: int = 1) -> list[DealPlayed]:
    return list(play_deals(deals, game=game, level=level, vs=vs, tree=ROOT, seed="test",
                           jobs=jobs))


def test_the_arrangements() -> None:
    assert arrangements(3) == [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    assert len(arrangements(4)) == 14
    for seats in (3, 4):  # every seat is each side's equally often: the cards cancel
        for seat in range(seats):
            column = [a[seat] for a in arrangements(seats)]
            assert column.count(0) == column.count(1)


@pytest.mark.parametrize("game", ["tysiacha", "chinois"])
def test_the_recorded_actions_replay_to_the_reported_scores(game: str) -> None:
    results = played(game, 2)
    assert [r.k for r in results] == [0, 1]
    for result in results:
        assert [s.sides for s in result.seatings] == arrangements(len(result.seatings[0].sides))
        for seating in result.seatings:
            fresh = versus_tricks.GAMES[game]().new("test", result.k)
            assert isinstance(fresh, (TysiachaGame, ChinoisGame))
            assert fresh.deal == seating.game.deal  # the same cards in every arrangement
            for action in seating.game.actions:
                fresh.apply(action)  # checked by the engine: every action was legal
            assert fresh.history[-1].scores == seating.game.history[-1].scores
            # both sides decided, each on its own seats (the other side in the child)
            seats = {action.seat for action in fresh.actions}
            assert {seating.sides[s] for s in seats} == {0, 1}
            assert seating.decision_ms[0] and seating.decision_ms[1]
            assert all(ms >= 0 for side in seating.decision_ms for ms in side)
        assert result.value == pytest.approx(
            sum(s.margin for s in result.seatings) / len(result.seatings))


def test_identical_deterministic_players_tie_every_deal() -> None:
    for result in played("tysiacha", 3, level="normal", vs="normal"):
        assert result.value == 0


def test_a_run_repeats_exactly_for_any_job_count() -> None:
    def record(results: list[DealPlayed]) -> list[tuple[float, list[list[object]]]]:
        return [(r.value, [list(s.game.actions) for s in r.seatings]) for r in results]

    once = record(played("tysiacha", 3))
    assert once == record(played("tysiacha", 3))
    assert once == record(played("tysiacha", 3, jobs=2))


def test_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    def figures() -> str:
        versus_tricks.main(["--game", "tysiacha", "--level", "normal", "--vs", "easy",
                            "--deals", "2", "--seed", "test", "--quiet"])
        return re.sub(r"in [\d.]+ s wall|decision p50 .*", "", capsys.readouterr().out)

    out = figures()
    assert out == figures()
    lines = out.splitlines()
    assert lines[0].startswith("normal (this tree) v easy (this tree), tysiacha: 2 duplicate "
                               "deals (6 seatings each)")
    assert re.match(r"  normal \(this tree\) over easy \(this tree\): [+-]\d+\.\d points a "
                    r"deal \(95% CI [+-]\d+\.\d to [+-]\d+\.\d\)$", lines[1])
    assert re.match(r"  deals won \d, tied \d, lost \d$", lines[2])
    for line in lines[3:5]:
        assert re.search(r"points a seat a deal  contracts \d+: made \d+, failed \d+, "
                         r"conceded \d+", line)


def test_a_commit_that_is_not_there_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        versus_tricks.main(["--against", "no-such-commit-xyz", "--deals", "1"])
    assert stop.value.code == 2
    assert "no commit 'no-such-commit-xyz'" in capsys.readouterr().err
