"""The Docker image builds from what its Dockerfile copies, and the bot runs from what the
image holds: its builder stage's steps and its runtime stage's contents, on this machine
(``tests/image.py`` says how a stage is built without a container).

- The builder stage's ``RUN`` lines run with only the files its ``COPY`` lines named
  before each, on a Python that has nothing of the project: a step that needs a file
  the Dockerfile does not copy fails, in one line naming the step.
- The runtime stage holds only the builder's virtualenv (the runtime part of the lock and
  the bot's wheel) and ``assets/``: from there, with no source tree, ``python -m bot``
  without a token says how to pass one (exit 2), the health check answers, and the bot
  connects to the local Discord and deals a table of ``hard`` computers, whose learned
  evaluator is a file the wheel must carry.

The image is built once per test session (the workers of pytest-xdist share it)."""

from __future__ import annotations

import asyncio
import fcntl
import json
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot.driver import component
from tests.bot.processes import BotProcess
from tests.emulator.server import DiscordEmulator
from tests.image import Build, StepFailed, exec_form, parse, python_of, stages

RUNTIME = len(stages()) - 1


@dataclass(frozen=True)
class Image:
    """The built image's runtime stage (or why the build failed)."""

    failure: str | None
    root: Path
    workdir: Path
    env: dict[str, str]
    python: str

    def built(self) -> Image:
        if self.failure is not None:
            pytest.fail(self.failure, pytrace=False)
        return self


def build_once(folder: Path) -> Image:
    """Build the image into ``folder`` unless a worker has already (under a lock): the
    runtime stage, or the one line that says which step failed."""
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / "image.json"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            build = Build(folder / "stages", Build.make_base(folder / "base"))
            found: dict[str, object] = {"failure": None}
            try:
                for index in range(RUNTIME + 1):
                    run = build.run_stage(index)
                found.update(root=str(run.root), workdir=str(run.host(run.workdir)),
                             env=run.env, python=python_of(run))
            except StepFailed as failed:
                found.update(failure=str(failed), root="", workdir="", env={}, python="")
            record.write_text(json.dumps(found), encoding="utf-8")
    kept: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    return Image(kept["failure"], Path(kept["root"]), Path(kept["workdir"]), kept["env"],
                 kept["python"])


@pytest.fixture(scope="session")
def image(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Image:
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the folder above every worker's own
    return build_once(shared / "image")


def runtime_instruction(name: str) -> str:
    found = [i.arguments for i in stages()[RUNTIME].instructions if i.name == name]
    assert len(found) == 1, f"the runtime stage has {len(found)} {name} instructions"
    return found[0]


def run_in_image(image: Image, command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` as the container runs it: in its working directory, with its
    environment (``python`` is the virtualenv's)."""
    if command[0] == "python":
        command = [image.python, *command[1:]]
    return subprocess.run(command, cwd=image.workdir, env={**image.env, **env},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_builder_stage_needs_nothing_it_does_not_copy(image: Image) -> None:
    image.built()
    venv = image.root / "opt" / "venv"
    assert (venv / "bin" / "python").exists()
    # No source tree beside the assets, no build leftovers: only what the stage copies.
    assert sorted(p.name for p in image.workdir.iterdir()) == ["assets"]


def test_a_step_that_needs_what_was_not_copied_fails_in_one_line(tmp_path: Path) -> None:
    """The check itself: the lock step as it stood at 20683d2 (``python -m tools.lock``,
    whose package imports ``engine``, copied only later) fails, naming the step and the
    module it did not find."""
    dockerfile = "\n".join([
        "FROM python:3.11-slim AS builder",
        "WORKDIR /src",
        "COPY requirements.lock pyproject.toml README.md ./",
        "COPY tools/__init__.py tools/lock.py ./tools/",
        "RUN python -m tools.lock runtime > /runtime.lock \\",
        "    && python -m tools.lock select setuptools > /build.lock",
        "COPY engine ./engine",
    ])
    build = Build(tmp_path / "stages", Build.make_base(tmp_path / "base"), parse(dockerfile))
    with pytest.raises(StepFailed) as failed:
        build.run_stage(0)
    message = str(failed.value)
    assert "\n" not in message
    assert message.startswith("Dockerfile:5 RUN python -m tools.lock runtime"), message
    assert message.endswith("No module named 'engine'"), message


def test_without_a_token_the_image_says_how_to_pass_one(image: Image) -> None:
    image.built()
    done = run_in_image(image, exec_form(runtime_instruction("CMD")))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    paragraph = done.stderr.strip()
    assert "\n\n" not in paragraph and "--env-file" in paragraph, paragraph


def test_the_health_check_runs_in_the_image(image: Image, tmp_path: Path) -> None:
    """No heartbeat yet (a new container, the bot has not run): one line, exit 1, no
    traceback. (The heartbeat file is this test's own: another test's bot may beat in the
    image's folder meanwhile.)"""
    image.built()
    heartbeat = tmp_path / "tichu-heartbeat"
    done = run_in_image(image, exec_form(runtime_instruction("HEALTHCHECK")),
                        HEARTBEAT_FILE=str(heartbeat))
    assert done.returncode == 1, done.stdout + done.stderr
    assert (done.stdout + done.stderr).strip() == f"unhealthy: no heartbeat at {heartbeat}"


@pytest.fixture
def in_image(image: Image, emulator: DiscordEmulator) -> Iterator[dict[str, str]]:
    """The image's environment on the local Discord, on a database of its own."""
    image.built()
    database = image.root / "data" / "tichu.sqlite3"
    database.unlink(missing_ok=True)
    yield {**image.env, "DISCORD_TOKEN": emulator.bot_token,
           "DISCORD_API_BASE": emulator.api_base, "DISCORD_GATEWAY_URL": emulator.gateway_url,
           "AI_DELAY": "0.05", "WORKER_PROCESSES": "0", "LOG_LEVEL": "INFO"}
    database.unlink(missing_ok=True)


async def test_the_image_deals_a_table_of_hard_computers(
        image: Image, emulator: DiscordEmulator, in_image: dict[str, str]) -> None:
    """The bot from the image's virtualenv alone: it starts (the evaluator loaded and
    checked), deals a table whose computers play from it and draw it with the image's
    assets, answers its health check, and stops on the image's STOPSIGNAL."""
    command = exec_form(runtime_instruction("CMD"))
    assert command[:2] == ["python", "-m"]
    guild = emulator.add_guild("Image")
    channel = emulator.add_text_channel(guild, "tichu")
    user = emulator.add_user("ada")
    emulator.add_member(guild, user)
    bot = BotProcess("image", in_image, image.workdir, module=command[2], python=image.python)
    await bot.start()
    try:
        await bot.wait_line("restored 0 active tables", timeout=90)
        await emulator.wait_for_commands(["tichu"], timeout=60)
        await emulator.wait_until_ready(60)
        lobby = await (await emulator.slash(user, channel, "tichu new")).response()
        for seat in (1, 2, 3):
            cpu = component(lobby, "cpu", "s")
            assert cpu is not None, "the lobby offers no computers"
            await (await emulator.select(user, lobby, cpu.custom_id, [f"{seat}.hard"])).response()
        start = component(lobby, "start")
        assert start is not None, "the lobby has no start button"
        await (await emulator.click(user, lobby, start.custom_id)).response()

        def table_image() -> object:
            return next((m for m in emulator.channel_messages(lobby.id)
                         if any(a.filename.endswith((".png", ".webp")) for a in m.attachments)),
                        None)

        await emulator.wait_for(table_image, timeout=60, what="the table's image",
                                channel=lobby.id)
        # The heartbeat follows the bot's watch (WATCH_INTERVAL): the check runs until it
        # says healthy, as Docker's does every --interval.
        health = exec_form(runtime_instruction("HEALTHCHECK"))
        said = ""
        for _ in range(120):
            checked = await asyncio.create_subprocess_exec(
                image.python, *health[1:], cwd=image.workdir, env=in_image,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            said = (await checked.communicate())[0].decode()
            if checked.returncode == 0:
                break
            await asyncio.sleep(0.5)
        assert said.startswith("healthy:"), said
        stop = runtime_instruction("STOPSIGNAL")
        bot.proc.send_signal(getattr(signal, stop))
        assert await bot.exited(timeout=30) == 0, bot.log()
    finally:
        if bot.proc.returncode is None:
            await bot.kill()
    assert "Traceback" not in bot.log(), bot.log()
