"""Many tables at once through the local Discord: response latency and memory per table.

The bot runs as its own process (``python -m bot``), pointed at a local Discord
emulator by ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, as it would be
pointed at a gateway proxy in production. ``N`` tables (50 by default) each
seat one person and three computer players (``AI_DELAY`` as in production).
The people act when the bot pings them, through buttons and menus like the
tests do. The emulator records, for every interaction, the time from its
dispatch to the bot's first response. Run: ``python -m tools.bench_bot``.

The helpers here (starting the bot, opening a table, memory, percentiles) are
shared with ``tools.bench_shards`` (1,000 tables, two processes, PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tests.bot.driver import Person, component
from tests.emulator.server import DiscordEmulator


def custom_id(message: Any, action: str, kind: str = "b") -> str:
    """The custom ID of the button (``b``) or select (``s``) of ``message`` for ``action``,
    which it must have."""
    item = component(message, action, kind)
    if item is None:
        raise LookupError(f"no {action!r} component on message {message.id}")
    return str(item.custom_id)


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (Linux)."""
    with open(f"/proc/{pid}/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank); 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def start_bot(emu: DiscordEmulator, database: str, delay: float,
                    **settings: str) -> asyncio.subprocess.Process:
    """``python -m bot`` against ``emu``; ``settings`` are more environment keys (upper case)."""
    env = {**os.environ, "DISCORD_TOKEN": emu.bot_token, "DISCORD_API_BASE": emu.api_base,
           "DISCORD_GATEWAY_URL": emu.gateway_url, "DATABASE": database,
           "AI_DELAY": str(delay), "LOG_LEVEL": "WARNING", **settings}
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env)


async def open_table(emu: DiscordEmulator, channel: Any, user: Any) -> int:
    """Open a Tichu table in ``channel``, seat three computers beside ``user`` and start
    it, through the lobby's menus and buttons; the id of the table's thread."""
    lobby = await (await emu.slash(user, channel, "tichu new", target=1000)).response()
    for seat, level in ((1, "normal"), (2, "easy"), (3, "normal")):
        cpu = custom_id(lobby, "cpu", "s")
        await (await emu.select(user, lobby, cpu, [f"{seat}.{level}"])).response()
    await (await emu.click(user, lobby, custom_id(lobby, "start"))).response()
    return int(lobby.id)  # a thread started from a message has the message's id


def table_message(emu: DiscordEmulator, thread_id: int) -> Any:
    """The table's message (the one with "My hand") in its thread, or None yet."""
    for message in emu.channel_messages(thread_id):
        if component(message, "hand") is not None:
            return message
    return None


async def one_table(emu: DiscordEmulator, channel: Any, user: Any, decisions: int,
                    seed: int, delay: float = 0.0) -> int:
    """Open a table, fill it with computers, start, and answer ``decisions`` pings."""
    await asyncio.sleep(delay)
    thread_id = await open_table(emu, channel, user)
    person = Person(emu, user, random.Random(seed))
    last = 0
    done = 0

    def next_ping() -> Any:
        for message in emu.channel_messages(thread_id):
            if message.id > last and user.id in message.mentions():
                return message
        return None

    while done < decisions:
        ping = await emu.wait_for(next_ping, timeout=300, what="a ping", channel=thread_id)
        last = ping.id
        message = await emu.wait_for(lambda: table_message(emu, thread_id), timeout=60,
                                     what="the table message", channel=thread_id)
        await person.act(message)  # from the open hand panel, as soon as it asks
        done += 1
    return done


def print_rest(emu: DiscordEmulator, actions: int) -> None:
    """The REST figures of a run: calls and upload per action, 429s, busiest channel."""
    print_rest_summary(emu.rest_summary(), actions)


class Probe(Protocol):
    """What a bench built on :func:`live_run` looks at around the measured window."""

    async def window_start(self, pid: int) -> None:
        """The bot (``pid``) is up and warm; the tables open next."""

    def window_end(self, pid: int) -> Awaitable[None] | None:
        """The tables are done; the bot still runs (it may wait, awaitable)."""

    def database(self, path: Path) -> None:
        """The bot has stopped; its SQLite file is still there."""


@dataclass
class LiveRun:
    """One run of :func:`live_run`: what :func:`bench` prints."""

    tables: int
    decisions: int
    delay: float
    answered: int
    elapsed: float
    latencies: list[float]
    """Seconds from dispatch to first response, every answered interaction."""
    clicks: list[float]
    """The same for clicks and menus only (no slash commands)."""
    stats: dict[str, Any]
    rss_before: float
    rss_after: float
    actions: int
    rest: dict[str, Any] = field(default_factory=dict)
    violations: list[Any] = field(default_factory=list)
    display: dict[str, int] = field(default_factory=dict)
    """The emulator's :meth:`~DiscordEmulator.display_report`: images sent, with alt text,
    messages Discord would show cropped, display breaches."""


async def live_run(n: int, decisions: int, delay: float, settings: Mapping[str, str] | None = None,
                   probe: Probe | None = None, database_url: str | None = None) -> LiveRun:
    """``n`` tables of one person and three computers each through the real bot process
    (``settings``: more of its environment keys), each person answering ``decisions``
    pings; tables open a fifth of a second apart after one warm-up table. On an SQLite
    file of its own, or on ``database_url`` (PostgreSQL: no action count)."""
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.sqlite3"
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Bench")
            channels, users = [], []
            for i in range(n):
                channels.append(emu.add_text_channel(guild, f"t{i}"))
                users.append(emu.add_user(f"p{i}"))
                emu.add_member(guild, users[-1])
            bot = await start_bot(emu, database_url or str(database), delay,
                                  **(settings or {}))
            try:
                await emu.wait_for_commands(["tichu"], timeout=60)
                await emu.wait_until_ready(60)
                # One table first, so that fonts, card sprites and the palette are loaded
                # before memory is measured: what follows is the cost of each table.
                warm = emu.add_text_channel(guild, "warm-up")
                await one_table(emu, warm, users[0], 3, n)
                if probe is not None:
                    await probe.window_start(bot.pid)
                first = len(emu.interactions)
                before = rss_mb(bot.pid)
                start = time.perf_counter()
                # Tables open a fifth of a second apart, as people arrive, not all at once.
                counts = await asyncio.gather(*(
                    one_table(emu, channels[i], users[i], decisions, i, i * 0.2)
                    for i in range(n)))
                elapsed = time.perf_counter() - start
                after = rss_mb(bot.pid)
                if probe is not None:
                    ended = probe.window_end(bot.pid)
                    if inspect.isawaitable(ended):
                        await ended
            finally:
                bot.terminate()
                await bot.wait()
            actions = 0
            if database_url is None:
                with sqlite3.connect(database) as db:
                    actions = db.execute("SELECT count(*) FROM actions").fetchone()[0]
            if probe is not None:
                probe.database(database)
            measured = emu.interactions[first:]
            return LiveRun(
                tables=n, decisions=decisions, delay=delay, answered=sum(counts),
                elapsed=elapsed,
                latencies=[r.latency for r in measured if r.latency is not None],
                clicks=[r.latency for r in measured if r.latency is not None and r.name == ""],
                stats=emu.latency_stats(), rss_before=before, rss_after=after,
                actions=actions, rest=emu.rest_summary(), violations=list(emu.violations),
                display=emu.display_report())


def print_rest_summary(rest: dict[str, Any], actions: int) -> None:
    """:func:`print_rest` from a saved :meth:`DiscordEmulator.rest_summary`."""
    actions = max(actions, 1)
    print(f"REST: {rest['calls'] / actions:.2f} calls and "
          f"{rest['kb_uploaded'] / actions:.1f} KB uploaded per action ({actions} "
          f"actions); 429s: {rest['rate_limited']} "
          f"({rest['rate_limited'] * 1000 / actions:.2f} per 1,000 actions, "
          f"{rest['rate_limited_global']} global); most message writes in 5 s in one "
          f"channel: {rest['max_writes_5s']}; peak {rest['peak_per_second']} requests/s")


async def bench(n: int, decisions: int, delay: float) -> None:
    run = await live_run(n, decisions, delay)
    stats, in_game = run.stats, run.clicks
    print(f"{n} concurrent tables (1 person + 3 computers each, AI_DELAY={delay}s), "
          f"{run.answered} decisions by people in {run.elapsed:.0f} s")
    print(f"interaction → first response: p50 {stats['p50_ms']:.1f} ms, "
          f"p99 {stats['p99_ms']:.1f} ms, max {stats['max_ms']:.1f} ms "
          f"over {stats['count']} interactions")
    if in_game:
        print(f"  of which clicks and menus: p50 {percentile(in_game, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(in_game, 0.99) * 1000:.1f} ms over {len(in_game)}")
    print(f"bot memory: {(run.rss_after - run.rss_before) / n * 1024:.0f} KiB per table "
          f"(bot RSS {run.rss_before:.0f} → {run.rss_after:.0f} MiB)")
    print_rest_summary(run.rest, run.actions)
    shown = run.display
    print(f"images: {shown['images_sent']} sent, {shown['images_with_alt_text']} with alt "
          f"text; messages shown cropped: {shown['messages_cropped']}; display breaches: "
          f"{shown['breaches']}")
    if run.violations:
        print(f"Discord limits broken: {run.violations}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_bot")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--decisions", type=int, default=12,
                        help="how many pings each person answers")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bot")
    args, _ = parser.parse_known_args()
    asyncio.run(bench(args.tables, args.decisions, args.delay))


if __name__ == "__main__":
    main()
