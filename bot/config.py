"""Settings, read once from the environment and ``.env`` (pydantic-settings)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """Every key is listed in ``.env.example``. The token is never logged."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      env_ignore_empty=True)

    discord_token: SecretStr | None = Field(
        default=None, description="The bot's token (never logged). Without it, `python -m bot` "
        "explains how to get one and names the demo (`make demo`), which `make run` then starts")
    database: str = Field(default="data/tichu.sqlite3",
                          description="SQLite file path (or sqlite:///path), or a "
                          "postgresql://user:password@host/db URL")
    database_pool_size: int = Field(
        default=10, ge=1, le=1000,
        description="Most connections a bot process opens to PostgreSQL (its asyncpg pool); "
        "keep the sum over all processes under PostgreSQL's max_connections (SQLite: unused)")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING, ERROR or "
                           "CRITICAL (any case)")
    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this guild only, instantly (development)")
    discord_api_base: str = Field(
        default=DISCORD_API_BASE, description="Discord's REST API: leave it for real Discord; "
        "point it at a REST proxy, or at the local emulator (the demo and the tests do)")
    discord_gateway_url: str = Field(
        default=DISCORD_GATEWAY_URL, description="Discord's gateway: leave it for real Discord; "
        "point it at a gateway proxy, or at the local emulator")
    ai_delay: float = Field(default=1.2, ge=0, description="Seconds a computer player waits "
                            "before it acts, so that people can follow")
    lobby_timeout: float = Field(default=1800, gt=0,
                                 description="Seconds an idle lobby stays open")
    table_idle_timeout: float = Field(
        default=86400, gt=0, description="Seconds without any person's action before a game in "
        "play is closed (not rated)")
    table_edit_interval: float = Field(
        default=1.5, ge=0, description="Seconds between two edits of a table message")
    rest_writes_per_second: float = Field(
        default=30, ge=0, description="The pace of the bot's own channel writes (0: none); Discord "
        "allows 50 requests a second in all, not counting interaction answers and panel "
        "redraws (which never wait)")
    heartbeat_file: str | None = Field(
        default=None, description="A file the bot rewrites while running, saying whether the "
        "database answers and whether the Discord gateway is lost; `python -m bot.health` (the "
        "Docker HEALTHCHECK) reads it")
    gateway_down_limit: float = Field(
        default=60, gt=0, description="Seconds the Discord gateway may stay disconnected "
        "(discord.py reconnecting meanwhile) before the heartbeat says so and the health "
        "check turns unhealthy")
    sweep_interval: float = Field(default=60, gt=0, description="Seconds between two checks of "
                                  "the lobbies and idle tables")
    queue_wave_interval: float = Field(
        default=10, gt=0, description="Seconds between two waves of the \"Play now\" queue's "
        "pairing (a join that lets a pool fill a table runs one at once)")
    queue_turn_timer: int = Field(
        default=60, ge=10, le=3600, description="Seconds per decision at a \"Play now\" "
        "table; when they run out a computer plays the seat until its person clicks again")
    shard_count: int | None = Field(
        default=None, ge=1, le=100_000,
        description="Gateway shards of the whole bot, over all its processes (discord.py's "
        "sharded client); unset: one unsharded connection")
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, \"0,1\" or [0, 1] "
        "(needs SHARD_COUNT; unset: all of them; a subset needs PostgreSQL)")
    shard_lock_wait: float = Field(
        default=300, ge=0, description="Seconds to wait, doing nothing, while another process "
        "holds one of this process's shards (0: stop at once), at start or after the lock was lost with "
        "its database session; then the process stops")
    database_timeout: float = Field(
        default=10, gt=0, description="Seconds a database query (or a new connection) may "
        "take; past it the click is refused (\"the table is reconnecting\") and the table "
        "tries again")
    watch_interval: float = Field(
        default=2, gt=0, description="Seconds between two checks of the database, of this "
        "process's shard locks and of every table's computer players and timers; the "
        "heartbeat is written at this pace")
    shard_lease: float = Field(
        default=30, ge=0, description="Seconds after its last check during which a shard's "
        "owner may take the shard back after a PostgreSQL restart before another process may")
    worker_processes: int = Field(
        default=2, ge=0, description="Processes drawing images and thinking for computer players "
        "(0: threads in the bot's own process); they exit with the bot, even after kill -9")
    tables_per_person: int = Field(
        default=5, ge=1, le=1000, description="Open tables (lobbies and games) one person may "
        "host or sit at, over every channel and server, daily boards not counted; past it, "
        "`/<game> new` and a lobby's seats refuse them (with several bot processes each "
        "counts from the shared database)")
    interaction_rate: float = Field(
        default=2, ge=0, description="Commands and clicks one person may make per second, on "
        "average, past INTERACTION_BURST (0: no limit); past it one private sentence, and "
        "nothing is done for the others until they slow down. Kept in each bot process's "
        "memory: a person in servers of several processes may go that many times as fast")
    interaction_burst: int = Field(
        default=20, ge=1, le=10_000, description="Commands and clicks one person may make at "
        "once before INTERACTION_RATE applies")
    daily_boards: int = Field(default=4, ge=1, le=12,
                              description="Boards of each day's daily challenge")
    daily_level: str = Field(default="hard", pattern="^(easy|normal|hard)$",
                             description="The computers a daily board is played with")
    board_secret: SecretStr | None = Field(
        default=None, min_length=32, description="The secret the daily boards and new "
        "events' boards (and their computers' play) are dealt from, at least 32 characters, "
        "never logged; unset: the random one the bot made at its first start and keeps in its "
        "database. Set, it deals the days and events not dealt yet (the stored one is kept, "
        "and deals again once it is unset); the same value on two deployments gives them the "
        "same daily boards")
    field_tables: int = Field(
        default=8, ge=0, le=64, description="Computer tables that play each duplicate board "
        "(its field, which every result is also compared with)")
    field_processes: int = Field(
        default=1, ge=0, le=64, description="Processes, at the lowest CPU priority, that play "
        "the fields and make the coach's reviews (0: a thread in the bot's own process)")
    run_jobs: bool | None = Field(
        default=None, description="Whether this bot process runs background jobs (reviews, "
        "fields) itself, in its FIELD_PROCESSES; unset: yes with SQLite, no with PostgreSQL, "
        "where `python -m bot.worker` runs them (SQLite: always yes)")
    job_lease: float = Field(
        default=30, gt=0, le=3600, description="PostgreSQL: seconds without a heartbeat after "
        "which a job whose worker stopped (killed, its machine gone) is taken by another")
    metrics_port: int | None = Field(
        default=None, ge=1, le=65535, description="Serve Prometheus metrics on this port "
        "(/metrics), on a bot process or a worker (unset: none)")
    left_guild_retention: float = Field(
        default=30, ge=0, le=3650, description="Days a server's data is kept as it is after "
        "the bot is removed from it (added back within them, nothing is lost); then its "
        "settings, unplayed lobbies and reviews are deleted and its finished games stay "
        "anonymized")
    privacy_url: str | None = Field(
        default=None, description="Your bot's privacy policy, shown by /privacy show (the "
        "one linked from the app's page on Discord); unset: /privacy show names "
        "docs/privacy.md of this project")
    export_cooldown: float = Field(
        default=600, ge=0, description="Seconds a person waits between two `/privacy export` "
        "(0: no wait); a second one sooner is refused in one sentence, before any store "
        "read. Kept in each bot process's memory: a restart forgets it")
    model_dir: str | None = Field(
        default=None, description="Folder holding the model files: the Tichu evaluator's "
        "tichu4.npz and tichu6.npz, Chinois's chinois-bid.npz and chinois-play.npz, Tysiacha's "
        "tysiacha.npz, tysiacha-gifts.npz and tysiacha-play.npz (unset: the ones shipped in "
        "engine/tichu/ai/models, engine/chinois/models and engine/tysiacha/models); a missing "
        "or bad file stops the bot at start, exit 2")

    @field_validator("log_level", mode="before")
    @classmethod
    def _check_log_level(cls, value: Any) -> Any:
        """One of the names the logging module knows, in any case: stored upper-case."""
        if isinstance(value, str) and value.strip().upper() in LOG_LEVELS:
            return value.strip().upper()
        raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: Any) -> Any:
        """``SHARD_IDS`` as ``0,1`` (or ``0 1``), a single ``0``, or JSON ``[0, 1]``."""
        if isinstance(value, int) and not isinstance(value, bool):
            return [value]
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            return None
        if text.startswith("["):
            try:
                return json.loads(text)
            except ValueError:
                raise ValueError(f"SHARD_IDS is not a JSON list: {value!r}") from None
        parts = [p for p in text.replace(",", " ").split() if p]
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"SHARD_IDS must be shard numbers like 0,1, got {value!r}") from None

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards of all processes)")
        if not self.shard_ids:
            raise ValueError("SHARD_IDS is empty: give at least one shard")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError(f"SHARD_IDS repeats a shard: {self.shard_ids}")
        wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if wrong:
            raise ValueError(f"SHARD_IDS {wrong} not in 0..{self.shard_count - 1} "
                             f"(SHARD_COUNT={self.shard_count})")
        self.shard_ids = sorted(self.shard_ids)
        return self

    @model_validator(mode="after")
    def _check_jobs(self) -> Settings:
        if self.run_jobs is False and not self.postgres:
            raise ValueError("RUN_JOBS=false needs PostgreSQL: with SQLite the bot runs the "
                             "background jobs itself (workers need PostgreSQL)")
        return self

    @property
    def postgres(self) -> bool:
        """Whether ``DATABASE`` names a PostgreSQL database."""
        scheme, separator, _ = self.database.strip().partition("://")
        return bool(separator) and scheme.lower().partition("+")[0] in ("postgres",
                                                                          "postgresql")

    @property
    def token(self) -> str | None:
        """The Discord token, or None when ``DISCORD_TOKEN`` is unset or empty."""
        secret = self.discord_token
        return secret.get_secret_value() if secret is not None and \
            secret.get_secret_value() else None

    @property
    def runs_jobs(self) -> bool:
        """Whether this bot process runs the background jobs (``RUN_JOBS``)."""
        return (not self.postgres) if self.run_jobs is None else self.run_jobs

    @property
    def sharded(self) -> bool:
        """Whether the bot runs discord.py's sharded client (``SHARD_COUNT`` is set)."""
        return self.shard_count is not None

    @property
    def owned_shards(self) -> list[int]:
        """The shards this process runs: ``SHARD_IDS``, else all of ``SHARD_COUNT`` (one
        shard, 0, unsharded)."""
        if self.shard_ids is not None:
            return list(self.shard_ids)
        return list(range(self.shard_count or 1))

    @property
    def all_shards(self) -> bool:
        """Whether this process runs every shard (then no other process may run)."""
        return self.owned_shards == list(range(self.shard_count or 1))
