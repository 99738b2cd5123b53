"""The job queue (issue 40) in a bot process, on its in-memory backend (SQLite's): jobs
taken by priority (a review asked for, reviews made ahead, fields, the next day's
fields), a key queued once at a time, a job that fails for good held as failed and
logged once with its id, a job whose store did not answer tried again, the figures an
operator reads, and the settings that say who runs the jobs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any, cast

import pydantic
import pytest

from bot import jobs as jobs_module
from bot.config import Settings
from bot.jobs import AHEAD, ASKED, FIELD, FIELD_AHEAD, JobContext, JobFailed, Jobs, local_jobs
from bot.store.models import StoreUnavailableError


class Made:
    """What the test's handlers were given, in order."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.fail: set[str] = set()
        self.unavailable: dict[str, int] = {}

    async def handler(self, ctx: JobContext, payload: dict[str, Any]) -> None:
        name = str(payload["name"])
        self.started.append(name)
        if name in self.fail:
            raise JobFailed(f"job {ctx.job_id}: {name} cannot be made")
        if self.unavailable.get(name, 0) > 0:
            self.unavailable[name] -= 1
            raise StoreUnavailableError("the database did not answer")
        # The heavy part, where the bot puts it (a thread here: no background processes).
        await ctx.run(len, name)


@pytest.fixture
async def queue() -> AsyncIterator[tuple[Jobs, Made]]:
    made = Made()
    jobs = local_jobs(cast(Any, None))
    for kind in ("review", "field"):
        jobs.handle(kind, made.handler)
    await jobs.open()
    yield jobs, made


async def run_until_idle(jobs: Jobs) -> None:
    runner = asyncio.create_task(jobs.run())
    try:
        await jobs.idle()
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def test_jobs_are_taken_by_priority(queue: tuple[Jobs, Made]) -> None:
    jobs, made = queue
    await jobs.submit("field", "field:tomorrow", {"name": "tomorrow's field"}, FIELD_AHEAD)
    await jobs.submit("field", "field:today", {"name": "today's field"}, FIELD)
    await jobs.submit("review", "review:ahead", {"name": "made ahead"}, AHEAD)
    await jobs.submit("review", "review:asked", {"name": "asked for"}, ASKED)
    await run_until_idle(jobs)
    assert made.started == ["asked for", "made ahead", "today's field", "tomorrow's field"]


async def test_a_key_is_queued_once_and_asking_moves_it_ahead(queue: tuple[Jobs, Made]) -> None:
    jobs, made = queue
    assert await jobs.submit("review", "review:1", {"name": "one"}, AHEAD)
    assert await jobs.submit("review", "review:2", {"name": "two"}, AHEAD)
    assert not await jobs.submit("review", "review:2", {"name": "two again"}, ASKED)
    assert await jobs.state("review:2") == "queued"
    assert await jobs.depth("review") == 2
    await run_until_idle(jobs)
    assert made.started == ["two", "one"]
    assert await jobs.state("review:2") is None  # done: its result is in the store


async def test_a_job_that_fails_for_good_is_held_logged_once_and_never_retried(
        queue: tuple[Jobs, Made], caplog: pytest.LogCaptureFixture) -> None:
    jobs, made = queue
    made.fail.add("corrupt")
    await jobs.submit("review", "review:bad", {"name": "corrupt"}, ASKED)
    [bad] = [j.id for j in await jobs.queries.browse_queue()]
    await jobs.submit("review", "review:good", {"name": "fine"}, AHEAD)
    [unreadable] = await jobs.queries.enqueue("field", b"\xff not json", FIELD,
                                              dedupe_key="field:x", headers={"key": "field:x"})
    with caplog.at_level(logging.ERROR, logger="pgqueuer"):
        await run_until_idle(jobs)
    assert made.started == ["corrupt", "fine"]
    assert await jobs.state("review:bad") == "failed"
    assert await jobs.state("field:x") == "failed"
    assert not await jobs.submit("review", "review:bad", {"name": "corrupt"}, ASKED)
    for job_id, kind in ((bad, "review"), (unreadable, "field")):
        said = [r for r in caplog.records if f"{kind}/{job_id}" in r.getMessage()]
        assert len(said) == 1
    await run_until_idle(jobs)
    assert made.started == ["corrupt", "fine"]  # not tried again
    stats = {s.kind: s for s in await jobs.stats()}
    assert (stats["review"].done, stats["review"].failed, stats["review"].failed_held) \
        == (1, 1, 1)
    assert (stats["field"].done, stats["field"].failed) == (0, 1)


async def test_a_job_whose_store_did_not_answer_is_tried_again(
        queue: tuple[Jobs, Made], monkeypatch: pytest.MonkeyPatch) -> None:
    jobs, made = queue
    monkeypatch.setattr(jobs_module, "RETRY_DELAY", jobs_module.timedelta(0))
    made.unavailable["flaky"] = 2
    await jobs.submit("review", "review:flaky", {"name": "flaky"}, ASKED)
    await run_until_idle(jobs)
    assert made.started == ["flaky"] * 3
    [stats] = [s for s in await jobs.stats() if s.kind == "review"]
    assert (stats.done, stats.failed, stats.queued) == (1, 0, 0)
    assert stats.to_done_p50 is not None and stats.to_done_p95 is not None


async def test_the_operator_figures_of_a_waiting_queue(queue: tuple[Jobs, Made]) -> None:
    jobs, _ = queue
    await jobs.submit("field", "field:a", {"name": "a"}, FIELD)
    await jobs.submit("field", "field:b", {"name": "b"}, FIELD)
    stats = {s.kind: s for s in await jobs.stats()}
    assert stats["field"].queued == 2 and stats["field"].oldest_age is not None
    assert stats["review"].queued == 0 and stats["review"].oldest_age is None
    assert stats["field"].to_done_p50 is None


@pytest.mark.parametrize(("database", "run_jobs", "runs"), [
    ("data/tichu.sqlite3", None, True),
    ("data/tichu.sqlite3", True, True),
    ("postgresql://u:p@db/tichu", None, False),
    ("postgresql://u:p@db/tichu", True, True),
    ("postgres+asyncpg://u:p@db/tichu", False, False),
])
def test_who_runs_the_jobs(database: str, run_jobs: bool | None, runs: bool) -> None:
    settings = Settings(_env_file=None, database=database, run_jobs=run_jobs)  # type: ignore[call-arg]
    assert settings.runs_jobs is runs


def test_sqlite_cannot_leave_its_jobs_to_workers() -> None:
    with pytest.raises(pydantic.ValidationError, match="RUN_JOBS=false needs PostgreSQL"):
        Settings(_env_file=None, database="data/tichu.sqlite3", run_jobs=False)  # type: ignore[call-arg]
