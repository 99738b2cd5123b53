"""What only the PostgreSQL backend has: its migrations and types, the append-only
trigger, retried transactions, and rows damaged behind its back."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import (
    ActionRecord,
    CorruptRowError,
    PostgresRepository,
    StoreError,
)
from bot.store.migrate import Migration, load_migrations

from .conftest import Backend, new_table

SQLITE = load_migrations()
POSTGRES = load_migrations(postgres=True)
LATEST = POSTGRES[-1].version


def test_both_backends_have_the_same_numbered_migrations() -> None:
    assert [m.label for m in POSTGRES] == [m.label for m in SQLITE]


async def query(backend: Backend, sql: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(backend.url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def test_a_fresh_database_gets_every_migration_once(pg_backend: Backend) -> None:
    first, second = pg_backend.repository(), pg_backend.repository()
    await asyncio.gather(first.open(), second.open())  # two processes starting together
    try:
        assert await first.schema_version() == await second.schema_version() == LATEST
    finally:
        await first.close()
        await second.close()
    rows = await query(pg_backend, "SELECT version, name FROM schema_migrations ORDER BY 1")
    assert [(r["version"], r["name"]) for r in rows] == [(m.version, m.name) for m in POSTGRES]
    async with pg_backend.repository() as again:  # reopening applies nothing
        assert await again.schema_version() == LATEST


async def test_columns_have_postgresql_types(pg_backend: Backend) -> None:
    async with pg_backend.repository():
        pass
    rows = await query(pg_backend, "SELECT table_name, column_name, data_type FROM "
                       "information_schema.columns WHERE table_schema = 'public'")
    types = {(r["table_name"], r["column_name"]): r["data_type"] for r in rows}
    for column in [("guilds", "id"), ("tables", "guild_id"), ("tables", "channel_id"),
                   ("tables", "thread_id"), ("seats", "user_id"), ("games", "guild_id"),
                   ("panels", "application_id"), ("panels", "message_id"),
                   ("game_players", "user_id"), ("ratings", "user_id")]:
        assert types[column] == "bigint", column
    for column in [("tables", "options"), ("actions", "payload"), ("games", "replay"),
                   ("games", "scores"), ("drafts", "data")]:
        assert types[column] == "jsonb", column
    for column in [("tables", "created_at"), ("actions", "created_at"),
                   ("games", "finished_at"), ("panels", "created_at")]:
        assert types[column] == "timestamp with time zone", column
    assert types["seats", "away"] == types["game_players", "won"] == "boolean"


async def test_the_action_log_cannot_be_rewritten(pg_backend: Backend) -> None:
    async with pg_backend.repository() as repo:
        table = await new_table(repo)
        await repo.append_action(table.id, ActionRecord(1, {"a": 1}))
        for statement in ("UPDATE actions SET payload = '{}'", "DELETE FROM actions",
                          "TRUNCATE actions CASCADE"):
            with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
                await query(pg_backend, statement)
        loaded = await repo.load_table(table.id)
        assert loaded is not None and loaded.actions[0].payload == {"a": 1}


async def test_a_database_newer_than_the_code_is_refused(pg_backend: Backend) -> None:
    async with pg_backend.repository():
        pass
    await query(pg_backend, "INSERT INTO schema_migrations (version, name) VALUES ($1, 'x')",
                LATEST + 5)
    with pytest.raises(StoreError) as caught:
        await pg_backend.repository().open()
    assert caught.value.code == "schema_too_new"


async def test_a_failing_migration_is_rolled_back_whole(pg_backend: Backend) -> None:
    async with pg_backend.repository():
        pass
    broken = Migration(LATEST + 1, "broken",
                       "CREATE TABLE half_done (a integer);\nINSERT INTO no_such_table VALUES (1);")
    repo = PostgresRepository(pg_backend.url, migrations=[*POSTGRES, broken])
    with pytest.raises(StoreError) as caught:
        await repo.open()
    assert caught.value.code == "migration_failed"
    assert f"{LATEST + 1:04d}_broken" in str(caught.value)
    assert await query(pg_backend, "SELECT to_regclass('half_done') AS t") == [(None,)]
    async with pg_backend.repository() as again:
        assert await again.schema_version() == LATEST


async def test_an_unreachable_server_is_a_store_error(pg_backend: Backend) -> None:
    with pytest.raises(StoreError) as caught:
        await PostgresRepository(pg_backend.url.replace("/store_", "/no_such_")).open()
    assert caught.value.code == "open_failed"
    with pytest.raises(StoreError) as not_open:
        await PostgresRepository(pg_backend.url).load_table(1)
    assert not_open.value.code == "not_open"


DAMAGE = [
    ("UPDATE tables SET status = 'paused' WHERE id = $1", "status"),
    ("UPDATE tables SET options = '[1, 2]' WHERE id = $1", "options"),
    ("UPDATE tables SET options = '\"text\"' WHERE id = $1", "options"),
    ("INSERT INTO actions VALUES ($1, 5, '{}', now())", "gap"),
    ("INSERT INTO drafts VALUES ($1, 1, '[1]', now())", "draft of seat 1"),
    ("UPDATE seats SET name = NULL WHERE table_id = $1 AND seat = 0", "seat 0 name"),
]


@pytest.mark.parametrize(("damage", "named"), DAMAGE,
                         ids=[f"{i}-{named}" for i, (_, named) in enumerate(DAMAGE)])
async def test_a_damaged_row_is_a_corrupt_row_error(pg_backend: Backend, damage: str,
                                                    named: str) -> None:
    async with pg_backend.repository() as repo:
        healthy = await new_table(repo, channel_id=1)
        damaged = await new_table(repo, channel_id=2)
        for table in (healthy, damaged):
            for seq in (1, 2):
                await repo.append_action(table.id, ActionRecord(seq, {"seq": seq}))
        conn = await asyncpg.connect(pg_backend.url)
        try:  # as a broken tool would: constraints that stand in the way are dropped
            await conn.execute("ALTER TABLE seats ALTER COLUMN name DROP NOT NULL")
            await conn.execute(damage, damaged.id)
        finally:
            await conn.close()
        with pytest.raises(CorruptRowError) as caught:
            await repo.load_table(damaged.id)
        assert f"table {damaged.id}" in str(caught.value) and named in str(caught.value)
        assert await repo.active_table_ids() == [healthy.id, damaged.id]
        assert await repo.load_table(healthy.id) is not None


async def test_a_serialization_failure_is_retried(pg_backend: Backend) -> None:
    """A real conflict: a serializable transaction reads a row, another session
    changes it and commits, the first one writes it and fails; the repository runs
    the whole transaction again, which then succeeds on the new value."""
    async with pg_backend.repository() as repo:
        assert isinstance(repo, PostgresRepository)
        await repo.set_meta("counter", "0")
        read, changed = asyncio.Event(), asyncio.Event()
        attempts = 0

        async def increment(conn: asyncpg.Connection) -> str:
            nonlocal attempts
            attempts += 1
            value = await conn.fetchval("SELECT value FROM meta WHERE key = 'counter'")
            if attempts == 1:
                read.set()
                await changed.wait()
            await conn.execute("UPDATE meta SET value = $1 WHERE key = 'counter'",
                               str(int(value) + 1))
            return str(value)

        async def meddle() -> None:
            await read.wait()
            await repo.set_meta("counter", "10")  # autocommit, another pooled connection
            changed.set()

        seen, _ = await asyncio.gather(
            repo._run("increment", increment, isolation="serializable"), meddle())
        assert attempts == 2 and seen == "10"
        assert await repo.get_meta("counter") == "11"


async def test_a_nul_character_is_refused_not_a_crash(pg_backend: Backend) -> None:
    """PostgreSQL text and jsonb cannot hold U+0000 (SQLite can): the store says so."""
    async with pg_backend.repository() as repo:
        table = await new_table(repo)
        for attempt in (repo.append_action(table.id, ActionRecord(1, {"note": "a\x00b"})),
                        repo.save_draft(table.id, 0, {"x": "\x00"}),
                        repo.set_meta("k", "\x00")):
            with pytest.raises(StoreError) as caught:
                await attempt
            assert caught.value.code == "invalid_value"
        await repo.append_action(table.id, ActionRecord(1, {"note": "fine"}))
        loaded = await repo.load_table(table.id)
        assert loaded is not None and [a.payload for a in loaded.actions] == [{"note": "fine"}]
        assert loaded.drafts == {}
