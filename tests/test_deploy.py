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
from tests import image

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


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each a list of (instruction, arguments), continued lines
    joined and comments left out."""
    return [[(i.name, i.arguments) for i in stage.instructions] for stage in image.stages()]


def runs(stage: list[tuple[str, str]]) -> str:
    return "\n".join(arguments for instruction, arguments in stage if instruction == "RUN")


def test_the_image_builds_from_the_lock_then_keeps_only_a_virtualenv() -> None:
    """The builder turns the runtime part of the lock into wheels (pip checks each against
    its hash) and installs them, and the bot's wheel, into /opt/venv; the runtime stage
    copies that virtualenv and the assets, and builds nothing."""
    builder, runtime = dockerfile_stages()
    assert builder[0] == ("FROM", "python:3.11-slim AS builder")
    assert ("COPY", "requirements.lock pyproject.toml README.md ./") in builder
    build = runs(builder)
    assert "python tools/lock.py runtime > /runtime.lock" in build
    assert "pip wheel --require-hashes --no-deps --wheel-dir /wheels -r /runtime.lock" in build
    assert ("pip --python /opt/venv/bin/python install --no-index --find-links /wheels "
            "--require-hashes --no-deps -r /runtime.lock") in build
    assert "pip install --require-hashes --no-deps -r /build.lock" in build  # setuptools
    assert "pip wheel --no-deps --no-build-isolation --wheel-dir /dist ." in build
    assert "pip --python /opt/venv/bin/python check" in build

    assert runtime[0] == ("FROM", "python:3.11-slim")
    # No compiler, no installs, no source tree, no build leftovers (build/, *.egg-info).
    assert not re.search(r"apt-get|gcc|build-essential|pip ", runs(runtime))
    copied = [arguments for instruction, arguments in runtime if instruction == "COPY"]
    assert copied == ["--from=builder /opt/venv /opt/venv", "assets ./assets"]
    assert not any(instruction == "ADD" for instruction, _ in runtime)
    assert dockerfile_env()["PATH"].startswith("/opt/venv/bin:")


def test_the_runtime_runs_as_a_user_with_a_health_check_and_a_volume() -> None:
    runtime = dict(dockerfile_stages()[-1])
    assert runtime["USER"] not in ("root", "0")
    assert runtime["VOLUME"] == '["/data"]'
    assert runtime["STOPSIGNAL"] == "SIGINT"
    assert runtime["HEALTHCHECK"].endswith('CMD ["python", "-m", "bot.health"]')
    assert runtime["CMD"] == '["python", "-m", "bot"]'
    image = dockerfile_env()
    assert image["DATABASE"].startswith("/data/")
    assert image["TICHU_IMAGE"] == "1"  # python -m bot's advice without a token


def test_make_run_test_and_ci_install_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = re.search(r"^\$\(STAMP\): (.*)\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert stamp is not None
    assert "$(LOCK)" in stamp.group(1).split() and "pyproject.toml" in stamp.group(1).split()
    recipe = stamp.group(2)
    assert "-m tools.lock check" in recipe.splitlines()[0]
    assert "pip install -q --require-hashes -r $(LOCK)" in recipe
    assert "pip install -q --no-deps --no-build-isolation -e ." in recipe
    assert re.search(r"^LOCK := requirements.lock$", makefile, re.MULTILINE)
    assert re.search(r"^test: \$\(STAMP\)$", makefile, re.MULTILINE)
    assert re.search(r"^run: \$\(STAMP\)$", makefile, re.MULTILINE)
    assert "uv pip compile pyproject.toml --extra dev --generate-hashes" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_example_settings_are_settings_and_leave_discord_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key ``.env.example`` sets is one the bot reads and accepts as written, and the
    Discord endpoints stay unset (the start-up error says to leave DISCORD_API_BASE unset)."""
    example = example_env()
    fields = {name.upper() for name in Settings.model_fields}
    assert set(example) <= fields, sorted(set(example) - fields)
    assert not {"DISCORD_API_BASE", "DISCORD_GATEWAY_URL"} & set(example)
    for key in fields:
        monkeypatch.delenv(key, raising=False)
    image = {key: value for key, value in dockerfile_env().items() if key in fields}
    assert {"DATABASE", "HEARTBEAT_FILE"} <= set(image)
    for key, value in {**example, **image}.items():
        monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database == "/data/tichu.sqlite3"
    assert settings.heartbeat_file == dockerfile_env()["HEARTBEAT_FILE"]


def test_compose_runs_the_image_as_the_dockerfile_means_it() -> None:
    """The bot services build this Dockerfile and stop as it says; their heartbeat file and
    assets are the image's; the database waits for its health check."""
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    assert {"db", "worker"} <= set(services) and {"bot-0", "bot-1"} <= set(services)
    image = dockerfile_env()
    stop = dict(dockerfile_stages()[-1])["STOPSIGNAL"]
    assert "healthcheck" in services["db"]
    for name, service in services.items():
        if name == "db":
            continue
        assert service["image"] == "tichu-bot" and service["build"] == ".."
        assert service["stop_signal"] == stop
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        environment = service["environment"]
        assert environment["HEARTBEAT_FILE"] == image["HEARTBEAT_FILE"]
        if name.startswith("bot"):
            assert environment["TICHU_ASSETS_DIR"] == image["TICHU_ASSETS_DIR"]
            assert service["env_file"] == "../.env"
