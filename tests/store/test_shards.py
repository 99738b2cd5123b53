"""Several bot processes: each restores only the tables of its shards, and a shard
is owned by one process at a time."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.store import Repository, StoreError, TableStatus
from bot.store.postgres import SHARD_LOCK_CLASS

from .conftest import Backend, new_table

ROOT = Path(__file__).resolve().parents[2]


def guild_on(shard: int, shard_count: int, n: int = 0) -> int:
    """A guild id whose shard is ``shard`` (Discord: (guild_id >> 22) % shard_count)."""
    guild = ((n * shard_count + shard) << 22) | 12345
    assert (guild >> 22) % shard_count == shard
    return guild


async def test_active_tables_of_some_shards(repo: Repository) -> None:
    real_guild = 1_150_000_000_004_194_304  # a snowflake of today's size (shard 3 of 4)
    assert (real_guild >> 22) % 4 == 3
    tables = {}
    for shard in range(4):
        for n in range(2):
            table = await new_table(repo, guild_id=guild_on(shard, 4, n),
                                    channel_id=100 * shard + n)
            tables[shard, n] = table.id
    big = await new_table(repo, guild_id=real_guild, channel_id=999)
    over = await new_table(repo, guild_id=guild_on(1, 4), channel_id=998)
    await repo.update_table(over.id, status=TableStatus.FINISHED)

    everything = sorted([*tables.values(), big.id])
    assert await repo.active_table_ids() == everything
    assert await repo.active_table_ids(shard_count=4) == everything  # no ids: all shards
    assert await repo.active_table_ids(shard_count=4, shard_ids=[1]) == [
        tables[1, 0], tables[1, 1]]
    assert await repo.active_table_ids(shard_count=4, shard_ids={0, 3}) == sorted(
        [tables[0, 0], tables[0, 1], tables[3, 0], tables[3, 1], big.id])
    assert await repo.active_table_ids(shard_count=4, shard_ids=[]) == []
    # Every table is on exactly one shard, whatever the count.
    for count in (1, 2, 3, 4, 7):
        owned = [await repo.active_table_ids(shard_count=count, shard_ids=[i])
                 for i in range(count)]
        assert sorted(t for ids in owned for t in ids) == everything


@pytest.mark.parametrize(("count", "ids"), [(0, None), (-1, [0]), (2, [2]), (2, [-1]),
                                            (2, ["1"])])
async def test_bad_shards_are_refused(repo: Repository, count: int, ids: list[int] | None) -> None:
    with pytest.raises(StoreError) as caught:
        await repo.active_table_ids(shard_count=count, shard_ids=ids)
    assert caught.value.code == "invalid_argument"


async def test_a_shard_is_locked_by_one_process_at_a_time(repo: Repository,
                                                          backend: Backend) -> None:
    """Two repositories on one database stand for two processes."""
    assert await repo.lock_shards([0, 1])
    assert await repo.lock_shards([1])  # already ours: still true
    async with backend.repository() as other:
        assert not await other.lock_shards([1, 2])  # 1 is held
        assert await other.lock_shards([2])  # 2 was not kept by the refused call
        assert not await repo.lock_shards([2])
        assert await other.lock_shards([3])
    # Closing released the other's locks.
    assert await repo.lock_shards([2, 3])
    await repo.close()
    async with backend.repository() as after:
        assert await after.lock_shards([0, 1, 2, 3])


async def test_lock_shards_needs_an_open_store(backend: Backend) -> None:
    repository = backend.repository()
    with pytest.raises(StoreError) as caught:
        await repository.lock_shards([0])
    assert caught.value.code == "not_open"


async def test_a_killed_process_releases_its_shards(repo: Repository, backend: Backend) -> None:
    """Another process takes shards 0 and 1; while it lives they are refused here.
    Killed with SIGKILL (no clean close), its locks go with it."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.store.hold_shards", backend.url, "0", "1",
        cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert holder.stdout is not None
    assert await holder.stdout.readline() == b"locked\n"
    assert not await repo.lock_shards([1])
    assert await repo.lock_shards([2])
    holder.kill()
    await holder.wait()
    if backend.name == "postgresql":
        # The server ends the dead client's session on its own; wait for that event by
        # blocking on the lock itself (bounded), then let it go again.
        conn = await asyncpg.connect(backend.url)
        try:
            await conn.execute("SET lock_timeout = '20s'")
            await conn.execute("SELECT pg_advisory_lock($1, 1)", SHARD_LOCK_CLASS)
            await conn.execute("SELECT pg_advisory_unlock($1, 1)", SHARD_LOCK_CLASS)
        finally:
            await conn.close()
    assert await repo.lock_shards([0, 1])
