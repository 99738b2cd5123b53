"""Background jobs (issue 40): the time from a deal's end to each person's review being
stored, and what making reviews does to the live tables, on PostgreSQL with a worker and
on SQLite in the bot's own background processes.

Two machines are simulated on two cores by pinning: the bench (the local Discord and its
people) and the bot process with all its children on core 0; the worker and PostgreSQL on
core 1, the other machine (a database beside the bot's process would have the worker's
queries taken from the bot's core).

1. **Live tables.** ``--tables`` tables of one person and three computers through the real
   bot process (:func:`tools.bench_bot.live_run`), each person answering ``--decisions``
   pings, enough that the first deal of most tables ends and its reviews are queued (a
   review by the learned evaluator: tens of ms of CPU median, up to about a second when
   its costly decisions are played out). Three conditions, one run each:

   * *PostgreSQL, no background*: no worker runs; the reviews wait in the queue;
   * *PostgreSQL, one worker*: ``python -m bot.worker`` on core 1 makes them;
   * *SQLite, in-process*: the bot makes them in its background process (held while live
     work runs), as a one-machine bot does: here the bench and the bot have both cores,
     the whole machine, since there is no other machine to give the background.

   Printed: the click-to-response p50 and p99 of each; the reviews stored and still queued
   when the people are done, and the time from enqueue (the deal's end) to stored, p50
   and p95 (read from the bot's Prometheus endpoint, ``tichu_jobs_to_done_*``); then the
   same once the queue has drained (``--drain`` seconds at most), and the ratio of the
   click p99 with the worker to the one with no background (the issue's bound: 10%).
   ``--rounds N`` runs the two PostgreSQL conditions N times each, in turns (A B, B A,
   …), and pools their clicks for the ratio: one run of a p99 is noisy.
2. **A worker killed mid-job.** One board's field of ``--kill-tables`` computer tables
   (200 by default: about 12 s of CPU) on PostgreSQL: a worker takes it and is killed
   (SIGKILL) a second into it; a second worker (``JOB_LEASE`` default, 30 s) takes it once
   the lease runs out. Printed: the time from the kill to the field stored, and that it was
   stored once.

Run ``python -m tools.bench_jobs`` (in ``make bench``). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.games.tichu.duplicate import FIELD_JOB, event_boards, field_key
from bot.jobs import FIELD, postgres_jobs
from bot.store import EventRecord, PostgresRepository
from tools.bench_bot import LiveRun, live_run, percentile
from tools.bench_shards import postgres

ROOT = Path(__file__).resolve().parents[1]
BOT_CORE, WORKER_CORE = 0, 1
METRICS_PORT = 9187
NO_BACKGROUND, ONE_WORKER, IN_PROCESS = ("PostgreSQL, no background", "PostgreSQL, one worker",
                                         "SQLite, in-process")
BOUND = 1.10


MACHINE = frozenset(os.sched_getaffinity(0))
"""The cores the bench may use, read before it pins itself to the bot's."""


def pinned(core: int) -> set[int]:
    """``{core}`` if this machine has it, else every core (of :data:`MACHINE`: once the
    bench has pinned itself, its own affinity is the bot's core alone)."""
    return {core} if core in MACHINE else set(MACHINE)


def worker_env(database: str, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
    env.update({"DATABASE": database, "LOG_LEVEL": "WARNING", "FIELD_PROCESSES": "1",
                "PYTHONPATH": str(ROOT), **settings})
    return env


async def start_worker(database: str, **settings: str) -> asyncio.subprocess.Process:
    """``python -m bot.worker`` pinned to the worker's core."""
    cores = pinned(WORKER_CORE)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.worker", env=worker_env(database, **settings),
        preexec_fn=lambda: os.sched_setaffinity(0, cores))


async def stop(process: asyncio.subprocess.Process, sig: int = signal.SIGINT) -> None:
    if process.returncode is None:
        process.send_signal(sig)
        try:
            await asyncio.wait_for(process.wait(), 60)
        except TimeoutError:
            process.kill()
            await process.wait()


def scrape(port: int = METRICS_PORT) -> dict[str, float]:
    """The bot's Prometheus page, as ``name{labels}`` → value ({} if it does not answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as page:
            text = page.read().decode()
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                found[name] = float(value)
            except ValueError:
                continue
    return found


@dataclass
class Reviews:
    """The review jobs as the bot's endpoint shows them."""

    done: int = 0
    queued: int = 0
    running: int = 0
    p50: float = 0.0
    p95: float = 0.0

    @classmethod
    def read(cls) -> Reviews:
        page = scrape()
        kind = '{kind="review"}'
        return cls(done=int(page.get(f"tichu_jobs_done{kind}", 0)),
                   queued=int(page.get(f"tichu_jobs_queued{kind}", 0)),
                   running=int(page.get(f"tichu_jobs_running{kind}", 0)),
                   p50=page.get(f"tichu_jobs_to_done_p50_seconds{kind}", 0.0),
                   p95=page.get(f"tichu_jobs_to_done_p95_seconds{kind}", 0.0))

    def text(self) -> str:
        return (f"{self.done} reviews stored, {self.queued + self.running} waiting; deal end "
                f"to review stored p50 {self.p50:.1f} s, p95 {self.p95:.1f} s")


@dataclass
class JobProbe:
    """Around the window: the review jobs, at its end and once the queue has drained."""

    drain: float
    at_end: Reviews = field(default_factory=Reviews)
    drained: Reviews = field(default_factory=Reviews)
    drain_seconds: float = 0.0

    async def window_start(self, pid: int) -> None:
        return None

    async def window_end(self, pid: int) -> None:
        await asyncio.sleep(3)  # the bot reads the queue's figures every WATCH_INTERVAL
        self.at_end = Reviews.read()
        start = time.monotonic()
        while time.monotonic() - start < self.drain:
            now = Reviews.read()
            if now.queued + now.running == 0 or self.drain == 0:
                break
            await asyncio.sleep(2)
        await asyncio.sleep(3)
        self.drained = Reviews.read()
        self.drain_seconds = time.monotonic() - start

    def database(self, path: Path) -> None:
        return None


async def fresh(server: Any, name: str) -> str:
    conn = await asyncpg.connect(str(server.get_uri("postgres")))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return str(server.get_uri(name))


async def live(server: Any, condition: str, tables: int, decisions: int, delay: float,
               drain: float) -> tuple[LiveRun, JobProbe]:
    settings = {"FIELD_TABLES": "0", "METRICS_PORT": str(METRICS_PORT),
                "WORKER_PROCESSES": "1", "FIELD_PROCESSES": "1"}
    probe = JobProbe(drain=0 if condition == NO_BACKGROUND else drain)  # nothing drains it
    worker = None
    url = None
    if condition != IN_PROCESS:
        url = await fresh(server, condition.split(",")[1].strip().replace(" ", "_"))
    if condition == IN_PROCESS:  # one machine: the bot and its background on all of it
        os.sched_setaffinity(0, MACHINE)
    try:
        if condition == ONE_WORKER:
            assert url is not None
            worker = await start_worker(url)
        run = await live_run(tables, decisions, delay, settings, probe, database_url=url)
    finally:
        if worker is not None:
            await stop(worker)
        os.sched_setaffinity(0, pinned(BOT_CORE))
    return run, probe


async def killed(server: Any, tables: int) -> str:
    """One field: its worker killed mid-job, a second worker takes it after the lease."""
    url = await fresh(server, "killed")
    repo = PostgresRepository(url)
    await repo.open()
    jobs = postgres_jobs(repo, url)
    await jobs.open()
    try:
        event = EventRecord(code="KLLED2", kind="event", seed="killed", boards=1, guild_id=1,
                            host_id=1)
        await repo.create_event(event)
        [board] = event_boards(event)
        key = field_key(board.id)
        await jobs.submit(FIELD_JOB, key, {"board": board.id, "tables": tables}, FIELD)
        first = await start_worker(url)
        while await jobs.state(key) != "picked":
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # well into the job (seconds of CPU)
        first.kill()
        await first.wait()
        killed_at = time.monotonic()
        second = await start_worker(url)
        try:
            while not await repo.field(board.id):
                await asyncio.sleep(0.1)
            took = time.monotonic() - killed_at
        finally:
            await stop(second)
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetchval("SELECT count(*) FROM dup_fields")
            done = await conn.fetchval(
                "SELECT count(*) FROM pgqueuer_log WHERE status = 'successful'")
        finally:
            await conn.close()
        return (f"worker killed mid-job: a field of {tables} tables stored {took:.1f} s after "
                f"the kill (JOB_LEASE 30 s, then the field made again); {rows} rows stored "
                f"({rows / tables:g} time(s)), {done} job(s) done")
    finally:
        await jobs.close()
        await repo.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_jobs",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="live tables of a run")
    parser.add_argument("--decisions", type=int, default=30,
                        help="pings each person answers (a first deal takes about 20)")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bot")
    parser.add_argument("--drain", type=float, default=300,
                        help="seconds to wait for the queue to drain after the people")
    parser.add_argument("--kill-tables", type=int, default=200,
                        help="computer tables of the field whose worker is killed")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of the two PostgreSQL conditions, in turns (ABBA...): "
                             "their clicks are pooled for the ratio")
    parser.add_argument("--skip-live", action="store_true",
                        help="leave out the live tables (part 1)")
    parser.add_argument("--skip-kill", action="store_true",
                        help="leave out the worker killed mid-job (part 2)")
    args = parser.parse_args(argv)
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores; "
          f"bot and Discord on core {BOT_CORE}, worker and PostgreSQL on core {WORKER_CORE}",
          flush=True)
    # The database is started from the worker's core, so its processes stay there: the
    # other machine. (Started from the bot's core, the worker's queries ran on the bot's.)
    os.sched_setaffinity(0, pinned(WORKER_CORE))
    with postgres("bench-jobs-") as server:
        os.sched_setaffinity(0, pinned(BOT_CORE))  # the bench, the emulator and the bot
        if not args.skip_live:
            pooled: dict[str, list[float]] = {NO_BACKGROUND: [], ONE_WORKER: []}
            turns = [pair for r in range(max(1, args.rounds))
                     for pair in ((NO_BACKGROUND, ONE_WORKER) if r % 2 == 0
                                  else (ONE_WORKER, NO_BACKGROUND))]
            for condition in (*turns, IN_PROCESS):
                run, probe = asyncio.run(live(server, condition, args.tables, args.decisions,
                                              args.delay, args.drain))
                clicks = run.clicks
                pooled.setdefault(condition, []).extend(clicks)
                print(f"{condition}: {args.tables} tables, clicks p50 "
                      f"{percentile(clicks, 0.5) * 1000:.0f} ms, p99 "
                      f"{percentile(clicks, 0.99) * 1000:.0f} ms over {len(clicks)}", flush=True)
                print(f"  when the people were done: {probe.at_end.text()}", flush=True)
                print(f"  {probe.drain_seconds:.0f} s later: {probe.drained.text()}",
                      flush=True)
            p99 = {c: percentile(pooled[c], 0.99) * 1000 for c in (NO_BACKGROUND, ONE_WORKER)}
            ratio = p99[ONE_WORKER] / p99[NO_BACKGROUND] if p99[NO_BACKGROUND] else 0.0
            print(f"click p99 with the worker / no background: {p99[ONE_WORKER]:.1f} / "
                  f"{p99[NO_BACKGROUND]:.1f} ms = {ratio:.2f} over {len(turns) // 2} run(s) "
                  f"each, in turns ({'within' if ratio <= BOUND else 'NOT within'} "
                  f"{BOUND - 1:.0%})", flush=True)
        if not args.skip_kill:
            print(asyncio.run(killed(server, args.kill_tables)), flush=True)


if __name__ == "__main__":
    main()
