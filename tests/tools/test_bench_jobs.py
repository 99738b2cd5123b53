"""tools.bench_jobs reads the bot's Prometheus page (the figures it prints)."""

from __future__ import annotations

from typing import Any

import pytest

from tools import bench_jobs


def test_the_review_figures_come_from_the_bots_page(monkeypatch: pytest.MonkeyPatch) -> None:
    page = {'tichu_jobs_done{kind="review"}': 7.0, 'tichu_jobs_queued{kind="review"}': 2.0,
            'tichu_jobs_running{kind="review"}': 1.0,
            'tichu_jobs_to_done_p50_seconds{kind="review"}': 4.5,
            'tichu_jobs_to_done_p95_seconds{kind="review"}': 30.25,
            'tichu_jobs_done{kind="field"}': 3.0}

    def scrape(port: int = 0) -> dict[str, Any]:
        return page

    monkeypatch.setattr(bench_jobs, "scrape", scrape)
    reviews = bench_jobs.Reviews.read()
    assert (reviews.done, reviews.queued, reviews.running) == (7, 2, 1)
    assert reviews.text() == ("7 reviews stored, 3 waiting; deal end to review stored "
                              "p50 4.5 s, p95 30.2 s")


def test_cores_are_pinned_only_where_they_exist() -> None:
    assert bench_jobs.pinned(10_000) == bench_jobs.os.sched_getaffinity(0)


def test_the_worker_gets_its_own_core_after_the_bench_pinned_itself() -> None:
    """The bench pins itself (and so the bot it starts) to the bot's core first; the
    worker's core is read from the machine's, not from the bench's own affinity (which
    put the worker on the bot's core in the first runs)."""
    cores = bench_jobs.os.sched_getaffinity(0)
    if len(cores) < 2:
        pytest.skip("one core: nothing to pin apart")
    try:
        bench_jobs.os.sched_setaffinity(0, bench_jobs.pinned(bench_jobs.BOT_CORE))
        assert bench_jobs.pinned(bench_jobs.WORKER_CORE) == {bench_jobs.WORKER_CORE}
        assert bench_jobs.pinned(bench_jobs.BOT_CORE) == {bench_jobs.BOT_CORE}
    finally:
        bench_jobs.os.sched_setaffinity(0, cores)
