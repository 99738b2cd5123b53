"""Pytest fixtures for the Discord emulator.

Use them from a conftest with ``pytest_plugins = ["tests.emulator.fixtures"]``
(or ``from tests.emulator.fixtures import emulator, emulator_factory``).

Their emulators enforce Discord's rate limits with Discord's counts but with
windows :data:`TIME_SCALE` times as long (default 0.01: five message writes
per 0.05 s per channel instead of per 5 s), so that whole games stay quick
while the bot still meets real buckets, headers and 429s. Run with
``EMULATOR_TIME_SCALE=1`` for Discord's real pace; pass ``rate_limits=True``
to ``emulator_factory`` for real windows in one test.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest_asyncio

from .ratelimits import RateLimits
from .server import DiscordEmulator

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]

TIME_SCALE = float(os.environ.get("EMULATOR_TIME_SCALE", "0.01"))


def fixture_rate_limits() -> RateLimits:
    """Discord's rate limits with windows scaled by :data:`TIME_SCALE`."""
    return RateLimits().scaled(TIME_SCALE)


@pytest_asyncio.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    """A started :class:`DiscordEmulator` (rate-limit windows scaled), closed after the test,
    which fails if the bot sent an image Discord would show cropped or without alt text, or
    a message that pinged anyone it did not name (whether or not the test called
    :meth:`~DiscordEmulator.assert_clean`)."""
    async with DiscordEmulator(rate_limits=fixture_rate_limits()) as emu:
        yield emu
        breaches = [f"{b.kind} {b.filenames}: {b.why}" for b in emu.display_breaches]
        assert not breaches, breaches
        unnamed = [str(v) for v in emu.violations if v.kind == "unnamed_ping"]
        assert not unnamed, unnamed


@pytest_asyncio.fixture
async def emulator_factory() -> AsyncIterator[EmulatorFactory]:
    """``await emulator_factory(**kwargs)`` starts an emulator with custom settings (closed after the test)."""
    started: list[DiscordEmulator] = []

    async def make(**kwargs: Any) -> DiscordEmulator:
        kwargs.setdefault("rate_limits", fixture_rate_limits())
        emu = DiscordEmulator(**kwargs)
        await emu.start()
        started.append(emu)
        return emu

    yield make
    for emu in reversed(started):
        await emu.close()
