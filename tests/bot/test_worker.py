"""``python -m bot.worker`` (issue 40): real worker processes on a real embedded
PostgreSQL take the queue's jobs, and live through what a worker meets: a worker killed in
the middle of a job (another takes it once its lease runs out, and stores it once), a
database restart (the worker says so in its heartbeat, reconnects and goes on, nothing
lost or doubled), a payload that cannot be read (failed once, logged once with its id,
the queue goes on), and a start against SQLite (one sentence, exit 2)."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import health
from bot.games.tichu.coach import REVIEW, one_deal, review_key, review_payload
from bot.games.tichu.duplicate import FIELD_JOB, event_boards, field_key, utc_today
from bot.i18n import t
from bot.jobs import ASKED, FIELD, Jobs, postgres_jobs
from bot.store import EventRecord, PostgresRepository, SeatRecord
from bot.worker import NEEDS_POSTGRES
from engine.duplicate.boards import Board
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, running, settle
from tests.bot.processes import ROOT, BotProcess, worker_environment
from tests.bot.test_coach import play_until, reply_to
from tests.postgres import ControlledPostgres, drop_database, fresh_database

REPLAY = json.loads((ROOT / "tests" / "fixtures" / "replay" / "complete_deal.json")
                    .read_text(encoding="utf-8"))
SLOW_TABLES = 100
"""Computer tables of the slow job's field: about 50 ms of CPU each, so five seconds or
more in all, the time to kill its worker or restart the database while it runs. The
workers of those tests make it in a thread (``FIELD_PROCESSES=0``) at the usual CPU
priority: their subject is the queue, and the rest of the suite keeps the cores busy
enough to starve the background processes' lowest priority for minutes."""
PATIENCE = 180.0
"""Seconds a test waits for what must happen before it fails (never a measure)."""


async def until(check: Any, what: str, timeout: float = PATIENCE) -> Any:
    """Poll ``check()`` (a coroutine function) until it gives something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


async def queue_review(repo: PostgresRepository, jobs: Jobs,
                       user_id: int = 100) -> tuple[int, str]:
    """A table whose seat 0 waits for its review of the replay's deal; its job queued."""
    table = await repo.create_table(guild_id=1, channel_id=10, host_id=user_id, game="tichu",
                                    seed="seed-1", options={"target": 1000}, locale="en",
                                    seats=[SeatRecord(seat=0, user_id=user_id, name="Ann")])
    key = review_key(table.id, 0, 0)
    await jobs.submit(REVIEW, key, review_payload(table.id, 0, 0, user_id, one_deal(REPLAY, 0),
                                                  ["A", "B", "C", "D"]), ASKED)
    return table.id, key


async def queue_slow_field(repo: PostgresRepository, jobs: Jobs) -> tuple[Board, str]:
    """An event's board whose field of :data:`SLOW_TABLES` computer tables is queued (the
    job names the board; the worker deals it from the event the store keeps)."""
    event = EventRecord(code="SLWFLD", kind="event", seed="slow-field", boards=1,
                        guild_id=1, host_id=100)
    await repo.create_event(event)
    [board] = event_boards(event)
    key = field_key(board.id)
    await jobs.submit(FIELD_JOB, key, {"board": board.id, "tables": SLOW_TABLES}, FIELD)
    return board, key


async def count(url: str, query: str, *args: object) -> int:
    """The number a ``SELECT count(*)`` query gives on the database at ``url``."""
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(query, *args))
    finally:
        await conn.close()


async def outcomes(url: str, status: str) -> int:
    """How many jobs PgQueuer's log says ended with ``status``."""
    return await count(url, "SELECT count(*) FROM pgqueuer_log WHERE status = $1", status)


async def review_rows(url: str) -> int:
    return await count(url, "SELECT count(*) FROM reviews")


async def field_rows(url: str) -> int:
    return await count(url, "SELECT count(*) FROM dup_fields")


class Queue:
    """The bot's side of the queue on one database: its store and its jobs."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.repo = PostgresRepository(url, timeout=5)
        self.jobs = postgres_jobs(self.repo, url, timeout=5)

    async def __aenter__(self) -> Queue:
        await self.repo.open()
        await self.jobs.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.jobs.close()
        await self.repo.close()


@pytest.fixture
async def queue(pg_url: str) -> AsyncIterator[Queue]:
    async with Queue(pg_url) as opened:
        yield opened


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def scrape(port: int) -> str:
    """The worker's Prometheus page ("" while it does not answer yet)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as page:
            return str(page.read().decode())
    except OSError:
        return ""


def worker(name: str, url: str, tmp_path: Path, **settings: Any) -> BotProcess:
    return BotProcess(name, worker_environment(url, **settings), tmp_path, module="bot.worker")


def test_a_worker_against_sqlite_says_it_needs_postgresql(tmp_path: Path) -> None:
    database = tmp_path / "tichu.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot.worker"], cwd=tmp_path,
                          env=worker_environment(str(database)), capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == NEEDS_POSTGRES.format(database=database)
    assert not database.exists()


async def test_a_worker_killed_mid_job_hands_it_to_another(queue: Queue,
                                                           tmp_path: Path) -> None:
    board, key = await queue_slow_field(queue.repo, queue.jobs)
    first = await worker("worker-1", queue.url, tmp_path, field_processes=0).start()
    second: BotProcess | None = None
    try:
        async def picked() -> bool:
            return await queue.jobs.state(key) == "picked"
        await until(picked, "the first worker takes the job")
        await first.kill()
        killed = time.monotonic()
        assert await queue.repo.field(board.id) == []
        second = await worker("worker-2", queue.url, tmp_path, job_lease=2,
                              field_processes=0).start()

        async def stored() -> Any:
            return await queue.repo.field(board.id)
        field = await until(stored, "the second worker stores the field")
        print(f"killed mid-job: field stored {time.monotonic() - killed:.1f} s after the "
              "kill (lease 2 s)")
        assert sorted(r.index for r in field) == list(range(SLOW_TABLES))

        async def logged() -> bool:  # the worker says it is done just after storing
            return await queue.jobs.state(key) is None
        await until(logged, "the job is logged done")
        assert await field_rows(queue.url) == SLOW_TABLES
        assert await outcomes(queue.url, "successful") == 1
        assert await second.stop() == 0
    finally:
        for process in (first, second):
            if process is not None and process._proc is not None:
                await process.kill()


async def test_a_payload_that_cannot_be_read_fails_once_and_the_queue_goes_on(
        queue: Queue, tmp_path: Path) -> None:
    [bad] = await queue.jobs.queries.enqueue(REVIEW, b"{not json", ASKED,
                                             dedupe_key="review:corrupt",
                                             headers={"key": "review:corrupt"})
    table_id, _ = await queue_review(queue.repo, queue.jobs)
    port = free_port()
    process = await worker("worker", queue.url, tmp_path, metrics_port=port).start()
    try:
        async def stored() -> Any:
            return await queue.repo.review(table_id, 0, 0)
        await until(stored, "the good job is done after the bad one")

        async def counted() -> bool:
            text = await asyncio.to_thread(scrape, port)
            return 'tichu_jobs_failed{kind="review"} 1.0' in text \
                and 'tichu_jobs_done{kind="review"} 1.0' in text \
                and 'tichu_job_enqueue_to_done_seconds_count{kind="review"} 1.0' in text
        await until(counted, "the worker's Prometheus endpoint counts both jobs")
        assert await queue.jobs.state("review:corrupt") == "failed"
        assert await queue.jobs.submit(REVIEW, "review:corrupt", {}, ASKED) is False
        assert await process.stop() == 0
    finally:
        await process.kill()
    said = [line for line in process.lines if f"{REVIEW}/{bad}" in line]
    assert len(said) == 1, process.log()
    assert await outcomes(queue.url, "failed") == 1
    [stats] = [s for s in await queue.jobs.stats() if s.kind == REVIEW]
    assert (stats.queued, stats.failed_held, stats.failed, stats.done) == (0, 1, 1, 1)


async def test_a_restarted_bot_does_not_queue_again_what_is_queued(queue: Queue) -> None:
    _, key = await queue_review(queue.repo, queue.jobs)
    async with Queue(queue.url) as restarted:
        assert await restarted.jobs.state(key) == "queued"
        assert await restarted.jobs.submit(REVIEW, key, {"any": 1}, ASKED) is False
        [stats] = [s for s in await restarted.jobs.stats() if s.kind == REVIEW]
        assert stats.queued == 1


async def test_a_database_restart_while_a_job_runs(controlled_pg: ControlledPostgres,
                                                   tmp_path: Path) -> None:
    name = await fresh_database(controlled_pg)
    url = controlled_pg.url(name)
    beat = tmp_path / "worker-heartbeat"
    process: BotProcess | None = None
    try:
        async with Queue(url) as queue:
            board, key = await queue_slow_field(queue.repo, queue.jobs)
            process = await worker("worker", url, tmp_path, job_lease=2, field_processes=0,
                                   heartbeat_file=beat).start()

            async def picked() -> bool:
                return await queue.jobs.state(key) == "picked"
            await until(picked, "the worker takes the job")
            await asyncio.to_thread(controlled_pg.stop)

            async def unhealthy() -> bool:
                problem = health.check(beat, 60)
                return problem is not None and "database" in problem
            await until(unhealthy, "the worker's health check says the database is away")
            await asyncio.to_thread(controlled_pg.start)

            async def stored() -> Any:
                try:
                    return await queue.repo.field(board.id)
                except Exception:
                    return None
            await until(stored, "the field is stored after the restart")

            async def healthy() -> bool:
                return health.check(beat, 60) is None
            await until(healthy, "the worker's health check is healthy again")
            # The queue goes on: a job queued after the restart is done too.
            later, _ = await queue_review(queue.repo, queue.jobs, user_id=200)

            async def later_stored() -> Any:
                return await queue.repo.review(later, 0, 0)
            await until(later_stored, "a job queued after the restart is done")
            async def both_logged() -> bool:  # logged done just after storing
                return await outcomes(url, "successful") == 2
            await until(both_logged, "both jobs logged done")
            assert await review_rows(url) == 1
            assert await field_rows(url) == SLOW_TABLES
            assert await process.stop() == 0
            said = "\n".join(process.lines)
            assert "the database does not answer" in said
            assert "the database answers again" in said
    finally:
        if process is not None:
            await process.kill()
        if controlled_pg.running():
            await drop_database(controlled_pg, name)


async def test_a_practice_deal_reviewed_by_a_worker_and_tomorrows_fields_made_today(
        world: World, pg_url: str, tmp_path: Path) -> None:
    """The bot on PostgreSQL runs no job itself: a separate worker process makes the
    people's reviews of a practice deal, and the next day's daily fields the day before."""
    emu = world.emu
    alice, bob = world.users[0], world.users[1]  # en, fr
    process: BotProcess | None = None
    try:
        async with running(emu, pg_url, field_tables=1, daily_boards=1,  # type: ignore[arg-type]
                           field_processes=0) as bot:
            assert bot.jobs is not None and bot.jobs.durable and bot._job_runner is None
            process = await worker("worker", pg_url, tmp_path).start()
            repo = bot.service.repo
            lobby, table = await open_lobby(world, bot, practice=True, target=50)
            await seat_and_start(world, lobby, [0, None, 1, None], {1: "easy", 3: "easy"})
            people = {0: Person(emu, alice, random.Random(3), table=table),
                      2: Person(emu, bob, random.Random(4), table=table)}
            await play_until(bot, table, people, lambda: bool(table.game.history))
            await settle(bot, table)

            async def reviewed() -> bool:
                return all([await repo.user_reviews(table.id, user.id)
                            for user in (alice, bob)])
            await until(reviewed, "both reviews stored by the worker")
            summary = next(m for m in emu.channel_messages(table.channel_id)
                           if component(m, "review") is not None)
            button = component(summary, "review", arg="0")
            review = await reply_to(await emu.click(alice, summary, button.custom_id))
            assert review.content.startswith(t("en", "coach.review_title", deal=1))
            french = await reply_to(await emu.click(bob, summary, button.custom_id))
            assert french.content.startswith(t("fr", "coach.review_title", deal=1))

            # The daily boards: today's fields first, and the next day's behind them.
            today = utc_today()
            await bot.duplicate.prepare(today)
            boards = [*await bot.duplicate.day_boards(today),
                      *await bot.duplicate.day_boards(today + timedelta(days=1))]

            async def fields() -> bool:
                return all([await repo.field(b.id) for b in boards])
            await until(fields, "today's and tomorrow's fields stored by the worker")

            async def all_logged() -> dict[str, Any]:
                found = {s.kind: s for s in await bot.jobs.stats()}
                return found if found["review"].done == found["field"].done == 2 else {}
            stats = await until(all_logged, "the four jobs logged done")
            assert stats["review"].to_done_p50 is not None
            assert stats["review"].queued == stats["field"].queued == 0
        assert await process.stop() == 0
    finally:
        if process is not None:
            await process.kill()
    emu.assert_clean()


async def test_a_worker_whose_metrics_port_is_held_says_so(queue: Queue,
                                                           tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("0.0.0.0", 0))
        holder.listen()
        port = int(holder.getsockname()[1])
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "bot.worker"], cwd=tmp_path,
            env=worker_environment(queue.url, metrics_port=port), capture_output=True,
            text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(f"METRICS_PORT={port} cannot be served (")


def test_a_worker_that_cannot_reach_its_database_says_so_at_start(tmp_path: Path) -> None:
    database = "postgresql://tichu:hunter2secret@127.0.0.1:1/tichu"
    done = subprocess.run([sys.executable, "-m", "bot.worker"], cwd=tmp_path,
                          env=worker_environment(database, database_timeout=2),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 4
    assert done.stderr.startswith("Cannot reach the database DATABASE=postgresql://tichu:***@")
    assert "hunter2secret" not in done.stderr + done.stdout


async def test_the_status_of_the_queue_for_an_operator(queue: Queue, tmp_path: Path) -> None:
    await queue_review(queue.repo, queue.jobs)
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.worker", "--status"], cwd=tmp_path,
        env=worker_environment(queue.url), capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.strip().splitlines()
    assert header.split()[:6] == ["kind", "queued", "running", "oldest", "done", "failed"]
    review = next(row.split() for row in rows if row.startswith("review"))
    assert review[1:3] == ["1", "0"] and review[3].endswith("s")
    assert await queue.jobs.state(review_key(1, 0, 0)) == "queued"  # --status takes no job
