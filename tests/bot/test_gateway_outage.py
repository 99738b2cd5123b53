"""Discord goes away under a running ``python -m bot`` (the emulator closes, as a lost
network or a Discord outage would look): discord.py reconnects with a growing back-off.
A stop meanwhile (Ctrl-C, ``docker stop``) still ends the process at once, and once the
gateway has been lost for longer than ``GATEWAY_DOWN_LIMIT`` the heartbeat says so, so
the image's health check turns unhealthy."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import health
from bot.app import TichuBot
from bot.config import Settings
from tests.bot.processes import ROOT, BotProcess, bot_environment
from tests.emulator.server import DiscordEmulator

RECONNECT = "Attempting a reconnect in"
"""What discord.py logs before it sleeps out its back-off, the delay after it."""
BACKOFF_SHOWN = 15.0
"""The test stops the bot during a back-off at least this long..."""
PATIENCE = 8.0
"""...and the bot must have exited well before that back-off would have ended."""


async def eventually(probe: Callable[[], str | None], timeout: float) -> str:
    """What ``probe`` returns once it returns something (polled), within ``timeout``."""
    deadline = time.monotonic() + timeout
    while (found := probe()) is None:
        assert time.monotonic() < deadline, "waited in vain"
        await asyncio.sleep(0.1)
    return found


async def started(emulator: DiscordEmulator, tmp_path: Path, **settings: object) -> BotProcess:
    """``python -m bot`` on the emulator, connected and done starting."""
    env = bot_environment(emulator, str(tmp_path / "bot.sqlite3"), **settings)
    process = await BotProcess("bot", env, tmp_path).start()
    await process.wait_line("restored 0 active tables", timeout=60)
    await emulator.wait_until_ready(timeout=30)
    return process


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
async def test_a_stop_during_a_discord_outage_exits_at_once(
        emulator: DiscordEmulator, tmp_path: Path, signum: signal.Signals) -> None:
    """The stop used to close the client and then wait for discord.py to wake from its
    reconnect back-off (248 s once), so ``docker stop`` ended in a kill (exit 137)."""
    process = await started(emulator, tmp_path)
    await emulator.close()
    delay, count = 0.0, 0
    while delay < BACKOFF_SHOWN:  # the back-off doubles its range at each try
        count += 1
        assert count <= 12, process.log()
        line = (await process.wait_lines(RECONNECT, count, timeout=150))[-1]
        found = re.search(rf"{RECONNECT} ([0-9.]+)s", line)
        assert found is not None, line
        delay = float(found.group(1))
    asked = time.monotonic()
    process.proc.send_signal(signum)
    assert await process.exited(timeout=60) == 0, process.log()
    took = time.monotonic() - asked
    assert took < PATIENCE, f"stopped after {took:.1f}s of a {delay:.1f}s back-off"
    await process.wait_line(f"stopping ({signum.name})")


async def test_the_health_check_turns_unhealthy_while_the_gateway_is_lost(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    process = await started(emulator, tmp_path, heartbeat_file=beat, watch_interval=0.2,
                            gateway_down_limit=2)
    try:
        await eventually(lambda: "healthy" if health.check(beat, 60) is None else None, 30)
        await emulator.close()
        await process.wait_line("the Discord gateway connection is lost", timeout=30)
        problem = await eventually(lambda: health.check(beat, 60), 30)
        assert problem.startswith("unhealthy: the Discord gateway has been disconnected for")
        assert "GATEWAY_DOWN_LIMIT" in problem
        verdict = subprocess.run([sys.executable, "-m", "bot.health", str(beat)], cwd=ROOT,
                                 capture_output=True, text=True, timeout=60, check=False)
        assert verdict.returncode == 1
        assert verdict.stderr.startswith("unhealthy: the Discord gateway has been "
                                         "disconnected for"), verdict.stderr
    finally:
        assert await process.stop(timeout=30) == 0


def test_the_gateway_counts_as_down_only_past_the_limit() -> None:
    """A reconnect within ``GATEWAY_DOWN_LIMIT`` goes unreported; a sharded process is down
    while any of its shards is."""
    bot = TichuBot(Settings(_env_file=None, gateway_down_limit=30))  # type: ignore[call-arg]
    assert bot.gateway_down_since() is None
    bot._gateway_lost(None)
    since = bot.gateway_down[None]
    assert bot.gateway_down_since(now=since + 29) is None
    assert bot.gateway_down_since(now=since + 31) == since
    bot._gateway_lost(None)  # a second disconnect keeps the first time
    assert bot.gateway_down[None] == since
    bot._gateway_back(None)
    assert bot.gateway_down_since(now=since + 31) is None

    bot._gateway_lost(0)
    bot._gateway_lost(1)
    first = bot.gateway_down[0]
    bot._gateway_back(0)
    assert bot.gateway_down_since(now=first + 60) == bot.gateway_down[1]
    bot._gateway_back(1)
    assert bot.gateway_down_since(now=first + 60) is None
