"""Duplicate Tichu's computer field: what one board's field costs, and what computing
fields does to the live tables (issue 24, point 5).

1. **CPU per board.** The fields of ``--boards`` daily boards (8 hard tables each: the
   bot's defaults), each table played by
   :func:`bot.games.tichu.duplicate.field_table` in a child process, as the bot's background
   process plays it. The CPU time of each table is taken in its process
   (``time.process_time`` around the call, imports and start-up left out); the children's
   whole CPU (``RUSAGE_CHILDREN``, start-up included) is printed beside it.
2. **Live tables while fields are computed.** ``--tables`` live tables through the local
   Discord (:func:`tools.bench_bot.live_run`: the real bot process, people acting from
   their panels), in two conditions taken in turns (ABBA, ``--rounds`` of each), so that
   the machine's other load falls on both:

   * *without fields*: ``FIELD_TABLES=0`` (no field is computed, none is stored);
   * *with fields*: the bot's defaults (8 tables a board, ``FIELD_PROCESSES=1``) and
     ``DAILY_BOARDS=12``, so that the fields of the day are more work (about ten
     CPU-minutes) than the measured window lasts.

   Both conditions run with ``SWEEP_INTERVAL=1``: the bot's own sweep calls
   ``Duplicate.prepare`` for today a second after start, which queues every board's field on
   the bot's own background pool (``bot.workers.start_background``, nice 19), whose
   results the bot stores (``save_field``) as each board completes. Nothing is played
   on the bot's behalf: its scheduling, its process, its priority, its store writes. The
   background process's CPU during the window is read from ``/proc`` (psutil) to show it
   was busy all along, and the fields stored are counted at the end.

   Printed: click-to-response p50, p90 and p99 (clicks and menus of the window) per
   round and pooled per condition, and the ratio of the pooled p99s against the bound
   (with fields at most 10% above without).

Run ``python -m tools.bench_duplicate`` (in ``make bench``); ``--skip-live`` or
``--skip-cost`` runs one part. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sqlite3
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import psutil

from bot.games.tichu.duplicate import field_table
from bot.workers import BACKGROUND_NICE
from engine.duplicate.boards import daily_boards
from tools.bench_bot import LiveRun, live_run, percentile

BOARDS = 2
FIELD_TABLES = 8
"""The bot's default (``FIELD_TABLES``)."""
BOUND = 1.10
"""The p99 with fields may be at most this many times the p99 without."""
WITHOUT, WITH = "without fields", "with fields"
SWEEP = "1"
"""The bot's ``SWEEP_INTERVAL`` in both conditions: ``Duplicate.prepare`` a second after start."""
SETTINGS: dict[str, dict[str, str]] = {
    WITHOUT: {"SWEEP_INTERVAL": SWEEP, "FIELD_TABLES": "0"},
    WITH: {"SWEEP_INTERVAL": SWEEP, "FIELD_TABLES": str(FIELD_TABLES), "FIELD_PROCESSES": "1",
           "DAILY_BOARDS": "12"},
}


# ------------------------------------------------------------------ 1. CPU per board
def timed_table(board: dict[str, Any], index: int) -> tuple[float, int]:
    """In a child process: one field table, as the bot plays it; its CPU seconds (this
    process, the call only) and its direction-0 difference."""
    start = time.process_time()
    played = field_table(board, index)
    return time.process_time() - start, int(played["diff"])


@dataclass
class FieldCost:
    """CPU seconds of each table, by board."""

    tables: list[list[float]]
    """``tables[b][i]``: board ``b``'s table ``i``."""
    diffs: list[list[int]]
    children_cpu: float
    """Every child's CPU, start-up and imports included."""
    wall: float

    @property
    def per_board(self) -> list[float]:
        return [sum(board) for board in self.tables]

    @property
    def per_table(self) -> list[float]:
        return [t for board in self.tables for t in board]


def field_cost(boards: int, tables: int = FIELD_TABLES, jobs: int = 2,
               day: date | None = None) -> FieldCost:
    """Play the fields of the first ``boards`` daily boards of ``day`` (default: today)
    in ``jobs`` child processes: the boards dealt from the date alone, as before issue 51,
    so the figures compare with the earlier ones (a board dealt from a secret costs the
    same)."""
    day = day or datetime.now(UTC).date()
    chosen = daily_boards(day, boards, seed=day.isoformat())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = [[pool.submit(timed_table, b.to_json(), i) for i in range(tables)]
                   for b in chosen]
        done = [[f.result() for f in board] for board in futures]
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return FieldCost(tables=[[cpu for cpu, _ in board] for board in done],
                     diffs=[[diff for _, diff in board] for board in done],
                     children_cpu=children, wall=wall)


def cost_lines(cost: FieldCost, jobs: int) -> list[str]:
    """The printed figures of :func:`field_cost`."""
    boards, tables = cost.per_board, cost.per_table
    per = len(cost.tables[0]) if cost.tables else 0
    lines = [f"{len(boards)} boards × {per} hard tables, {jobs} processes, "
             f"{cost.wall:.0f} s wall"]
    if boards:
        lines.append(f"one board's field: {statistics.median(boards):.1f} CPU s median "
                     f"({min(boards):.1f}–{max(boards):.1f}; each: "
                     f"{', '.join(f'{b:.1f}' for b in boards)})")
        lines.append(f"one table: {statistics.median(tables):.2f} CPU s median "
                     f"({min(tables):.2f}–{max(tables):.2f})")
        lines.append(f"children's CPU with start-up and imports: {cost.children_cpu:.1f} s "
                     f"({cost.children_cpu - sum(boards):+.1f} s beside the tables)")
    return lines


# ------------------------------------------------------- 2. live tables, with fields
def background_processes(pid: int) -> list[psutil.Process]:
    """The bot's children at the background priority."""
    found = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if child.nice() == BACKGROUND_NICE:
                found.append(child)
        except psutil.Error:
            continue
    return found


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


@dataclass
class FieldProbe:
    """Around the window: the background processes' CPU; after: the fields stored."""

    expect_background: bool
    background_cpu: float = 0.0
    window: float = 0.0
    fields_stored: int = 0
    _processes: list[psutil.Process] = field(default_factory=list)
    _cpu: float = 0.0
    _start: float = 0.0

    other_cpu: float = 0.0
    """CPU seconds of the machine's other processes during the window (not this bench,
    not the bot and its processes)."""
    steal: float = 0.0
    """CPU seconds the hypervisor gave to other machines while ours wanted them."""
    _system: Any = None
    _ours: float = 0.0

    def _our_cpu(self, pid: int) -> float:
        bot = psutil.Process(pid)
        return cpu_seconds([psutil.Process(), bot, *bot.children(recursive=True)])

    async def window_start(self, pid: int) -> None:
        self._system = psutil.cpu_times()
        self._ours = self._our_cpu(pid)
        if self.expect_background:
            deadline = time.monotonic() + 60
            while not (found := background_processes(pid)):
                if time.monotonic() > deadline:
                    raise RuntimeError("the bot started no background process")
                await asyncio.sleep(0.2)
            self._processes = found
        self._cpu = cpu_seconds(self._processes)
        self._start = time.perf_counter()

    def window_end(self, pid: int) -> None:
        self.window = time.perf_counter() - self._start
        self.background_cpu = cpu_seconds(self._processes) - self._cpu
        system = psutil.cpu_times()
        busy = sum(getattr(system, k) - getattr(self._system, k)
                   for k in ("user", "nice", "system", "irq", "softirq"))
        self.other_cpu = max(0.0, busy - (self._our_cpu(pid) - self._ours))
        self.steal = system.steal - self._system.steal

    def database(self, path: Path) -> None:
        with sqlite3.connect(path) as db:
            self.fields_stored = db.execute(
                "SELECT count(DISTINCT board) FROM dup_fields").fetchone()[0]


def order(rounds: int) -> list[str]:
    """The conditions in turn, ABBA: without, with, with, without, without, with…"""
    pairs = [(WITHOUT, WITH), (WITH, WITHOUT)]
    return [c for r in range(rounds) for c in pairs[r % 2]]


@dataclass(frozen=True)
class Percentiles:
    count: int
    p50: float
    p90: float
    p99: float
    """Milliseconds."""


def percentiles(latencies: list[float]) -> Percentiles:
    """p50, p90 and p99 in milliseconds of latencies in seconds (nearest rank)."""
    return Percentiles(len(latencies), *(percentile(latencies, q) * 1000
                                         for q in (0.5, 0.9, 0.99)))


def verdict(without: float, with_fields: float, bound: float = BOUND) -> tuple[float, bool]:
    """The ratio of the p99s and whether it is within the bound."""
    ratio = with_fields / without if without > 0 else float("inf")
    return ratio, ratio <= bound


def pct_text(p: Percentiles) -> str:
    return f"p50 {p.p50:.1f} ms, p90 {p.p90:.1f} ms, p99 {p.p99:.1f} ms over {p.count}"


def load_text() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


async def live(rounds: int, tables: int, decisions: int, delay: float) -> dict[str, list[LiveRun]]:
    runs: dict[str, list[LiveRun]] = {WITHOUT: [], WITH: []}
    for number, condition in enumerate(order(rounds), 1):
        probe = FieldProbe(expect_background=condition == WITH)
        run = await live_run(tables, decisions, delay, SETTINGS[condition], probe)
        runs[condition].append(run)
        busy = probe.background_cpu / probe.window if probe.window else 0.0
        extra = (f"; background CPU {probe.background_cpu:.0f} s in {probe.window:.0f} s "
                 f"({busy:.0%} of a core), {probe.fields_stored} board fields stored"
                 if condition == WITH else "")
        print(f"  run {number} {condition}: clicks {pct_text(percentiles(run.clicks))}"
              f"{extra}; other processes {probe.other_cpu / probe.window:.0%} of a core, "
              f"steal {probe.steal / probe.window:.0%}", flush=True)
    return runs


def live_lines(runs: dict[str, list[LiveRun]]) -> list[str]:
    """The pooled figures of both conditions and the verdict."""
    pooled = {c: percentiles([x for run in runs[c] for x in run.clicks]) for c in runs}
    lines = []
    for condition in (WITHOUT, WITH):
        p99s = [percentiles(run.clicks).p99 for run in runs[condition]]
        spread = f" (per run p99 {min(p99s):.1f}–{max(p99s):.1f} ms)" if p99s else ""
        lines.append(f"{condition}: {pct_text(pooled[condition])}{spread}")
    ratio, within = verdict(pooled[WITHOUT].p99, pooled[WITH].p99)
    lines.append(f"p99 with fields / without: {ratio:.2f} "
                 f"({'within' if within else 'NOT within'} {BOUND - 1:.0%})")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_duplicate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=BOARDS,
                        help="boards whose field is played for the CPU figure")
    parser.add_argument("--field-tables", type=int, default=FIELD_TABLES,
                        help="computer tables of each board's field (default: the bot's)")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing the fields")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of each condition, in turns")
    parser.add_argument("--tables", type=int, default=50, help="live tables of a run")
    parser.add_argument("--decisions", type=int, default=8,
                        help="how many pings each person answers per run")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bot")
    parser.add_argument("--skip-cost", action="store_true",
                        help="leave out the CPU of the boards' fields")
    parser.add_argument("--skip-live", action="store_true",
                        help="leave out the live tables while fields are computed")
    args = parser.parse_args(argv)
    print(load_text(), flush=True)
    if not args.skip_cost:
        cost = field_cost(args.boards, args.field_tables, args.jobs)
        for line in cost_lines(cost, args.jobs):
            print(line, flush=True)
    if not args.skip_live and args.rounds > 0:
        print(f"{args.tables} live tables (1 person + 3 computers, AI_DELAY={args.delay}s, "
              f"{args.decisions} decisions each), {args.rounds} runs of each condition:",
              flush=True)
        runs = asyncio.run(live(args.rounds, args.tables, args.decisions, args.delay))
        for line in live_lines(runs):
            print(line)
    print(load_text())


if __name__ == "__main__":
    main()
