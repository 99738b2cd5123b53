"""The table life cycle, seats, lookups of active tables, and the backend picker."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from bot.store import (
    ActionRecord,
    GamePlayerResult,
    GameResult,
    PostgresRepository,
    Repository,
    SeatRecord,
    SQLiteRepository,
    StoreError,
    TableStatus,
    open_repository,
)

from .conftest import Backend, four_seats, new_table

PAYLOADS: list[dict[str, Any]] = [
    {"type": "deal", "seed": "seed-1"},
    {"type": "grand_tichu", "seat": 0, "call": False, "by": "timer"},
    {"type": "pass_cards", "seat": 2, "cards": ["S2", "H14", "Dragon"]},
    {"type": "play", "seat": 1, "cards": [], "note": "ünïcødé ✓", "nested": {"a": [1, 2.5, None]}},
    {"type": "bomb", "seat": 3, "cards": ["S5", "H5", "D5", "C5"], "wish": None, "ok": True},
]


async def test_the_table_life_cycle_survives_a_restart(repo: Repository,
                                                       backend: Backend) -> None:
    created = await new_table(repo, options={"target": 1000, "turn_timer": None})
    assert created.id >= 1
    assert created.status is TableStatus.LOBBY
    assert created.seats == four_seats()
    assert created.actions == []
    assert created.created_at is not None and created.created_at.tzinfo is not None
    assert created.created_at.utcoffset() == timedelta(0)

    await repo.update_table(created.id, status=TableStatus.PLAYING, thread_id=11,
                            message_id=12, ping_message_id=13,
                            options={"target": 500, "turn_timer": 60})
    await repo.update_table(created.id, message_id=14)  # the others stay as they are
    seats = [SeatRecord(0, 100, "Ann"), SeatRecord(1, 300, "Cat"),
             SeatRecord(2, 200, "Bob"), SeatRecord(3, None, "Robot", "easy")]
    await repo.save_seats(created.id, seats)
    for seq, payload in enumerate(PAYLOADS, start=1):
        await repo.append_action(created.id, ActionRecord(seq, payload))

    loaded = await repo.load_table(created.id)
    assert loaded is not None
    assert (loaded.status, loaded.thread_id, loaded.message_id, loaded.ping_message_id) == (
        TableStatus.PLAYING, 11, 14, 13)
    assert loaded.options == {"target": 500, "turn_timer": 60}
    assert loaded.seats == seats
    assert [a.seq for a in loaded.actions] == [1, 2, 3, 4, 5]
    assert [a.payload for a in loaded.actions] == PAYLOADS
    if backend.name == "sqlite":
        # SQLite keeps the JSON text as written; PostgreSQL's jsonb keeps the values
        # but not the order of an object's keys (JSON objects are unordered).
        assert [list(a.payload) for a in loaded.actions] == [list(p) for p in PAYLOADS]
    assert all(a.created_at is not None and a.created_at.tzinfo is not None
               for a in loaded.actions)
    assert loaded.updated_at is not None and created.updated_at is not None
    assert loaded.updated_at >= created.updated_at
    assert (loaded.guild_id, loaded.channel_id, loaded.host_id, loaded.game, loaded.seed,
            loaded.locale, loaded.created_at) == (1, 10, 100, "tichu", "seed-1", "en",
                                                   created.created_at)

    await repo.clear_ping(created.id)
    cleared = await repo.load_table(created.id)
    assert cleared is not None and cleared.ping_message_id is None
    await repo.close()

    async with backend.repository() as restarted:
        again = await restarted.load_table(created.id)
    assert again == cleared


async def test_action_timestamps_are_kept_in_utc(repo: Repository) -> None:
    table = await new_table(repo)
    paris = datetime(2024, 5, 1, 14, 30, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    await repo.append_action(table.id, ActionRecord(1, {"x": 1}, created_at=paris))
    await repo.append_action(table.id, ActionRecord(2, {"x": 2},
                                                    created_at=datetime(2024, 5, 1, 12, 31)))
    loaded = await repo.load_table(table.id)
    assert loaded is not None
    first, second = loaded.actions
    assert first.created_at == paris and first.created_at.tzinfo == UTC
    assert second.created_at == datetime(2024, 5, 1, 12, 31, tzinfo=UTC)


async def test_json_and_timestamps_are_stored_compactly(sqlite_repo: SQLiteRepository,
                                                        db_path: Path) -> None:
    repo = sqlite_repo
    table = await new_table(repo, options={"target": 1000, "name": "café"})
    await repo.append_action(table.id, ActionRecord(1, {"a": [1, 2], "b": {"c": None}}))
    with closing(sqlite3.connect(db_path)) as conn:
        options, created = conn.execute(
            "SELECT options, created_at FROM tables WHERE id = ?", (table.id,)).fetchone()
        payload = conn.execute("SELECT payload FROM actions WHERE table_id = ?",
                               (table.id,)).fetchone()[0]
    assert options == '{"target":1000,"name":"café"}'
    assert payload == '{"a":[1,2],"b":{"c":null}}'
    assert created.endswith("+00:00") and len(created) == len("2024-01-01T00:00:00.000000+00:00")


async def test_guild_rows(sqlite_repo: SQLiteRepository, db_path: Path) -> None:
    repo = sqlite_repo
    await new_table(repo, guild_id=5)  # a table creates its guild's row with the default
    await repo.ensure_guild(6, "fr")
    await repo.ensure_guild(6, "de")
    with closing(sqlite3.connect(db_path)) as conn:
        rows = conn.execute("SELECT id, locale FROM guilds ORDER BY id").fetchall()
    assert rows == [(5, "en"), (6, "de")]


async def test_unknown_tables(repo: Repository) -> None:
    assert await repo.load_table(404) is None
    for attempt in (repo.update_table(404, status=TableStatus.ABANDONED),
                    repo.clear_ping(404),
                    repo.save_seats(404, four_seats()),
                    repo.append_action(404, ActionRecord(1, {})),
                    repo.append_action(404, ActionRecord(3, {}))):
        with pytest.raises(StoreError) as caught:
            await attempt
        assert caught.value.code == "unknown_table"
        assert "404" in str(caught.value)


async def test_bad_input_is_refused_before_anything_is_written(repo: Repository) -> None:
    table = await new_table(repo)
    with pytest.raises(StoreError) as seats:
        await repo.save_seats(table.id, [SeatRecord(0, 1), SeatRecord(0, 2)])
    assert seats.value.code == "invalid_seats"
    with pytest.raises(StoreError) as options:
        await repo.update_table(table.id, options={"when": datetime.now(UTC)})
    assert options.value.code == "not_json"
    with pytest.raises(StoreError) as payload:
        await repo.append_action(table.id, ActionRecord(1, {"nan": float("nan")}))
    assert payload.value.code == "not_json"
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.seats == four_seats() and loaded.actions == []


async def test_ids_past_64_bits_are_refused(repo: Repository) -> None:
    table = await new_table(repo)
    attempts = [
        repo.create_table(guild_id=2**64, channel_id=1, host_id=1, game="tichu", seed="s",
                          options={}, locale="en", seats=[]),
        repo.update_table(table.id, message_id=2**63),
        repo.save_seats(table.id, [SeatRecord(0, 2**70, "Ann")]),
        repo.find_active_table(-(2**64)),
    ]
    for attempt in attempts:
        with pytest.raises(StoreError) as caught:
            await attempt
        assert caught.value.code == "invalid_value"
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.seats == four_seats() and loaded.message_id is None
    assert await repo.active_table_ids() == [table.id]


async def test_active_tables_by_channel_and_thread(repo: Repository) -> None:
    lobby = await new_table(repo, channel_id=10)
    playing = await new_table(repo, channel_id=20)
    await repo.update_table(playing.id, status=TableStatus.PLAYING, thread_id=21)
    over = {}
    for status, channel in ((TableStatus.FINISHED, 30), (TableStatus.ABANDONED, 40),
                            (TableStatus.EXPIRED, 50)):
        table = await new_table(repo, channel_id=channel)
        await repo.update_table(table.id, status=status, thread_id=channel + 1)
        over[status] = table.id

    assert await repo.active_table_ids() == [lobby.id, playing.id]
    assert await repo.find_active_table(10) == lobby.id
    assert await repo.find_active_table(20) == playing.id
    assert await repo.find_active_table(21) == playing.id
    for channel in (30, 31, 40, 41, 50, 51, 999):
        assert await repo.find_active_table(channel) is None

    await repo.update_table(lobby.id, status=TableStatus.ABANDONED)
    assert await repo.active_table_ids() == [playing.id]
    assert await repo.find_active_table(10) is None
    replacement = await new_table(repo, channel_id=10)
    assert await repo.find_active_table(10) == replacement.id


async def test_finished_tables_in_direct_messages_changed_lately(repo: Repository) -> None:
    """The tables a Rematch may still open after a restart: finished, in direct
    messages (guild 0, no channel), changed since the given moment."""
    await repo.ensure_guild(0, "en")
    direct = await new_table(repo, guild_id=0, channel_id=0)
    playing = await new_table(repo, guild_id=0, channel_id=0)
    server = await new_table(repo, channel_id=10)
    for table in (direct, server):
        await repo.update_table(table.id, status=TableStatus.FINISHED)
    await repo.update_table(playing.id, status=TableStatus.PLAYING)
    now = datetime.now(UTC)
    assert await repo.finished_direct_tables(now - timedelta(minutes=1)) == [direct.id]
    assert await repo.finished_direct_tables(now + timedelta(minutes=1)) == []


async def test_transactions_of_interleaved_coroutines_do_not_mix(repo: Repository) -> None:
    """A failing transaction rolls back only its own work, not the appends that
    other coroutines ran meanwhile on the same connection."""
    finished = await new_table(repo, channel_id=1)
    busy = await new_table(repo, channel_id=2)
    result = GameResult(table_id=finished.id, guild_id=1, game="tichu", scores=[1, 0],
                        winner=0, replay={}, players=[
                            GamePlayerResult(0, 100, None, "Ann", 0, True, {"x": 1})])
    await repo.record_game(result)

    attempts = [repo.record_game(result) for _ in range(5)]
    appends = [repo.append_action(busy.id, ActionRecord(seq, {"n": seq})) for seq in range(1, 21)]
    outcomes = await asyncio.gather(*attempts, *appends, return_exceptions=True)
    assert all(isinstance(o, StoreError) and o.code == "game_already_recorded"
               for o in outcomes[:5])
    assert outcomes[5:] == [None] * 20
    loaded = await repo.load_table(busy.id)
    assert loaded is not None and [a.seq for a in loaded.actions] == list(range(1, 21))


async def test_a_closed_repository_refuses_work(db_path: Path) -> None:
    repo = SQLiteRepository(db_path)
    await repo.open()
    await repo.open()  # opening twice is harmless
    await repo.close()
    await repo.close()
    with pytest.raises(StoreError) as caught:
        await repo.load_table(1)
    assert caught.value.code == "not_open"


async def test_a_missing_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "store.db"
    async with SQLiteRepository(path) as repo:
        assert await repo.schema_version() >= 1
    assert path.is_file()


async def test_an_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "plain-file").write_text("")
    with pytest.raises(StoreError) as caught:
        await SQLiteRepository(tmp_path / "plain-file" / "store.db").open()
    assert caught.value.code == "open_failed"


@pytest.mark.parametrize("backend_class", [SQLiteRepository, PostgresRepository])
def test_both_backends_match_the_protocol(backend_class: type) -> None:
    methods = [name for name, value in vars(Repository).items()
               if inspect.iscoroutinefunction(value)]
    # 34, 11 of duplicate (issue 24), 3 of reviews (issue 25), 11 of people's data (42),
    # 2 of the board secret (51), 1 of limits (51), 1 of the export (51), 22 of the queue
    # of "Play now" (53), 3 of its seating (53), 1 of talk at tables (53), 1 of the global
    # board (53), 1 of the ready checks' messages (53), 1 of the rematch after a restart
    # (53)
    assert len(methods) == 92
    methods.append("held_shards")  # the one plain method (no I/O)
    for name in methods:
        expected = inspect.signature(getattr(Repository, name))
        actual = inspect.signature(getattr(backend_class, name))
        assert list(actual.parameters.values()) == list(expected.parameters.values()), name
    repository: Repository = SQLiteRepository(":memory:")  # checked by mypy too
    postgres: Repository = PostgresRepository("postgresql://nobody@nowhere/none")
    assert isinstance(repository, SQLiteRepository)
    assert isinstance(postgres, PostgresRepository)


@pytest.mark.parametrize(("given", "path"), [
    ("store.db", "store.db"),
    ("/var/lib/bot/store.db", "/var/lib/bot/store.db"),
    (":memory:", ":memory:"),
    ("sqlite:///data/store.db", "data/store.db"),
    ("sqlite:////var/lib/bot/store.db", "/var/lib/bot/store.db"),
    ("sqlite:///:memory:", ":memory:"),
    ("sqlite://", ":memory:"),
])
def test_open_repository_picks_sqlite(given: str, path: str) -> None:
    repository = open_repository(given)
    assert isinstance(repository, SQLiteRepository)
    assert repository.path == path


@pytest.mark.parametrize(("given", "dsn"), [
    ("postgresql://bot@localhost/tichu", "postgresql://bot@localhost/tichu"),
    ("postgres://bot:pw@db:5433/tichu", "postgresql://bot:pw@db:5433/tichu"),
    ("postgresql+asyncpg://bot@db/tichu", "postgresql://bot@db/tichu"),
    ("PostgreSQL://bot@db/tichu?sslmode=require", "postgresql://bot@db/tichu?sslmode=require"),
])
def test_open_repository_picks_postgresql(given: str, dsn: str) -> None:
    repository = open_repository(given, pool_size=3)
    assert isinstance(repository, PostgresRepository)
    assert (repository.dsn, repository.pool_size) == (dsn, 3)


@pytest.mark.parametrize("given", ["mysql://x/y", "sqlite:relative.db", "", "   ",
                                   "postgresql+psycopg://bot@db/tichu"])
def test_open_repository_refuses_what_it_does_not_know(given: str) -> None:
    with pytest.raises(StoreError) as caught:
        open_repository(given)
    assert caught.value.code == "unsupported_backend"


async def test_an_in_memory_repository_works() -> None:
    repository = open_repository("sqlite://")
    await repository.open()
    try:
        table = await repository.create_table(guild_id=1, channel_id=2, host_id=3,
                                              game="tichu", seed="s", options={},
                                              locale="fr", seats=[])
        await repository.append_action(table.id, ActionRecord(1, {"a": 1}))
        loaded = await repository.load_table(table.id)
        assert loaded is not None and loaded.locale == "fr" and len(loaded.actions) == 1
    finally:
        await repository.close()


async def test_a_path_sqlite_cannot_open_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        await SQLiteRepository(tmp_path).open()  # a directory, not a file
    assert caught.value.code == "open_failed"


def test_the_pool_size_setting_reaches_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import Settings

    monkeypatch.setenv("DATABASE", "postgresql://bot@db/tichu")
    monkeypatch.setenv("DATABASE_POOL_SIZE", "4")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    repository = open_repository(settings.database, pool_size=settings.database_pool_size)
    assert isinstance(repository, PostgresRepository) and repository.pool_size == 4
    monkeypatch.delenv("DATABASE_POOL_SIZE")
    assert Settings(_env_file=None).database_pool_size == 10  # type: ignore[call-arg]
    monkeypatch.setenv("DATABASE_POOL_SIZE", "0")
    with pytest.raises(ValueError, match="database_pool_size"):
        Settings(_env_file=None)  # type: ignore[call-arg]
