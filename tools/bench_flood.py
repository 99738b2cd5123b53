"""A flood through the local Discord: one person sends 50 commands a second for 30 s while
20 tables play (issue 51, finding 4).

The real bot process (``python -m bot``, production settings: ``INTERACTION_RATE=2``,
``INTERACTION_BURST=20``, ``TABLES_PER_PERSON=5``) against the local Discord, as
:func:`tools.bench_bot.live_run` runs it (its helpers :func:`~tools.bench_bot.start_bot`,
:func:`~tools.bench_bot.open_table` and :func:`~tools.bench_bot.percentile`): ``--tables``
tables of one person and three computers each open, then for ``--seconds`` their people
answer their pings from their hand panels. In the *flood* run one more person, who has
already opened their five tables, sends ``--rate`` commands a second meanwhile, the
heaviest the bot has in turn (``/tichu new duplicate:12``, ``/tichu new``,
``/tichu stats``, ``/tichu leaderboard``, ``/tichu history``, ``/tichu rules``); the
*quiet* run is the same without them. The runs alternate (ABBA over ``--rounds``) so that
the machine's other load falls on both, and deal the same deals: the bot's table seeds
come from one seeded generator in both (a ``sitecustomize`` of this bench's, on the bot's
``PYTHONPATH`` only, seeds ``secrets.token_hex(8)``), and each person chooses from a
generator seeded by their table's number.

Printed first, with no table playing: the CPU of one command of the flood, in the bot and
in the local Discord (10 s of it against 10 s idle), for the flood's commands, for
``/tichu rules`` (nearly all refused by the pace) and for ``/tichu rules`` with no limit
(``INTERACTION_RATE=0``: each answered in full). Then the others' clicks (clicks and
menus of the 20 tables' people dispatched in the window), p50 and p99 from dispatch to
the bot's first answer, per run and pooled per condition, with the flood's p99 against
the quiet one's (goal: within 10%); what the flood got (answers, refusals by kind, the bot's count of throttled interactions, any
Discord limit broken); and the rows the flood wrote: every table of the SQLite store
counted before and after the window, less the rows of the 20 tables' own play (rows
tied to their table ids), and the field jobs the bot's metrics count (goal: none).

Run ``python -m tools.bench_flood`` (in ``make bench``). Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import re
import socket
import sqlite3
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from bot.i18n import t
from tests.bot.driver import Person
from tests.emulator.server import DiscordEmulator
from tools.bench_bot import open_table, percentile, start_bot, table_message

TABLES = 20
SECONDS = 30.0
RATE = 50.0
DELAY = 1.2
"""``AI_DELAY`` as in production."""
COMMANDS: dict[str, tuple[str, dict[str, Any]]] = {
    "duplicate": ("tichu new", {"duplicate": 12}), "new": ("tichu new", {}),
    "stats": ("tichu stats", {}), "leaderboard": ("tichu leaderboard", {}),
    "history": ("tichu history", {}), "rules": ("tichu rules", {})}
"""What the flood may send (``--commands``); by default all of them in turn: every
command that would write, draw or read most."""
OWN_TABLES = 5
"""The flooder's own open tables, opened before the window: ``TABLES_PER_PERSON``."""
SITECUSTOMIZE = '''\
import os, random, secrets
_seed = os.environ.get("BENCH_DEAL_SEED")
if _seed is not None:
    _rng = random.Random(_seed)
    _token_hex = secrets.token_hex
    def _seeded(nbytes=None):
        return _rng.randbytes(8).hex() if nbytes == 8 else _token_hex(nbytes)
    secrets.token_hex = _seeded
'''


@dataclass
class FloodRun:
    """One run: the others' click latencies, and what the flood got and wrote."""

    flood: bool
    clicks: list[float]
    sent: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    flood_latencies: list[float] = field(default_factory=list)
    throttled: dict[str, float] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    """Rows written in the window by table of the store, less the 20 tables' own play."""
    field_jobs: float = 0.0
    violations: list[Any] = field(default_factory=list)
    bot_cpu: float = 0.0
    """CPU seconds of the bot process and its workers in the window."""
    bench_cpu: float = 0.0
    """CPU seconds of this process (the local Discord, the people, the flood) in it."""


def cpu_seconds(pid: int) -> float:
    """CPU seconds so far of process ``pid`` and its children (the bot's workers)."""
    process = psutil.Process(pid)
    total = 0.0
    for each in (process, *process.children(recursive=True)):
        try:
            times = each.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def metrics(port: int) -> dict[str, float]:
    """The bot's Prometheus figures, by sample name with its labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    found = {}
    for line in text.splitlines():
        match = re.match(r"^([a-z_]+(?:\{[^}]*\})?) ([-+0-9.eE]+|NaN)$", line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


def field_jobs(figures: dict[str, float]) -> float:
    """Field jobs the queue holds or has made (queued, running, done, failed)."""
    return sum(figures.get(f'tichu_jobs_{what}{{kind="field"}}', 0.0)
               for what in ("queued", "running", "done", "failed"))


def rows_apart_from(database: Path, players: set[int]) -> dict[str, int]:
    """Rows of every table of the store, less those of the tables the ``players`` host
    (their own play: rows tied to those tables' ids, and to their finished games)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        hosts = ", ".join(str(p) for p in players)
        play = f"SELECT id FROM tables WHERE host_id IN ({hosts})"
        games = f"SELECT id FROM games WHERE table_id IN ({play})"
        counts = {}
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                  "AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall():
            columns = {row[1] for row in db.execute(f'PRAGMA table_info("{name}")')}
            where = ""
            if name == "tables":
                where = f" WHERE id NOT IN ({play})"
            elif "table_id" in columns:
                where = f" WHERE table_id NOT IN ({play})"
            elif "game_id" in columns:
                where = f" WHERE game_id NOT IN ({games})"
            counts[name] = int(db.execute(f'SELECT COUNT(*) FROM "{name}"{where}').fetchone()[0])
        return counts


async def play(emu: DiscordEmulator, thread_id: int, user: Any, seed: int) -> None:
    """A person answering each ping at their table from their hand panel, until
    cancelled (the loop of :func:`tools.bench_bot.one_table`, the table already open)."""
    person = Person(emu, user, random.Random(seed))
    last = 0

    def next_ping() -> Any:
        for message in emu.channel_messages(thread_id):
            if message.id > last and user.id in message.mentions():
                return message
        return None

    while True:
        ping = await emu.wait_for(next_ping, timeout=300, what="a ping", channel=thread_id)
        last = ping.id
        message = await emu.wait_for(lambda: table_message(emu, thread_id), timeout=60,
                                     what="the table message", channel=thread_id)
        await person.act(message)


async def flood(emu: DiscordEmulator, user: Any, channel: Any, rate: float,
                seconds: float, commands: list[str]) -> list[Any]:
    """``rate`` commands a second for ``seconds`` (``commands`` in turn), each sent on time
    whatever the answers."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    handles = []
    for k in range(round(rate * seconds)):
        wait = start + k / rate - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        name, options = COMMANDS[commands[k % len(commands)]]
        handles.append(await emu.slash(user, channel, name, **options))
    return handles


def kind_of(handle: Any) -> str:
    """What one flood command got: the pace's sentence, another refusal, or its answer."""
    record = handle.record
    if record.response_type is None:
        return "unanswered"
    message = handle.message
    content = message.content if message is not None else ""
    if content == t("en", "error.too_fast"):
        return "too fast"
    if content == t("en", "error.too_many_open", limit=OWN_TABLES):
        return "refused: open tables"
    return "answered"


async def one_run(tables: int, seconds: float, rate: float, delay: float, *,
                  flooding: bool, seed: str, commands: list[str]) -> FloodRun:
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.sqlite3"
        seeded_deals(Path(tmp))
        port = free_port()
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Bench")
            channels, users = [], []
            for i in range(tables):
                channels.append(emu.add_text_channel(guild, f"t{i}"))
                users.append(emu.add_user(f"p{i}"))
                emu.add_member(guild, users[-1])
            flooder = emu.add_user("flood")
            emu.add_member(guild, flooder)
            own = emu.add_text_channel(guild, "flood")
            bot = await start_bot(emu, str(database), delay, PYTHONPATH=tmp,
                                  BENCH_DEAL_SEED=seed, METRICS_PORT=str(port),
                                  SWEEP_INTERVAL="3600")
            try:
                await emu.wait_for_commands(["tichu"], timeout=60)
                await emu.wait_until_ready(60)
                warm = emu.add_text_channel(guild, "warm-up")
                await open_table(emu, warm, users[0])
                for _ in range(OWN_TABLES):  # the flooder's own tables: at its limit
                    await (await emu.slash(flooder, own, "tichu new")).response()
                threads = await asyncio.gather(*(
                    _open_later(emu, channels[i], users[i], i * 0.2) for i in range(tables)))
                await asyncio.sleep(2 * delay + 2)  # the first pings out, the metrics read
                players = {u.id for u in users}
                before = rows_apart_from(database, players)
                figures = metrics(port)
                first = len(emu.interactions)
                # The local Discord keeps every message and interaction: without this, a
                # full collection of its heap, not the bot, would stall the clicks measured.
                gc.collect()
                gc.freeze()
                cpu_before, bench_before = cpu_seconds(bot.pid), time.process_time()
                start = time.monotonic()
                people = [asyncio.create_task(play(emu, threads[i], users[i], i))
                          for i in range(tables)]
                sent: list[Any] = []
                if flooding:
                    sent = await flood(emu, flooder, own, rate, seconds, commands)
                await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))
                end = time.monotonic()
                cpu_after, bench_after = cpu_seconds(bot.pid), time.process_time()
                gc.unfreeze()
                for task in people:
                    task.cancel()
                await asyncio.gather(*people, return_exceptions=True)
                await asyncio.gather(*(h.ack(timeout=10) for h in sent), return_exceptions=True)
                await asyncio.sleep(2.5)  # the watch (every 2 s) sets the job figures
                after = rows_apart_from(database, players)
                figures_after = metrics(port)
            finally:
                bot.terminate()
                await bot.wait()
            window = [r for r in emu.interactions[first:]
                      if r.user.id in players and r.name == "" and r.latency is not None
                      and r.dispatched_at is not None and start <= r.dispatched_at <= end]
            run = FloodRun(flood=flooding, clicks=[r.latency for r in window
                                                   if r.latency is not None])
            run.sent = len(sent)
            run.answers = Counter(kind_of(h) for h in sent)
            run.flood_latencies = [h.record.latency for h in sent
                                   if h.record.latency is not None]
            run.throttled = {answer: figures_after.get(
                f'tichu_interactions_throttled_total{{answer="{answer}"}}', 0.0) - figures.get(
                f'tichu_interactions_throttled_total{{answer="{answer}"}}', 0.0)
                for answer in ("tell", "quiet")}
            run.rows = {name: after[name] - before.get(name, 0) for name in after
                        if after[name] != before.get(name, 0)}
            run.field_jobs = field_jobs(figures_after) - field_jobs(figures)
            run.violations = list(emu.violations)
            run.bot_cpu, run.bench_cpu = cpu_after - cpu_before, bench_after - bench_before
            return run


async def _open_later(emu: DiscordEmulator, channel: Any, user: Any, wait: float) -> int:
    await asyncio.sleep(wait)  # tables open a fifth of a second apart, as people arrive
    return await open_table(emu, channel, user)


async def cost(seconds: float, rate: float, commands: list[str],
               **settings: str) -> tuple[float, float, int]:
    """CPU seconds of one flood command, in the bot (its process and workers) and in this
    process (the local Discord and the flood), with no table playing (the flooder's own
    lobbies open, as in the measured runs): ``seconds`` idle, then ``seconds`` of flood,
    each less the idle's share; and how many commands were sent."""
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Bench")
            flooder = emu.add_user("flood")
            emu.add_member(guild, flooder)
            own = emu.add_text_channel(guild, "flood")
            bot = await start_bot(emu, str(Path(tmp) / "bench.sqlite3"), DELAY,
                                  SWEEP_INTERVAL="3600", **settings)
            try:
                await emu.wait_for_commands(["tichu"], timeout=60)
                await emu.wait_until_ready(60)
                for _ in range(OWN_TABLES):  # the flooder's own tables: at its limit
                    await (await emu.slash(flooder, own, "tichu new")).response()
                await asyncio.sleep(10)  # start-up done, the flooder's pace back to full
                bot0, here0 = cpu_seconds(bot.pid), time.process_time()
                await asyncio.sleep(seconds)
                bot1, here1 = cpu_seconds(bot.pid), time.process_time()
                sent = await flood(emu, flooder, own, rate, seconds, commands)
                await asyncio.gather(*(h.ack(timeout=10) for h in sent), return_exceptions=True)
                bot2, here2 = cpu_seconds(bot.pid), time.process_time()
            finally:
                bot.terminate()
                await bot.wait()
    n = max(len(sent), 1)
    return ((bot2 - bot1) - (bot1 - bot0)) / n, ((here2 - here1) - (here1 - here0)) / n, n


def order(rounds: int) -> list[bool]:
    """Whether each run floods: quiet and flood in turns, ABBA (``rounds`` pairs)."""
    return ([False, True, True, False] * rounds)[:2 * rounds]


def seeded_deals(folder: Path) -> None:
    """Write the ``sitecustomize`` that seeds a bot process's table seeds from
    ``BENCH_DEAL_SEED`` into ``folder`` (put on that process's ``PYTHONPATH`` only)."""
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.1f} ms"


async def bench(tables: int, seconds: float, rate: float, delay: float, rounds: int,
                seed: str, commands: list[str]) -> None:
    mixed = await cost(10.0, rate, commands)
    refused = await cost(10.0, rate, ["rules"])
    free = await cost(10.0, rate, ["rules"], INTERACTION_RATE="0")
    print(f"  CPU of one command of a {rate:g}/s flood, no table playing (the bot; the local "
          f"Discord): the flood's commands {mixed[0] * 1000:.2f} ms; {mixed[1] * 1000:.2f} ms "
          f"(the admitted ones' work included); /tichu rules, nearly all refused "
          f"{refused[0] * 1000:.2f} ms; {refused[1] * 1000:.2f} ms; /tichu rules, all "
          f"answered with no limit {free[0] * 1000:.2f} ms; {free[1] * 1000:.2f} ms",
          flush=True)
    runs = []
    for flooding in order(rounds):
        run = await one_run(tables, seconds, rate, delay, flooding=flooding, seed=seed,
                            commands=commands)
        runs.append(run)
        label = "flood" if flooding else "quiet"
        print(f"  {label}: others' clicks p50 {ms(run.clicks, 0.5)}, p99 "
              f"{ms(run.clicks, 0.99)} over {len(run.clicks)}; CPU in the window: bot "
              f"{run.bot_cpu:.1f} s, local Discord and people {run.bench_cpu:.1f} s", flush=True)
    quiet = [x for r in runs if not r.flood for x in r.clicks]
    flooded = [x for r in runs if r.flood for x in r.clicks]
    p99_quiet, p99_flood = percentile(quiet, 0.99), percentile(flooded, 0.99)
    change = (p99_flood / p99_quiet - 1) * 100 if p99_quiet else 0.0
    print(f"{tables} tables (1 person + 3 computers each, AI_DELAY={delay:g} s), {seconds:g} s "
          f"measured, {len(runs)} runs (quiet and flood in turns, the same deals and choices); "
          f"the flood: {', '.join(COMMANDS[c][0] + ''.join(f' {k}:{v}' for k, v in COMMANDS[c][1].items()) for c in commands)}")
    print(f"others' clicks, quiet: p50 {ms(quiet, 0.5)}, p99 {ms(quiet, 0.99)} over "
          f"{len(quiet)}; flood: p50 {ms(flooded, 0.5)}, p99 {ms(flooded, 0.99)} over "
          f"{len(flooded)}; p99 {change:+.1f}% (goal: within 10%)")
    for run in (r for r in runs if r.flood):
        answers = ", ".join(f"{count} {kind}" for kind, count in run.answers.most_common())
        print(f"flood: {run.sent} commands from one person in {seconds:g} s "
              f"({run.sent / seconds:.0f}/s): {answers}; first answer p50 "
              f"{ms(run.flood_latencies, 0.5)}, p99 {ms(run.flood_latencies, 0.99)}; "
              f"throttled by the bot: {run.throttled['tell']:.0f} told, "
              f"{run.throttled['quiet']:.0f} quiet")
        written = ", ".join(f"{name} {count:+d}" for name, count in sorted(run.rows.items()))
        print(f"  rows the flood wrote: {sum(run.rows.values())} ({written or 'none'}; "
              f"goal: none); field jobs: {run.field_jobs:.0f}; Discord limits broken: "
              f"{len(run.violations) or 'none'}")
    for run in (r for r in runs if not r.flood and (r.rows or r.violations)):
        print(f"  quiet run: rows {run.rows}, Discord limits broken: {run.violations}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_flood",
        description="One person floods the bot with commands while tables play: the others' "
                    "click p99 against a quiet run, and the rows the flood wrote.")
    parser.add_argument("--tables", type=int, default=TABLES, help="tables that play")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="the measured window")
    parser.add_argument("--rate", type=float, default=RATE,
                        help="the flood's commands a second")
    parser.add_argument("--delay", type=float, default=DELAY, help="AI_DELAY of the bot")
    parser.add_argument("--rounds", type=int, default=2,
                        help="pairs of runs (quiet, flood; then flood, quiet; ...)")
    parser.add_argument("--seed", default="flood", help="the seed of every table's deals")
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help=f"what the flood sends, in turn, among {', '.join(COMMANDS)}")
    # As tools.bench_bot: `make bench` (tools.bench) calls main() with its own command line.
    args = parser.parse_args(argv)
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown or not commands:
        parser.error(f"--commands: unknown {', '.join(unknown) or '(none given)'}")
    asyncio.run(bench(args.tables, args.seconds, args.rate, args.delay, args.rounds,
                      args.seed, commands))


if __name__ == "__main__":
    main()
