"""CPU seconds per test, for the suite's budget (a pytest plugin, not loaded by default).

``.venv/bin/python -m pytest -p tests.cpu_time -p no:randomly`` (with or without ``-n 2``) prints
the CPU seconds of the whole suite (setup, call and teardown of every test, in the
process that ran it) and the slowest tests by CPU. The machine is shared, so wall time
says little about what a test costs; CPU time does. ``CPU_TIME_TOP`` sets how many are
listed (15).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

KEY = "cpu_seconds"
_totals: dict[str, float] = {}


def _measure(item: pytest.Item) -> Iterator[None]:
    start = time.process_time()
    yield
    item.user_properties.append((KEY, time.process_time() - start))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    yield from _measure(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    yield from _measure(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    yield from _measure(item)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":  # its properties hold all three phases
        _totals[report.nodeid] = sum(v for k, v in report.user_properties if k == KEY)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not _totals:
        return
    top = int(os.environ.get("CPU_TIME_TOP", "15"))
    write = terminalreporter.write_line
    terminalreporter.section("CPU time")
    write(f"{len(_totals)} tests, {sum(_totals.values()):.1f} CPU seconds in all")
    for nodeid, seconds in sorted(_totals.items(), key=lambda kv: -kv[1])[:top]:
        write(f"{seconds:8.2f}s  {nodeid}")
