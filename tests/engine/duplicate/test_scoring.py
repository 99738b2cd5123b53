"""Duplicate scoring: matchpoints and percentages by hand, the standings' ranks, the
properties every scoring has, and ``python -m engine duplicate`` on good and bad files."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.duplicate.scoring import Result, ResultsFormatError, main, score, score_json
from tests.engine.replay_support import stdin_cli


def r(board: str, direction: int, player: str, diff: int) -> dict[str, Any]:
    return {"board": board, "direction": direction, "player": player, "diff": diff}


def results(*rows: dict[str, Any]) -> list[Result]:
    return [Result(**row) for row in rows]


def cli(data: Any, *, raw: str | None = None) -> tuple[int, str, str]:
    """``python -m engine duplicate -`` on ``data`` (or the ``raw`` text), in process."""
    return stdin_cli(main, data, raw=raw)


SPEC = {"results": [r("b1", 0, "ann", 40), r("b1", 0, "bob", 40), r("b1", 0, "cat", -10),
                    r("b1", 1, "dan", -40), r("b1", 1, "eve", -40), r("b1", 1, "fay", 10),
                    r("b2", 1, "ann", 0)]}
"""The spec's example: ann's 40 on b1 has one lower and one equal diff beside it
(1.5 matchpoints of 2, 75%), and she is alone on b2 (50%): 62.5 over 2 boards."""


def test_the_spec_example() -> None:
    out = score_json(SPEC)
    assert out["results"][0] == {"board": "b1", "direction": 0, "player": "ann", "diff": 40,
                                 "matchpoints": 1.5, "percentage": 75.0}
    assert [(x["matchpoints"], x["percentage"]) for x in out["results"]] == [
        (1.5, 75.0), (1.5, 75.0), (0.0, 0.0), (0.5, 25.0), (0.5, 25.0), (2.0, 100.0),
        (0.0, 50.0)]
    assert out["standings"] == [
        {"rank": 1, "player": "fay", "boards": 1, "score": 100.0},
        {"rank": 2, "player": "bob", "boards": 1, "score": 75.0},
        {"rank": 3, "player": "ann", "boards": 2, "score": 62.5},
        {"rank": 4, "player": "dan", "boards": 1, "score": 25.0},
        {"rank": 4, "player": "eve", "boards": 1, "score": 25.0},
        {"rank": 6, "player": "cat", "boards": 1, "score": 0.0},
    ]


def test_five_results_by_hand() -> None:
    # 100 beats four; each 50 beats two and ties one; -20 beats one; -200 none.
    scored, _ = score(results(r("b", 0, "a", 100), r("b", 0, "b", 50), r("b", 0, "c", 50),
                              r("b", 0, "d", -20), r("b", 0, "e", -200)))
    assert [(s.matchpoints, s.percentage) for s in scored] == [
        (4.0, 100.0), (2.5, 62.5), (2.5, 62.5), (1.0, 25.0), (0.0, 0.0)]


def test_all_equal_is_fifty_percent_each() -> None:
    scored, table = score(results(*(r("b", 1, p, -15) for p in "wxyz")))
    assert {(s.matchpoints, s.percentage) for s in scored} == {(1.5, 50.0)}
    assert [(s.rank, s.player) for s in table] == [(1, "w"), (1, "x"), (1, "y"), (1, "z")]


def test_a_lone_result_scores_fifty() -> None:
    scored, table = score(results(r("b", 0, "solo", 350)))
    assert (scored[0].matchpoints, scored[0].percentage) == (0.0, 50.0)
    assert table[0].score == 50.0 and table[0].rank == 1


def test_directions_and_boards_are_compared_apart() -> None:
    scored, _ = score(results(r("b", 0, "a", 100), r("b", 1, "b", -100), r("c", 0, "c", 20),
                              r("b", 0, "d", 0), r("c", 0, "e", 50)))
    assert [s.percentage for s in scored] == [100.0, 50.0, 0.0, 0.0, 100.0]


def test_results_keep_the_input_order() -> None:
    rows = [r("b", 0, p, d) for p, d in [("z", 5), ("a", 50), ("m", -5), ("b", 50)]]
    out = score_json({"results": rows})
    assert [x["player"] for x in out["results"]] == ["z", "a", "m", "b"]


def test_ranks_are_shared_and_ties_listed_by_name() -> None:
    _, table = score(results(r("b", 0, "zed", 0), r("b", 0, "top", 30), r("b", 0, "amy", 0),
                             r("b", 0, "low", -30)))
    assert [(s.rank, s.player, s.score) for s in table] == [
        (1, "top", 100.0), (2, "amy", 50.0), (2, "zed", 50.0), (4, "low", 0.0)]


def test_equal_means_tie_exactly_though_floats_would_not() -> None:
    # amy: 50% and 33⅓% (mean 41⅔); bo: 2.5 of 6 matchpoints (41⅔). Averaged as
    # floats the two means differ in the last bit; exact fractions tie them.
    rows = [r("p", 0, "amy", 0), r("p", 0, "p1", 0),
            r("q", 0, "amy", 10), r("q", 0, "q1", 0), r("q", 0, "q2", 20), r("q", 0, "q3", 30),
            r("s", 0, "bo", 10), r("s", 0, "s1", 0), r("s", 0, "s2", -5), r("s", 0, "s3", 10),
            r("s", 0, "s4", 20), r("s", 0, "s5", 30), r("s", 0, "s6", 40)]
    _, table = score(results(*rows))
    line = {s.player: s for s in table}
    assert (50.0 + 100 / 3) / 2 != 250 / 6  # the floats alone would split them
    assert line["amy"].rank == line["bo"].rank
    assert line["amy"].score == line["bo"].score == 250 / 6
    names = [s.player for s in table]
    assert names.index("amy") + 1 == names.index("bo")


def test_a_computer_field_is_scored_like_people() -> None:
    rows = results(r("d/1", 0, "ann", 50), r("d/1", 0, "field:1/0", 50),
                   r("d/1", 1, "field:1/1", -50), r("d/1", 0, "field:2/0", -30),
                   r("d/1", 1, "field:2/1", 30))
    scored, _ = score(rows)
    assert [s.percentage for s in scored] == [75.0, 75.0, 0.0, 0.0, 100.0]


@pytest.mark.parametrize("second", [0, 1])
def test_the_same_player_twice_on_a_board_is_an_error(second: int) -> None:
    with pytest.raises(ResultsFormatError, match="already has a result"):
        score(results(r("b", 0, "ann", 0), r("b", second, "ann", 10)))


def test_the_same_player_on_two_boards_is_fine() -> None:
    _, table = score(results(r("b", 0, "ann", 0), r("c", 0, "ann", 10)))
    assert table[0].boards == 2


def test_score_checks_results_built_by_hand() -> None:
    with pytest.raises(ResultsFormatError, match="multiple of 5"):
        score([Result("b", 0, "ann", 7)])
    with pytest.raises(ResultsFormatError, match="direction"):
        score([Result("b", True, "ann", 5)])


def test_empty_results_give_empty_standings() -> None:
    assert score_json({"results": []}) == {"results": [], "standings": []}


def test_a_huge_but_whole_diff_is_scored() -> None:
    # The spec bounds no diff; Python's integers take it exactly.
    code, out, _ = cli({"results": [r("b", 0, "a", 10**100), r("b", 0, "b", 5)]})
    assert code == 0 and json.loads(out)["results"][0]["percentage"] == 100.0


def test_extra_fields_are_ignored() -> None:
    code, out, _ = cli({"event": "x", "results": [{**r("b", 0, "a", 5), "table": 3}]})
    assert code == 0
    assert json.loads(out)["results"] == [{**r("b", 0, "a", 5), "matchpoints": 0.0,
                                           "percentage": 50.0}]


GOOD = r("b", 0, "ann", 40)


def without(key: str) -> dict[str, Any]:
    return {k: v for k, v in GOOD.items() if k != key}


@pytest.mark.parametrize(
    ("data", "raw", "needle"),
    [
        (None, "{not json", "bad JSON"),
        (None, "", "bad JSON"),
        (None, "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (None, '{"results": [{"board": ' + "[" * 100_000 + "]" * 100_000 + "}]}",
         "nested too deeply"),
        (None, '{"results": [{"direction": 0, "player": "a", "diff": 5, "board": '
         + "[" * 500 + "]" * 500 + "}]}", "'board'"),
        (None, '{"results": [{"board": "b", "direction": 0, "player": "a", "diff": '
         + "9" * 5000 + "}]}", "bad JSON"),
        (None, '{"results": [{"board": "b", "direction": 0, "player": "a", "diff": 1e400}]}',
         "'diff'"),
        (None, '{"results": [{"board": "b", "direction": 0, "player": "a", "diff": NaN}]}',
         "'diff'"),
        (None, '{"results": [{"board": "b", "direction": 0, "player": "a", "diff": 4e1}]}',
         "'diff'"),
        ([GOOD], None, "object"),
        ("results", None, "object"),
        (None, "null", "object"),
        (7, None, "object"),
        ({}, None, "no 'results'"),
        ({"results": {"0": GOOD}}, None, "list"),
        ({"results": None}, None, "list"),
        ({"results": [GOOD, [GOOD]]}, None, "result 1"),
        ({"results": [without("board")]}, None, "'board'"),
        ({"results": [without("direction")]}, None, "'direction'"),
        ({"results": [without("player")]}, None, "'player'"),
        ({"results": [without("diff")]}, None, "'diff'"),
        ({"results": [{**GOOD, "board": 1}]}, None, "'board'"),
        ({"results": [{**GOOD, "board": ""}]}, None, "'board'"),
        ({"results": [{**GOOD, "player": None}]}, None, "'player'"),
        ({"results": [{**GOOD, "player": ["ann"]}]}, None, "'player'"),
        ({"results": [{**GOOD, "direction": 2}]}, None, "'direction'"),
        ({"results": [{**GOOD, "direction": -1}]}, None, "'direction'"),
        ({"results": [{**GOOD, "direction": True}]}, None, "'direction'"),
        ({"results": [{**GOOD, "direction": "0"}]}, None, "'direction'"),
        ({"results": [{**GOOD, "direction": 0.0}]}, None, "'direction'"),
        ({"results": [{**GOOD, "direction": 10**80}]}, None, "'direction'"),
        ({"results": [{**GOOD, "diff": 42}]}, None, "multiple of 5"),
        ({"results": [{**GOOD, "diff": -1}]}, None, "multiple of 5"),
        ({"results": [{**GOOD, "diff": 40.0}]}, None, "integer"),
        ({"results": [{**GOOD, "diff": 40.5}]}, None, "integer"),
        ({"results": [{**GOOD, "diff": True}]}, None, "integer"),
        ({"results": [{**GOOD, "diff": False}]}, None, "integer"),
        ({"results": [{**GOOD, "diff": "40"}]}, None, "integer"),
        ({"results": [{**GOOD, "diff": None}]}, None, "integer"),
        ({"results": [GOOD, {**GOOD, "direction": 1, "diff": -40}]}, None, "already"),
        ({"results": [{**GOOD, "player": "a\nb"}, {**GOOD, "player": "a\nb"}]}, None,
         "already"),
        ({"results": [{**GOOD, "player": "x" * 10_000}, {**GOOD, "player": "x" * 10_000}]},
         None, "already"),
    ],
)
def test_malformed_files_exit_2_with_one_line(data: Any, raw: str | None, needle: str) -> None:
    code, out, err = cli(data, raw=raw)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and needle in err, err
    assert len(err) < 300


def test_unreadable_files(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        err = io.StringIO()
        assert main(str(path), io.StringIO(), err) == 2
        assert "cannot read" in err.getvalue() and err.getvalue().count("\n") == 1


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "engine", "duplicate", *args], input=stdin,
                          capture_output=True, check=False)


def test_command_line_scores_a_file(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(SPEC))
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().count("\n") == 1
    assert json.loads(done.stdout) == score_json(SPEC)
    assert json.loads(run_cli("-", stdin=path.read_bytes()).stdout) == score_json(SPEC)


@pytest.mark.parametrize("stdin", [
    b"\xff\xfe not utf-8",
    b'{"results": [{"board": "b", "direction": 0, "player": "a", "diff": 40.0}]}',
    b'{"results": [{"board": "b", "direction": 0, "player": "a", "diff": 40},'
    b' {"board": "b", "direction": 1, "player": "a", "diff": -40}]}',
    b"[" * 200_000,
])
def test_command_line_refuses_in_one_line(stdin: bytes) -> None:
    done = run_cli("-", stdin=stdin)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and done.stderr.startswith(b"error: ")


rows_strategy = st.lists(
    st.tuples(st.sampled_from(["b1", "b2", "b3"]), st.integers(0, 1),
              st.integers(-160, 160).map(lambda k: 5 * k)),
    max_size=40,
)


@settings(max_examples=200)
@given(rows_strategy)
def test_matchpoints_sum_and_percentages_stay_in_range(rows: list[tuple[str, int, int]]) -> None:
    listed = [Result(board, direction, f"p{i}", diff)
              for i, (board, direction, diff) in enumerate(rows)]
    scored, table = score(listed)
    sums: dict[tuple[str, int], float] = defaultdict(float)
    counts: dict[tuple[str, int], int] = defaultdict(int)
    for s in scored:
        key = (s.result.board, s.result.direction)
        sums[key] += s.matchpoints
        counts[key] += 1
        assert 0.0 <= s.percentage <= 100.0
    for key, n in counts.items():
        assert sums[key] == n * (n - 1) / 2
    assert [s.result for s in scored] == listed
    assert len(table) == len(listed)
    assert all(a.score >= b.score for a, b in itertools.pairwise(table))
    ranks = [s.rank for s in table]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)


@settings(max_examples=100)
@given(rows_strategy, st.randoms(use_true_random=False))
def test_the_order_of_results_changes_no_score(rows: list[tuple[str, int, int]],
                                               rnd: Any) -> None:
    listed = [Result(board, direction, f"p{i % 7}{board}", diff)
              for i, (board, direction, diff) in enumerate(rows)]
    if len({(x.board, x.player) for x in listed}) != len(listed):
        return
    shuffled = list(listed)
    rnd.shuffle(shuffled)
    first, table = score(listed)
    second, table2 = score(shuffled)
    assert sorted(first, key=repr) == sorted(second, key=repr)
    assert table == table2
