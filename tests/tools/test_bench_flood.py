"""The flood bench's helpers: the runs' order, the same deals in every bot process of a
seed, and the rows counted apart from the playing tables'. Nothing here is timed: the
bench prints its figures, never asserts them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.store import ActionRecord, SeatRecord, SQLiteRepository
from tools import bench_flood as bench

PLAYER, FLOODER = 11, 99


def test_quiet_and_flood_take_turns_abba() -> None:
    assert bench.order(1) == [False, True]
    assert bench.order(2) == [False, True, True, False]
    assert bench.order(0) == []


def token(folder: Path, seed: str | None, nbytes: int = 8) -> str:
    env = {k: v for k, v in os.environ.items() if k != "BENCH_DEAL_SEED"}
    env["PYTHONPATH"] = str(folder)
    if seed is not None:
        env["BENCH_DEAL_SEED"] = seed
    done = subprocess.run(
        [sys.executable, "-c", f"import secrets; print(secrets.token_hex({nbytes}), "
         f"secrets.token_hex({nbytes}))"], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_seed_deals_the_same_tables_in_every_bot_process(tmp_path: Path) -> None:
    bench.seeded_deals(tmp_path)
    first = token(tmp_path, "flood")
    assert first == token(tmp_path, "flood") and len(first.split()[0]) == 16
    assert first != token(tmp_path, "other")
    assert token(tmp_path, None) != token(tmp_path, None)  # unseeded: the system's
    assert token(tmp_path, "flood", 16) != token(tmp_path, "flood", 16)  # tables' only


async def test_rows_are_counted_apart_from_the_playing_tables(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    repo = SQLiteRepository(str(database))
    await repo.open()
    try:
        seats = [SeatRecord(seat=0, user_id=PLAYER, name="p"),
                 *(SeatRecord(seat=s, bot_level="easy") for s in (1, 2, 3))]
        played = await repo.create_table(guild_id=1, channel_id=2, host_id=PLAYER,
                                         game="tichu", seed="s", options={}, locale="en",
                                         seats=seats)
        before = bench.rows_apart_from(database, {PLAYER})
        await repo.append_action(played.id, ActionRecord(seq=1, payload={"t": "pass"}))
        await repo.save_draft(played.id, 0, {"picks": []})
        assert bench.rows_apart_from(database, {PLAYER}) == before  # the table's own play
        await repo.create_table(guild_id=1, channel_id=3, host_id=FLOODER, game="tichu",
                                seed="t", options={}, locale="en", seats=seats)
        after = bench.rows_apart_from(database, {PLAYER})
        assert {n: after[n] - before[n] for n in after if after[n] != before[n]} \
            == {"tables": 1, "seats": 4}
    finally:
        await repo.close()


def test_help() -> None:
    done = subprocess.run([sys.executable, "-m", "tools.bench_flood", "--help"],
                          capture_output=True, text=True, check=True)
    assert "--rate" in done.stdout and "--commands" in done.stdout
