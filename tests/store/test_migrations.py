"""The migration runner: fresh files, reopen, older databases, bad migrations."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from importlib.resources import files
from pathlib import Path

import aiosqlite
import pytest

from bot.store import SQLiteRepository, StoreError
from bot.store.migrate import Migration, apply_migrations, load_migrations, split_statements

PACKAGED = load_migrations()
LATEST = PACKAGED[-1].version
NOTES = Migration(
    version=LATEST + 1,
    name="add_notes",
    sql="CREATE TABLE notes (text TEXT NOT NULL);\n"
        "INSERT INTO notes (text) VALUES ('added by the newer migration; once');\n",
)


@pytest.fixture
def repo(sqlite_repo: SQLiteRepository) -> SQLiteRepository:
    """These tests damage or inspect the SQLite file itself: SQLite only."""
    return sqlite_repo


def user_version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def table_names(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


def test_packaged_migrations_are_found_through_importlib_resources() -> None:
    assert (files("bot.store.migrations") / "0001_initial.sql").is_file()
    assert [m.version for m in PACKAGED] == list(range(1, LATEST + 1))
    assert PACKAGED[0].label == "0001_initial"


async def test_fresh_file_gets_every_migration_and_records_the_version(db_path: Path) -> None:
    repo = SQLiteRepository(db_path)
    await repo.open()
    try:
        assert await repo.schema_version() == LATEST
    finally:
        await repo.close()
    assert user_version(db_path) == LATEST
    assert {"guilds", "tables", "seats", "actions", "games", "game_players",
            "game_player_stats"} <= table_names(db_path)
    with closing(sqlite3.connect(db_path)) as conn:  # WAL is a property of the file
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_open_sets_the_connection_pragmas(repo: SQLiteRepository) -> None:
    conn = repo._conn
    assert conn is not None
    for pragma, expected in (("foreign_keys", 1), ("synchronous", 1), ("busy_timeout", 5000),
                             ("journal_mode", "wal")):
        async with conn.execute(f"PRAGMA {pragma}") as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == expected, pragma


async def test_reopening_is_idempotent(db_path: Path) -> None:
    for _ in range(3):
        async with SQLiteRepository(db_path) as repo:
            assert await repo.schema_version() == LATEST
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await apply_migrations(conn) == []
    assert user_version(db_path) == LATEST


async def test_an_older_database_gets_only_the_newer_files(db_path: Path) -> None:
    async with SQLiteRepository(db_path, migrations=PACKAGED) as repo:
        table = await repo.create_table(guild_id=1, channel_id=2, host_id=3, game="tichu",
                                        seed="s", options={}, locale="en", seats=[])
    assert user_version(db_path) == LATEST

    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        # Were 0001 run again, its CREATE TABLE statements would fail here.
        assert await apply_migrations(conn, [*PACKAGED, NOTES]) == [NOTES.version]
    async with SQLiteRepository(db_path, migrations=[*PACKAGED, NOTES]) as repo:
        assert await repo.schema_version() == NOTES.version
        loaded = await repo.load_table(table.id)
        assert loaded is not None and loaded.seed == "s"
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("SELECT text FROM notes").fetchall() == [
            ("added by the newer migration; once",)]


async def test_a_failing_migration_is_rolled_back_whole(db_path: Path) -> None:
    async with SQLiteRepository(db_path):
        pass
    broken = Migration(LATEST + 1, "broken",
                       "CREATE TABLE half_done (a INTEGER);\nINSERT INTO no_such_table VALUES (1);")
    repo = SQLiteRepository(db_path, migrations=[*PACKAGED, broken])
    with pytest.raises(StoreError) as caught:
        await repo.open()
    assert caught.value.code == "migration_failed"
    assert f"{LATEST + 1:04d}_broken" in str(caught.value)
    assert user_version(db_path) == LATEST
    assert "half_done" not in table_names(db_path)
    with pytest.raises(StoreError) as not_open:
        await repo.schema_version()
    assert not_open.value.code == "not_open"


async def test_a_database_newer_than_the_code_is_refused(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 5}")
    with pytest.raises(StoreError) as caught:
        await SQLiteRepository(db_path).open()
    assert caught.value.code == "schema_too_new"


def write(directory: Path, **files_by_name: str) -> Path:
    directory.mkdir()
    for name, text in files_by_name.items():
        (directory / name).write_text(text)
    return directory


def test_load_migrations_reads_a_directory_in_number_order(tmp_path: Path) -> None:
    source = write(tmp_path / "m", **{
        "0002_second.sql": "CREATE TABLE b (x);",
        "0001_first.sql": "CREATE TABLE a (x);",
        "README.txt": "not a migration",
        "__init__.py": "",
    })
    assert [(m.version, m.name) for m in load_migrations(source)] == [(1, "first"), (2, "second")]


@pytest.mark.parametrize("names", [
    {"0001_a.sql": "SELECT 1;", "0003_c.sql": "SELECT 1;"},      # gap
    {"0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"},      # same number twice
    {"1_a.sql": "SELECT 1;"},                                    # bad name
    {"0001_a.sql": "CREATE TABLE a (x); CREATE TABLE b (y)"},    # unfinished statement
    {"0001_a.sql": "-- only a comment\n"},                       # nothing to do
])
def test_load_migrations_refuses_bad_sets(tmp_path: Path, names: dict[str, str]) -> None:
    with pytest.raises(StoreError) as caught:
        load_migrations(write(tmp_path / "m", **names))
    assert caught.value.code == "bad_migration"


def test_split_statements_keeps_triggers_strings_and_comments_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (a TEXT DEFAULT 'x;y');\n"
        "/* block; comment */\n"
        "CREATE TRIGGER t_guard BEFORE DELETE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no; never');\nEND;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(sql, "test")
    assert len(statements) == 2
    assert statements[1].endswith("END;")
    initial = split_statements(PACKAGED[0].sql, PACKAGED[0].label)
    creates = [line for line in PACKAGED[0].sql.splitlines() if line.startswith("CREATE ")]
    assert len(initial) == len(creates)
    assert sum("CREATE TRIGGER" in statement for statement in initial) == 2


async def test_a_version_2_database_upgrades_in_place(db_path: Path) -> None:
    """Tables stored before 0003 keep their seats (not away), and gain no drafts,
    panels or settings."""
    async with SQLiteRepository(db_path, migrations=PACKAGED[:2]) as old:
        assert await old.schema_version() == 2
    now = "2024-01-01T00:00:00.000000+00:00"
    with closing(sqlite3.connect(db_path)) as conn, conn:  # rows as version 2 wrote them
        conn.execute("INSERT INTO guilds VALUES (1, 'de', ?, ?)", (now, now))
        table_id = conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, created_at, "
            "updated_at) VALUES (1, 2, 3, 'tichu', 'playing', 's', ?, ?)", (now, now)).lastrowid
        conn.execute("INSERT INTO seats (table_id, seat, user_id, name, bot_level) "
                     "VALUES (?, 0, 3, 'Ann', NULL), (?, 1, NULL, 'CPU', 'hard')",
                     (table_id, table_id))
    assert user_version(db_path) == 2 and table_id is not None
    async with SQLiteRepository(db_path) as repo:
        assert await repo.schema_version() == LATEST >= 3
        loaded = await repo.load_table(table_id)
        assert loaded is not None
        assert [(s.user_id, s.bot_level, s.away) for s in loaded.seats] == [
            (3, None, False), (None, "hard", False)]
        assert (loaded.drafts, loaded.panels) == ({}, {})
        assert (await repo.guild_settings(1)).locale is None
