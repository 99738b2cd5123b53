"""The store: everything the bot keeps, behind the :class:`Repository` interface.

``open_repository(url_or_path)`` picks the backend: SQLite (a path or a
``sqlite:///`` URL, the embedded default) or PostgreSQL (a ``postgresql://`` URL).
"""

from __future__ import annotations

from bot.store.models import (
    ActionRecord,
    Answer,
    BoardPlayer,
    BoardResult,
    BoardSize,
    CheckStatus,
    CorruptRowError,
    EventRecord,
    FieldResult,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    LeaderboardRow,
    PanelRecord,
    PartnerRow,
    PersonAtTableError,
    Pool,
    PoolCount,
    QueueEntry,
    QueueRefusedError,
    RatingPoint,
    RatingRow,
    ReadyCheck,
    ReadyMember,
    ReadyMessage,
    ReadyOutcome,
    Repository,
    ReviewRecord,
    SeatRecord,
    SequenceConflictError,
    ShardLostError,
    StoreError,
    StoreUnavailableError,
    TableRecord,
    TableStatus,
)
from bot.store.postgres import PostgresRepository
from bot.store.sqlite import SQLiteRepository

__all__ = [
    "ActionRecord",
    "Answer",
    "BoardPlayer",
    "BoardResult",
    "BoardSize",
    "CheckStatus",
    "CorruptRowError",
    "EventRecord",
    "FieldResult",
    "GamePlayerResult",
    "GameResult",
    "GuildSettings",
    "LeaderboardRow",
    "PanelRecord",
    "PartnerRow",
    "PersonAtTableError",
    "Pool",
    "PoolCount",
    "PostgresRepository",
    "QueueEntry",
    "QueueRefusedError",
    "RatingPoint",
    "RatingRow",
    "ReadyCheck",
    "ReadyMember",
    "ReadyMessage",
    "ReadyOutcome",
    "Repository",
    "ReviewRecord",
    "SQLiteRepository",
    "SeatRecord",
    "SequenceConflictError",
    "ShardLostError",
    "StoreError",
    "StoreUnavailableError",
    "TableRecord",
    "TableStatus",
    "open_repository",
]

_SQLITE_PREFIX = "sqlite://"
_POSTGRES_SCHEMES = ("postgres", "postgresql")


def open_repository(url_or_path: str, *, pool_size: int = 10, timeout: float = 10.0,
                    shard_lease: float = 30.0) -> Repository:
    """The repository for ``url_or_path``, not yet opened (``await repo.open()``).
    ``timeout`` (seconds) bounds each wait for the database: PostgreSQL's connect,
    pool acquire and statements; SQLite's busy timeout. ``shard_lease`` (seconds,
    PostgreSQL): how long a shard's owner keeps it through a database restart after
    its last ``check_shards`` (see ``PostgresRepository.lock_shards``).

    - a plain path, or ``":memory:"`` → SQLite on that file;
    - ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``,
      ``sqlite:///:memory:`` or ``sqlite://`` (in memory) → SQLite;
    - ``postgresql://…`` (or ``postgres://``, ``postgresql+asyncpg://``) → PostgreSQL,
      through a pool of at most ``pool_size`` connections;
    - any other ``scheme://`` → :class:`StoreError` ``unsupported_backend``.
    """
    text = url_or_path.strip()
    if not text:
        raise StoreError("unsupported_backend", "no database given (empty path or URL)")
    if text.lower().startswith("sqlite:"):
        rest = text[len(_SQLITE_PREFIX):]
        well_formed = text[:len(_SQLITE_PREFIX)].lower() == _SQLITE_PREFIX
        if well_formed and rest in ("", "/"):
            return SQLiteRepository(":memory:", timeout=timeout)
        if not well_formed or not rest.startswith("/"):
            raise StoreError(
                "unsupported_backend",
                f"bad SQLite URL {url_or_path!r}: use sqlite:///relative.db or "
                "sqlite:////absolute/path.db",
            )
        return SQLiteRepository(rest[1:], timeout=timeout)
    scheme, separator, rest = text.partition("://")
    if separator:
        base, _, driver = scheme.lower().partition("+")
        if base in _POSTGRES_SCHEMES and driver in ("", "asyncpg"):
            # asyncpg takes postgresql:// and postgres:// but no driver suffix.
            return PostgresRepository(f"postgresql://{rest}", pool_size=pool_size,
                                      timeout=timeout, shard_lease=shard_lease)
        raise StoreError(
            "unsupported_backend",
            f"unknown database scheme {scheme!r}: use an SQLite path, a sqlite:/// URL or "
            "a postgresql:// URL",
        )
    return SQLiteRepository(text, timeout=timeout)
