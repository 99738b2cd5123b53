"""Background work as jobs on a queue (issue 40): the coach's reviews, the duplicate
boards' fields, and whatever no table waits for.

A job has a kind (``review``, ``field``), a key (what it makes: one review, one board's
field; a key is queued once at a time), a JSON payload and a priority: a review someone
asked for (:data:`ASKED`) before reviews made ahead (:data:`AHEAD`), before fields
(:data:`FIELD`), before the next day's fields (:data:`FIELD_AHEAD`). Its handler stores
its result in the store, where the first write wins: a job done twice (its worker died
after storing, before saying so) is stored once.

The queue is `PgQueuer <https://github.com/janbjorge/pgqueuer>`_'s, behind one
interface (:class:`Jobs`) with two backends:

- **local** (the default, with SQLite): PgQueuer's in-memory queue, run inside the bot
  (:meth:`Jobs.run`); each job's heavy part runs in the bot's background processes at
  the lowest CPU priority, held while live work runs (:func:`bot.workers.offload_background`).
  The queue lives and dies with the process, as the work it holds did before.
- **PostgreSQL**: PgQueuer's tables in the bot's database, through asyncpg. Workers
  (``python -m bot.worker``, on any machine that reaches the database) run the jobs;
  a bot process runs them too only if ``RUN_JOBS`` says so. A job whose worker stops
  beating (killed, its machine gone) is taken again by another once ``JOB_LEASE``
  seconds pass; a database restart is waited for and the queue goes on.

A job that fails for good (its payload cannot be read, the engine refuses its replay)
is kept as ``failed`` (PgQueuer's ``on_failure="hold"``), logged once with its id by
PgQueuer, and never tried again; :meth:`Jobs.state` says so to whoever waits for it. A
job that could not store its result because the database did not answer is tried
again (:data:`STORE_RETRIES` times) after :data:`RETRY_DELAY`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, TypeVar

import asyncpg
from pgqueuer import (
    AsyncpgDriver,
    AsyncpgPoolDriver,
    InMemoryDriver,
    InMemoryQueries,
    Queries,
    QueueManager,
    RetryRequested,
)
from pgqueuer import Job as QueuedJob

from bot import metrics, workers
from bot.config import Settings
from bot.store import PostgresRepository
from bot.store.models import Repository, StoreError, StoreUnavailableError
from bot.store.postgres import OutageInOneLine

log = logging.getLogger(__name__)
logging.getLogger("pgqueuer").addFilter(OutageInOneLine())
T = TypeVar("T")

ASKED = 30
"""A review someone has asked for and waits for."""
AHEAD = 20
"""A review made ahead, as its deal ends."""
FIELD = 10
"""A board's field (today's boards, an event's)."""
FIELD_AHEAD = 5
"""The next day's daily boards' fields, played the day before."""

STORE_RETRIES = 5
"""Times a job whose result could not be stored (the database did not answer) is tried
again before it is marked failed."""
RETRY_DELAY = timedelta(seconds=2)
RECONNECT_DELAY = 1.0
"""Seconds between two tries at the database of a runner that lost it."""
State = Literal["queued", "picked", "failed"]
"""Where a key's job is: waiting, being made, or failed for good (None: no job)."""


class JobFailed(Exception):
    """A job that cannot succeed however often it is tried (a payload that cannot be
    read, a replay the engine refuses): it is marked failed."""


@dataclass(frozen=True, slots=True)
class JobContext:
    """What a handler gets beside its payload: the store, and where to run heavy work."""

    repo: Repository
    job_id: int
    priority: int

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in the background processes (the higher the job's priority, the
        sooner it gets one)."""
        return await workers.offload_background(fn, *args, rank=-self.priority)


Handler = Callable[[JobContext, dict[str, Any]], Awaitable[None]]
"""A job's work: make its result from its payload and store it (first write wins)."""


@dataclass(frozen=True, slots=True)
class KindStats:
    """What an operator sees of one kind of job."""

    kind: str
    queued: int
    running: int
    failed_held: int
    """Failed jobs kept (never tried again)."""
    oldest_age: float | None
    """Seconds the oldest queued job has waited (None: none waits)."""
    done: int
    failed: int
    """Jobs done and failed since the queue began (PostgreSQL) or the bot started."""
    to_done_p50: float | None
    to_done_p95: float | None
    """Seconds from enqueue to done, over the jobs done in the last hour."""


@dataclass
class Jobs:
    """The job queue of one process: submit jobs, ask where a key's job is, run jobs.

    Make one with :func:`local_jobs` or :func:`postgres_jobs`; register each kind's
    handler with :meth:`handle` before :meth:`run`."""

    repo: Repository
    lease: float = 30.0
    """Seconds without a heartbeat after which another runner takes a job up."""
    concurrency: int = 1
    """Jobs this process runs at once (its background processes)."""
    url: str | None = None
    """The PostgreSQL URL (None: the local in-memory queue)."""
    timeout: float = 10.0
    handlers: dict[str, Handler] = field(default_factory=dict)
    _queries: Queries | InMemoryQueries | None = None
    _pool: asyncpg.Pool | None = None
    _runner: QueueManager | None = None
    _recent: list[tuple[float, str, float]] = field(default_factory=list)
    """(when, kind, seconds from enqueue to done) of the jobs this process finished."""
    database_down_since: float | None = None
    """Since when this process's runner has not reached the database (None: it has)."""
    _closing: bool = False
    _under_way: set[asyncio.Task[Any]] = field(default_factory=set)
    """The tasks of the jobs this process is making."""

    @property
    def durable(self) -> bool:
        """Whether the queue outlives the process (PostgreSQL)."""
        return self.url is not None

    def handle(self, kind: str, handler: Handler) -> None:
        """Run ``handler`` for each job of ``kind``."""
        self.handlers[kind] = handler

    # ------------------------------------------------------------ the queue
    async def open(self) -> None:
        """Connect (PostgreSQL: a small pool, and PgQueuer's tables made or brought up to
        date under PgQueuer's own lock)."""
        if self.url is None:
            self._queries = InMemoryQueries(InMemoryDriver())
            return
        try:
            conn = await asyncpg.connect(self.url, timeout=self.timeout)
            try:
                queries = Queries(AsyncpgDriver(conn))
                async with queries.schema_lock():
                    if not await queries.schema_is_installed():
                        await queries.install()
                    else:
                        await queries.upgrade()
            finally:
                await conn.close()
            self._pool = await asyncpg.create_pool(self.url, min_size=0, max_size=2,
                                                   timeout=self.timeout,
                                                   command_timeout=self.timeout)
        except Exception as exc:
            raise _store_error("jobs.open", exc) from None
        self._queries = Queries(AsyncpgPoolDriver(self._pool))

    async def close(self) -> None:
        """Close the pool (cancel :meth:`run` first: its jobs under way are left taken)."""
        self._closing = True
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.terminate()

    @property
    def queries(self) -> Queries | InMemoryQueries:
        if self._queries is None:
            raise StoreError("not_open", "the job queue is not open")
        return self._queries

    async def submit(self, kind: str, key: str, payload: dict[str, Any], priority: int) -> bool:
        """Queue a job unless the key's job is queued or being made (then raise its
        priority to ``priority`` if that is higher); whether a new job was queued.
        Raises :class:`StoreError` (unavailable) if the database does not answer."""
        data = json.dumps(payload, separators=(",", ":")).encode()
        try:
            before = await self.state(key)
            if before == "failed":
                return False
            await self.queries.enqueue(kind, data, priority, dedupe_key=key,
                                       headers={"key": key}, on_conflict="update_priority")
        except StoreError:
            raise
        except Exception as exc:
            raise _store_error("jobs.submit", exc) from None
        return before is None

    async def state(self, key: str) -> State | None:
        """Where the job of ``key`` is (None: there is none; done, its result is stored)."""
        try:
            if isinstance(self._queries, Queries):
                table = self._queries.qbe.settings.queue_table
                rows = await self._queries.driver.fetch(
                    f"SELECT status::text AS status FROM {table} WHERE dedupe_key = $1 "
                    "ORDER BY id DESC LIMIT 1", key)
                status = str(rows[0]["status"]) if rows else None
            else:
                jobs = await self.queries.browse_queue(
                    limit=1_000_000, statuses=["queued", "picked", "failed"])
                status = next((str(j.status) for j in jobs
                               if (j.headers or {}).get("key") == key), None)
        except Exception as exc:
            raise _store_error("jobs.state", exc) from None
        if status in ("queued", "picked", "failed"):
            return status  # type: ignore[return-value]
        return None

    async def depth(self, kind: str) -> int:
        """Jobs of ``kind`` queued or being made."""
        sizes = await self.queries.queue_size()
        return sum(s.count for s in sizes if s.entrypoint == kind
                   and s.status in ("queued", "picked"))

    async def idle(self) -> None:
        """Wait until no job is queued or being made (what a test waits for)."""
        while any(s.status in ("queued", "picked") for s in await self.queries.queue_size()):
            await asyncio.sleep(0.01)

    async def stats(self, kinds: Iterable[str] = ()) -> list[KindStats]:
        """Each kind's queue depth, oldest age, done and failed counts and the time from
        enqueue to done; also sets the Prometheus gauges."""
        try:
            return await self._stats(kinds)
        except StoreError:
            raise
        except Exception as exc:
            raise _store_error("jobs.stats", exc) from None

    async def _stats(self, kinds: Iterable[str]) -> list[KindStats]:
        queries = self.queries
        sizes = await queries.queue_size()
        ages = {str(a.entrypoint): a.oldest_age_seconds for a in await queries.queue_age()}
        totals = {(str(t.entrypoint), str(t.status)): t.total_count
                  for t in await queries.throughput_summary()}
        times = await self._to_done_times()
        names = sorted({*kinds, *self.handlers, *(s.entrypoint for s in sizes),
                        *(k for k, _ in totals)})
        out = []
        for kind in names:
            def count(status: str, kind: str = kind) -> int:
                return sum(s.count for s in sizes if s.entrypoint == kind and s.status == status)
            spans = sorted(times.get(kind, []))
            stats = KindStats(
                kind=kind, queued=count("queued"), running=count("picked"),
                failed_held=count("failed"), oldest_age=ages.get(kind),
                done=totals.get((kind, "successful"), 0),
                failed=totals.get((kind, "exception"), 0) + totals.get((kind, "failed"), 0),
                to_done_p50=_quantile(spans, 0.5), to_done_p95=_quantile(spans, 0.95))
            out.append(stats)
            metrics.job_stats(stats.kind, stats.queued, stats.running, stats.oldest_age,
                              stats.done, stats.failed, stats.to_done_p50, stats.to_done_p95)
        return out

    async def _to_done_times(self) -> dict[str, list[float]]:
        """Seconds from enqueue to done of the jobs done in the last hour, by kind: from
        PgQueuer's log on PostgreSQL (every runner's), else this process's own."""
        if isinstance(self._queries, Queries):
            logs = self._queries.qbe.settings.queue_table_log
            rows = await self._queries.driver.fetch(
                f"SELECT d.entrypoint, EXTRACT(EPOCH FROM d.created - q.created)::float8 AS s "
                f"FROM {logs} AS d JOIN {logs} AS q ON q.job_id = d.job_id "
                "AND q.status = 'queued' WHERE d.status = 'successful' "
                "AND d.created > now() - interval '1 hour'")
            found: dict[str, list[float]] = {}
            for row in rows:
                found.setdefault(str(row["entrypoint"]), []).append(float(str(row["s"])))
            return found
        cutoff = time.time() - 3600
        self._recent = [r for r in self._recent if r[0] >= cutoff]
        local: dict[str, list[float]] = {}
        for _, kind, seconds in self._recent:
            local.setdefault(kind, []).append(seconds)
        return local

    # ------------------------------------------------------------ running
    def _manager(self, queries: Queries | InMemoryQueries) -> QueueManager:
        manager = QueueManager(queries)
        for kind in self.handlers:
            manager.entrypoint(kind, on_failure="hold")(self._entry(kind))
        return manager

    def _entry(self, kind: str) -> Callable[[QueuedJob], Awaitable[None]]:
        async def entry(job: QueuedJob) -> None:
            await self._execute(kind, job)
        return entry

    async def _execute(self, kind: str, job: QueuedJob) -> None:
        handler = self.handlers[kind]
        task = asyncio.current_task()
        if task is not None:
            self._under_way.add(task)
        try:
            await self._make(kind, handler, job)
        finally:
            self._under_way.discard(task)

    async def _make(self, kind: str, handler: Handler, job: QueuedJob) -> None:
        try:
            payload = json.loads(job.payload or b"")
            if not isinstance(payload, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise JobFailed(f"{kind} job {job.id}: its payload cannot be read ({exc})") from None
        try:
            await handler(JobContext(self.repo, int(job.id), job.priority), payload)
        except StoreUnavailableError as exc:
            if job.attempts < STORE_RETRIES:
                log.warning("%s job %s: the store did not answer (%s); tried again in %s s",
                            kind, job.id, exc, RETRY_DELAY.total_seconds())
                raise RetryRequested(RETRY_DELAY, reason=str(exc)) from None
            raise
        seconds = max(0.0, (datetime.now(UTC) - job.created).total_seconds())
        self._recent.append((time.time(), kind, seconds))
        metrics.job_done(kind, seconds)

    async def run(self) -> None:
        """Run jobs until cancelled or :meth:`drain`: in this process's event loop, the
        heavy part of each in the background processes.

        On PostgreSQL a lost database is waited for (:attr:`database_down_since`) and the
        runner starts again. A runner cancelled (or whose database went away) drops its
        connection first, so its jobs under way stay taken in the queue, as if its process
        had been killed: another runner takes them once their lease runs out (PgQueuer
        would otherwise record a cancelled job as done with)."""
        if not self.handlers:
            raise RuntimeError("no job handlers registered")
        batch = max(1, self.concurrency)
        if self.url is None:
            self._runner = self._manager(self.queries)
            await self._runner.run(batch_size=batch, max_concurrent_tasks=2 * batch,
                                   heartbeat_timeout=timedelta(seconds=self.lease),
                                   dequeue_timeout=timedelta(seconds=self.lease),
                                   log_aggregation_interval=timedelta(0))
            return
        while not self._closing:
            try:
                conn = await asyncpg.connect(self.url, timeout=self.timeout)
            except Exception as exc:
                self._down(exc)
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            if self.database_down_since is not None:
                log.info("jobs: the database answers again; running jobs")
            self.database_down_since = None
            manager = self._runner = self._manager(Queries(AsyncpgDriver(conn)))
            task = asyncio.ensure_future(manager.run(
                batch_size=batch, max_concurrent_tasks=2 * batch,
                heartbeat_timeout=timedelta(seconds=self.lease),
                dequeue_timeout=timedelta(seconds=min(self.lease, 5)),
                shutdown_on_listener_failure=True))
            conn.add_termination_listener(lambda _conn, task=task: self._abandon(task))
            try:
                await asyncio.wait({task})
            except asyncio.CancelledError:
                conn.terminate()  # first: the jobs under way must stay taken
                self._abandon(task)
                await _cancelled(task)
                raise
            if task.cancelled() or task.exception() is not None:
                self._down(ConnectionError("the connection closed") if task.cancelled()
                           else task.exception() or ConnectionError())
            conn.terminate()
            if not self._closing:
                await asyncio.sleep(RECONNECT_DELAY)

    def _abandon(self, runner: asyncio.Future[None]) -> None:
        """The runner's connection is gone: stop it and the jobs it was making (they stay
        taken in the queue; another runner takes them once their lease runs out)."""
        for task in list(self._under_way):
            task.cancel()
        runner.cancel()

    def drain(self) -> None:
        """Stop taking jobs; :meth:`run` returns once the jobs under way are done."""
        self._closing = True
        if self._runner is not None:
            self._runner.shutdown.set()

    def _down(self, error: BaseException) -> None:
        if self.database_down_since is None:
            self.database_down_since = time.time()
            log.warning("jobs: the database does not answer (%s); trying again every "
                        "%g s", _store_error("jobs.run", error), RECONNECT_DELAY)


def jobs_for(settings: Settings, repo: Repository) -> Jobs:
    """The queue of the store ``repo``: in its PostgreSQL database, else in memory; its
    runner runs as many jobs at once as there are background processes."""
    concurrency = max(1, settings.field_processes)
    if isinstance(repo, PostgresRepository):
        return postgres_jobs(repo, repo.dsn, lease=settings.job_lease, concurrency=concurrency,
                             timeout=settings.database_timeout)
    return local_jobs(repo, concurrency=concurrency)


def local_jobs(repo: Repository, *, concurrency: int = 1) -> Jobs:
    """The in-memory queue of one bot process (SQLite)."""
    return Jobs(repo=repo, concurrency=concurrency)


def postgres_jobs(repo: Repository, url: str, *, lease: float = 30.0, concurrency: int = 1,
                  timeout: float = 10.0) -> Jobs:
    """The queue in the PostgreSQL database ``url`` (the bot's own)."""
    return Jobs(repo=repo, url=url, lease=lease, concurrency=concurrency, timeout=timeout)


async def _cancelled(task: asyncio.Future[None]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


def _quantile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of sorted ``values`` (nearest rank), None if empty."""
    if not values:
        return None
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


def _store_error(what: str, error: BaseException) -> StoreError:
    from bot.store.postgres import store_error

    if isinstance(error, ConnectionError | OSError | TimeoutError | asyncpg.InterfaceError):
        return StoreUnavailableError(f"{what}: the database did not answer ({error})")
    if isinstance(error, Exception):
        return store_error(what, error)
    return StoreError("database_error", f"{what}: {error}")
