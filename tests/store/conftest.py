"""Fixtures of the store tests: a repository on a real file (WAL, reopen)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import SeatRecord, SQLiteRepository, TableRecord


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
async def repo(db_path: Path) -> AsyncIterator[SQLiteRepository]:
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


async def new_table(repo: SQLiteRepository, *, guild_id: int = 1, channel_id: int = 10,
                    host_id: int = 100, game: str = "tichu",
                    options: dict[str, Any] | None = None) -> TableRecord:
    return await repo.create_table(
        guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
        seed="seed-1", options=options if options is not None else {"target": 1000},
        locale="en", seats=four_seats(),
    )
