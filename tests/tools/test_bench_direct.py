"""tools.bench_direct at a tiny size: two tables of four people seated through the queue
in their DMs on shard 0's process, the people clicking on their DM panels; every click
measured gets its panel back, and the table it prints has its columns. Nothing here is
timed: the bench prints its figures, never asserts them."""

from __future__ import annotations

import re

import pytest

from tools import bench_direct
from tools.bench_shards import postgres


async def test_two_dm_tables_play_and_are_measured(
        capsys: pytest.CaptureFixture[str]) -> None:
    with postgres("test-bench-direct-") as pg:
        figures = await bench_direct.run(2, pg=pg, think=(0.2, 0.6), warm=3.0, window=8.0)
    assert figures.people == 8 and figures.seated == 8
    assert figures.decisions > 0 and figures.clicks and not figures.unanswered
    assert not figures.refusals
    # Each measured click's latency, once, under the kind of its custom id (its action).
    assert sorted(v for values in figures.kinds.values() for v in values) == \
        sorted(figures.clicks)
    assert all(kind.isidentifier() for kind in figures.kinds)
    assert 1.0 <= figures.per_deal <= bench_direct.GOAL_PER_DEAL
    bench_direct.report([figures], think=(0.2, 0.6), delay=1.2, processes=2, pace=15.0)
    out = capsys.readouterr().out
    assert "click → panel" in out
    row = next(line for line in out.splitlines() if re.match(r"\s+2\s+\d+\s", line))
    assert len(row.split()) == 15
    assert "click → panel by kind" in out
    for kind, values in figures.kinds.items():
        line = next(line for line in out.splitlines() if line.split()[:1] == [kind])
        assert int(line.split()[1]) == len(values) and len(line.split()) == 7
