"""The duplicate bench's helpers (issue 24, point 5): a tiny field played for its CPU
figure, the order of the conditions, percentiles and the verdict, the probes. Nothing
here is timed: figures are printed by the bench, never asserted."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from engine.duplicate.boards import daily_boards
from engine.duplicate.play import play_field_table
from tools import bench_duplicate as bench
from tools.bench_bot import LiveRun

DAY = date(2026, 1, 1)


def test_a_tiny_field_gives_each_table_s_cpu_and_the_boards_own_diffs() -> None:
    cost = bench.field_cost(1, tables=2, jobs=1, day=DAY)
    assert len(cost.tables) == 1 and len(cost.tables[0]) == 2
    assert all(seconds >= 0 for seconds in cost.per_table)
    assert cost.per_board == [sum(cost.tables[0])]
    board = daily_boards(DAY, 1, seed=DAY.isoformat())[0]
    # The same play as the bot's field table (table index i is table seed i + 1).
    assert cost.diffs == [[play_field_table(board, "hard", str(i + 1)).diff(0)
                           for i in range(2)]]
    lines = bench.cost_lines(cost, 1)
    assert lines[0].startswith("1 boards × 2 hard tables, 1 processes")
    assert any(line.startswith("one board's field: ") for line in lines)
    assert any(line.startswith("one table: ") for line in lines)


def test_the_conditions_take_turns_abba() -> None:
    w, f = bench.WITHOUT, bench.WITH
    assert bench.order(1) == [w, f]
    assert bench.order(2) == [w, f, f, w]
    assert bench.order(3) == [w, f, f, w, w, f]
    assert bench.order(0) == []


def test_only_the_condition_with_fields_has_field_tables() -> None:
    assert bench.SETTINGS[bench.WITHOUT]["FIELD_TABLES"] == "0"
    assert int(bench.SETTINGS[bench.WITH]["FIELD_TABLES"]) == bench.FIELD_TABLES == 8
    # The same sweep in both: Duplicate.prepare runs in both, and plays fields in one.
    assert (bench.SETTINGS[bench.WITHOUT]["SWEEP_INTERVAL"]
            == bench.SETTINGS[bench.WITH]["SWEEP_INTERVAL"])


def test_percentiles_in_milliseconds_and_the_verdict() -> None:
    values = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    p = bench.percentiles(values)
    assert (p.count, p.p50, p.p90, p.p99) == (100, pytest.approx(51), pytest.approx(90),
                                               pytest.approx(99))
    assert bench.percentiles([]) == bench.Percentiles(0, 0.0, 0.0, 0.0)
    assert bench.verdict(10.0, 11.0) == (pytest.approx(1.1), True)
    assert bench.verdict(10.0, 11.5) == (pytest.approx(1.15), False)
    assert bench.verdict(10.0, 8.0) == (pytest.approx(0.8), True)
    assert bench.verdict(0.0, 1.0) == (float("inf"), False)


def run(clicks_ms: list[float]) -> LiveRun:
    clicks = [c / 1000 for c in clicks_ms]
    return LiveRun(tables=1, decisions=1, delay=0.0, answered=len(clicks), elapsed=1.0,
                   latencies=clicks, clicks=clicks, stats={}, rss_before=0.0, rss_after=0.0,
                   actions=0)


def test_live_lines_pool_the_runs_of_each_condition() -> None:
    runs = {bench.WITHOUT: [run([1.0] * 99 + [10.0]), run([1.0] * 100)],
            bench.WITH: [run([1.0] * 98 + [10.5] * 2), run([1.0] * 98 + [10.5] * 2)]}
    lines = bench.live_lines(runs)
    assert lines[0].startswith("without fields: p50 1.0 ms") and "over 200" in lines[0]
    assert "(per run p99 1.0–1.0 ms)" in lines[0]
    assert lines[1].startswith("with fields: ") and "p99 10.5 ms" in lines[1]
    assert lines[2] == "p99 with fields / without: 10.50 (NOT within 10%)"


def test_the_probe_counts_the_stored_fields(tmp_path: Path) -> None:
    path = tmp_path / "bench.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE dup_fields (board TEXT, idx INTEGER, diff INTEGER, "
                   "replay TEXT)")
        db.executemany("INSERT INTO dup_fields VALUES (?, ?, 0, '{}')",
                       [("a", 0), ("a", 1), ("b", 0)])
    probe = bench.FieldProbe(expect_background=False)
    probe.database(path)
    assert probe.fields_stored == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux /proc")
def test_background_processes_are_the_children_at_nice_19() -> None:
    code = f"import os, sys; os.nice({bench.BACKGROUND_NICE}); print('ok', flush=True); " \
           "sys.stdin.read()"
    low = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    normal = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                              stdin=subprocess.PIPE)
    try:
        assert low.stdout is not None and low.stdout.readline() == "ok\n"
        found = [p.pid for p in bench.background_processes(os.getpid())]
        assert low.pid in found and normal.pid not in found
        assert bench.cpu_seconds(bench.background_processes(os.getpid())) >= 0
    finally:
        for process in (low, normal):
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=10)


def test_the_tiny_bench_runs_from_its_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--boards", "1", "--field-tables", "1", "--jobs", "1",
                "--skip-live"])
    printed = capsys.readouterr().out
    assert "1 boards × 1 hard tables, 1 processes" in printed
    assert "one board's field: " in printed and "load average" in printed
