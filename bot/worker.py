"""``python -m bot.worker``: run the background jobs (reviews, fields) of a bot whose
database is PostgreSQL, on any machine that reaches it. No Discord token is needed.

Start as many as the work needs, on as many machines (``docker compose up --scale
worker=N``): each takes the queue's jobs one priority after another, its heavy part in
``FIELD_PROCESSES`` processes at the lowest CPU priority, and beats while it works; a job
whose worker stopped beating is taken by another after ``JOB_LEASE`` seconds. A worker
that loses the database tries again every second, says so in its log once, and its
heartbeat file (``HEARTBEAT_FILE``, read by ``python -m bot.health``) says so too.

``python -m bot.worker --status`` prints the queue (depth, oldest job, done, failed, the
time from enqueue to done, by kind) and exits. Exit status: 0 stopped by a signal (or the
status printed), 2 bad settings (SQLite: workers need PostgreSQL; a ``METRICS_PORT`` that
cannot be served), 4 a database that cannot be opened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from bot import health, metrics, workers
from bot.__main__ import CONFIGURED, database_problem, paragraphs, startup_settings
from bot.config import Settings
from bot.games.registry import job_handlers
from bot.jobs import Jobs, KindStats, jobs_for
from bot.store import PostgresRepository, StoreError, open_repository

log = logging.getLogger("bot.worker")

NEEDS_POSTGRES = ("Workers need PostgreSQL: DATABASE={database} is SQLite, whose bot runs "
                  "its background jobs itself. Set DATABASE to the bot's postgresql:// URL.")


def status_table(stats: list[KindStats]) -> str:
    """The queue, one line per kind, for an operator."""
    def seconds(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}s"
    lines = [f"{'kind':<8} {'queued':>6} {'running':>7} {'oldest':>8} {'done':>6} "
             f"{'failed':>6} {'to done p50':>11} {'p95':>8}"]
    for s in stats:
        lines.append(f"{s.kind:<8} {s.queued:>6} {s.running:>7} {seconds(s.oldest_age):>8} "
                     f"{s.done:>6} {s.failed:>6} {seconds(s.to_done_p50):>11} "
                     f"{seconds(s.to_done_p95):>8}")
    return "\n".join(lines)


async def run(settings: Settings, *, status: bool = False) -> int:
    """Open the store and the queue, then run jobs until SIGINT or SIGTERM (or print the
    queue's status and return)."""
    repo = open_repository(settings.database, pool_size=min(settings.database_pool_size, 4),
                           timeout=settings.database_timeout, shard_lease=settings.shard_lease)
    assert isinstance(repo, PostgresRepository)
    try:
        await repo.open()
    except StoreError as exc:
        print(database_problem(settings.database, exc), file=sys.stderr)
        return 4
    jobs = jobs_for(settings, repo)
    try:
        for kind, handler in job_handlers().items():
            jobs.handle(kind, handler)
        try:
            await jobs.open()
        except StoreError as exc:
            print(database_problem(settings.database, exc), file=sys.stderr)
            return 4
        if status:
            print(status_table(await jobs.stats(job_handlers())))
            return 0
        return await _work(settings, jobs)
    finally:
        await jobs.close()
        await repo.close()


async def _work(settings: Settings, jobs: Jobs) -> int:
    if settings.metrics_port is not None:
        try:
            metrics.serve(settings.metrics_port)
        except metrics.PortRefused as exc:
            print(exc, file=sys.stderr)
            return 2
    workers.start_background(settings.field_processes)
    loop = asyncio.get_running_loop()
    runner = asyncio.create_task(jobs.run())
    watcher = asyncio.create_task(_watch(settings, jobs))

    stopping: list[signal.Signals] = []

    def stop(signum: signal.Signals) -> None:
        """The first signal: finish the jobs under way, take no more. The second: stop now
        (the jobs under way are taken up by another worker once their lease runs out)."""
        stopping.append(signum)
        if len(stopping) == 1:
            log.info("stopping (%s) once the jobs under way are done; again to stop now",
                     signum.name)
            jobs.drain()
        else:
            log.info("stopping now (%s); the jobs under way go to another worker",
                     signum.name)
            runner.cancel()

    for each in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(each, stop, each)
    log.info("worker running jobs %s in %d process(es)", sorted(jobs.handlers),
             max(1, settings.field_processes))
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await runner
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        for each in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(each)
        workers.stop_background()
    return 0


async def _watch(settings: Settings, jobs: Jobs) -> None:
    """Every ``WATCH_INTERVAL``: the heartbeat (which says whether the database answers)
    and the queue's figures."""
    while True:
        down = jobs.database_down_since
        metrics.database_down(down is not None)
        if settings.heartbeat_file:
            health.write_heartbeat(settings.heartbeat_file, database_down_since=down)
        if down is None:
            try:
                await jobs.stats(job_handlers())
            except StoreError as exc:
                log.debug("job figures not read: %s", exc)
        await asyncio.sleep(settings.watch_interval)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.worker", description=__doc__,
                                     epilog=paragraphs(CONFIGURED),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--status", action="store_true",
                        help="print the queue's figures by kind and exit")
    args = parser.parse_args(argv)
    settings = startup_settings(postgres_only=NEEDS_POSTGRES)
    if isinstance(settings, int):
        return settings
    try:
        return asyncio.run(run(settings, status=args.status))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
