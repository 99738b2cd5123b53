"""``/privacy export`` of a heavy player, and what making it does to the live tables
(issue 51, finding 5).

1. **The store.** A player with ``--games`` finished Tichu games (1,000) and ``--reviews``
   coach's reviews (5,000), written through the store's own methods into an SQLite file:
   each game played from its own seed by four ``easy`` computers (a whole game to 1,000
   points, about ten deals) in a process pool, its replay, scores and counts stored as the
   bot stores a finished game; each review holds a deal of those games, with the decisions
   of one of ``--real-reviews`` reviews made by the engine's coach (a review costs about a
   second, so the decisions are shared; the deals, most of a review's bytes, are not).
   ``--store PATH`` keeps the file and uses it again on the next run.
2. **The export alone.** The export made in this process, without Discord or tables: the
   store's read, then the file; the file's size (JSON, and compressed).
3. **Live tables while it is made.** ``--tables`` tables of one person and three
   computers through the real bot process (:func:`tools.bench_bot.live_run`), each person
   answering ``--decisions`` pings, in two conditions taken in turns (``--rounds`` of
   each): *quiet*, and *exporting*, where the player runs ``/privacy export`` in direct
   messages again and again from ``--after`` seconds after the first table's opening to
   the last decision (``EXPORT_COOLDOWN=0``), the last one waited for (up to the 15
   minutes Discord takes a file in). Printed: each export's time (the command to the file
   received) and file; the clicks' time to the first response and to the answer shown
   (the panel redrawn), p50 and p99, of the quiet run, of the exporting run, and of the
   clicks made while an export was under way.

Run ``python -m tools.bench_export``. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

from bot.cogs.privacy import FILE_LIMIT
from bot.games.tichu.coach import one_deal, review_job
from bot.games.tichu.results import player_stats
from bot.store import ReviewRecord, open_repository
from bot.store.codec import utc_now
from bot.store.export import make_export
from bot.store.models import GamePlayerResult, GameResult, SeatRecord
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.replay import to_replay
from tests.emulator.models import UserRecord
from tests.emulator.server import DiscordEmulator
from tools import bench_bot
from tools.bench_bot import LiveRun, live_run, percentile

PLAYER = 1_150_000_000_000_000_001
"""The exporting player's Discord id (the emulator takes any id for a user)."""
PARTNER = 1_150_000_000_000_000_002
NAMES = ["Ελένη", "", "partner", ""]
"""The names at each of the player's tables (seats 1 and 3: computers)."""
GUILD = 1_150_000_000_000_000_100
QUIET, EXPORTING = "quiet", "exporting"
TOKEN_LIFE = 15 * 60
"""Seconds an interaction's token lasts: the file must come within them."""


# -- 1. the store ------------------------------------------------------------------------

def played(seed: int) -> dict[str, Any]:
    """One game of four easy computers from ``seed``: its replay, scores, winner and the
    counts of seats 0 and 2 (the people's)."""
    game = play_game([EasyPlayer()] * 4, seed=f"export-bench-{seed}")
    return {"replay": to_replay(game), "scores": list(game.scores), "winner": game.winner,
            "stats": {seat: player_stats(game, seat) for seat in (0, 2)}}


def reviewed(replay: dict[str, Any], deal: int) -> dict[str, Any]:
    """The coach's review of seat 0 in one deal of ``replay`` (what the bot stores, but
    its replay and names)."""
    return review_job(one_deal(replay, deal), 0)


async def stock(path: Path, games: int, reviews: int, real_reviews: int) -> float:
    """Write the player's games and reviews into a new store at ``path``; the seconds it
    took."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1,
                             mp_context=get_context("spawn")) as pool:
        loop = asyncio.get_running_loop()
        results = await asyncio.gather(*(loop.run_in_executor(pool, played, seed)
                                         for seed in range(games)))
        found = await asyncio.gather(*(
            loop.run_in_executor(pool, reviewed, results[i]["replay"], 0)
            for i in range(min(real_reviews, games))))
    repo = open_repository(str(path))
    await repo.open()
    try:
        tables: list[int] = []
        for number, result in enumerate(results):
            seats = [SeatRecord(seat=0, user_id=PLAYER, name=NAMES[0]),
                     SeatRecord(seat=1, user_id=None, name="", bot_level="easy"),
                     SeatRecord(seat=2, user_id=PARTNER, name=NAMES[2]),
                     SeatRecord(seat=3, user_id=None, name="", bot_level="easy")]
            table = await repo.create_table(
                guild_id=GUILD, channel_id=GUILD + 1, host_id=PLAYER, game="tichu",
                seed=f"export-bench-{number}", options={"target": 1000}, locale="el",
                seats=seats)
            players = [GamePlayerResult(
                seat=s.seat, user_id=s.user_id, bot_level=s.bot_level, name=s.name,
                team=s.seat % 2, won=result["winner"] == s.seat % 2,
                stats=result["stats"].get(s.seat, {})) for s in seats]
            await repo.record_game(GameResult(
                table_id=table.id, guild_id=GUILD, game="tichu", scores=result["scores"],
                winner=result["winner"], players=players, replay=result["replay"]))
            tables.append(table.id)
        # Deal 0 of every game, then deal 1, …: as many reviews as asked.
        written = 0
        deal = 0
        while written < reviews and any(deal < len(r["replay"]["deals"]) for r in results):
            for number, result in enumerate(results):
                if written >= reviews:
                    break
                if deal >= len(result["replay"]["deals"]):
                    continue
                review = {**found[written % len(found)],
                          "replay": one_deal(result["replay"], deal), "names": NAMES}
                await repo.save_review(ReviewRecord(table_id=tables[number], deal=deal,
                                                    seat=0, user_id=PLAYER, review=review))
                written += 1
            deal += 1
    finally:
        await repo.close()
    return time.perf_counter() - start


async def counted(path: Path) -> str:
    repo = open_repository(str(path))
    await repo.open()
    try:
        counts = await repo.person_counts(PLAYER)
    finally:
        await repo.close()
    return (f"{counts.games} games, {counts.reviews} reviews, {counts.tables} tables, "
            f"{counts.actions} actions of theirs")


# -- 2. the export alone -------------------------------------------------------------------

async def alone(path: Path) -> str:
    """The export made here, without Discord: the store's read (the bot's event loop
    waits on it), then the file (the bot's background process makes it)."""
    repo = open_repository(str(path))
    await repo.open()
    try:
        start = time.perf_counter()
        rows = await repo.export_rows(PLAYER)
        read = time.perf_counter() - start
    finally:
        await repo.close()
    start = time.perf_counter()
    cpu = time.process_time()
    made = make_export(PLAYER, utc_now(), rows, FILE_LIMIT)
    made_in, made_cpu = time.perf_counter() - start, time.process_time() - cpu
    text = sum(len(v) for part in rows.values() for row in part for v in row.values()
               if isinstance(v, str))
    size = "too big to send" if made is None else (
        f"{made.file.size / 2**20:.0f} MiB of JSON, sent "
        f"{'gzipped' if made.file.packed else 'as it is'}: {len(made.file.data) / 2**20:.1f} MiB")
    return (f"the export alone: store read {read:.1f} s ({text / 2**20:.0f} MiB of text); "
            f"file made in {made_in:.1f} s ({made_cpu:.1f} s CPU): {size}")


# -- 3. live tables while it is made -----------------------------------------------------

class SeenEmulator(DiscordEmulator):
    """The local Discord that :func:`live_run` makes, remembered, so that the player can
    send commands to it too."""

    last: ClassVar[SeenEmulator | None] = None

    async def __aenter__(self) -> SeenEmulator:
        await super().__aenter__()
        SeenEmulator.last = self
        return self


@dataclass
class Export:
    """One ``/privacy export``: when it was asked and answered, and the answer."""

    start: float
    end: float
    answer: str
    files: list[tuple[str, int]]

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass
class ExportProbe:
    """The player's exports, one after the other, through the measured window; and the
    window's clicks."""

    exporting: bool
    after: float = 0.0
    """Seconds into the window before the first export (the tables open meanwhile)."""
    exports: list[Export] = field(default_factory=list)
    clicks: list[Any] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _first: int = 0
    _started: float = 0.0
    expired: int = 0
    """Interactions the bot never answered within Discord's 3 s (a broken run)."""

    async def window_start(self, pid: int) -> None:
        emu = SeenEmulator.last
        assert emu is not None
        self._first = len(emu.interactions)
        if self.exporting:
            self._task = asyncio.create_task(self._export(emu))

    async def _export(self, emu: DiscordEmulator) -> None:
        player = UserRecord(id=PLAYER, name="ελένη", locale="el")
        emu.users[player.id] = player
        emu.add_member(next(iter(emu.guilds.values())), player)  # shares a server with the bot
        dm = emu.dm_channel(player)
        # The tables open and start playing first.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), self.after)
        while not self._stop.is_set():
            self._started = time.monotonic()
            answer = await (await emu.slash(player, dm, "privacy export")).response(
                timeout=TOKEN_LIFE)
            self.exports.append(Export(self._started, time.monotonic(), answer.content,
                                       [(a.filename, len(a.data))
                                        for a in answer.attachments]))

    async def window_end(self, pid: int) -> None:
        self._stop.set()
        emu = SeenEmulator.last
        assert emu is not None
        if self._task is not None and not self._task.done():
            print(f"  the tables are done; clicks so far: {latencies(self.window(emu))}; "
                  "waiting for the export under way", flush=True)
        if self._task is not None:
            # The export under way ends, within the interaction's life; else it is noted
            # unfinished (Discord would no longer take its file).
            left = self._started + TOKEN_LIFE - time.monotonic()
            done, _ = await asyncio.wait({self._task}, timeout=max(left, 0))
            if not done:
                self._task.cancel()
                self.exports.append(Export(self._started, time.monotonic(),
                                           "unfinished after 15 minutes", []))
            else:
                self._task.result()
        self.clicks = self.window(emu)

    def window(self, emu: DiscordEmulator) -> list[Any]:
        """The clicks answered since the window began."""
        return [r for r in emu.interactions[self._first:] if r.name == "" and r.latency is not None]

    def broke(self, emu: DiscordEmulator | None) -> None:
        """The run failed: what was seen of the window until then."""
        if self._task is not None:
            if self._task.done() and not self._task.cancelled():
                self._task.exception()  # (retrieved: the run's own error says it)
            self._task.cancel()
        if emu is not None:
            self.clicks = self.window(emu)
            self.expired = sum(1 for r in emu.interactions[self._first:]
                               if r.expired and not r.acknowledged)

    def database(self, path: Path) -> None:
        return None

    def during(self) -> list[Any]:
        """The clicks dispatched while an export was under way."""
        return [r for r in self.clicks if r.dispatched_at is not None and any(
            e.start <= r.dispatched_at <= e.end for e in self.exports)]


def latencies(records: list[Any]) -> str:
    first = [r.latency for r in records]
    seen = [r.settled_at - r.dispatched_at for r in records
            if r.settled_at is not None and r.dispatched_at is not None]
    return (f"first response p50 {percentile(first, 0.5) * 1000:.0f} ms, p99 "
            f"{percentile(first, 0.99) * 1000:.0f} ms; answer shown p50 "
            f"{percentile(seen, 0.5) * 1000:.0f} ms, p99 {percentile(seen, 0.99) * 1000:.0f} ms "
            f"over {len(records)} clicks")


async def live(template: Path, condition: str, tables: int, decisions: int,
               delay: float, after: float) -> tuple[LiveRun | None, ExportProbe, str]:
    """One run on a copy of the player's store (the bot writes into it); the run, or None
    and why if the tables broke (people left unanswered)."""
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "export.sqlite3"
        shutil.copyfile(template, database)
        probe = ExportProbe(exporting=condition == EXPORTING, after=after)
        # live_run makes its own local Discord: one that remembers itself, for the player.
        with mock.patch.object(bench_bot, "DiscordEmulator", SeenEmulator):
            try:
                run = await live_run(tables, decisions, delay, {"EXPORT_COOLDOWN": "0"},
                                     probe, database_url=str(database))
            except Exception as error:  # the tables broke: say how, from what was seen
                probe.broke(SeenEmulator.last)
                return None, probe, f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return run, probe, ""


def report(condition: str, run: LiveRun | None, probe: ExportProbe, broke: str) -> None:
    if run is None:
        print(f"{condition}: the tables broke ({broke}); {probe.expired} interactions left "
              f"unanswered past Discord's 3 s; {latencies(probe.clicks)}", flush=True)
    else:
        print(f"{condition}: {run.tables} tables, {run.answered} decisions in "
              f"{run.elapsed:.0f} s; {latencies(probe.clicks)}", flush=True)
    for export in probe.exports:
        files = ", ".join(f"{name} {size / 2**20:.1f} MiB" for name, size in export.files)
        print(f"  export {export.seconds:.1f} s: {files or export.answer}", flush=True)
    if probe.exports:
        print(f"  clicks while an export was made: {latencies(probe.during())}", flush=True)
    if run is not None and run.violations:
        print(f"  Discord limits broken: {len(run.violations)}, first {run.violations[0]}",
              flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_export",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="the player's games")
    parser.add_argument("--reviews", type=int, default=5000, help="the player's reviews")
    parser.add_argument("--real-reviews", type=int, default=4,
                        help="reviews made by the coach, whose decisions the others share")
    parser.add_argument("--store", type=Path, default=None,
                        help="the player's SQLite store: made there if missing, else used "
                             "as it is (default: a new one in a temporary folder)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--decisions", type=int, default=12,
                        help="pings each person answers")
    parser.add_argument("--delay", type=float, default=1.2, help="AI_DELAY of the bot")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of each condition, in turns (quiet first)")
    parser.add_argument("--after", type=float, default=10,
                        help="seconds into the window before the first export, while the "
                             "tables open (a fifth of a second apart) and start playing")
    parser.add_argument("--only", choices=(QUIET, EXPORTING), default=None,
                        help="run one condition only")
    parser.add_argument("--skip-alone", action="store_true")
    parser.add_argument("--skip-live", action="store_true")
    args = parser.parse_args(argv)
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or Path(tmp) / "player.sqlite3"
        if not store.exists():
            took = asyncio.run(stock(store, args.games, args.reviews, args.real_reviews))
            print(f"the player's store written in {took:.0f} s", flush=True)
        print(f"the player: {asyncio.run(counted(store))}; the store "
              f"{store.stat().st_size / 2**20:.0f} MiB", flush=True)
        if not args.skip_alone:
            print(asyncio.run(alone(store)), flush=True)
        if not args.skip_live:
            for round_ in range(max(1, args.rounds)):
                for condition in (QUIET, EXPORTING) if round_ % 2 == 0 else (EXPORTING, QUIET):
                    if args.only not in (None, condition):
                        continue
                    run, probe, broke = asyncio.run(live(store, condition, args.tables,
                                                         args.decisions, args.delay,
                                                         args.after))
                    report(condition, run, probe, broke)


if __name__ == "__main__":
    main()
