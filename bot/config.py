"""Settings, read once from the environment and ``.env`` (pydantic-settings)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


class Settings(BaseSettings):
    """Every key is listed in ``.env.example``. The token is never logged."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      env_ignore_empty=True)

    discord_token: SecretStr | None = None
    database: str = Field(default="data/tichu.sqlite3",
                          description="SQLite file path (or sqlite:///path), or a "
                          "postgresql://user:password@host/db URL")
    database_pool_size: int = Field(
        default=10, ge=1, le=1000,
        description="Most connections a bot process opens to PostgreSQL (SQLite: unused)")
    log_level: str = "INFO"
    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this guild only, instantly (development)")
    discord_api_base: str = DISCORD_API_BASE
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    ai_delay: float = Field(default=1.2, ge=0, description="Seconds a computer player waits")
    lobby_timeout: float = Field(default=1800, gt=0, description="Idle lobby lifetime, seconds")
    table_idle_timeout: float = Field(
        default=86400, gt=0, description="A game with no person's action for this long closes")
    table_edit_interval: float = Field(
        default=1.5, ge=0, description="Seconds between two edits of a table message")
    rest_writes_per_second: float = Field(
        default=30, ge=0, description="The pace of the bot's own writes (0: none); Discord "
        "allows 50 requests a second in all, and answers to clicks never wait")
    heartbeat_file: str | None = Field(
        default=None, description="File the bot touches while connected (HEALTHCHECK)")
    sweep_interval: float = Field(default=60, gt=0, description="How often lobbies are checked")
    worker_processes: int = Field(
        default=2, ge=0, description="Processes drawing images and thinking for computer players "
        "(0: threads in the bot's own process)")
