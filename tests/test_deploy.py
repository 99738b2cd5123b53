"""deploy/compose.yaml stays a valid deployment: its bot processes' settings are
accepted, share one PostgreSQL database and one shard count, and own every shard
exactly once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Settings
from bot.store import PostgresRepository, open_repository

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "deploy" / "compose.yaml"


def interpolate(value: Any) -> str:
    """Compose's ``${NAME:?message}`` / ``${NAME}`` with a made-up password."""
    return re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", "pw", str(value))


def test_the_compose_file_runs_every_shard_once_on_postgresql(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    bots = {name: service for name, service in services.items() if name.startswith("bot")}
    assert len(bots) >= 2
    owned: list[int] = []
    counts, databases = set(), set()
    for service in bots.values():
        assert (COMPOSE.parent / service["build"] / "Dockerfile").is_file()
        for key in list(Settings.model_fields):
            monkeypatch.delenv(key.upper(), raising=False)
        for key, value in service["environment"].items():
            monkeypatch.setenv(key, interpolate(value))
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.sharded and settings.shard_ids is not None
        owned += settings.shard_ids
        counts.add(settings.shard_count)
        databases.add(settings.database)
        repo = open_repository(settings.database, pool_size=settings.database_pool_size)
        assert isinstance(repo, PostgresRepository)
    (count,) = counts
    assert sorted(owned) == list(range(count or 0))
    (database,) = databases
    db = services["db"]["environment"]
    assert database == (f"postgresql://{db['POSTGRES_USER']}:{interpolate(db['POSTGRES_PASSWORD'])}"
                        f"@db:5432/{db['POSTGRES_DB']}")


def dockerfile_env() -> dict[str, str]:
    """The variables the Dockerfile's ``ENV`` instructions set (``KEY=value`` pairs,
    continued lines joined)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            found.update(re.findall(r"(\w+)=(\S+)", line))
    return found


def example_env() -> dict[str, str]:
    """The keys ``.env.example`` sets (comment lines left out)."""
    found = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        key, equals, value = line.partition("=")
        if equals and not line.lstrip().startswith("#"):
            found[key.strip()] = value.strip()
    return found


def test_the_example_settings_never_override_what_the_image_sets() -> None:
    """``docker run --env-file .env`` with ``.env`` copied from ``.env.example``: a key the
    example sets, even empty, overrides the image's ``ENV`` (its database on the volume,
    its assets, its heartbeat file)."""
    image = dockerfile_env()
    assert {"DATABASE", "TICHU_ASSETS_DIR", "HEARTBEAT_FILE"} <= set(image)
    example = example_env()
    assert "DISCORD_TOKEN" in example
    assert not set(image) & set(example), sorted(set(image) & set(example))


def test_the_image_stops_the_bot_as_ctrl_c_does() -> None:
    """``docker stop`` sends the image's STOPSIGNAL: SIGINT, which the bot closes on
    cleanly (SIGTERM would end it without closing)."""
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    assert "STOPSIGNAL SIGINT" in lines


def test_the_compose_file_runs_workers_that_scale_on_the_bots_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``worker`` service: ``python -m bot.worker`` on the bots' PostgreSQL, no token,
    nothing that stops ``--scale worker=N`` (no fixed name, no published port), and the
    bots leave the jobs to it."""
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    worker = services["worker"]
    assert worker["command"] == ["python", "-m", "bot.worker"]
    assert worker["deploy"]["replicas"] >= 2
    assert "container_name" not in worker and "ports" not in worker
    assert "env_file" not in worker  # no Discord token where the workers run
    settings = []
    for service in (worker, services["bot-0"]):
        for key in list(Settings.model_fields):
            monkeypatch.delenv(key.upper(), raising=False)
        for key, value in service["environment"].items():
            monkeypatch.setenv(key, interpolate(value))
        settings.append(Settings(_env_file=None))  # type: ignore[call-arg]
    worker_settings, bot_settings = settings
    assert worker_settings.postgres and worker_settings.database == bot_settings.database
    assert worker_settings.discord_token is None
    assert not bot_settings.runs_jobs
