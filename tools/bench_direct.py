"""Tables in direct messages on shard 0's process: click → the clicker's DM panel, and how
it grows with the number of tables (the bound of "Play now", issue 53).

``python -m tools.bench_direct`` starts a PostgreSQL server of its own, the local Discord
with two gateway shards and two bot processes, as ``tools.bench_queue`` does. For each
size in ``--tables`` (100 by default; ``--tables 50,100,200,400`` for the growth), on a
fresh database, four people a table queue with ``/tichu play now`` (from servers of both
shards and from their DMs), accept their ready checks at once and are seated by the
matchmaker (waves every second here: the set-up, not measured) at tables of four
people shown in their DMs. Every such table lives in the process that owns shard 0,
whatever server its people came from; so do their clicks, which Discord sends with the
DMs' events to shard 0.

Then the people play from their DM panels as they stand: when a panel offers a
decision, the person thinks for a random time, uniform in ``--think`` (2-8 s), then
clicks or picks from it (several clicks for an exchange or a wish), seeded. After
``--warm`` seconds of play, the bench measures ``--window`` seconds:

- **click → panel**: for every click and menu choice on a DM panel, from the
  INTERACTION_CREATE sent to the moment the emulator applied the clicker's panel
  redrawn (the edit through the click's token), p50, p95, p99 and max, and the first
  response (the deferral);
- the decisions made a minute per table, each process's CPU (the shard-0 process with
  its worker process, the other, PostgreSQL) and how long shard 0's event loop waited
  for a CPU;
- the DM messages per person (panel, deal summaries, results: what notifies them) and
  per deal begun at their table, the panel edits per person a minute, and how far
  behind the others' panels were (a panel edit's lag after the change it shows is not
  measured; the edits a minute say how often they move).

Goal (issue 53): click → panel p99 at most 300 ms with 100 tables; DM messages per
person per deal at most 1.8 (a thread's hand messages today).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psutil

from bot.render import filename
from bot.tables import ids
from bot.views.queue import READY_ACTIONS
from tests.bot.driver import Person, actionable
from tests.emulator.errors import NoResponseError
from tests.emulator.ratelimits import RateLimits
from tests.emulator.server import DiscordEmulator
from tools.bench_bot import percentile
from tools.bench_queue import (
    Seat,
    add_bot_options,
    pace_of,
    people_of,
    seat_everyone,
    start_bots,
)
from tools.bench_shards import CpuMeter, create_database, loop_lag, postgres, run_delay

GOAL_P99_MS = 300.0
GOAL_PER_DEAL = 1.8
SLOW_CLICK = 0.5
"""A click this slow (s) or slower is counted apart in the breakdown by kind."""
STALL = 120.0
"""Seconds a person waits for their panel to ask something before looking again."""


@dataclass
class Tally:
    decisions: int = 0
    slow: int = 0
    changed_under: int = 0
    refusals: list[str] = field(default_factory=list)


@dataclass
class DirectFigures:
    tables: int
    people: int
    seated: int
    setup: float
    clicks: list[float]
    first: list[float]
    unanswered: int
    decisions: int
    window: float
    cpu: dict[str, float]
    wait0: float
    helpers_wait: float
    """Seconds a second shard 0's worker processes were ready but waiting for a CPU, in all."""
    lag_p99_ms: float
    load: tuple[float, float, float]
    messages: float
    per_deal: float
    edits_per_minute: float
    refusals: list[str] = field(default_factory=list)
    slow: int = 0
    rest_429: int = 0
    kinds: dict[str, list[float]] = field(default_factory=dict)
    """The click → panel latencies by the kind of click: its custom id's action."""


async def play(emu: DiscordEmulator, seat: Seat, rng: random.Random,
               think: tuple[float, float], stop: asyncio.Event, tally: Tally) -> None:
    """One person at their DM panel: whenever it asks, think, then decide from it."""
    person = Person(emu, seat.user, rng, panel=seat.panel)
    panel = seat.panel
    channel = panel.channel_id
    while not stop.is_set():
        def ready(p: Any = panel) -> bool:
            return stop.is_set() or actionable(p)

        try:
            await emu.wait_for(ready, STALL, what="a decision on the DM panel",
                               channel=channel)
        except TimeoutError:
            continue
        if stop.is_set():
            return
        await asyncio.sleep(rng.uniform(*think))
        if stop.is_set() or not actionable(panel):
            continue
        refused = len(person.refusals)
        try:
            await person.decide(panel)
        except NoResponseError:
            tally.slow += 1  # not answered within the driver's 30 s
            continue
        except AssertionError:
            tally.changed_under += 1  # the panel changed between two steps of a decision
            continue
        tally.refusals.extend(person.refusals[refused:])
        tally.decisions += 1


def panel_click(record: Any) -> bool:
    """A click or menu choice on a table's DM panel (not a ready check's)."""
    if record.name:
        return False
    parsed = ids.parse(str(record.data.get("custom_id", "")))
    return parsed is not None and parsed.action not in READY_ACTIONS


def kind_of(record: Any) -> str:
    """A click's kind: its custom id's action (``play``, ``ex``, ``pass``...)."""
    parsed = ids.parse(str(record.data.get("custom_id", "")))
    return parsed.action if parsed is not None else "?"


def by_kind(records: Sequence[Any]) -> dict[str, list[float]]:
    """The click → panel latencies of ``records`` grouped by :func:`kind_of`."""
    kinds: dict[str, list[float]] = {}
    for r in records:
        if r.seen_latency is not None:
            kinds.setdefault(kind_of(r), []).append(r.seen_latency)
    return kinds


def dm_counts(emu: DiscordEmulator, seats: Sequence[Seat], mono0: float,
              mono1: float) -> tuple[float, float, float]:
    """DM messages per person since seated (the panel and what came under it); the most
    of any person per deal begun at their table (the deals' summaries, known by their
    picture, each end a deal; one more is in play unless the game's result came); and
    the panel edits per person a minute in the window."""
    summary, result = filename("deal"), filename("game-over")
    posted, ratios = [], []
    for seat in seats:
        if seat.panel is None:
            continue
        after = [m for m in emu.channel_index(seat.panel.channel_id)
                 if m.author.id == emu.bot.id and m.id >= seat.panel.id and not m.ephemeral]
        names = [{a.filename for a in m.attachments} for m in after]
        ended = sum(1 for n in names if summary in n)
        over = any(result in n for n in names)
        posted.append(len(after))
        ratios.append(len(after) / max(ended + (0 if over else 1), 1))
    panels = {str(s.panel.id) for s in seats if s.panel is not None}
    edits = sum(1 for call in emu.rest_calls
                if call.method == "PATCH" and mono0 <= call.at < mono1
                and call.path.rstrip("/").rsplit("/", 1)[-1] in panels)
    n = max(len(posted), 1)
    minutes = max((mono1 - mono0) / 60, 1e-9)
    return sum(posted) / n, max(ratios, default=0.0), edits / n / minutes


async def run(n: int, *, pg: Any, processes: int = 2, think: tuple[float, float] = (2.0, 8.0),
              warm: float = 10.0, window: float = 60.0, pace: float = 15.0, workers: int = 1,
              delay: float = 1.2, seed: int = 1, setup_timeout: float = 600.0) -> DirectFigures:
    name = f"direct_{n}_{int(time.time() * 1000)}"
    await create_database(str(pg.get_uri()), name)
    url = str(pg.get_uri(name))
    # The people play from when all are seated: the tables' turn timers (QUEUE_TURN_TIMER)
    # must not hand the first seated people's seats to computers while the last are
    # seated (and put them out: the away rule).
    settings = {"WORKER_PROCESSES": str(workers), "REST_WRITES_PER_SECOND": str(pace),
                "QUEUE_WAVE_INTERVAL": "1", "QUEUE_TURN_TIMER": "3600"}
    async with DiscordEmulator(shard_count=processes,
                               rate_limits=RateLimits(global_limit=50)) as emu:
        seats = people_of(emu, 4 * n, "one", random.Random(seed), processes)
        bots = await start_bots(emu, url, processes, settings, delay)
        try:
            setup = await seat_everyone(emu, seats, seed, (0.2, 1.0), setup_timeout)
            seated = [s for s in seats if s.panel is not None]
            print(f"   {len(seated)} of {len(seats)} people seated at their DM tables in "
                  f"{setup:.0f} s", flush=True)
            stop, tally = asyncio.Event(), Tally()
            rng = random.Random(seed + 1)
            tasks = [asyncio.create_task(play(emu, s, random.Random(rng.random()), think,
                                              stop, tally)) for s in seated]
            await asyncio.sleep(warm)
            shard0 = psutil.Process(bots.procs[0].pid)
            meter = CpuMeter({"shard 0": [shard0],
                              "others": [psutil.Process(b.pid) for b in bots.procs[1:]],
                              "postgres": [psutil.Process(pg.get_pid())],
                              "bench": [psutil.Process()]})
            lag: list[float] = []
            lag_stop = asyncio.Event()
            lag_task = asyncio.create_task(loop_lag(lag, lag_stop))
            wait0 = run_delay(shard0.pid)
            helpers = [c.pid for c in shard0.children(recursive=True)]
            helpers0 = sum(run_delay(pid) for pid in helpers)
            cpu0, t0, mono0 = meter.sample(), time.perf_counter(), time.monotonic()
            decisions0 = tally.decisions
            await asyncio.sleep(window)
            cpu1, elapsed, mono1 = meter.sample(), time.perf_counter() - t0, time.monotonic()
            waited = (run_delay(shard0.pid) - wait0) / elapsed
            helpers_waited = (sum(run_delay(pid) for pid in helpers) - helpers0) / elapsed
            decisions = tally.decisions - decisions0
            load = os.getloadavg()
            lag_stop.set()
            stop.set()
            emu.notify()
            await lag_task
            _, late = await asyncio.wait(tasks, timeout=60)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        finally:
            await bots.stop()
        measured = [r for r in emu.interactions if r.dispatched_at is not None
                    and mono0 <= r.dispatched_at < mono1 and panel_click(r)]
        messages, per_deal, edits = dm_counts(emu, seated, mono0, mono1)
        cpu = {k: (cpu1[k] - cpu0[k]) / elapsed for k in cpu1}
        return DirectFigures(
            tables=n, people=len(seats), seated=len(seated), setup=setup,
            clicks=[r.seen_latency for r in measured if r.seen_latency is not None],
            first=[r.latency for r in measured if r.latency is not None],
            unanswered=sum(1 for r in measured if r.seen_latency is None),
            decisions=decisions, window=elapsed, cpu=cpu, wait0=waited,
            helpers_wait=helpers_waited,
            lag_p99_ms=percentile(lag, 0.99) * 1000, load=load, messages=messages,
            per_deal=per_deal, edits_per_minute=edits, refusals=tally.refusals,
            slow=tally.slow, rest_429=len(emu.rate_limited), kinds=by_kind(measured))


def ms(values: Sequence[float], share: float) -> str:
    return f"{percentile(list(values), share) * 1000:.0f}"


def report(rows: Sequence[DirectFigures], *, think: tuple[float, float], delay: float,
           processes: int, pace: float) -> None:
    print(f"Tables of four people in their DMs, all on shard 0's process ({processes} bot "
          f"processes on PostgreSQL, REST_WRITES_PER_SECOND={pace:g} each, one worker "
          f"process each); people think {think[0]:g}-{think[1]:g} s; "
          f"{psutil.cpu_count()} cores shared with everything else running")
    print(f"{'tables':>6} {'clicks':>6} {'click → panel p50':>17} {'p95':>5} {'p99':>6} "
          f"{'max':>6} {'1st resp p99':>12} {'dec/table/min':>13} "
          f"{'cores: shard0 other pg':>22} {'CPU wait':>8} {'DMs/p/deal':>10} "
          f"{'edits/p/min':>11} {'load':>5}")
    for f in rows:
        cpu = f"{f.cpu['shard 0']:.2f} {f.cpu['others']:.2f} {f.cpu['postgres']:.2f}"
        rate = f.decisions * 60 / max(f.window, 1e-9) / max(f.tables, 1)
        print(f"{f.tables:>6} {len(f.clicks):>6} {ms(f.clicks, 0.5):>17} "
              f"{ms(f.clicks, 0.95):>5} {ms(f.clicks, 0.99):>6} "
              f"{max(f.clicks, default=0) * 1000:>6.0f} {ms(f.first, 0.99):>12} "
              f"{rate:>13.2f} {cpu:>22} {f.wait0:>8.0%} {f.per_deal:>10.2f} "
              f"{f.edits_per_minute:>11.1f} {f.load[0]:>5.1f}")
    for f in rows:
        print(f"  {f.tables} tables: this process (the emulated Discord and the people) used "
              f"{f.cpu['bench']:.2f} cores, its event loop late by p99 {f.lag_p99_ms:.0f} ms; "
              f"shard 0's worker processes waited for a CPU {f.helpers_wait:.0%} of the time; "
              f"DM messages per person since seated: {f.messages:.2f}")
        if f.seated < f.people or f.unanswered or f.refusals or f.slow or f.rest_429:
            print(f"  {f.tables} tables: {f.people - f.seated} people not seated in the set-up "
                  f"({f.setup:.0f} s); clicks without their panel by the end: {f.unanswered}; "
                  f"answered after 30 s: {f.slow}; refusals: "
                  f"{Counter(f.refusals).most_common(2)}; 429s: {f.rest_429}")
    for f in rows:
        print(f"  {f.tables} tables, click → panel by kind (custom id's action): "
              f"{'kind':>8} {'clicks':>6} {'p50':>5} {'p95':>5} {'p99':>5} {'max':>5} "
              f"{'≥500 ms':>7}")
        for kind, values in sorted(f.kinds.items(), key=lambda kv: -len(kv[1])):
            slow = sum(1 for v in values if v >= SLOW_CLICK)
            print(f"  {'':>{len(str(f.tables)) + 44}} {kind:>8} {len(values):>6} "
                  f"{ms(values, 0.5):>5} {ms(values, 0.95):>5} {ms(values, 0.99):>5} "
                  f"{max(values) * 1000:>5.0f} {slow:>7}")
    goal = [f for f in rows if f.tables == 100]
    if goal:
        p99 = percentile(goal[0].clicks, 0.99) * 1000
        met = "met" if p99 <= GOAL_P99_MS and goal[0].per_deal <= GOAL_PER_DEAL else "NOT met"
        print(f"Goal at 100 tables, click → panel p99 ≤ {GOAL_P99_MS:g} ms and DM messages "
              f"per person per deal ≤ {GOAL_PER_DEAL:g}: {met} ({p99:.0f} ms, "
              f"{goal[0].per_deal:.2f}).")
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        print(f"Growth {first.tables} → {last.tables} tables: click → panel p99 ×"
              f"{percentile(last.clicks, 0.99) / max(percentile(first.clicks, 0.99), 1e-9):.1f}"
              f", shard 0's cores ×{last.cpu['shard 0'] / max(first.cpu['shard 0'], 1e-9):.1f}")
    print("click → panel: INTERACTION_CREATE sent → the clicker's DM panel redrawn (the edit "
          "through the click's token), in the measured window. DMs/p/deal: the bot's DM "
          "messages to a person since seated (panel, summaries, result) per deal begun at "
          "their table, the most of any person. Cores: CPU in the window (shard 0's with its "
          "worker). CPU wait: the share of the window shard 0's event loop was ready but "
          "waiting for a CPU.")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_direct",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="100",
                        help="comma-separated sizes (tables of four people in DMs), each on "
                        "a fresh database")
    parser.add_argument("--think", default="2,8", help="a person's think time, min,max s")
    parser.add_argument("--warm", type=float, default=10.0,
                        help="seconds of play before the window")
    parser.add_argument("--window", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bots, s")
    add_bot_options(parser)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.tables.split(",") if s.strip()]
    low, high = (float(x) for x in args.think.split(","))
    pace = pace_of(args)
    rows = []
    with postgres("bench-direct-") as pg:
        for n in sizes:
            print(f"-- {n} tables", flush=True)
            rows.append(asyncio.run(run(
                n, pg=pg, processes=args.processes, think=(low, high), warm=args.warm,
                window=args.window, pace=pace, delay=args.delay, seed=args.seed)))
            report(rows[-1:], think=(low, high), delay=args.delay, processes=args.processes,
                   pace=pace)  # each size as it comes; all of them at the end
            print(flush=True)
    report(rows, think=(low, high), delay=args.delay, processes=args.processes, pace=pace)


if __name__ == "__main__":
    main()
