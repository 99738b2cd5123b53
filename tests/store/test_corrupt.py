"""Rows damaged behind the store's back are reported as CorruptRowError, naming
the table, and never stop the other tables from being found and loaded."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import (
    ActionRecord,
    CorruptRowError,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    SQLiteRepository,
    StoreError,
    TableStatus,
)

from .conftest import new_table


@pytest.fixture
def repo(sqlite_repo: SQLiteRepository) -> SQLiteRepository:
    """These tests damage or inspect the SQLite file itself: SQLite only."""
    return sqlite_repo


def tamper(db_path: Path, sql: str, *params: object) -> None:
    """Write straight into the file with sqlite3, as a broken tool or disk would."""
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(sql, params)


TABLE_DAMAGE = [
    ("UPDATE tables SET options = '{\"target\": 10' WHERE id = ?", "options"),
    ("UPDATE tables SET options = '[1, 2]' WHERE id = ?", "options"),
    ("UPDATE tables SET status = 'paused' WHERE id = ?", "status"),
    ("UPDATE tables SET status = 7 WHERE id = ?", "status"),
    ("UPDATE tables SET channel_id = 'general' WHERE id = ?", "channel_id"),
    ("UPDATE tables SET seed = X'01' WHERE id = ?", "seed"),
    ("UPDATE tables SET created_at = 'yesterday' WHERE id = ?", "created_at"),
    ("UPDATE seats SET user_id = 'nobody' WHERE table_id = ? AND seat = 0", "seat 0"),
    ("UPDATE seats SET user_id = 1.5 WHERE table_id = ? AND seat = 2", "seat 2"),
]

ACTION_DAMAGE = [
    ("INSERT INTO actions VALUES (?, 3, '{\"type\": \"play\"', '2024-01-01T00:00:00+00:00')",
     "action seq 3"),
    ("INSERT INTO actions VALUES (?, 3, '[\"play\"]', '2024-01-01T00:00:00+00:00')",
     "action seq 3"),
    ("INSERT INTO actions VALUES (?, 3, 'NaN', '2024-01-01T00:00:00+00:00')", "action seq 3"),
    ("INSERT INTO actions VALUES (?, 3, '{}', 'not a time')", "action seq 3"),
    ("INSERT INTO actions VALUES (?, 3, X'7b7d', '2024-01-01T00:00:00+00:00')", "action seq 3"),
    ("INSERT INTO actions VALUES (?, 5, '{}', '2024-01-01T00:00:00+00:00')", "gap"),
]


@pytest.mark.parametrize(("damage", "named"), TABLE_DAMAGE + ACTION_DAMAGE,
                         ids=[f"{i}-{named}" for i, (_, named) in
                              enumerate(TABLE_DAMAGE + ACTION_DAMAGE)])
async def test_a_damaged_row_is_a_corrupt_row_error(repo: SQLiteRepository, db_path: Path,
                                                    damage: str, named: str) -> None:
    healthy_before = await new_table(repo, channel_id=1)
    damaged = await new_table(repo, channel_id=2)
    healthy_after = await new_table(repo, channel_id=3)
    for table in (healthy_before, damaged, healthy_after):
        for seq in (1, 2):
            await repo.append_action(table.id, ActionRecord(seq, {"seq": seq}))

    tamper(db_path, damage, damaged.id)  # while the repository is open (WAL)

    with pytest.raises(CorruptRowError) as caught:
        await repo.load_table(damaged.id)
    error = caught.value
    assert not isinstance(error, ValueError | KeyError | TypeError)
    assert error.code == "corrupt_row"
    assert f"table {damaged.id}" in str(error)
    assert named in str(error)

    # The bot's restart loop: every active id is listed, the damaged one is reported
    # and the others load.
    ids = await repo.active_table_ids()
    assert ids == [healthy_before.id, damaged.id, healthy_after.id]
    loaded, reported = [], []
    for table_id in ids:
        try:
            record = await repo.load_table(table_id)
        except CorruptRowError:
            reported.append(table_id)
        else:
            assert record is not None
            loaded.append(record.id)
    assert (loaded, reported) == ([healthy_before.id, healthy_after.id], [damaged.id])
    assert await repo.find_active_table(1) == healthy_before.id


async def test_corruption_is_still_reported_after_a_restart(repo: SQLiteRepository,
                                                            db_path: Path) -> None:
    damaged = await new_table(repo)
    await repo.close()
    tamper(db_path, "UPDATE tables SET options = 'oops' WHERE id = ?", damaged.id)
    async with SQLiteRepository(db_path) as restarted:
        assert await restarted.active_table_ids() == [damaged.id]
        with pytest.raises(CorruptRowError, match=f"table {damaged.id} options"):
            await restarted.load_table(damaged.id)
        # The bot can then retire it; the table no longer blocks the list.
        await restarted.update_table(damaged.id, options={}, status=TableStatus.ABANDONED)
        assert await restarted.active_table_ids() == []


async def test_the_action_log_cannot_be_rewritten(repo: SQLiteRepository,
                                                  db_path: Path) -> None:
    table = await new_table(repo)
    await repo.append_action(table.id, ActionRecord(1, {"a": 1}))
    for statement in ("UPDATE actions SET payload = '{}' WHERE table_id = ?",
                      "DELETE FROM actions WHERE table_id = ?"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            tamper(db_path, statement, table.id)
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.actions[0].payload == {"a": 1}


async def test_a_damaged_game_is_reported_by_recent_games(repo: SQLiteRepository,
                                                          db_path: Path) -> None:
    table = await new_table(repo)
    game_id = await repo.record_game(GameResult(
        table_id=table.id, guild_id=1, game="tichu", scores=[1000, 200], winner=0,
        players=[GamePlayerResult(0, 100, None, "Ann", 0, True)], replay={"actions": []}))
    tamper(db_path, "UPDATE games SET replay = '{' WHERE id = ?", game_id)
    with pytest.raises(CorruptRowError, match=f"game {game_id} replay"):
        await repo.recent_games(1, "tichu")
    tamper(db_path, "UPDATE games SET replay = '{}', scores = '[1, \"x\"]' WHERE id = ?", game_id)
    with pytest.raises(CorruptRowError, match=f"game {game_id} scores"):
        await repo.recent_games(1, "tichu")
    assert isinstance(CorruptRowError("x"), StoreError)


PEOPLE_DAMAGE = [
    ("UPDATE seats SET away = 2 WHERE table_id = ? AND seat = 0", "seat 0 away"),
    ("UPDATE seats SET away = 'yes' WHERE table_id = ? AND seat = 2", "seat 2 away"),
    ("INSERT INTO drafts VALUES (?, 1, '{\"left\": ', '2024-01-01T00:00:00+00:00')",
     "draft of seat 1"),
    ("INSERT INTO drafts VALUES (?, 1, '[1]', '2024-01-01T00:00:00+00:00')", "draft of seat 1"),
    ("INSERT INTO drafts VALUES (?, 'one', '{}', '2024-01-01T00:00:00+00:00')", "draft of seat"),
    ("INSERT INTO panels VALUES (?, 100, 1, X'00', 5, '2024-01-01T00:00:00+00:00')",
     "panel of user 100 token"),
    ("INSERT INTO panels VALUES (?, 100, 1, 'tok', 'msg', '2024-01-01T00:00:00+00:00')",
     "panel of user 100 message_id"),
    ("INSERT INTO panels VALUES (?, 100, 1, 'tok', 5, 'soon')", "panel of user 100 created_at"),
]


@pytest.mark.parametrize(("damage", "named"), PEOPLE_DAMAGE,
                         ids=[f"{i}-{named}" for i, (_, named) in enumerate(PEOPLE_DAMAGE)])
async def test_damaged_seats_drafts_and_panels_are_corrupt_row_errors(
        repo: SQLiteRepository, db_path: Path, damage: str, named: str) -> None:
    damaged = await new_table(repo, channel_id=2)
    healthy = await new_table(repo, channel_id=3)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("PRAGMA ignore_check_constraints = 1")  # as a broken tool would
        conn.execute(damage, (damaged.id,))
    with pytest.raises(CorruptRowError) as caught:
        await repo.load_table(damaged.id)
    assert f"table {damaged.id}" in str(caught.value)
    assert named in str(caught.value)
    assert await repo.active_table_ids() == [damaged.id, healthy.id]
    assert await repo.load_table(healthy.id) is not None


@pytest.mark.parametrize(("column", "value"), [
    ("turn_timer", "'ninety'"), ("target", "1.5"), ("locale", "X'6672'"),
    ("tables_per_channel", "'many'")])
async def test_damaged_guild_settings_are_corrupt_row_errors(
        repo: SQLiteRepository, db_path: Path, column: str, value: str) -> None:
    await repo.save_guild_settings(9, GuildSettings(locale="fr", turn_timer=60))
    await repo.save_guild_settings(10, GuildSettings(target=500))
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("PRAGMA ignore_check_constraints = 1")
        conn.execute(f"UPDATE guild_settings SET {column} = {value} WHERE guild_id = 9")
    with pytest.raises(CorruptRowError, match=f"guild 9 settings {column}"):
        await repo.guild_settings(9)
    assert await repo.guild_settings(10) == GuildSettings(target=500)


async def test_a_damaged_meta_value_is_a_corrupt_row_error(repo: SQLiteRepository,
                                                           db_path: Path) -> None:
    await repo.set_meta("commands_hash", "abc")
    tamper(db_path, "UPDATE meta SET value = X'00ff' WHERE key = 'commands_hash'")
    with pytest.raises(CorruptRowError, match="meta 'commands_hash'"):
        await repo.get_meta("commands_hash")
