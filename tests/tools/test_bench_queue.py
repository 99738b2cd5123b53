"""tools.bench_queue at a tiny size: eight people queue at once on PostgreSQL with two
bot processes and are all seated at two tables in their DMs; the table it prints has its
columns. Nothing here is timed: the bench prints its figures, never asserts them."""

from __future__ import annotations

import re

import pytest

from tools import bench_queue
from tools.bench_shards import postgres


async def test_eight_people_are_seated_at_two_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    with postgres("test-bench-queue-") as pg:
        figures = await bench_queue.run(8, pg=pg, mix="one", accept=(0.1, 0.5), wave=1.0,
                                        timeout=120.0)
    assert figures.seated == 8 and len(figures.waits) == 8
    assert figures.tables == 2 and figures.checks == 2 and not figures.left
    assert not figures.refused and not figures.accept_refused
    assert figures.dms == 3.0  # the greeting, the ready check, the table's panel
    bench_queue.report([figures], mix="one", wave=1.0, accept=(0.1, 0.5), processes=2)
    out = capsys.readouterr().out
    assert "join → seated table" in out and "p50 / p95 / p99 / max" in out
    row = next(line for line in out.splitlines() if re.match(r"\s+8\s+8\s", line))
    assert len(row.split()) == 24  # people, seated, 4 x 4 times, tables … load
