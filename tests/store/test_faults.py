"""When the database blinks (issue 21): a PostgreSQL stopped, killed or frozen under
a repository makes its calls raise StoreUnavailableError within about the timeout
(never another exception), and the same repository works again once the server is
back. A lock session lost on a restart loses its shards; a shard's epoch fences
the writes of a process that lost it. SQLite: a database locked past the busy
timeout, or full, is a StoreError too, and the repository goes on afterwards."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import (
    ActionRecord,
    BoardPlayer,
    BoardResult,
    EventRecord,
    FieldResult,
    GamePlayerResult,
    GameResult,
    PostgresRepository,
    ReviewRecord,
    SeatRecord,
    SequenceConflictError,
    ShardLostError,
    SQLiteRepository,
    StoreError,
    StoreUnavailableError,
    TableStatus,
    open_repository,
)
from bot.store.postgres import SHARD_LOCK_CLASS, _store_error
from tests.postgres import ControlledPostgres

from .conftest import four_seats, new_table
from .test_shards import guild_on

TIMEOUT = 1.0
# What a call may take past TIMEOUT: a pool acquire that opens a connection, then
# one statement, each bounded by TIMEOUT, on a loaded machine.
LIMIT = 2 * TIMEOUT + 1.5


@pytest.fixture
async def pg(controlled_pg: ControlledPostgres) -> AsyncIterator[PostgresRepository]:
    """A repository (timeout 1 s, pool of 3) on a PostgreSQL the test may break."""
    repo = PostgresRepository(controlled_pg.url(), pool_size=3, timeout=TIMEOUT)
    await repo.open()
    try:
        yield repo
    finally:
        controlled_pg.thaw()
        await repo.close()


async def unavailable(call: Awaitable[Any]) -> StoreUnavailableError:
    """Await ``call``: it must raise StoreUnavailableError within LIMIT seconds."""
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        await asyncio.wait_for(call, 4 * LIMIT)
    elapsed = time.monotonic() - started
    assert isinstance(caught.value, StoreUnavailableError), repr(caught.value)
    assert caught.value.code == "unavailable"
    assert elapsed < LIMIT, f"took {elapsed:.2f} s"
    return caught.value


def finished(table_id: int, guild_id: int) -> GameResult:
    return GameResult(
        table_id=table_id, guild_id=guild_id, game="tichu", scores=[500, 500], winner=None,
        players=[GamePlayerResult(seat=seat, user_id=None, bot_level="easy", name=f"cpu {seat}",
                                  team=seat % 2, won=False) for seat in range(4)],
        replay={"actions": []})


def breaking(server: ControlledPostgres, outage: str) -> Callable[[], None]:
    """Break ``server`` the way ``outage`` says; return what mends it."""
    if outage == "stop":
        server.stop("fast")
        return server.start
    if outage == "kill":
        server.kill()
        return server.start
    server.freeze()
    return server.thaw


# -- outages -------------------------------------------------------------------------

@pytest.mark.parametrize("outage", ["stop", "kill", "freeze"])
async def test_an_outage_is_unavailable_then_the_same_repository_recovers(
        controlled_pg: ControlledPostgres, pg: PostgresRepository, outage: str) -> None:
    table = await new_table(pg)
    await pg.append_action(table.id, ActionRecord(1, {"n": 1}))
    mend = breaking(controlled_pg, outage)

    await unavailable(pg.ping())
    await unavailable(pg.append_action(table.id, ActionRecord(2, {"n": 2})))
    await unavailable(pg.save_seats(table.id, four_seats()))  # a transaction
    if outage != "freeze":  # (a frozen server takes the whole timeout each time)
        await unavailable(pg.load_table(table.id))
        await unavailable(pg.create_table(
            guild_id=1, channel_id=11, host_id=100, game="tichu", seed="s", options={},
            locale="en", seats=four_seats()))
        await unavailable(PostgresRepository(controlled_pg.url(), timeout=TIMEOUT).open())
    # More calls at once than the pool has connections.
    started = time.monotonic()
    for failed in await asyncio.gather(*(pg.load_table(table.id) for _ in range(5)),
                                       return_exceptions=True):
        assert isinstance(failed, StoreUnavailableError), repr(failed)
    assert time.monotonic() - started < LIMIT

    mend()
    # The same repository, not reopened: new connections replace the dead ones.
    await pg.ping()
    loaded = await pg.load_table(table.id)
    assert loaded is not None
    # The append may have been applied by a frozen server after it woke up (the
    # call said it may or may not have taken effect); never twice, never a gap.
    seqs = [action.seq for action in loaded.actions]
    assert seqs in ([1], [1, 2])
    await pg.append_action(table.id, ActionRecord(len(seqs) + 1, {"n": "after"}))
    loads = await asyncio.gather(*(pg.load_table(table.id) for _ in range(6)))
    assert all(t is not None and len(t.actions) == len(seqs) + 1 for t in loads)


async def test_duplicate_calls_in_an_outage_are_unavailable(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """Duplicate's writes and reads (issue 24) during an outage: unavailable, then
    working again on the same repository."""
    table = await new_table(pg)
    await pg.create_event(EventRecord("daily:2026-11-27", "daily", "s", 2, None, None))
    claim = BoardResult("daily:2026-11-27/1", "daily:2026-11-27", table.id, 0, 1,
                        [BoardPlayer(100, "Ann")], None, None)
    field = [FieldResult("daily:2026-11-27/1", 0, 10, {})]
    mend = breaking(controlled_pg, "stop")
    await unavailable(pg.claim_board(claim))
    await unavailable(pg.finish_board(table.id, claim.board, 0, 10, {}))
    await unavailable(pg.board_results(claim.board))
    await unavailable(pg.user_daily_days(100))
    await unavailable(pg.save_field(claim.board, field))
    await unavailable(pg.get_event("daily:2026-11-27"))
    mend()
    await pg.claim_board(claim)
    await pg.finish_board(table.id, claim.board, 0, 10, {})
    await pg.save_field(claim.board, field)
    assert [r.diff for r in await pg.board_results(claim.board)] == [10]
    assert await pg.field(claim.board) == field


async def test_review_calls_in_an_outage_are_unavailable(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """Reviews (issue 25) during an outage: unavailable, then working again on the
    same repository."""
    table = await new_table(pg)
    review = ReviewRecord(table.id, 0, 0, 100, {"decisions": [], "error": None})
    mend = breaking(controlled_pg, "stop")
    await unavailable(pg.save_review(review))
    await unavailable(pg.review(table.id, 0, 0))
    await unavailable(pg.user_reviews(table.id, 100))
    mend()
    await pg.save_review(review)
    [stored] = await pg.user_reviews(table.id, 100)
    assert stored.review == review.review and await pg.review(table.id, 0, 0) == stored


async def test_a_server_that_comes_back_is_found_again_without_reopening(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """Restarted while the event loop could not see it (the pool's connections died
    unseen), twice: each dead connection fails one call at most (unavailable), then
    every call works."""
    table = await new_table(pg)
    await asyncio.gather(*(pg.load_table(table.id) for _ in range(3)))  # 3 connections
    for _ in range(2):
        controlled_pg.restart()
        failures = 0
        while True:
            try:
                await pg.ping()
                break
            except StoreUnavailableError:
                failures += 1
                assert failures <= pg.pool_size
        for _ in range(4):
            assert await pg.load_table(table.id) is not None


async def test_a_restart_seen_by_the_event_loop_costs_no_call(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """As in production, the loop runs while the server restarts: the pool sees its
    connections end, and the first call after the restart opens a new one."""
    table = await new_table(pg)
    await asyncio.gather(*(pg.load_table(table.id) for _ in range(3)))
    await asyncio.to_thread(controlled_pg.restart)
    for _ in range(4):
        assert await pg.load_table(table.id) is not None


async def test_a_call_cancelled_mid_statement_leaves_no_broken_connection(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    table = await new_table(pg)
    controlled_pg.freeze()
    for call in (pg.load_table(table.id), pg.save_seats(table.id, four_seats()),
                 pg.append_action(table.id, ActionRecord(1, {"n": 1}))):
        with pytest.raises(TimeoutError):  # the caller's own deadline, not the store's
            await asyncio.wait_for(call, 0.2)
    controlled_pg.thaw()
    loads = await asyncio.gather(*(pg.load_table(table.id) for _ in range(6)))
    assert all(t is not None for t in loads)
    loaded = await pg.load_table(table.id)
    assert loaded is not None
    await pg.append_action(table.id, ActionRecord(len(loaded.actions) + 1, {"n": 2}))


@pytest.mark.parametrize(("error", "code"), [
    (ConnectionRefusedError(111, "Connection refused"), "unavailable"),
    (FileNotFoundError(2, "No such file or directory"), "unavailable"),
    (ConnectionResetError(104, "Connection reset by peer"), "unavailable"),
    (TimeoutError(), "unavailable"),
    (asyncpg.exceptions.ConnectionDoesNotExistError("closed in the middle"), "unavailable"),
    (asyncpg.exceptions.InternalClientError("another operation is in progress"),
     "unavailable"),
    (asyncpg.exceptions.AdminShutdownError("terminating connection"), "unavailable"),
    (asyncpg.exceptions.CrashShutdownError("crash of another server process"),
     "unavailable"),
    (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
     "unavailable"),
    (asyncpg.exceptions.TooManyConnectionsError("too many clients"), "unavailable"),
    (asyncpg.InterfaceError("pool is closing"), "unavailable"),
    (asyncpg.InterfaceError("pool is closed"), "unavailable"),
    (asyncpg.InterfaceError("connection is closed"), "unavailable"),
    (asyncpg.exceptions.UniqueViolationError("duplicate key"), "constraint_failed"),
    (asyncpg.exceptions.SerializationError("could not serialize"), "busy"),
    (asyncpg.exceptions.DataError("invalid input"), "invalid_value"),
    (asyncpg.exceptions._base.DataError("invalid input for query argument $1"),
     "invalid_value"),  # asyncpg's own (a value it cannot send)
    (asyncpg.InterfaceError("the number of arguments is wrong"), "database_error"),
    (RuntimeError("anything else"), "database_error"),
])
def test_every_failure_is_a_store_error(error: Exception, code: str) -> None:
    converted = _store_error("load_table", error)
    assert isinstance(converted, StoreError)
    assert converted.code == code
    assert isinstance(converted, StoreUnavailableError) == (code == "unavailable")
    assert str(converted).startswith("load_table: ")


async def test_a_repository_closes_in_time_on_a_frozen_server(
        controlled_pg: ControlledPostgres) -> None:
    repo = PostgresRepository(controlled_pg.url(), timeout=TIMEOUT)
    await repo.open()
    assert await repo.lock_shards([0])
    controlled_pg.freeze()
    started = time.monotonic()
    await repo.close()
    assert time.monotonic() - started < LIMIT + TIMEOUT
    controlled_pg.thaw()
    with pytest.raises(StoreError) as caught:
        await repo.ping()
    assert caught.value.code == "not_open"


# -- the lock session ----------------------------------------------------------------

async def epochs(server: ControlledPostgres, shard_count: int = 2) -> dict[int, int]:
    conn = await asyncpg.connect(server.url())
    try:
        rows = await conn.fetch("SELECT shard, epoch FROM shard_epochs WHERE shard_count = $1",
                                shard_count)
    finally:
        await conn.close()
    return {row["shard"]: row["epoch"] for row in rows}


async def terminate_lock_session(server: ControlledPostgres, shard: int) -> None:
    """End the session that holds ``shard``'s advisory lock, as a DBA (or a network
    cut the server noticed) would, and wait until it is gone (its locks with it)."""
    conn = await asyncpg.connect(server.url())
    try:
        pid = await conn.fetchval(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 "
            "AND classid = $1::int::oid AND objid = $2::int::oid AND granted",
            SHARD_LOCK_CLASS, shard)
        assert pid is not None
        assert await conn.fetchval("SELECT pg_terminate_backend($1, 20000)", pid)
    finally:
        await conn.close()


async def test_a_restart_loses_the_lock_session_and_its_owner_gets_it_back_first(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    assert await pg.lock_shards([0, 1], shard_count=2)
    assert pg.held_shards() == {0, 1}
    assert await pg.check_shards() == {0, 1}
    first = await epochs(controlled_pg)
    async with PostgresRepository(controlled_pg.url(), timeout=TIMEOUT) as other:
        assert not await other.lock_shards([1], shard_count=2)  # held

        await asyncio.to_thread(controlled_pg.restart)  # the loop runs meanwhile
        assert await pg.check_shards() == frozenset()
        assert pg.held_shards() == frozenset()
        # The lock is free, but its owner renewed its lease under the previous server:
        # it may be reconnecting, so it gets its shards back first.
        assert not await other.lock_shards([1], shard_count=2)
        assert other.held_shards() == frozenset()
        assert await pg.lock_shards([0, 1], shard_count=2)
        assert await epochs(controlled_pg) == {0: first[0] + 1, 1: first[1] + 1}
        assert await pg.check_shards() == {0, 1}
        assert not await other.lock_shards([1], shard_count=2)

        # A clean close hands the shards over at once.
        await pg.close()
        assert await other.lock_shards([0, 1], shard_count=2)
        assert await epochs(controlled_pg) == {0: first[0] + 2, 1: first[1] + 2}


async def test_a_terminated_lock_session_frees_its_shards_at_once(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """The database stays up (as when a bot process is killed): no lease to wait for."""
    assert await pg.lock_shards([1], shard_count=2)
    async with PostgresRepository(controlled_pg.url(), timeout=TIMEOUT) as other:
        await terminate_lock_session(controlled_pg, 1)
        assert await other.lock_shards([1], shard_count=2)
        assert await other.check_shards() == {1}
        assert await pg.check_shards() == frozenset()
        assert pg.held_shards() == frozenset()
        assert not await pg.lock_shards([1], shard_count=2)


async def test_the_lock_session_closing_is_noticed_without_a_call(
        controlled_pg: ControlledPostgres, pg: PostgresRepository,
        caplog: pytest.LogCaptureFixture) -> None:
    assert await pg.lock_shards([0, 1], shard_count=2)
    await terminate_lock_session(controlled_pg, 0)
    # The termination listener runs as soon as asyncpg sees the connection end.
    for _ in range(200):
        if not pg.held_shards():
            break
        await asyncio.sleep(0.01)
    assert pg.held_shards() == frozenset()
    assert "lost the lock session of shard(s) [0, 1]" in caplog.text


async def test_shards_during_outages(controlled_pg: ControlledPostgres,
                                     pg: PostgresRepository) -> None:
    assert await pg.lock_shards([0], shard_count=2)
    # Frozen: nobody can tell, nothing is forgotten.
    controlled_pg.freeze()
    await unavailable(pg.check_shards())
    assert pg.held_shards() == {0}
    await unavailable(pg.lock_shards([1], shard_count=2))
    controlled_pg.thaw()
    assert await pg.lock_shards([0, 1], shard_count=2)
    assert await pg.check_shards() == {0, 1}
    # Stopped: the lock session closed, the shards are lost for certain.
    controlled_pg.stop()
    assert await pg.check_shards() == frozenset()
    assert pg.held_shards() == frozenset()
    await unavailable(pg.lock_shards([0], shard_count=2))
    controlled_pg.start()
    assert await pg.lock_shards([0, 1], shard_count=2)  # a new lock session
    assert await pg.check_shards() == {0, 1}


# -- fencing -------------------------------------------------------------------------

async def test_a_process_that_lost_its_shard_cannot_write_to_its_tables(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    guild = guild_on(1, 2)
    assert await pg.lock_shards([1], shard_count=2)
    table = await new_table(pg, guild_id=guild)
    await pg.append_action(table.id, ActionRecord(1, {"n": 1}))
    before = await epochs(controlled_pg)

    await terminate_lock_session(controlled_pg, 1)
    async with PostgresRepository(controlled_pg.url(), timeout=TIMEOUT) as other:
        assert await other.lock_shards([1], shard_count=2)
        assert await epochs(controlled_pg) == {1: before[1] + 1}

        for write in (pg.append_action(table.id, ActionRecord(2, {"n": "stale"})),
                      pg.save_seats(table.id, [SeatRecord(seat=0, user_id=7, name="Eve"), *four_seats()[1:]]),
                      pg.save_draft(table.id, 0, {"pick": [1]}),
                      pg.update_table(table.id, status=TableStatus.ABANDONED),
                      pg.record_game(finished(table.id, guild))):
            with pytest.raises(ShardLostError) as caught:
                await write
            assert caught.value.code == "shard_lost"
        loaded = await other.load_table(table.id)
        assert loaded is not None
        assert [a.seq for a in loaded.actions] == [1]
        assert loaded.status is TableStatus.LOBBY
        assert loaded.seats == four_seats() and loaded.drafts == {}
        assert await other.recent_games(guild, "tichu") == []

        # The new owner writes; a seq conflict is still a seq conflict.
        await other.append_action(table.id, ActionRecord(2, {"n": 2}))
        with pytest.raises(SequenceConflictError):
            await other.append_action(table.id, ActionRecord(2, {"n": "again"}))
        await other.save_draft(table.id, 0, {"pick": [2]})
        await other.record_game(finished(table.id, guild))
        # Reading, creating tables and message ids are not fenced.
        assert await pg.load_table(table.id) is not None
        await pg.update_table(table.id, message_id=55)


async def test_a_lost_lock_session_alone_does_not_refuse_writes(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """Until another process takes the shard its epoch is still this repository's: a
    write under way when the lock session closed (a database restart) goes through."""
    guild = guild_on(1, 2)
    assert await pg.lock_shards([1], shard_count=2)
    table = await new_table(pg, guild_id=guild)
    await terminate_lock_session(controlled_pg, 1)
    assert await pg.check_shards() == frozenset()
    await pg.append_action(table.id, ActionRecord(1, {"n": 1}))
    await pg.save_draft(table.id, 0, {"pick": [1]})
    assert await pg.lock_shards([1], shard_count=2)  # taken again: the next epoch
    await pg.append_action(table.id, ActionRecord(2, {"n": 2}))
    loaded = await pg.load_table(table.id)
    assert loaded is not None and [a.seq for a in loaded.actions] == [1, 2]


async def test_a_write_that_races_its_own_processs_new_epoch_is_only_unavailable(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    """A write sent with the epoch from before this repository took its shard again (the
    lock session was lost, and the watch took the lock back meanwhile) is refused, but
    the shard is still this process's: try again, nothing is given up."""
    guild = guild_on(1, 2)
    assert await pg.lock_shards([1], shard_count=2)
    table = await new_table(pg, guild_id=guild)
    old = dict(pg._epochs)
    await terminate_lock_session(controlled_pg, 1)
    assert await pg.check_shards() == frozenset()
    assert await pg.lock_shards([1], shard_count=2)
    pg._epochs = old  # as a write under way since before the new epoch carries it
    with pytest.raises(StoreUnavailableError):
        await pg.append_action(table.id, ActionRecord(1, {"n": 1}))
    with pytest.raises(StoreUnavailableError):
        await pg.save_draft(table.id, 0, {"pick": [1]})
    assert pg.held_shards() == {1}
    loaded = await pg.load_table(table.id)
    assert loaded is not None and loaded.actions == [] and loaded.drafts == {}


async def test_the_fence_is_checked_by_the_database(controlled_pg: ControlledPostgres,
                                                    pg: PostgresRepository) -> None:
    """The repository still believes it holds shard 1, but its stored epoch moved on
    (as another owner's would): the write is refused all the same, and the shard is
    forgotten. Tables of a shard never held are refused too."""
    assert await pg.lock_shards([1], shard_count=2)
    mine = await new_table(pg, guild_id=guild_on(1, 2))
    elsewhere = await new_table(pg, guild_id=guild_on(0, 2), channel_id=11)
    await pg.append_action(mine.id, ActionRecord(1, {"n": 1}))
    with pytest.raises(ShardLostError):
        await pg.append_action(elsewhere.id, ActionRecord(1, {"n": 1}))
    with pytest.raises(SequenceConflictError):
        await pg.append_action(mine.id, ActionRecord(3, {"n": "gap"}))
    with pytest.raises(StoreError) as missing:
        await pg.append_action(10_000, ActionRecord(1, {"n": 1}))
    assert missing.value.code == "unknown_table"

    conn = await asyncpg.connect(controlled_pg.url())
    try:
        await conn.execute("UPDATE shard_epochs SET epoch = epoch + 1, owner = 'another' WHERE shard = 1")
    finally:
        await conn.close()
    assert pg.held_shards() == {1}
    with pytest.raises(ShardLostError):
        await pg.append_action(mine.id, ActionRecord(2, {"n": 2}))
    assert pg.held_shards() == frozenset()
    loaded = await pg.load_table(mine.id)
    assert loaded is not None and [a.seq for a in loaded.actions] == [1]
    # Taken again, with a new epoch, the shard's tables are writable again.
    assert await pg.lock_shards([1], shard_count=2)
    await pg.append_action(mine.id, ActionRecord(2, {"n": 2}))
    await pg.update_table(mine.id, status=TableStatus.PLAYING)


async def test_a_write_waits_for_an_epoch_bump_in_progress_and_is_refused(
        controlled_pg: ControlledPostgres) -> None:
    """The fence share-locks the shard's row: a write that meets another process's
    bump in progress (its row locked FOR UPDATE) waits for it, then sees the new
    epoch and is refused, whatever it read before."""
    async with PostgresRepository(controlled_pg.url()) as pg:  # (waits up to 10 s)
        await wait_for_a_bump(controlled_pg, pg)


async def wait_for_a_bump(controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    assert await pg.lock_shards([1], shard_count=2)
    table = await new_table(pg, guild_id=guild_on(1, 2))
    bump = await asyncpg.connect(controlled_pg.url())
    watch = await asyncpg.connect(controlled_pg.url())  # (a transaction sees one snapshot)
    try:
        async with bump.transaction():
            await bump.execute("SELECT 1 FROM shard_epochs WHERE shard = 1 FOR UPDATE")
            write = asyncio.create_task(pg.append_action(table.id, ActionRecord(1, {"n": 1})))
            for _ in range(1000):  # until the write waits for the row lock
                if await watch.fetchval(
                        "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type "
                        "= 'Lock' AND query LIKE 'INSERT INTO actions%')"):
                    break
                assert not write.done(), write
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the write never waited for the shard's row")
            await bump.execute("UPDATE shard_epochs SET epoch = epoch + 1, owner = 'another' WHERE shard = 1")
        with pytest.raises(ShardLostError):
            await write
    finally:
        await bump.close()
        await watch.close()
    loaded = await pg.load_table(table.id)
    assert loaded is not None and loaded.actions == []


async def test_check_shards_forgets_a_shard_whose_epoch_moved_on(
        controlled_pg: ControlledPostgres, pg: PostgresRepository) -> None:
    assert await pg.lock_shards([0, 1], shard_count=2)
    conn = await asyncpg.connect(controlled_pg.url())
    try:
        await conn.execute("UPDATE shard_epochs SET epoch = epoch + 1 WHERE shard = 0")
    finally:
        await conn.close()
    assert await pg.check_shards() == {1}
    assert pg.held_shards() == {1}
    assert await pg.lock_shards([0, 1], shard_count=2)  # 0 again, with a new epoch
    assert await pg.check_shards() == {0, 1}


# -- SQLite --------------------------------------------------------------------------

async def test_sqlite_locked_past_the_busy_timeout_is_busy(db_path: Path) -> None:
    repo = SQLiteRepository(db_path, timeout=0.2)
    await repo.open()
    try:
        table = await new_table(repo)
        with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            started = time.monotonic()
            with pytest.raises(StoreError) as caught:
                await repo.append_action(table.id, ActionRecord(1, {"n": 1}))
            assert caught.value.code == "busy"
            assert 0.15 < time.monotonic() - started < 5
            with pytest.raises(StoreError) as again:
                await repo.save_seats(table.id, four_seats())
            assert again.value.code == "busy"
            other.execute("ROLLBACK")
        await repo.append_action(table.id, ActionRecord(1, {"n": 1}))
        await repo.ping()
    finally:
        await repo.close()


async def test_a_call_cancelled_while_it_waits_to_begin_leaves_no_transaction_open(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task cancelled while its BEGIN waits for another process's write lock: the BEGIN
    goes on in aiosqlite's thread and begins once the lock is free. The session rolls it
    back, so the next write starts a transaction of its own (not "cannot start a
    transaction within a transaction")."""
    repo = SQLiteRepository(db_path, timeout=10)
    await repo.open()
    try:
        table = await new_table(repo)
        waiting = asyncio.Event()
        execute = SQLiteRepository._execute

        async def noted(conn: Any, sql: str, params: Any = ()) -> int:
            if sql.startswith("BEGIN"):
                waiting.set()  # the BEGIN is queued to the thread as this awaits
            return await execute(conn, sql, params)

        with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            monkeypatch.setattr(SQLiteRepository, "_execute", staticmethod(noted))
            call = asyncio.create_task(repo.save_seats(table.id, four_seats()))
            await waiting.wait()
            call.cancel()
            other.execute("ROLLBACK")  # the lock is free: the cancelled BEGIN begins
            with pytest.raises(asyncio.CancelledError):
                await call
        monkeypatch.undo()
        await repo.save_seats(table.id, four_seats())
        await repo.append_action(table.id, ActionRecord(1, {"n": 2}))
        stored = await repo.load_table(table.id)
        assert stored is not None and [a.payload for a in stored.actions] == [{"n": 2}]
        assert [s.user_id for s in stored.seats] == [s.user_id for s in four_seats()]
    finally:
        await repo.close()


async def test_a_full_sqlite_database_is_a_store_error(db_path: Path) -> None:
    repo = SQLiteRepository(db_path)
    await repo.open()
    try:
        table = await new_table(repo)
        conn = repo._conn  # the page limit is a setting of the connection that writes
        assert conn is not None
        async with conn.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        async with conn.execute(f"PRAGMA max_page_count = {row[0]}") as cursor:
            await cursor.fetchone()
        big = {"text": "x" * 20_000}
        with pytest.raises(StoreError) as caught:
            for seq in range(1, 100):
                await repo.append_action(table.id, ActionRecord(seq, big))
        assert caught.value.code == "full"
        with pytest.raises(StoreError) as whole:
            await new_table(repo, channel_id=12, options={"big": "y" * 50_000})
        assert whole.value.code == "full"
        assert len(await repo.active_table_ids()) == 1  # nothing half-written

        async with conn.execute("PRAGMA max_page_count = 1073741823") as cursor:
            await cursor.fetchone()
        stored = await repo.load_table(table.id)
        assert stored is not None
        await repo.append_action(table.id, ActionRecord(len(stored.actions) + 1, big))
        await new_table(repo, channel_id=12, options={"big": "y" * 50_000})
    finally:
        await repo.close()


def test_open_repository_passes_the_timeouts_on(db_path: Path) -> None:
    postgres = open_repository("postgresql://bot@db/tichu", timeout=2.5, shard_lease=7)
    assert isinstance(postgres, PostgresRepository)
    assert (postgres.timeout, postgres.shard_lease) == (2.5, 7)
    default = open_repository("postgresql://bot@db/tichu")
    assert isinstance(default, PostgresRepository)
    assert (default.timeout, default.shard_lease) == (10.0, 30.0)
    sqlite = open_repository(str(db_path), timeout=2.5)
    assert isinstance(sqlite, SQLiteRepository) and sqlite.busy_timeout_ms == 2500
    assert SQLiteRepository(db_path).busy_timeout_ms == 5000
    assert SQLiteRepository(db_path, busy_timeout_ms=300).busy_timeout_ms == 300
    for bad in (0, -1.0):
        with pytest.raises(StoreError) as caught:
            PostgresRepository("postgresql://bot@db/tichu", timeout=bad)
        assert caught.value.code == "invalid_argument"


async def test_sqlite_shards_and_ping(db_path: Path) -> None:
    repo = SQLiteRepository(db_path)
    with pytest.raises(StoreError) as caught:
        await repo.ping()
    assert caught.value.code == "not_open"
    await repo.open()
    try:
        await repo.ping()
        assert await repo.lock_shards([0, 2], shard_count=4)
        assert repo.held_shards() == {0, 2} == await repo.check_shards()
    finally:
        await repo.close()
    assert repo.held_shards() == frozenset()
    async with SQLiteRepository(":memory:") as memory:
        assert await memory.lock_shards([1], shard_count=2)
        assert memory.held_shards() == {1}


def test_asyncpg_pool_outage_tracebacks_become_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    import bot.store.postgres  # noqa: F401 - installs the filter

    pool_log = logging.getLogger("asyncpg.pool")
    try:
        raise ConnectionRefusedError(111, "Connection refused")
    except ConnectionRefusedError:
        pool_log.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
    try:
        raise KeyError("a bug")
    except KeyError:
        pool_log.warning("something else", exc_info=True)
    outage, bug = caplog.records[-2:]
    assert outage.exc_info is None and outage.getMessage() == (
        "Failed to restore the pool connection floor; retrying: "
        "ConnectionRefusedError: [Errno 111] Connection refused")
    assert bug.exc_info is not None  # anything else keeps its traceback


async def test_a_connection_lost_as_it_goes_back_to_the_pool_is_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    """asyncpg gives a connection back to its pool in a shielded task; when the server
    went away meanwhile and the caller was cancelled, nobody reads that task's error and
    asyncio logs it at its end. The store's filter keeps one warning line of it (no
    traceback), and leaves any other unread task error as asyncio logs it."""
    import gc

    import bot.store.postgres  # noqa: F401  (the filter is installed on import)

    async def release() -> None:
        raise asyncpg.exceptions.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation")

    async def other() -> None:
        raise ValueError("a bug")

    release.__qualname__ = "PoolConnectionHolder.release"  # as asyncpg's task shows it
    caplog.set_level(logging.WARNING, logger="asyncio")
    for work in (release, other):
        task = asyncio.get_running_loop().create_task(work())
        await asyncio.sleep(0)
        assert task.done()
        del task
        gc.collect()  # the task's end: asyncio logs an error nobody read
    lost, bug = [r for r in caplog.records if r.name == "asyncio"]
    assert lost.levelno == logging.WARNING and lost.exc_info is None
    assert lost.getMessage() == ("PostgreSQL: a connection given back to the pool was lost "
                                 "(ConnectionDoesNotExistError: connection was closed in the "
                                 "middle of operation)")
    assert bug.levelno == logging.ERROR and bug.exc_info is not None
    assert "never retrieved" in bug.getMessage()
