"""The heartbeat file and ``python -m bot.health``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import health

ROOT = Path(__file__).resolve().parents[2]


def test_a_fresh_heartbeat_is_healthy_and_a_stale_one_is_not(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    health.write_heartbeat(beat, now=1000.0)
    assert beat.read_text() == "1000.000\n"
    assert health.check(beat, 60, now=1059.0) is None
    assert health.check(beat, 60, now=1061.0) == (
        "unhealthy: last heartbeat 61s ago (limit 60s)")
    assert health.check(beat, 60, now=800.0) == "unhealthy: heartbeat 200s in the future"
    health.write_heartbeat(beat, now=1100.0)  # replaced, not appended
    assert health.check(beat, 60, now=1120.0) is None
    assert [p.name for p in tmp_path.iterdir()] == ["beat"]  # no temporary file left


def test_a_heartbeat_while_the_database_does_not_answer_is_unhealthy(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    health.write_heartbeat(beat, now=1000.0, database_down_since=990.0)
    assert beat.read_text() == "1000.000\ndatabase-down-since 990.000\n"
    assert health.check(beat, 60, now=1005.0) == (
        "unhealthy: the database has not answered for 15s (see the bot's log)")
    assert health.check(beat, 60, now=1100.0) == (  # a stale beat says so first
        "unhealthy: last heartbeat 100s ago (limit 60s)")
    health.write_heartbeat(beat, now=1010.0)  # it answers again
    assert health.check(beat, 60, now=1011.0) is None


def test_a_heartbeat_while_the_gateway_is_lost_is_unhealthy(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    health.write_heartbeat(beat, now=1000.0, gateway_down_since=900.0)
    assert beat.read_text() == "1000.000\ngateway-down-since 900.000\n"
    assert health.check(beat, 60, now=1001.0) == (
        "unhealthy: the Discord gateway has been disconnected for 101s, past "
        "GATEWAY_DOWN_LIMIT (see the bot's log)")
    health.write_heartbeat(beat, now=1000.0, database_down_since=990.0,
                           gateway_down_since=900.0)  # both: the database first
    assert health.check(beat, 60, now=1001.0) == (
        "unhealthy: the database has not answered for 11s (see the bot's log)")
    health.write_heartbeat(beat, now=1010.0)  # connected again
    assert health.check(beat, 60, now=1011.0) is None


@pytest.mark.parametrize(("content", "expected"), [
    (None, "unhealthy: no heartbeat at {path}"),
    ("", "unhealthy: {path} holds no timestamp"),
    ("12:30", "unhealthy: {path} holds no timestamp"),
])
def test_a_missing_or_garbled_heartbeat_is_unhealthy(tmp_path: Path, content: str | None,
                                                     expected: str) -> None:
    beat = tmp_path / "beat"
    if content is not None:
        beat.write_text(content)
    assert health.check(beat, 60) == expected.format(path=beat)


def test_the_default_path_comes_from_the_environment(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEARTBEAT_FILE", str(tmp_path / "env-beat"))
    health.write_heartbeat()
    assert health.default_path() == tmp_path / "env-beat"
    assert health.main([]) == 0
    monkeypatch.delenv("HEARTBEAT_FILE")
    assert health.default_path() == Path("/tmp/tichu-heartbeat")


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    beat = tmp_path / "beat"
    assert health.main([str(beat)]) == 1
    assert capsys.readouterr().err == f"unhealthy: no heartbeat at {beat}\n"
    health.write_heartbeat(beat, now=time.time() - 30)
    assert health.main([str(beat), "--max-age", "10"]) == 1
    assert capsys.readouterr().err.startswith("unhealthy: last heartbeat 3")
    assert health.main([str(beat), "--max-age", "60"]) == 0
    assert capsys.readouterr().out == f"healthy: {beat}\n"


def test_python_m_bot_health_exits_with_the_verdict(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    run = [sys.executable, "-m", "bot.health", str(beat)]
    missing = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (missing.returncode, missing.stderr.count("\n")) == (1, 1)
    health.write_heartbeat(beat)
    fresh = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert fresh.returncode == 0, fresh.stderr


def test_the_default_age_limit_follows_the_watch_cadence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WATCH_INTERVAL", raising=False)
    monkeypatch.delenv("DATABASE_TIMEOUT", raising=False)
    assert health.default_max_age() == 66  # 3 x (2 + 2 x 10)
    monkeypatch.setenv("WATCH_INTERVAL", "30")
    assert health.default_max_age() == 3 * (30 + 20)
    monkeypatch.setenv("WATCH_INTERVAL", "1")
    monkeypatch.setenv("DATABASE_TIMEOUT", "2")
    assert health.default_max_age() == 60  # at least a minute
