"""Copy an SQLite database into PostgreSQL with nothing lost (``python -m bot.store copy``).

Every row of every table is copied with its ids (tables, games, the queue's entries and
ready checks), so replays, links and ratings stay as they were; the identity counters
continue after the highest id SQLite ever gave. The leases and shard epochs are not
copied: they name the processes of the old store. The copy is one transaction: it is committed only after

- each table of the destination holds exactly as many rows as the source's, and
- each finished game's stored replay, read back from the destination, replays
  (``engine.replay.game_from_replay``) to the scores stored with it.

Anything that fails (a row the source cannot give, a destination that is not
empty, a count or a replay that differs) leaves the destination as it was and is
reported as :class:`CopyError`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.store.codec import (
    as_flag,
    as_int,
    as_optional_int,
    as_optional_str,
    as_str,
    dump_json,
    load_int_list,
    load_json,
    load_json_object,
    parse_optional_timestamp,
    parse_timestamp,
)
from bot.store.models import StoreError
from bot.store.postgres import PostgresRepository
from bot.store.rows import as_float
from bot.store.sqlite import SQLiteRepository
from engine.replay import ReplayFormatError, game_from_replay


class CopyError(StoreError):
    """The copy was refused or failed; nothing was committed."""

    def __init__(self, message: str) -> None:
        super().__init__("copy_failed", message)


Convert = Callable[[object, str], object]


def _json_object(value: object, where: str) -> str:
    return dump_json(load_json_object(value, where), where)


def _json_object_or_null(value: object, where: str) -> str | None:
    return None if value is None else _json_object(value, where)


def _json_int_list(value: object, where: str) -> str:
    return dump_json(load_int_list(value, where), where)


def _json_any(value: object, where: str) -> str:
    return dump_json(load_json(value, where), where)


def _int(value: object, where: str) -> object:
    return as_int(value, where)


def _float(value: object, where: str) -> object:
    return as_float(value, where)


INT: Convert = _int
INT_OR_NULL: Convert = as_optional_int
TEXT: Convert = as_str
TEXT_OR_NULL: Convert = as_optional_str
TIME: Convert = parse_timestamp
FLAG: Convert = as_flag
REAL: Convert = _float
OBJECT: Convert = _json_object
OBJECT_OR_NULL: Convert = _json_object_or_null
TIME_OR_NULL: Convert = parse_optional_timestamp
INT_LIST: Convert = _json_int_list
ANY_JSON: Convert = _json_any

# Every table, parents before children, with each column's conversion.
TABLES: list[tuple[str, list[tuple[str, Convert]]]] = [
    ("guilds", [("id", INT), ("locale", TEXT), ("created_at", TIME), ("updated_at", TIME),
                ("left_at", TIME_OR_NULL)]),
    ("guild_settings", [("guild_id", INT), ("locale", TEXT_OR_NULL),
                        ("turn_timer", INT_OR_NULL), ("target", INT_OR_NULL),
                        ("tables_per_channel", INT_OR_NULL), ("daily_channel_id", INT_OR_NULL),
                        ("updated_at", TIME)]),
    ("tables", [("id", INT), ("guild_id", INT), ("channel_id", INT), ("thread_id", INT_OR_NULL),
                ("message_id", INT_OR_NULL), ("ping_message_id", INT_OR_NULL),
                ("host_id", INT), ("game", TEXT), ("status", TEXT), ("seed", TEXT),
                ("options", OBJECT), ("locale", TEXT), ("created_at", TIME),
                ("updated_at", TIME)]),
    ("seats", [("table_id", INT), ("seat", INT), ("user_id", INT_OR_NULL), ("name", TEXT),
               ("bot_level", TEXT_OR_NULL), ("away", FLAG)]),
    ("actions", [("table_id", INT), ("seq", INT), ("payload", OBJECT), ("created_at", TIME)]),
    ("drafts", [("table_id", INT), ("seat", INT), ("data", ANY_JSON), ("updated_at", TIME)]),
    ("panels", [("table_id", INT), ("user_id", INT), ("application_id", INT), ("token", TEXT),
                ("message_id", INT), ("created_at", TIME)]),
    ("games", [("id", INT), ("table_id", INT), ("guild_id", INT), ("game", TEXT),
               ("scores", INT_LIST), ("winner", INT_OR_NULL), ("replay", OBJECT),
               ("finished_at", TIME), ("rated", FLAG)]),
    ("game_players", [("game_id", INT), ("seat", INT), ("user_id", INT_OR_NULL),
                      ("bot_level", TEXT_OR_NULL), ("name", TEXT), ("team", INT),
                      ("won", FLAG)]),
    ("game_player_stats", [("game_id", INT), ("seat", INT), ("key", TEXT), ("value", INT)]),
    ("ratings", [("guild_id", INT), ("game", TEXT), ("player", TEXT), ("user_id", INT_OR_NULL),
                 ("mu", REAL), ("sigma", REAL), ("ordinal", REAL), ("games", INT)]),
    ("rating_history", [("game_id", INT), ("player", TEXT), ("mu", REAL), ("sigma", REAL)]),
    ("global_ratings", [("game", TEXT), ("player", TEXT), ("user_id", INT_OR_NULL),
                        ("mu", REAL), ("sigma", REAL), ("ordinal", REAL), ("games", INT)]),
    ("global_rating_history", [("game_id", INT), ("player", TEXT), ("mu", REAL),
                               ("sigma", REAL)]),
    ("meta", [("key", TEXT), ("value", TEXT)]),
    ("dup_events", [("code", TEXT), ("kind", TEXT), ("seed", TEXT), ("boards", INT),
                    ("guild_id", INT_OR_NULL), ("host_id", INT_OR_NULL), ("created_at", TIME)]),
    ("dup_fields", [("board", TEXT), ("idx", INT), ("diff", INT), ("replay", OBJECT)]),
    ("dup_results", [("table_id", INT), ("board", TEXT), ("direction", INT), ("event", TEXT),
                     ("guild_id", INT), ("diff", INT_OR_NULL), ("replay", OBJECT_OR_NULL),
                     ("created_at", TIME), ("finished_at", TIME_OR_NULL)]),
    ("dup_players", [("board", TEXT), ("user_id", INT), ("table_id", INT), ("direction", INT),
                     ("position", INT), ("name", TEXT)]),
    ("reviews", [("table_id", INT), ("deal", INT), ("seat", INT), ("user_id", INT),
                 ("review", OBJECT), ("created_at", TIME)]),
    ("people", [("user_id", INT), ("standings", FLAG), ("updated_at", TIME)]),
    ("board_secret", [("id", INT), ("secret", TEXT), ("created_at", TIME)]),
    # "Play now" (issue 53): the queue, its ready checks, blocks, the games left early.
    ("ready_checks", [("id", INT), ("game", TEXT), ("seats", INT), ("rated", FLAG),
                      ("filled", FLAG), ("status", TEXT), ("created_at", TIME),
                      ("expires_at", TIME), ("closed_at", TIME_OR_NULL)]),
    ("ready_members", [("check_id", INT), ("user_id", INT), ("entry_id", INT), ("seat", INT),
                       ("answer", TEXT_OR_NULL), ("answered_at", TIME_OR_NULL),
                       ("channel_id", INT_OR_NULL), ("message_id", INT_OR_NULL),
                       ("locale", TEXT_OR_NULL)]),
    ("queue_entries", [("id", INT), ("game", TEXT), ("seats", INT), ("rated", FLAG),
                       ("locale", TEXT), ("fill_after", INT_OR_NULL), ("guild_id", INT_OR_NULL),
                       ("joined_at", TIME), ("waves", INT), ("check_id", INT_OR_NULL)]),
    ("queue_people", [("user_id", INT), ("entry_id", INT), ("position", INT),
                      ("rating", REAL)]),
    ("blocks", [("blocker", INT), ("blocked", INT), ("created_at", TIME)]),
    ("departures", [("user_id", INT), ("table_id", INT), ("reason", TEXT), ("left_at", TIME)]),
    # Talk at tables in direct messages (issue 53).
    ("talk", [("table_id", INT), ("seq", INT), ("seat", INT), ("user_id", INT), ("phrase", TEXT),
              ("after_seq", INT), ("created_at", TIME)]),
]
IDENTITIES = ("tables", "games", "ready_checks", "queue_entries")
"""The tables whose id PostgreSQL numbers. (``leases`` and ``shard_epochs`` are not
copied: they say which process of the old store held what, which no process of the
new one does.)"""


@dataclass
class CopyReport:
    """What was copied: rows per table, and the finished games checked by replay."""

    rows: dict[str, int] = field(default_factory=dict)
    replays_checked: int = 0

    def lines(self) -> list[str]:
        width = max(len(name) for name in self.rows)
        out = [f"  {name:<{width}}  {count:>8} rows" for name, count in self.rows.items()]
        out.append(f"  {self.replays_checked} finished games replay to their stored scores")
        return out


def read_source(path: str) -> tuple[dict[str, list[tuple[object, ...]]], dict[str, int]]:
    """Every row of the SQLite file, converted for PostgreSQL, and the highest id ever
    given per numbered table. Raises :class:`CopyError` listing the rows that cannot
    be read (at most 20)."""
    problems: list[str] = []
    data: dict[str, list[tuple[object, ...]]] = {}
    uri = f"file:{path}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as conn:
        for table, columns in TABLES:
            names = ", ".join(name for name, _ in columns)
            order = ", ".join(name for name, _ in columns[:2])
            rows = conn.execute(f"SELECT {names} FROM {table} ORDER BY {order}").fetchall()
            converted = []
            for index, row in enumerate(rows, start=1):
                try:
                    converted.append(tuple(
                        convert(value, f"{table} row {index} ({columns[0][0]} {row[0]!r}) {name}")
                        for (name, convert), value in zip(columns, row, strict=True)))
                except StoreError as error:
                    problems.append(str(error))
            data[table] = converted
        sequences = dict(conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    if problems:
        shown = "\n  ".join(problems[:20])
        more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise CopyError(f"{len(problems)} rows of {path} cannot be copied:\n  {shown}{more}")
    highest = {}
    for table in IDENTITIES:
        ids = [int(str(row[0])) for row in data[table]]
        highest[table] = max([int(sequences.get(table, 0)), *ids])
    return data, highest


def check_replays(games: Sequence[Any]) -> int:
    """Replay each game; raises :class:`CopyError` if one does not give its stored scores."""
    problems = []
    for game in games:
        where = f"game {game['id']} (table {game['table_id']}, {game['game']})"
        scores = load_int_list(game["scores"], f"{where} scores")
        try:
            replayed = game_from_replay(load_json_object(game["replay"], f"{where} replay"))
        except ReplayFormatError as error:
            problems.append(f"{where}: the stored replay does not replay: {error}")
            continue
        if list(replayed.scores) != scores:
            problems.append(f"{where}: the replay gives scores {list(replayed.scores)}, "
                            f"the stored scores are {scores}")
    if problems:
        raise CopyError("finished games whose replay does not give their result:\n  "
                        + "\n  ".join(problems))
    return len(games)


async def copy_database(source: str, destination: str) -> CopyReport:
    """Copy the SQLite database ``source`` (a path) into the empty PostgreSQL database
    ``destination`` (a ``postgresql://`` URL); see the module's description."""
    if not os.path.isfile(source):
        raise CopyError(f"no SQLite database at {source!r}")
    # Open both through their repositories first: the source is brought to the
    # latest schema (as the bot would on start), the destination gets its tables.
    async with SQLiteRepository(source) as sqlite_repo:
        source_version = await sqlite_repo.schema_version()
    async with PostgresRepository(destination, pool_size=1) as pg_repo:
        if await pg_repo.schema_version() != source_version:
            raise CopyError(f"schema versions differ: SQLite {source_version}, "
                            f"PostgreSQL {await pg_repo.schema_version()}")
    data, highest = read_source(source)
    report = CopyReport()
    try:
        conn = await asyncpg.connect(destination)
    except (OSError, asyncpg.PostgresError) as error:
        raise CopyError(f"cannot connect to PostgreSQL: {error}") from error
    try:
        async with conn.transaction():
            for table, _ in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise CopyError(f"the destination is not empty (table {table} has rows): "
                                    "copy into a new database")
            for table, columns in TABLES:
                if data[table]:
                    await conn.copy_records_to_table(
                        table, records=data[table], columns=[name for name, _ in columns])
            for table in IDENTITIES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    "GREATEST($1::bigint, 1), $1::bigint > 0)", highest[table])
            for table, _ in TABLES:
                stored = int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
                if stored != len(data[table]):
                    raise CopyError(f"table {table}: {len(data[table])} rows in SQLite but "
                                    f"{stored} in PostgreSQL")
                report.rows[table] = stored
            games = await conn.fetch(
                "SELECT id, table_id, game, scores::text AS scores, replay::text AS replay "
                "FROM games ORDER BY id")
            report.replays_checked = check_replays(games)
    except asyncpg.PostgresError as error:
        raise CopyError(f"the copy failed and was rolled back: {error}") from error
    finally:
        await conn.close()
    return report
