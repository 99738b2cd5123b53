"""Pytest fixtures for the Discord emulator.

Use them from a conftest with ``pytest_plugins = ["tests.emulator.fixtures"]``
(or ``from tests.emulator.fixtures import emulator, emulator_factory``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest_asyncio

from .server import DiscordEmulator

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]


@pytest_asyncio.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    """A started :class:`DiscordEmulator` with default settings, closed after the test."""
    async with DiscordEmulator() as emu:
        yield emu


@pytest_asyncio.fixture
async def emulator_factory() -> AsyncIterator[EmulatorFactory]:
    """``await emulator_factory(**kwargs)`` starts an emulator with custom settings (closed after the test)."""
    started: list[DiscordEmulator] = []

    async def make(**kwargs: Any) -> DiscordEmulator:
        emu = DiscordEmulator(**kwargs)
        await emu.start()
        started.append(emu)
        return emu

    yield make
    for emu in reversed(started):
        await emu.close()
