"""The clock of the 3-second interaction deadline, blind to other processes' load.

Discord measures the deadline in wall time, and a bot that is slow by itself
must miss it here too. But in a test the bot and the emulator share one event
loop on a machine that other work may load: while the loop's thread waits for
a CPU, wall time runs on although neither side can do anything, and a good
bot would fail at random. :class:`LoadClock` is monotonic time less the time
the event-loop thread spent runnable but waiting for a CPU (Linux
``/proc/<pid>/task/<tid>/schedstat``, second field); elsewhere it is plain
monotonic time. Sleeping, waiting for I/O and the bot's own computing all
still count.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path


class LoadClock:
    """Seconds of ``time.monotonic()`` less the CPU-queue wait of the thread that made it."""

    def __init__(self) -> None:
        self._stat = Path(f"/proc/self/task/{threading.get_native_id()}/schedstat")
        self._available = self._queued() is not None

    def _queued(self) -> float | None:
        try:
            return int(self._stat.read_text().split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def __call__(self) -> float:
        now = time.monotonic()
        if not self._available:
            return now
        return now - (self._queued() or 0.0)
