"""The migration runner of the SQLite backend.

Migrations are SQL files named ``NNNN_description.sql`` in the package
:mod:`bot.store.migrations`, numbered 1, 2, 3 … without gaps. The database keeps
the number of the last one applied in ``PRAGMA user_version`` (0 for a new file).
The runner knows one thing: apply, in order, the files whose number is above the
stored version, each in its own ``BEGIN IMMEDIATE`` transaction that also sets the
new version, so a migration is applied entirely or not at all.

A migration file holds plain statements (triggers included) and no transaction
control (``BEGIN``/``COMMIT``): the runner owns the transaction.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import aiosqlite

from bot.store.models import StoreError

MIGRATIONS_PACKAGE = "bot.store.migrations"
POSTGRES_MIGRATIONS_PACKAGE = "bot.store.migrations.postgres"
_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered migration: its version, its name and its SQL text."""

    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        """``0001_initial``: how messages name the migration."""
        return f"{self.version:04d}_{self.name}"


def load_migrations(source: Traversable | None = None, *,
                    postgres: bool = False) -> list[Migration]:
    """Read the migration files of ``source`` (default: the packaged migrations of
    SQLite, or of PostgreSQL if ``postgres``), sorted by number.

    Files that do not end in ``.sql`` are ignored; a ``.sql`` file with a badly
    formed name, two files with one number, a gap in the numbering or a file that
    does not end with a complete statement raise :class:`StoreError`. (PostgreSQL
    files run whole through the server's own parser: only emptiness is checked.)"""
    if source is not None:
        directory = source
    else:
        directory = files(POSTGRES_MIGRATIONS_PACKAGE if postgres else MIGRATIONS_PACKAGE)
    migrations: list[Migration] = []
    for entry in directory.iterdir():
        if not entry.is_file() or not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise StoreError(
                "bad_migration",
                f"migration file {entry.name!r} is not named NNNN_description.sql",
            )
        sql = entry.read_text(encoding="utf-8")
        migration = Migration(int(match["version"]), match["name"], sql)
        if (not _has_code(sql) if postgres
                else split_statements(sql, migration.label) == []):
            raise StoreError("bad_migration", f"migration {migration.label} has no statement")
        migrations.append(migration)
    migrations.sort(key=lambda m: m.version)
    _check_numbering(migrations)
    return migrations


def _check_numbering(migrations: Sequence[Migration]) -> None:
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            if migration.version < expected:
                problem = f"two migrations are numbered {migration.version}"
            else:
                problem = f"migration {expected} is missing (next is {migration.label})"
            raise StoreError("bad_migration", problem)


def split_statements(sql: str, label: str) -> list[str]:
    """Split a migration into its statements (``;`` inside strings, comments and
    trigger bodies do not split). Raises :class:`StoreError` if text other than
    comments follows the last complete statement."""
    statements: list[str] = []
    pending = ""
    *pieces, tail = sql.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending + tail):
        raise StoreError(
            "bad_migration", f"migration {label} does not end with a complete statement"
        )
    return statements


def _has_code(text: str) -> bool:
    """Whether ``text`` holds anything but whitespace, ``;`` and SQL comments."""
    without_block = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    without_line = re.sub(r"--[^\n]*", " ", without_block)
    return without_line.replace(";", " ").strip() != ""


async def _execute(conn: aiosqlite.Connection, sql: str) -> None:
    async with conn.execute(sql):
        pass


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of the last migration applied to the database (0 if none)."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Iterable[Migration] | None = None
) -> list[int]:
    """Apply the migrations whose number is above the stored version, in order,
    and return the numbers applied.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no open
    transaction. Raises :class:`StoreError` (``schema_too_new``) if the database
    is at a version this code does not know, and (``migration_failed``) if a
    migration fails; that migration is rolled back and the earlier ones stay."""
    known = sorted(migrations if migrations is not None else load_migrations(),
                   key=lambda m: m.version)
    _check_numbering(known)
    latest = known[-1].version if known else 0
    current = await schema_version(conn)
    if current > latest:
        raise StoreError(
            "schema_too_new",
            f"the database is at schema version {current} but this code knows only "
            f"up to {latest}; run a newer version of the bot",
        )
    applied: list[int] = []
    for migration in known:
        if migration.version > current and await _apply_one(conn, migration):
            applied.append(migration.version)
    return applied


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> bool:
    """Apply one migration in its own transaction; False if another connection
    applied it first (the version is read again under the write lock)."""
    statements = split_statements(migration.sql, migration.label)
    try:
        await _execute(conn, "BEGIN IMMEDIATE")
    except sqlite3.Error as error:
        raise StoreError(
            "migration_failed", f"migration {migration.label}: cannot start: {error}"
        ) from error
    try:
        if await schema_version(conn) >= migration.version:
            await _execute(conn, "ROLLBACK")
            return False
        for statement in statements:
            await _execute(conn, statement)
        # user_version lives in the database header, written inside this
        # transaction: it commits or rolls back together with the statements.
        await _execute(conn, f"PRAGMA user_version = {int(migration.version)}")
        await _execute(conn, "COMMIT")
    except BaseException as error:
        # The failed statement may already have ended the transaction.
        with contextlib.suppress(sqlite3.Error):
            await _execute(conn, "ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise StoreError(
                "migration_failed", f"migration {migration.label} failed: {error}"
            ) from error
        raise
    return True
