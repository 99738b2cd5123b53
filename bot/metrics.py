"""What an operator's Prometheus reads of a bot process or a worker (``METRICS_PORT``).

The job queue's figures (queue depth by kind, the oldest job's age, jobs done and failed,
the time from enqueue to done) come from :meth:`bot.jobs.Jobs.stats`, which every process
reads now and then; a bot process adds its live tables, its clicks (a counter: clicks per
second is its rate), the click-to-response time, the store's errors and the shards it
owns. The default registry of ``prometheus-client``, served by its own HTTP server.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

JOBS_QUEUED = Gauge("tichu_jobs_queued", "Jobs waiting in the queue", ["kind"])
JOBS_RUNNING = Gauge("tichu_jobs_running", "Jobs being made", ["kind"])
JOBS_OLDEST = Gauge("tichu_jobs_oldest_age_seconds",
                    "Seconds the oldest queued job has waited (0: none waits)", ["kind"])
JOBS_DONE = Gauge("tichu_jobs_done", "Jobs done (the whole queue's, as the queue counts "
                  "them)", ["kind"])
JOBS_FAILED = Gauge("tichu_jobs_failed", "Jobs failed for good", ["kind"])
JOB_TO_DONE_P50 = Gauge("tichu_jobs_to_done_p50_seconds", "Median seconds from enqueue to "
                        "done, jobs done in the last hour (0: none)", ["kind"])
JOB_TO_DONE_P95 = Gauge("tichu_jobs_to_done_p95_seconds", "95th percentile of the same",
                        ["kind"])
JOB_TO_DONE = Histogram("tichu_job_enqueue_to_done_seconds",
                        "Seconds from a job's enqueue to its result stored (the jobs this "
                        "process made)", ["kind"],
                        buckets=(0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600))
LIVE_TABLES = Gauge("tichu_live_tables", "Tables playing in this process")
CLICKS = Counter("tichu_clicks", "Clicks on game components answered")
CLICK_SECONDS = Histogram("tichu_click_response_seconds",
                          "Seconds from a click's arrival to its answer",
                          buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
THROTTLED = Counter("tichu_interactions_throttled", "Interactions refused for their person's "
                    "pace, by answer (tell: the sentence; quiet: acknowledged alone)",
                    ["answer"])
STORE_ERRORS = Counter("tichu_store_errors", "Refusals of a click because of the store",
                       ["code"])
SHARDS_OWNED = Gauge("tichu_shard_owned", "1 for each shard this process holds", ["shard"])
DATABASE_DOWN = Gauge("tichu_database_down", "1 while this process cannot reach the "
                      "database")


class PortRefused(Exception):
    """``METRICS_PORT`` cannot be served; the message is the one sentence to print."""


def serve(port: int) -> None:
    """Serve ``/metrics`` on ``port`` (all interfaces), in a thread; a port that cannot be
    had (taken by another process, say) raises :class:`PortRefused`."""
    try:
        start_http_server(port)
    except OSError as exc:
        raise PortRefused(f"METRICS_PORT={port} cannot be served ({exc.strerror or exc}): "
                          "stop what holds it, or choose another port.") from None


def job_stats(kind: str, queued: int, running: int, oldest: float | None, done: int,
              failed: int, p50: float | None = None, p95: float | None = None) -> None:
    JOB_TO_DONE_P50.labels(kind).set(p50 or 0.0)
    JOB_TO_DONE_P95.labels(kind).set(p95 or 0.0)
    JOBS_QUEUED.labels(kind).set(queued)
    JOBS_RUNNING.labels(kind).set(running)
    JOBS_OLDEST.labels(kind).set(oldest or 0.0)
    JOBS_DONE.labels(kind).set(done)
    JOBS_FAILED.labels(kind).set(failed)


def job_done(kind: str, seconds: float) -> None:
    JOB_TO_DONE.labels(kind).observe(seconds)


def click(seconds: float) -> None:
    CLICKS.inc()
    CLICK_SECONDS.observe(seconds)


def throttled(answer: str) -> None:
    THROTTLED.labels(answer).inc()


def store_error(code: str) -> None:
    STORE_ERRORS.labels(code).inc()


def shards(owned: list[int], *, held: bool = True) -> None:
    """The shards this process holds (``held``), or has given up."""
    for shard in owned:
        SHARDS_OWNED.labels(str(shard)).set(1 if held else 0)


def live_tables(count: int) -> None:
    LIVE_TABLES.set(count)


def database_down(down: bool) -> None:
    DATABASE_DOWN.set(1 if down else 0)
