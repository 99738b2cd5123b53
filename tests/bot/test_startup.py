"""What a server owner sees when ``python -m bot`` cannot start: one sentence that names
the setting and what to do, a non-zero exit status, no traceback, and never any part of
the token. Each case runs the real ``python -m bot`` process, as a server owner would.

The database is opened (and migrated) before the login to Discord, so a wrong
``DATABASE`` fails at once, before any gateway connection."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest

from tests.bot.processes import BotProcess, bot_environment
from tests.emulator.server import DiscordEmulator

TOKEN = "MTE5ODc2NTQzMjEwOTg3NjU0.GhIjKl.q7Wx_Zt9RvLm2NpQs4UyBc6DeFgHiJkLmNoPqR"
"""A secret shaped like a bot token: no six characters of it may appear anywhere."""


def closed_port() -> int:
    """A local TCP port on which nothing listens (taken from the system, then freed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def stopped(emu: DiscordEmulator, tmp_path: Path, **settings: object) -> tuple[int, str]:
    """Start ``python -m bot`` with the token-shaped secret and ``settings``; its exit code
    and everything it printed."""
    database = str(settings.pop("database", tmp_path / "bot.sqlite3"))
    env = bot_environment(emu, database, **{"discord_token": TOKEN, **settings})
    process = await BotProcess("bot", env, tmp_path).start()
    code = await process.exited(timeout=60)
    return code, "\n".join(process.lines)


def one_sentence(output: str) -> str:
    """The output, checked to be one line without a traceback or any part of the token."""
    assert "Traceback" not in output, output
    assert not any(TOKEN[i:i + 6] in output for i in range(len(TOKEN) - 5)), output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return lines[0]


async def test_a_bad_log_level(emulator: DiscordEmulator, tmp_path: Path) -> None:
    code, output = await stopped(emulator, tmp_path, log_level="LOUD")
    line = one_sentence(output)
    assert code == 2
    assert line.startswith("Bad settings") and "LOG_LEVEL: must be one of DEBUG, INFO" in line
    assert "LOUD" not in line  # a setting's value is never repeated (it could be the token)


@pytest.mark.parametrize("damage", [
    "missing", "truncated", "other-features", "chinois-missing", "chinois-truncated",
    "chinois-other-features", "tysiacha-missing", "tysiacha-truncated",
    "tysiacha-other-features"])
async def test_a_bad_model_file_stops_the_bot_before_it_plays(
        emulator: DiscordEmulator, tmp_path: Path, damage: str) -> None:
    from engine.chinois import values
    from engine.tichu.ai import model
    from engine.tysiacha import values as tysiacha

    folder = tmp_path / "models"
    folder.mkdir()
    for n in model.SEAT_COUNTS:
        (folder / model.file_name(n)).write_bytes(model.path_of(n).read_bytes())
    for kind in values.USED:
        (folder / values.file_name(kind)).write_bytes(
            (values.SHIPPED / values.file_name(kind)).read_bytes())
    for name in tysiacha.KINDS:
        (folder / tysiacha.file_name(name)).write_bytes(tysiacha.path(name).read_bytes())
    if damage.startswith("tysiacha-"):
        broken = folder / tysiacha.file_name("play")  # one of the three read at start
        other = folder / model.file_name(4)  # Tichu's model where Tysiacha's belongs
    elif damage.startswith("chinois-"):
        broken = folder / values.file_name("bid")
        other = folder / model.file_name(4)  # Tichu's model where Chinois's belongs
    else:
        broken = folder / model.file_name(4)
        other = folder / model.file_name(6)  # the six-seat model where the four-seat one belongs
    if damage.endswith("missing"):
        broken.unlink()
    elif damage.endswith("truncated"):
        broken.write_bytes(broken.read_bytes()[:1000])
    else:
        broken.write_bytes(other.read_bytes())
    code, output = await stopped(emulator, tmp_path, log_level="WARNING", model_dir=folder)
    line = one_sentence(output)
    assert code == 2
    assert line.startswith(f"The model file {broken}") and line.endswith(".")
    assert not emulator.gateway.identifies


async def test_a_wrong_token(emulator: DiscordEmulator, tmp_path: Path) -> None:
    code, output = await stopped(emulator, tmp_path, log_level="WARNING")
    line = one_sentence(output)
    assert code == 4
    assert line.startswith("Discord refused DISCORD_TOKEN") and "Reset Token" in line
    assert not emulator.gateway.identifies


async def test_discord_unreachable(emulator: DiscordEmulator, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    code, output = await stopped(emulator, tmp_path, log_level="WARNING",
                                 discord_api_base=base)
    line = one_sentence(output)
    assert code == 4
    assert line.startswith(f"Cannot reach Discord at DISCORD_API_BASE={base}")


@pytest.mark.parametrize("where", ["under-a-file", "not-a-folder"])
async def test_a_database_path_that_cannot_be_created(
        emulator: DiscordEmulator, tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    # A folder under a regular file cannot be made, not even by root; nor can a database
    # whose path is a folder be opened.
    database = blocker / "data" / "tichu.sqlite3" if where == "under-a-file" else tmp_path
    # Discord is unreachable too: the database is opened first, so its sentence comes.
    code, output = await stopped(emulator, tmp_path, log_level="WARNING", database=database,
                                 discord_api_base=f"http://127.0.0.1:{closed_port()}/api")
    line = one_sentence(output)
    assert code == 4
    assert line.startswith(f"Cannot open the database DATABASE={database}: ")
    assert "Give DATABASE a path this user can create and write" in line
    assert not emulator.gateway.identifies


async def test_postgresql_on_the_wrong_port(emulator: DiscordEmulator, tmp_path: Path) -> None:
    database = f"postgresql://tichu:hunter2secret@127.0.0.1:{closed_port()}/tichu"
    code, output = await stopped(emulator, tmp_path, log_level="WARNING", database=database,
                                 database_timeout=3)
    line = one_sentence(output)
    assert code == 4
    assert line.startswith("Cannot reach the database DATABASE=postgresql://tichu:***@127.0.0.1")
    assert "hunter2secret" not in output
    assert "Check the host and port in DATABASE" in line
    assert not emulator.gateway.identifies


async def test_postgresql_that_refuses_the_login(emulator: DiscordEmulator, tmp_path: Path,
                                                 pg_url: str) -> None:
    from yarl import URL

    database = str(URL(pg_url).with_user("nobody").with_password("hunter2secret"))
    code, output = await stopped(emulator, tmp_path, log_level="WARNING", database=database)
    line = one_sentence(output)
    assert code == 4
    assert line.startswith("Cannot open the database DATABASE=postgresql://nobody:***@")
    assert "hunter2secret" not in output


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
async def test_a_good_start_stops_cleanly_on_a_signal(emulator: DiscordEmulator,
                                                      tmp_path: Path,
                                                      signum: signal.Signals) -> None:
    """Ctrl-C and ``docker stop`` (SIGINT, the image's STOPSIGNAL; SIGTERM elsewhere)
    close the bot at once, whatever it is doing (it once hung on a swallowed
    cancellation, now and then, until a second signal)."""
    env = bot_environment(emulator, str(tmp_path / "bot.sqlite3"))
    process = await BotProcess("bot", env, tmp_path).start()
    await process.wait_line("restored 0 active tables", timeout=60)
    await emulator.wait_until_ready()
    process.proc.send_signal(signum)
    assert await process.exited(timeout=20) == 0
    await process.wait_line(f"stopping ({signum.name})")
    assert not any("Traceback" in line or " ERROR " in line for line in process.lines), \
        process.log()


def without_token(emu: DiscordEmulator, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = bot_environment(emu, str(tmp_path / "bot.sqlite3"))
    del env["DISCORD_TOKEN"]
    env.pop("TICHU_IMAGE", None)
    env.update(extra)
    return env


async def test_no_token_inside_the_image_says_how_to_pass_it_and_fails(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    """The Dockerfile sets TICHU_IMAGE: there is no project folder for a .env and no
    `make demo`, and a status of 0 would look like a clean stop to a restart policy."""
    process = await BotProcess("bot", without_token(emulator, tmp_path, TICHU_IMAGE="1"),
                               tmp_path).start()
    assert await process.exited(timeout=60) == 2
    output = "\n".join(process.lines)
    assert "--env-file" in output and "-e DISCORD_TOKEN" in output, output
    assert "top of this project" not in output and "make demo" not in output, output
    assert "Traceback" not in output
    assert not emulator.gateway.identifies


async def test_no_token_in_a_clone_explains_and_names_the_demo(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    process = await BotProcess("bot", without_token(emulator, tmp_path), tmp_path).start()
    assert await process.exited(timeout=60) == 0
    output = "\n".join(process.lines)
    assert "in a file named .env at the top of this project" in output, output
    assert "`make demo`" in output and "--env-file" not in output, output


async def test_a_metrics_port_held_by_another_process(emulator: DiscordEmulator,
                                                      tmp_path: Path) -> None:
    """A ``METRICS_PORT`` that another process holds stops the start with its own
    sentence (it once read as Discord being unreachable)."""
    with socket.socket() as holder:
        holder.bind(("0.0.0.0", 0))
        holder.listen()
        port = int(holder.getsockname()[1])
        env = bot_environment(emulator, str(tmp_path / "bot.sqlite3"), log_level="WARNING",
                              metrics_port=port)
        process = await BotProcess("bot", env, tmp_path).start()
        code = await process.exited(timeout=60)
    line = one_sentence("\n".join(process.lines))
    assert code == 3
    assert line.startswith(f"Not started: METRICS_PORT={port} cannot be served (")
    assert "choose another port" in line
