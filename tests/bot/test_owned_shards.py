"""A process owns the tables of its shards only (the table service), and takes its
shards' locks before it does anything (the app); without Discord, on SQLite files."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.app
from bot.app import ShardedTichuBot, StartRefused, TichuBot, create_bot
from bot.config import Settings
from bot.games.registry import all_specs
from bot.store import SeatRecord, SQLiteRepository, TableStatus
from bot.tables import TableError, TableService


def guild_on(shard: int, count: int, n: int = 0) -> int:
    guild = ((n * count + shard) << 22) | 77
    assert (guild >> 22) % count == shard
    return guild


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SQLiteRepository]:
    repository = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await repository.open()
    yield repository
    await repository.close()


async def stored_lobby(repo: SQLiteRepository, guild_id: int) -> int:
    record = await repo.create_table(
        guild_id=guild_id, channel_id=guild_id + 1, host_id=5, game="tichu", seed="s",
        options={"target": 1000}, locale="en",
        seats=[SeatRecord(seat=0, user_id=5, name="host"), *(SeatRecord(seat=s)
                                                            for s in range(1, 4))])
    return record.id


async def test_the_service_restores_and_loads_only_its_shards_tables(
        repo: SQLiteRepository) -> None:
    tables = {(shard, n): await stored_lobby(repo, guild_on(shard, 3, n))
              for shard in range(3) for n in range(2)}
    ended = await stored_lobby(repo, guild_on(1, 3, 5))
    await repo.update_table(ended, status=TableStatus.EXPIRED)
    service = TableService(repo, all_specs(), shard_count=3, shard_ids=[0, 2])
    try:
        restored = await service.watch.restore()
        assert sorted(t.id for t in restored) == sorted(
            tables[s, n] for s in (0, 2) for n in range(2))
        assert set(service.core.tables) == {t.id for t in restored}
        # Another shard's table is never loaded (nor driven, nor swept): another process's.
        with pytest.raises(TableError, match="no_table"):
            await service.core.get(tables[1, 0])
        assert tables[1, 0] not in service.core.tables
        with pytest.raises(TableError, match="no_table"):
            await service.lobby.open_lobby(game="tichu", guild_id=guild_on(1, 3), channel_id=9,
                                           host_id=5, host_name="h", locale="en", options={})
        opened = await service.lobby.open_lobby(game="tichu", guild_id=guild_on(2, 3, 7),
                                                channel_id=9, host_id=5, host_name="h",
                                                locale="en", options={})
        owns = service.shards.owns
        assert owns(opened.record.guild_id) and not owns(guild_on(1, 3, 7))
        # The lobby sweep only sees this process's tables.
        expired = await service.lobby.expire_idle_lobbies(now=1e12)
        assert sorted(t.id for t in expired) == sorted([*(t.id for t in restored), opened.id])
        assert (await repo.load_table(tables[1, 0])).status is TableStatus.LOBBY  # type: ignore[union-attr]
    finally:
        await service.close()


async def test_an_unsharded_service_owns_every_table(repo: SQLiteRepository) -> None:
    ids = [await stored_lobby(repo, guild_on(shard, 2)) for shard in range(2)]
    for service in (TableService(repo, all_specs()),
                    TableService(repo, all_specs(), shard_count=2)):  # all of the shards
        assert sorted(t.id for t in await service.watch.restore()) == ids
        await service.close()
    with pytest.raises(ValueError, match="shard_ids needs shard_count"):
        TableService(repo, all_specs(), shard_ids=[0])


def settings(db: Path, **values: object) -> Settings:
    return Settings(_env_file=None, database=str(db), worker_processes=0,  # type: ignore[call-arg]
                    **values)


async def test_the_sharded_client_runs_the_processs_shards(tmp_path: Path) -> None:
    sharded = create_bot(settings(tmp_path / "db", shard_count=4, shard_ids=[1, 3]))
    assert isinstance(sharded, ShardedTichuBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    plain = create_bot(settings(tmp_path / "db"))
    assert type(plain) is TichuBot and plain.shard_count is None


async def test_sqlite_refuses_a_share_of_the_shards(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    bot = create_bot(settings(db, shard_count=2, shard_ids=[1]))
    with pytest.raises(StartRefused, match="SQLite serves one process: use PostgreSQL"):
        await bot.setup_hook()  # (as login() calls it, before connecting to Discord)
    assert not db.exists()  # refused before opening anything


class Said(logging.Handler):
    """Sets an event when a log record says ``text``."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.event.set()


async def test_a_process_waits_for_its_shards_or_stops(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.app")
    db = tmp_path / "db.sqlite3"
    holder = SQLiteRepository(str(db))  # another process running shard 1
    await holder.open()
    assert await holder.lock_shards([1])
    repo = SQLiteRepository(str(db))
    await repo.open()
    try:
        quitter = create_bot(settings(db, shard_count=2, shard_lock_wait=0))
        with pytest.raises(StartRefused, match=r"runs shard\(s\) \[0, 1\] of 2; this process "
                           "stopped without acting"):
            await quitter.lock_shards(repo)
        assert await repo.lock_shards([0])  # nothing was kept by the refused try
        await repo.close()
        await repo.open()

        monkeypatch.setattr(bot.app, "SHARD_LOCK_RETRY", 0.01)
        waiting, holding = Said("are held by another bot process"), Said("holding shard(s)")
        logger = logging.getLogger("bot.app")
        logger.addHandler(waiting)
        logger.addHandler(holding)
        try:
            waiter = create_bot(settings(db, shard_count=2, shard_lock_wait=60))
            task = asyncio.create_task(waiter.lock_shards(repo))
            await asyncio.wait_for(waiting.event.wait(), 10)
            assert not task.done() and not holding.event.is_set()
            await holder.close()  # the other process ends: its shard is free
            await asyncio.wait_for(task, 10)
            assert holding.event.is_set()
        finally:
            logger.removeHandler(waiting)
            logger.removeHandler(holding)
    finally:
        await repo.close()
        await holder.close()
