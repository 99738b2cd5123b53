"""The table service when the store fails: computer moves and timers are retried until
they go through, a write whose answer was lost is read back, a missing driver is
started again, a finished game whose result could not be stored is recorded later,
and a shard whose lock is lost is not driven until it is held again.

The store is a real SQLite file behind :class:`~tests.bot.flaky_store.FlakyStore`,
which makes chosen calls fail the way a database that blinks does: refused before
anything is written, or written and then the answer lost."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.games.registry import all_specs
from bot.store import SQLiteRepository, StoreUnavailableError
from bot.store.models import ActionRecord, ShardLostError, StoreError, TableStatus
from bot.tables import SeatKind, Table, TableError, TableService
from bot.tables.errors import store_refusal
from engine.errors import EngineError
from engine.tichu.actions import DeclineGrand
from engine.tichu.ai import pending_seats
from tests.bot.flaky_store import FlakyStore

HOST = 11


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[FlakyStore]:
    repo = SQLiteRepository(str(tmp_path / "db.sqlite3"), busy_timeout_ms=50)
    await repo.open()
    yield FlakyStore(repo)
    await repo.close()


def new_service(store: FlakyStore, **options: Any) -> TableService:
    return TableService(store, all_specs(), ai_delay=0.0, **options)  # type: ignore[arg-type]


@pytest_asyncio.fixture
async def service(store: FlakyStore) -> AsyncIterator[TableService]:
    svc = new_service(store)
    yield svc
    await svc.close()


async def start_table(service: TableService, levels: dict[int, str] | None = None,
                      **options: Any) -> Table:
    """A Tichu table of the host (seat 0) and computers, started."""
    table = await service.lobby.open_lobby(game="tichu", guild_id=1, channel_id=2, host_id=HOST,
                                           host_name="host", locale="en",
                                           options={"target": 1000, **options})
    for seat, level in (levels or {1: "easy", 2: "easy", 3: "easy"}).items():
        await service.lobby.set_computer(table.id, HOST, seat, level)
    return await service.lobby.start(table.id, HOST)


async def wait_for(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not reached"
        await asyncio.sleep(0.005)


async def in_step(store: FlakyStore, table: Table) -> None:
    """The table's copy and the store hold the same actions, numbered 1, 2, 3 … (read
    under the table's lock: no computer moves meanwhile)."""
    async with table.lock:
        record = await store.inner.load_table(table.id)
        assert record is not None
        assert [a.seq for a in record.actions] == list(range(1, table.seq + 1))
        assert [a.payload for a in table.record.actions] == [a.payload for a in record.actions]


async def test_a_computer_move_the_store_refuses_is_tried_again(
        service: TableService, store: FlakyStore, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", "bot.tables.drivers")
    store.fail("append_action", 3)
    table = await start_table(service)
    # The three computers decline the Grand Tichu (after three refused tries), then wait
    # for the host.
    await wait_for(lambda: 0 in pending_seats(table.game.view(None)) and table.seq == 3)
    assert store.calls["append_action"] == 6
    await in_step(store, table)
    assert f"table {table.id}: a computer move failed" in caplog.text
    assert "go through again (after 3 failed tries)" in caplog.text


async def test_a_write_whose_answer_was_lost_is_read_back(
        service: TableService, store: FlakyStore) -> None:
    store.lose("append_action")  # the first computer's decline is stored, its answer lost
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3 and not table.unsure)
    await in_step(store, table)  # stored once, and the table knows it
    # The person's decision too: stored, answer lost, refused; the table reads it back,
    # and the same click again is no longer legal (never stored twice).
    store.lose("append_action")
    with pytest.raises(StoreUnavailableError):
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert table.unsure
    with pytest.raises(EngineError):  # already decided: the exchange has begun
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert not table.unsure
    await in_step(store, table)
    assert sum(1 for a in table.record.actions if a.payload["by"] == "human") == 1


async def test_any_error_of_a_computer_is_retried(
        service: TableService, store: FlakyStore, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    real = service.drivers._computer_action
    failures = [RuntimeError("worker died"), OSError("socket gone")]

    async def flaky(table: Table) -> Any:
        if failures:
            raise failures.pop(0)
        return await real(table)
    monkeypatch.setattr(service.drivers, "_computer_action", flaky)
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3)
    assert "worker died" in caplog.text  # logged with its traceback, table id first
    assert f"table {table.id}: a computer move failed" in caplog.text


async def test_a_missing_driver_is_started_again_by_the_check(
        service: TableService, store: FlakyStore) -> None:
    table = await start_table(service)
    store.down = True  # the computers cannot move
    await asyncio.sleep(0.05)
    driver = service.drivers._drivers[table.id]
    driver.cancel()  # as if it had died
    with pytest.raises(asyncio.CancelledError):
        await driver
    store.down = False
    await service.watch.check()
    assert service.watch.database_down_since is None
    await wait_for(lambda: table.seq == 3)
    await in_step(store, table)


async def test_the_database_down_is_seen_and_every_table_moves_when_it_returns(
        service: TableService, store: FlakyStore) -> None:
    store.fail("append_action", 10**9)  # no computer can move
    tables = [await start_table(service) for _ in range(3)]
    store.down = True
    await service.watch.check()
    assert service.watch.database_down_since is not None
    await asyncio.sleep(0.3)
    assert all(table.seq == 0 for table in tables)
    store.down = False
    store.failures.clear()
    # No check needed: each driver tries again by itself within the backoff.
    await wait_for(lambda: all(table.seq == 3 for table in tables), timeout=10)
    await service.watch.check()
    assert service.watch.database_down_since is None


async def test_a_click_during_an_outage_is_refused_and_changes_nothing(
        service: TableService, store: FlakyStore) -> None:
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3)
    store.fail("append_action")
    with pytest.raises(StoreUnavailableError) as refused:
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert store_refusal(refused.value.code) == "store_unavailable"
    assert table.seq == 3 and 0 in pending_seats(table.game.view(None))
    await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert table.seq == 4
    await in_step(store, table)


async def test_a_locked_sqlite_database_refuses_cleanly_and_recovers(
        service: TableService, store: FlakyStore, tmp_path: Path) -> None:
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3)
    other = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
        with pytest.raises(StoreError) as refused:
            await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
        assert refused.value.code == "busy"
        assert store_refusal(refused.value.code) == "store_unavailable"
        assert table.seq == 3
    finally:
        other.execute("ROLLBACK")
        other.close()
    await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    await wait_for(lambda: table.seq > 4)  # and the computers go on
    await in_step(store, table)


async def test_a_full_store_refuses_the_click_and_the_table_recovers(
        service: TableService, store: FlakyStore) -> None:
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3)
    store.fail("append_action", error=lambda what: StoreError(  # as SQLite says it
        "full", f"{what}: database or disk is full"))
    with pytest.raises(StoreError) as refused:
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert store_refusal(refused.value.code) == "store_failed"
    assert table.seq == 3 and not table.unsure  # refused before writing: nothing to read
    await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    await in_step(store, table)


async def finish_with_computers(service: TableService, store: FlakyStore) -> Table:
    """A one-deal game (target 1) whose host's seat computers finish: it ends by itself."""
    table = await start_table(service, target=1)
    await service.results.finish_for_people(table, "normal")
    await wait_for(lambda: table.game_over, timeout=60)
    return table


async def test_a_game_whose_result_could_not_be_stored_is_recorded_when_the_store_answers(
        service: TableService, store: FlakyStore) -> None:
    store.fail("record_game", 2)
    table = await finish_with_computers(service, store)
    await wait_for(lambda: store.failures["record_game"] == 1)
    assert table.unrecorded and table.status is TableStatus.PLAYING
    assert await store.inner.recent_games(1, "tichu") == []
    await service.watch.check()  # the second try fails too
    assert table.unrecorded
    await service.watch.check()
    assert not table.unrecorded and table.status is TableStatus.FINISHED
    games = await store.inner.recent_games(1, "tichu")
    assert [g.table_id for g in games] == [table.id]
    await in_step(store, table)


async def test_a_result_stored_but_unanswered_is_not_recorded_twice(
        service: TableService, store: FlakyStore) -> None:
    store.lose("record_game")
    table = await finish_with_computers(service, store)
    await wait_for(lambda: table.unrecorded)
    await service.watch.check()
    assert table.status is TableStatus.FINISHED
    assert len(await store.inner.recent_games(1, "tichu")) == 1


async def test_a_game_left_unrecorded_by_a_dying_process_is_recorded_at_the_next_start(
        store: FlakyStore) -> None:
    first = new_service(store)
    store.fail("record_game", 1)
    table = await finish_with_computers(first, store)
    await wait_for(lambda: store.failures["record_game"] == 0)
    await first.close()  # dies before any check
    assert (await store.inner.load_table(table.id)).status is TableStatus.PLAYING  # type: ignore[union-attr]

    second = new_service(store)
    try:
        [again] = await second.watch.restore()
        assert again.status is TableStatus.FINISHED and not again.unrecorded
        assert [g.table_id for g in await store.inner.recent_games(1, "tichu")] == [table.id]
    finally:
        await second.close()


async def test_a_lost_shard_lock_stops_its_tables_until_it_is_held_again(
        store: FlakyStore) -> None:
    lost: list[str] = []
    service = new_service(store, on_lost=lost.append, shard_lock_wait=60)
    try:
        service.watch.watch_shards([0])
        store.held = {0}
        table = await start_table(service)
        await wait_for(lambda: table.seq == 3)
        store.held = set()  # the lock session died with a database restart
        store.free = False  # and the lock is not free yet
        await service.watch.check()
        assert service.shards.suspended == {0} and table.id not in service.drivers._drivers
        with pytest.raises(TableError, match="store_unavailable"):
            await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
        await service.watch.check()
        assert service.shards.suspended == {0} and not lost
        # Meanwhile the store moved on (as another process might have written it): the
        # host's decision is stored behind this copy's back.
        payload = {**table.spec.action_to_json(DeclineGrand(0)), "by": "human"}
        await store.inner.append_action(table.id, ActionRecord(seq=4, payload=payload))
        assert table.seq == 3
        store.free = True
        await service.watch.check()
        assert not service.shards.suspended and store.held == {0}
        # Read again before it plays on: the decision is known, not asked a second time.
        with pytest.raises(EngineError):
            await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
        await wait_for(lambda: table.seq > 4)  # the computers' exchange follows
        await in_step(store, table)
        assert table.record.actions[3].payload == payload
        assert not lost
    finally:
        await service.close()


async def test_a_shard_lock_not_free_again_in_time_is_given_up(store: FlakyStore) -> None:
    lost: list[str] = []
    service = new_service(store, on_lost=lost.append, shard_lock_wait=0)
    try:
        service.watch.watch_shards([0])
        store.held = {0}
        table = await start_table(service)
        store.held = set()
        store.free = False
        await service.watch.check()
        assert service.shards.suspended == {0}
        assert lost and "shard(s) [0] are no longer this process's" in lost[0]
        assert table.id not in service.drivers._drivers
    finally:
        await service.close()


async def test_a_write_refused_by_the_fence_gives_the_shard_up_at_once(
        service: TableService, store: FlakyStore) -> None:
    lost: list[str] = []
    service.watch.on_lost = lost.append
    table = await start_table(service)
    await wait_for(lambda: table.seq == 3)
    store.fail("append_action", error=lambda what: ShardLostError(
        f"{what}: shard 0 is at epoch 4, this process holds epoch 3"))
    with pytest.raises(ShardLostError):
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert len(lost) == 1 and service.shards.suspended == {0}
    with pytest.raises(TableError, match="store_unavailable"):
        await service.clicks.act(table.id, HOST, 0, lambda seat: DeclineGrand(seat))
    assert table.seq == 3
    assert table.kind(0) is SeatKind.HUMAN


async def test_a_turn_timer_move_the_store_refuses_is_tried_again(
        service: TableService, store: FlakyStore) -> None:
    table = await start_table(service, turn_timer=0.1)
    await wait_for(lambda: table.seq == 3)  # the computers' Grand Tichu decisions
    store.fail("append_action", 3)  # the host's time runs out while the store is away
    await wait_for(lambda: table.seq >= 4)
    await in_step(store, table)
    assert table.record.actions[3].payload["by"] == "timer"
    assert table.record.actions[3].payload["seat"] == 0
