"""tools.versus on tiny runs (issue 39): the other side's child plays legal actions that
replay to the reported scores, a run repeats exactly for any job count, and a
commit or tree that is not there is refused plainly. This tree plays both sides
here (no worktree made); the levels are the fast ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.tichu.game import TichuGame
from tools import versus
from tools.versus import PairResult, Remote, deal_seed, play_pairs


def played(pairs: int, players: int = 4, jobs: int = 1) -> list[PairResult]:
    return list(play_pairs(pairs, level="normal", vs="easy", tree=versus.ROOT, seed="test",
                           players=players, jobs=jobs))


def record(results: list[PairResult]) -> list[tuple[float, list[list[object]]]]:
    return [(r.value, [list(s.game.actions) for s in r.seatings]) for r in results]


@pytest.mark.parametrize("players", [4, 6])
def test_the_recorded_actions_replay_to_the_reported_scores(players: int) -> None:
    results = played(2, players)
    assert [r.k for r in results] == [0, 1]
    for result in results:
        margins = []
        for swap, seating in zip((False, True), result.seatings, strict=True):
            assert seating.current_team == int(swap)
            game = TichuGame(seed=deal_seed("test", result.k), players=players)
            assert [tuple(h) for h in game.dealt] == list(seating.game.dealt)  # same cards
            for action in seating.game.actions:
                game.apply(action)  # checked by the engine: every action was legal
            scores = game.history[-1].scores
            assert len(game.history) == 1 and scores == seating.game.history[-1].scores
            margins.append(scores[seating.current_team] - scores[1 - seating.current_team])
            # both sides decided, each on its own seats (the other side in the child)
            teams = {action.seat % 2 for action in game.actions}
            assert teams == {0, 1}
            assert all(ms >= 0 for side in seating.decision_ms for ms in side)
            assert seating.decision_ms[0] and seating.decision_ms[1]
        assert result.value == sum(margins) / 2


def test_two_identical_players_play_each_pair_twice_alike() -> None:
    # Each team's random generator is the pair's and the team's, whichever side plays
    # it: the same random player on both sides deals the same game twice, value 0.
    results = list(play_pairs(3, level="easy", vs="easy", tree=versus.ROOT, seed="test"))
    for result in results:
        first, second = result.seatings
        assert first.game.actions == second.game.actions and result.value == 0


def test_a_run_repeats_exactly_for_any_job_count() -> None:
    once = record(played(3))
    assert once == record(played(3))
    assert once == record(played(3, jobs=2))


def test_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    def figures() -> str:
        versus.main(["--level", "normal", "--vs", "easy", "--pairs", "2", "--seed", "test",
                     "--quiet"])
        out = capsys.readouterr().out
        # everything but the times
        return re.sub(r"in [\d.]+ s wall|decision p50 .*", "", out)

    out = figures()
    assert out == figures()
    lines = out.splitlines()
    assert lines[0].startswith("normal (this tree) v easy (this tree), 4 players: 2 pairs (4 deals)")
    assert re.match(r"  normal \(this tree\) over easy \(this tree\): [+-]\d+\.\d points a deal "
                    r"\(95% CI [+-]\d+\.\d to [+-]\d+\.\d\)$", lines[1])
    assert re.match(r"  pairs won \d, tied \d, lost \d: \d+\.\d% won \(ties half\)$", lines[2])
    assert "Tichu made" in lines[3] and "double victories" in lines[4]


def test_an_unknown_commit_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        versus.main(["--against", "no-such-commit-39", "--pairs", "1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("versus: no commit 'no-such-commit-39'")


def test_against_alone_means_the_reference_and_left_out_this_tree() -> None:
    assert versus.parser().parse_args(["--against"]).against == versus.REFERENCE
    assert versus.parser().parse_args([]).against is None
    assert re.fullmatch(r"[0-9a-f]{40}", versus.resolve("HEAD"))


def test_the_child_refuses_a_tree_whose_engine_it_did_not_import(tmp_path: Path) -> None:
    # No engine in tmp_path: the child finds the installed one, which is not that tree's.
    with pytest.raises(RuntimeError, match="not the one of"):
        Remote(tmp_path)


def test_the_points_a_call_won_or_lost() -> None:
    assert versus.per_call(3, 4, 100) == " (+50 a call)"
    assert versus.per_call(1, 4, 200) == " (-100 a call)"
    assert versus.per_call(0, 0, 100) == ""
