"""Real bot processes (``python -m bot``) against the local Discord, for the tests of
several processes: each runs with its own environment and its log is kept, line by
line, so a test can wait for what a process says."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.tables import ids
from tests.emulator.fixtures import TIME_SCALE
from tests.emulator.server import DiscordEmulator

ROOT = Path(__file__).resolve().parents[2]
INTERACTION_RATE = Settings.model_fields["interaction_rate"].default / TIME_SCALE
"""One person's pace in these tests: their people act as fast as the bot answers, on the
emulator's clock (its rate-limit windows :data:`TIME_SCALE` times Discord's), so the pace
is that much quicker; the tests of the pace itself set their own."""


def bot_environment(emu: DiscordEmulator, database: str, **settings: Any) -> dict[str, str]:
    """The environment of a bot process on ``emu`` and ``database``: quick computers and
    edits, no worker processes; ``settings`` (e.g. ``shard_ids="1"``) as upper-case keys.
    Nothing of the outer environment's bot settings leaks in."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "SHARD_", "DATABASE", "AI_", "TABLE_",
                                  "WORKER_", "LOG_", "HEARTBEAT_", "REST_", "SWEEP_",
                                  "LOBBY_", "DEV_GUILD", "MODEL_", "INTERACTION_"))}
    values: dict[str, Any] = {
        "discord_token": emu.bot_token, "discord_api_base": emu.api_base,
        "discord_gateway_url": emu.gateway_url, "database": database,
        "ai_delay": 0.05, "worker_processes": 0, "table_edit_interval": 0,
        "interaction_rate": INTERACTION_RATE, "log_level": "INFO", **settings}
    env.update({key.upper(): str(value) for key, value in values.items()})
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def worker_environment(database: str, **settings: Any) -> dict[str, str]:
    """The environment of a ``python -m bot.worker`` on ``database``: one background
    process, quick beats; ``settings`` as upper-case keys. No Discord token, and nothing
    of the outer environment's bot settings."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "SHARD_", "DATABASE", "AI_", "TABLE_",
                                  "WORKER_", "LOG_", "HEARTBEAT_", "REST_", "SWEEP_",
                                  "LOBBY_", "DEV_GUILD", "MODEL_", "FIELD_", "JOB_", "RUN_",
                                  "METRICS_", "REVIEW_", "WATCH_"))}
    values: dict[str, Any] = {"database": database, "field_processes": 1,
                              "watch_interval": 0.2, "log_level": "INFO", **settings}
    env.update({key.upper(): str(value) for key, value in values.items()})
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONUNBUFFERED"] = "1"
    return env


class BotProcess:
    """One ``python -m bot`` process (or another module's: ``bot.worker``); ``lines`` is its
    log (stdout and stderr) so far."""

    def __init__(self, name: str, env: dict[str, str], cwd: Path, module: str = "bot",
                 python: str = sys.executable) -> None:
        self.name = name
        self.python = python
        self.module = module
        self.env = env
        self.cwd = cwd  # no .env file there: the environment alone configures it
        self.lines: list[str] = []
        self._changed = asyncio.Condition()
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> BotProcess:
        self._proc = await asyncio.create_subprocess_exec(
            self.python, "-m", self.module, cwd=self.cwd, env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        self._reader = asyncio.create_task(self._read())
        return self

    @property
    def proc(self) -> asyncio.subprocess.Process:
        assert self._proc is not None, "not started"
        return self._proc

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            async with self._changed:
                self.lines.append(line.decode(errors="replace").rstrip("\n"))
                self._changed.notify_all()
        async with self._changed:
            self._changed.notify_all()

    def log(self) -> str:
        return "\n".join(f"[{self.name}] {line}" for line in self.lines)

    async def wait_line(self, text: str, timeout: float = 20.0) -> str:
        """The first log line containing ``text``, once the process has written it."""
        def found() -> str | None:
            return next((line for line in self.lines if text in line), None)

        def ready() -> bool:
            return found() is not None or (self._reader is not None and self._reader.done())

        try:
            async with self._changed:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name} never logged {text!r}:\n{self.log()}") from None
        line = found()
        if line is None:
            raise AssertionError(f"{self.name} ended without logging {text!r}:\n{self.log()}")
        return line

    async def wait_lines(self, text: str, count: int, timeout: float = 20.0) -> list[str]:
        """The first ``count`` log lines containing ``text``, once the process has written
        them."""
        def found() -> list[str]:
            return [line for line in self.lines if text in line][:count]

        def ready() -> bool:
            return len(found()) == count or (self._reader is not None and self._reader.done())

        try:
            async with self._changed:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name} never logged {text!r} {count} times:\n"
                                 f"{self.log()}") from None
        lines = found()
        if len(lines) < count:
            raise AssertionError(f"{self.name} ended after logging {text!r} {len(lines)} "
                                 f"times:\n{self.log()}")
        return lines

    async def exited(self, timeout: float = 20.0) -> int:
        """Wait until the process ends (by itself); its exit code."""
        try:
            code = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name} did not stop:\n{self.log()}") from None
        if self._reader is not None:
            await self._reader
        return code

    async def kill(self) -> None:
        """SIGKILL: no clean close of anything."""
        if self.proc.returncode is None:
            self.proc.kill()
        await self.exited()

    async def stop(self, timeout: float = 20.0) -> int:
        """Ask the process to stop as Ctrl-C does (it closes cleanly); SIGKILL if it hangs."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
        return await self.exited()


def table_message(emu: DiscordEmulator, table_id: int) -> Any | None:
    """The table's public message (the one with "My hand"), once the bot posted it."""
    for message in emu.messages.values():
        if message.deleted or message.ephemeral_user_id is not None:
            continue
        for button in message.buttons:
            parsed = ids.parse(button.custom_id or "")
            if parsed is not None and parsed.table == table_id and parsed.action == "hand":
                return message
    return None
