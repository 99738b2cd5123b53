"""Time the two images drawn most often: the public table and a seat's hand.

``python -m tools.bench_render [RUNS]`` prints, for each, the median time to
draw *and* encode the PNG over RUNS runs (default 50) after a warm-up (wall
clock, and the thread's CPU time, which other busy processes do not inflate),
and the PNG's size. Targets: table at most 30 ms, hand at most 20 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from bot.render import examples as ex
from bot.render import render_hand, render_table

TARGETS_MS = {"table": 30.0, "hand": 20.0}


def measure(render: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """(median wall ms, median CPU ms, PNG bytes) of ``render`` over ``runs`` runs after
    warm-up. CPU time stays meaningful when other processes load the machine."""
    for _ in range(3):
        data = render()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        data = render()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu), len(data)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    runs = int(args[0]) if args else 50
    table_view = ex.table_view()
    hand_view = ex.hand_view()
    cases: dict[str, Callable[[], bytes]] = {
        "table": lambda: render_table(table_view, ex.NAMES),
        "hand": lambda: render_hand(hand_view, selected=ex.HAND_SELECTED),
    }
    for name, render in cases.items():
        ms, cpu, size = measure(render, runs)
        verdict = "ok" if ms <= TARGETS_MS[name] else "SLOW"
        print(f"{name:6s} {ms:6.1f} ms median over {runs} runs (CPU {cpu:5.1f} ms; "
              f"target {TARGETS_MS[name]:.0f} ms, {verdict})  {size / 1024:6.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
