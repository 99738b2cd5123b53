"""The interaction-deadline clock counts the bot's own time, not other processes'."""

from __future__ import annotations

import sys
import time

import pytest

from tests.emulator.clock import LoadClock


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc schedstat")
def test_it_counts_computing_but_not_waiting_for_a_cpu() -> None:
    clock = LoadClock()
    wall0, cpu0, mine0 = time.monotonic(), time.thread_time(), clock()
    while time.thread_time() - cpu0 < 0.05:  # compute for 50 ms of CPU
        pass
    wall, cpu, mine = time.monotonic() - wall0, time.thread_time() - cpu0, clock() - mine0
    # Everything but the wait for a CPU: at least the computing, at most the wall time
    # (give or take the few microseconds between reading the clocks).
    assert cpu - 0.001 <= mine <= wall + 0.001


def test_it_is_plain_monotonic_time_without_schedstat() -> None:
    clock = LoadClock()
    clock._available = False
    before = time.monotonic()
    assert before <= clock() <= time.monotonic()
