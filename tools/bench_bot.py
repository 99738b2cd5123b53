"""Many tables at once through the local Discord: response latency and memory per table.

The bot runs as its own process (``python -m bot``), pointed at a local Discord
emulator by ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, as it would be
pointed at a gateway proxy in production. ``N`` tables (50 by default) each
seat one person and three computer players (``AI_DELAY`` as in production).
The people act when the bot pings them, through buttons and menus like the
tests do. Run: ``python -m tools.bench_bot``.

Two times are measured for every interaction of the measured tables (the emulator's
:class:`~tests.emulator.models.InteractionRecord`), from the moment the emulator sent
its INTERACTION_CREATE to the bot:

* **first response**: until the bot's initial response (the acknowledgement: a click is
  deferred at once, before any work);
* **click → visible result**, for clicks and menu choices: until the emulator applied the
  message that answers it, the one the person sees change (``settled_at``). A click on
  the hand panel is answered by that panel redrawn (the edit of the clicked message
  through the click's token); "My hand" by the new panel; a lobby click by the lobby
  message edited; a refusal by its ephemeral message. It is the whole way from the click
  to what it shows: the table's lock, the game, the store, drawing and encoding the
  panel's picture, and the upload.

For the clicks that make a move (:data:`MOVES`) the bench also gives **move → table
message**: until the first edit of a public message of the bot in the table's thread
after the click (``public_edit_at``: the table message redrawn, which every seat sees).
The bot writes a table message at most once per ``TABLE_EDIT_INTERVAL`` (1.5 s), so this
time is mostly that pause; a play that still waits for its wish counts until the table
shows it.

``--bot-tree PATH`` runs the bot of another source tree (a worktree of an older commit:
``git worktree add --detach /tmp/base-159e36d 159e36d``) against this tree's emulator and
people; ``--baseline PATH`` (repeatable) with ``--rounds N`` runs each bot N times,
interleaved (each round runs every bot once, in an order turned by one place from the
round before: A, B, then B, A; a busy spell of a shared machine slows them all), on the
same tables and seeds, and prints each run and the medians with their spread.

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
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tests.bot.driver import Person, component
from tests.emulator.models import InteractionRecord
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
    return await start_bot_of(None, emu, database, delay, settings)


async def start_bot_of(tree: Path | None, emu: DiscordEmulator, database: str, delay: float,
                       settings: Mapping[str, str]) -> asyncio.subprocess.Process:
    """:func:`start_bot` with the bot of source ``tree`` (None: this one), such as another
    commit's worktree: its ``bot`` and ``engine`` first on the path, run from there, with
    this interpreter's packages."""
    env = {**os.environ, "DISCORD_TOKEN": emu.bot_token, "DISCORD_API_BASE": emu.api_base,
           "DISCORD_GATEWAY_URL": emu.gateway_url, "DATABASE": database,
           "AI_DELAY": str(delay), "LOG_LEVEL": "WARNING", **settings}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(tree.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env,
                                                cwd=tree)


COMPUTERS = ("normal", "easy", "normal")
"""The levels of the computers in seats 1 to 3 of every table, unless said."""
MOVES = frozenset({"nogrand", "exok", "gift", "play", "pass", "wish", "phx", "dog", "tichu",
                   "grand"})
"""The actions of a Tichu panel's clicks that make a move (the others change a choice in
progress, or open something)."""


async def open_table(emu: DiscordEmulator, channel: Any, user: Any,
                     computers: Sequence[str] = COMPUTERS) -> int:
    """Open a Tichu table in ``channel``, seat three computers (of ``computers``' levels)
    beside ``user`` and start it, through the lobby's menus and buttons; the id of the
    table's thread."""
    lobby = await (await emu.slash(user, channel, "tichu new", target=1000)).response()
    for seat, level in enumerate(computers, start=1):
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
                    seed: int, delay: float = 0.0,
                    computers: Sequence[str] = COMPUTERS) -> int:
    """Open a table, fill it with computers, start, and answer ``decisions`` pings."""
    await asyncio.sleep(delay)
    thread_id = await open_table(emu, channel, user, computers)
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
    seen: list[float] = field(default_factory=list)
    """Seconds from a click or menu choice to its visible result (:func:`visible_results`)."""
    table_seen: list[float] = field(default_factory=list)
    """Seconds from a move's click to the next edit of the table message
    (:func:`table_results`)."""


def click_action(record: InteractionRecord) -> str | None:
    """The action of a click's custom ID (``tichu:b:<table>:<seq>:<action>...``), or None."""
    parts = str(record.data.get("custom_id", "")).split(":")
    return parts[4] if record.name == "" and len(parts) > 4 else None


def visible_results(records: Sequence[InteractionRecord]) -> list[float]:
    """Click → visible result: for each click and menu choice answered, the seconds from
    its dispatch to the message that shows its answer (``seen_latency``)."""
    return [r.seen_latency for r in records
            if r.name == "" and r.seen_latency is not None]


def table_results(records: Sequence[InteractionRecord]) -> list[float]:
    """Move → table message: for each click of :data:`MOVES`, the seconds from its
    dispatch to the next edit of a public bot message in its channel."""
    return [r.public_edit_latency for r in records
            if click_action(r) in MOVES and r.public_edit_latency is not None]


async def live_run(n: int, decisions: int, delay: float, settings: Mapping[str, str] | None = None,
                   probe: Probe | None = None, database_url: str | None = None,
                   bot_tree: Path | None = None,
                   computers: Sequence[str] = COMPUTERS) -> LiveRun:
    """``n`` tables of one person and three computers each through the real bot process
    (``settings``: more of its environment keys; ``bot_tree``: another source tree's bot),
    each person answering ``decisions`` pings; tables open a fifth of a second apart after
    one warm-up table. On an SQLite file of its own, or on ``database_url`` (PostgreSQL:
    no action count)."""
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.sqlite3"
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Bench")
            channels, users = [], []
            for i in range(n):
                channels.append(emu.add_text_channel(guild, f"t{i}"))
                users.append(emu.add_user(f"p{i}"))
                emu.add_member(guild, users[-1])
            bot = await start_bot_of(bot_tree, emu, database_url or str(database), delay,
                                     settings or {})
            try:
                await emu.wait_for_commands(["tichu"], timeout=60)
                await emu.wait_until_ready(60)
                # One table first, so that fonts, card sprites and the palette are loaded
                # before memory is measured: what follows is the cost of each table.
                warm = emu.add_text_channel(guild, "warm-up")
                await one_table(emu, warm, users[0], 3, n, computers=computers)
                if probe is not None:
                    await probe.window_start(bot.pid)
                first = len(emu.interactions)
                before = rss_mb(bot.pid)
                start = time.perf_counter()
                # Tables open a fifth of a second apart, as people arrive, not all at once.
                counts = await asyncio.gather(*(
                    one_table(emu, channels[i], users[i], decisions, i, i * 0.2, computers)
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
                display=emu.display_report(), seen=visible_results(measured),
                table_seen=table_results(measured))


def print_rest_summary(rest: dict[str, Any], actions: int) -> None:
    """:func:`print_rest` from a saved :meth:`DiscordEmulator.rest_summary`."""
    actions = max(actions, 1)
    print(f"REST: {rest['calls'] / actions:.2f} calls and "
          f"{rest['kb_uploaded'] / actions:.1f} KB uploaded per action ({actions} "
          f"actions); 429s: {rest['rate_limited']} "
          f"({rest['rate_limited'] * 1000 / actions:.2f} per 1,000 actions, "
          f"{rest['rate_limited_global']} global); most message writes in 5 s in one "
          f"channel: {rest['max_writes_5s']}; peak {rest['peak_per_second']} requests/s")


def print_visible(run: LiveRun) -> None:
    """The run's click → visible result and move → table message, p50 and p99."""
    seen, table = run.seen, run.table_seen
    print(f"click → visible result: p50 {percentile(seen, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(seen, 0.99) * 1000:.1f} ms, max {max(seen, default=0) * 1000:.1f} "
          f"ms over {len(seen)} clicks and menu choices")
    if table:
        print(f"  move → table message: p50 {percentile(table, 0.5) * 1000:.0f} ms, "
              f"p99 {percentile(table, 0.99) * 1000:.0f} ms over {len(table)} moves "
              "(mostly the table's edit interval)")


async def bench(n: int, decisions: int, delay: float, *, bot_tree: Path | None = None,
                computers: Sequence[str] = COMPUTERS) -> None:
    run = await live_run(n, decisions, delay, bot_tree=bot_tree, computers=computers)
    stats, in_game = run.stats, run.clicks
    print(f"{n} concurrent tables (1 person + 3 computers each: {', '.join(computers)}; "
          f"AI_DELAY={delay}s), {run.answered} decisions by people in {run.elapsed:.0f} s"
          + (f"; the bot of {bot_tree}" if bot_tree is not None else ""))
    print(f"interaction → first response: p50 {stats['p50_ms']:.1f} ms, "
          f"p99 {stats['p99_ms']:.1f} ms, max {stats['max_ms']:.1f} ms "
          f"over {stats['count']} interactions")
    if in_game:
        print(f"  of which clicks and menus: p50 {percentile(in_game, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(in_game, 0.99) * 1000:.1f} ms over {len(in_game)}")
    print_visible(run)
    print(f"bot memory: {(run.rss_after - run.rss_before) / n * 1024:.0f} KiB per table "
          f"(bot RSS {run.rss_before:.0f} → {run.rss_after:.0f} MiB)")
    print_rest_summary(run.rest, run.actions)
    shown = run.display
    print(f"images: {shown['images_sent']} sent, {shown['images_with_alt_text']} with alt "
          f"text; messages shown cropped: {shown['messages_cropped']}; display breaches: "
          f"{shown['breaches']}")
    if run.violations:
        print(f"Discord limits broken: {run.violations}")


def spread(values: Sequence[float]) -> str:
    """``median (min–max)`` of figures in seconds, in ms."""
    return (f"{statistics.median(values) * 1000:.1f} ms "
            f"({min(values) * 1000:.1f}–{max(values) * 1000:.1f})")


async def compare(n: int, decisions: int, delay: float, baselines: Sequence[Path],
                  rounds: int, *, bot_tree: Path | None = None,
                  computers: Sequence[str] = COMPUTERS) -> None:
    """Click → visible result of each baseline tree's bot and of this tree's (or
    ``bot_tree``'s), ``rounds`` runs each on the same tables and seeds, interleaved: each
    round runs every bot once, in an order turned by one place from the round before."""
    sides: list[Path | None] = [*baselines, bot_tree]
    label = [str(tree or "this tree") for tree in sides]
    runs: list[list[LiveRun]] = [[] for _ in sides]
    print(f"{n} tables of 1 person + 3 computers ({', '.join(computers)}), {decisions} "
          f"decisions each, AI_DELAY={delay}s; {rounds} rounds, interleaved")
    for i in range(rounds):
        for k in range(len(sides)):
            side = (i + k) % len(sides)
            run = await live_run(n, decisions, delay, bot_tree=sides[side],
                                 computers=computers)
            runs[side].append(run)
            print(f"round {i + 1} {label[side]}: click → visible result p50 "
                  f"{percentile(run.seen, 0.5) * 1000:.1f} ms, p99 "
                  f"{percentile(run.seen, 0.99) * 1000:.1f} ms ({len(run.seen)} clicks); "
                  f"first response p99 {percentile(run.clicks, 0.99) * 1000:.1f} ms",
                  flush=True)
    for side, done in enumerate(runs):
        pooled = [x for run in done for x in run.seen]
        print(f"{label[side]}: click → visible result p50 "
              f"{spread([percentile(r.seen, 0.5) for r in done])}, p99 "
              f"{spread([percentile(r.seen, 0.99) for r in done])} over {len(done)} runs "
              f"(median, min–max); all {len(pooled)} clicks pooled: p50 "
              f"{percentile(pooled, 0.5) * 1000:.1f} ms, p99 "
              f"{percentile(pooled, 0.99) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_bot")
    parser.add_argument("--tables", type=int, default=50, help="how many tables at once")
    parser.add_argument("--decisions", type=int, default=12,
                        help="how many pings each person answers")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bot")
    parser.add_argument("--computers", default=",".join(COMPUTERS),
                        help="the levels of the three computers of each table, comma-separated")
    parser.add_argument("--bot-tree", type=Path, default=None,
                        help="run the bot of this source tree (a worktree of another commit)")
    parser.add_argument("--baseline", type=Path, action="append", default=[],
                        help="also run the bot of this source tree, interleaved, and compare "
                        "(may be given more than once)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each bot with --baseline")
    args, _ = parser.parse_known_args()
    computers = tuple(args.computers.split(","))
    if len(computers) != 3:
        parser.error("--computers needs three levels")
    if args.baseline:
        asyncio.run(compare(args.tables, args.decisions, args.delay, args.baseline,
                            args.rounds, bot_tree=args.bot_tree, computers=computers))
    else:
        asyncio.run(bench(args.tables, args.decisions, args.delay, bot_tree=args.bot_tree,
                          computers=computers))


if __name__ == "__main__":
    main()
