"""A repository that fails on demand, the way a database that blinks does."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from typing import Any

from bot.store import SQLiteRepository, StoreUnavailableError
from bot.store.models import StoreError


class FlakyStore:
    """A repository that fails on demand: ``fail("append_action", 2)`` makes the next two
    appends raise before writing; ``lose("append_action")`` lets the next one write and
    then raises as if the answer were lost. ``down`` makes every call fail. The shard
    answers (``held``, ``free``) stand for PostgreSQL's lock session."""

    def __init__(self, inner: SQLiteRepository) -> None:
        self.inner = inner
        self.failures: dict[str, int] = {}
        self.lost: dict[str, int] = {}
        self.error: Callable[[str], StoreError] = lambda what: StoreUnavailableError(
            f"{what}: connection refused")
        self.down = False
        self.held: set[int] = set()
        self.free = True
        self.calls: dict[str, int] = {}

    def fail(self, name: str, times: int = 1,
             error: Callable[[str], StoreError] | None = None) -> None:
        self.failures[name] = times
        if error is not None:
            self.error = error

    def lose(self, name: str, times: int = 1) -> None:
        self.lost[name] = times

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if not asyncio.iscoroutinefunction(method):
            return method

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            if self.down:
                raise StoreUnavailableError(f"{name}: the database is down")
            if self.failures.get(name, 0) > 0:
                self.failures[name] -= 1
                raise self.error(name)
            result = await method(*args, **kwargs)
            if self.lost.get(name, 0) > 0:
                self.lost[name] -= 1
                raise StoreUnavailableError(f"{name}: connection lost after the write")
            return result
        return call

    async def ping(self) -> None:
        if self.down:
            raise StoreUnavailableError("ping: the database is down")

    async def check_shards(self) -> frozenset[int]:
        if self.down:
            raise StoreUnavailableError("check_shards: the database is down")
        return frozenset(self.held)

    async def lock_shards(self, shard_ids: Collection[int], *, shard_count: int = 1) -> bool:
        if self.down:
            raise StoreUnavailableError("lock_shards: the database is down")
        if not self.free:
            return False
        self.held.update(shard_ids)
        return True
