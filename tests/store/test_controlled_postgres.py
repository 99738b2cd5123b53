"""The PostgreSQL a test can break (``tests/postgres.py``): stopped, killed or frozen,
it answers nothing; started or thawed, it answers again at the same URL."""

from __future__ import annotations

import asyncio

import asyncpg
import psutil
import pytest

from tests.postgres import ControlledPostgres


async def answer(url: str) -> int:
    conn = await asyncpg.connect(url, timeout=5)
    try:
        return int(await conn.fetchval("SELECT 1"))
    finally:
        await conn.close()


async def test_stop_and_start(controlled_pg: ControlledPostgres) -> None:
    url = controlled_pg.url()
    assert await answer(url) == 1
    conn = await asyncpg.connect(url)
    controlled_pg.stop()
    assert not controlled_pg.running()
    with pytest.raises(OSError):  # the socket is gone
        await asyncpg.connect(url, timeout=2)
    with pytest.raises((asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
        await conn.fetchval("SELECT 1")
    await conn.close()
    controlled_pg.start()
    assert await answer(url) == 1
    controlled_pg.restart()
    assert await answer(url) == 1


async def test_kill_and_start(controlled_pg: ControlledPostgres) -> None:
    url = controlled_pg.url()
    conn = await asyncpg.connect(url)
    postmaster = psutil.Process(controlled_pg.pid())
    children = postmaster.children(recursive=True)
    assert children
    controlled_pg.kill()
    assert not postmaster.is_running()
    assert not any(child.is_running() for child in children)
    with pytest.raises((asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
        await conn.fetchval("SELECT 1")
    await conn.close()
    controlled_pg.start()  # crash recovery
    assert controlled_pg.pid() != postmaster.pid
    assert await answer(url) == 1


async def test_freeze_and_thaw(controlled_pg: ControlledPostgres) -> None:
    url = controlled_pg.url()
    conn = await asyncpg.connect(url)
    controlled_pg.freeze()
    with pytest.raises(TimeoutError):
        await conn.fetchval("SELECT 1", timeout=0.5)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(asyncpg.connect(url), timeout=0.5)
    controlled_pg.thaw()
    assert await answer(url) == 1
    await conn.close()


async def test_cleanup_thaws_a_frozen_server(controlled_pg: ControlledPostgres) -> None:
    controlled_pg.freeze()  # the fixture thaws, stops and deletes it
