"""The SQLite backend of the store (aiosqlite), behind :class:`Repository`.

One connection per repository, in autocommit mode: every method runs under an
``asyncio.Lock`` and, when it writes more than one statement, inside its own
``BEGIN IMMEDIATE … COMMIT``, so coroutines never mix their statements in one
transaction and every write is committed before the method returns.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
import threading
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, ClassVar, Literal, TypeVar

import aiosqlite

from bot.ratings import TEAM_GAMES
from bot.store.base import (
    EXPORT_CHUNK,
    StoreBase,
    board_results_sql,
    global_counts_sql,
    player_totals_sql,
)
from bot.store.codec import (
    as_int,
    check_draft,
    check_guild_settings,
    check_meta,
    check_meta_key,
    check_panel,
    dump_json,
    format_timestamp,
    utc_now,
)
from bot.store.migrate import Migration, apply_migrations, schema_version
from bot.store.models import (
    ActionRecord,
    BoardResult,
    BoardSize,
    EventRecord,
    FieldResult,
    GameResult,
    GuildSettings,
    LeaderboardRow,
    PanelRecord,
    PartnerRow,
    RatingPoint,
    RatingRow,
    ReviewRecord,
    SeatRecord,
    SequenceConflictError,
    StoreError,
    TableRecord,
    TableStatus,
    TalkLine,
)
from bot.store.personal import SQLITE, Dialect, seated_review
from bot.store.rows import (
    ACTIVE,
    OVER,
    ResultFilter,
    board_results_from_rows,
    board_size,
    check_action,
    check_event,
    check_finish,
    check_lock_request,
    check_page,
    check_review_key,
    check_seats,
    check_shards,
    check_talk,
    check_text,
    check_timeout,
    check_user_reviews,
    claim_rows,
    event_codes,
    event_from_row,
    event_missing,
    field_from_rows,
    field_rows,
    finished_already,
    game_rows,
    games_from_rows,
    leaderboard_rows,
    meta_value,
    not_open,
    partner_rows,
    rating_points,
    rating_rows,
    result_missing,
    review_row,
    reviews_from_rows,
    seq_refused,
    settings_from_row,
    table_changes,
    table_from_rows,
    table_missing,
)

log = logging.getLogger(__name__)
# aiosqlite's DEBUG lines carry every statement with its parameters: the boards a table
# deals, the board secret and the seeds, the tokens that edit hand panels. Even at
# LOG_LEVEL=DEBUG, none of that goes to the log.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

Params = Sequence[object] | Mapping[str, object]
Begin = Literal["BEGIN", "BEGIN IMMEDIATE"]

_ACTIVE = ACTIVE
_OVER = OVER

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, message_id, ping_message_id, host_id, game, "
    "status, seed, options, locale, created_at, updated_at"
)

_REVIEW_COLUMNS = "table_id, deal, seat, user_id, review, created_at"

# The ranking (bot/store/base.py) in SQLite's words; ``won`` is 0 or 1.
_PLAYER_TOTALS = player_totals_sql(guild_id=":guild_id", game=":game", user_id=":user_id",
                                   limit=":limit", offset=":offset", won="won = 1",
                                   total="st.total")
_GLOBAL_TOTALS = player_totals_sql(guild_id=None, game=":game", user_id=":user_id",
                                   limit=":limit", offset=":offset", won="won = 1",
                                   total="st.total")
_GLOBAL_COUNTS = global_counts_sql("?")


def _error_code(error: sqlite3.Error) -> str:
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
        return "busy"  # another process held the write lock past the busy timeout
    if name.startswith("SQLITE_FULL"):
        return "full"  # the disk (or the database's page limit) is full
    if isinstance(error, sqlite3.IntegrityError):
        return "constraint_failed"
    return "database_error"


_T = TypeVar("_T")


class SQLiteRepository(StoreBase[aiosqlite.Connection]):
    """The store in one SQLite file (or ``":memory:"``), through aiosqlite.

    ``busy_timeout_ms`` is how long a statement waits for another connection's write
    lock before it fails (StoreError ``busy``); ``timeout`` (seconds) sets it too
    (``open_repository`` passes its timeout so). ``migrations`` replaces the
    packaged migrations (tests use it to stage a database at an older version)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 5000,
        timeout: float | None = None,
        migrations: Sequence[Migration] | None = None,
    ) -> None:
        self._path = os.fspath(path)
        if timeout is not None:
            check_timeout(timeout)
            busy_timeout_ms = round(timeout * 1000)
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._migrations = list(migrations) if migrations is not None else None
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._wal = False
        """Whether the file is in WAL mode, where a second connection reads a snapshot
        while this one writes (:meth:`_snapshot`)."""
        # shard id -> the locked file's descriptor (None for an in-memory database)
        self._shard_locks: dict[int, int | None] = {}

    @property
    def path(self) -> str:
        """The database file (or ``":memory:"``)."""
        return self._path

    @property
    def busy_timeout_ms(self) -> int:
        return self._busy_timeout_ms

    # -- connection ----------------------------------------------------------------

    async def open(self) -> None:
        """Create the file's folder if missing, connect, set the pragmas and apply
        pending migrations (no-op if open)."""
        async with self._lock:
            if self._conn is None:
                self._conn = await self._connect()

    async def _connect(self) -> aiosqlite.Connection:
        if self._path != ":memory:":
            # The configured default (data/tichu.sqlite3) lives in a folder that a
            # fresh checkout does not have: create it.
            folder = os.path.dirname(os.path.abspath(self._path))
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as error:
                raise StoreError("open_failed",
                                 f"cannot create the folder of {self._path!r}: {error}") from error
        # isolation_level=None: autocommit; transactions are explicit (see _session).
        connecting = aiosqlite.connect(self._path, isolation_level=None)
        try:
            conn = await connecting
        except sqlite3.Error as error:
            # aiosqlite stops its worker thread without waiting for it; wait here so
            # the thread does not outlive the event loop.
            worker = getattr(connecting, "_thread", None)
            if isinstance(worker, threading.Thread):
                await asyncio.to_thread(worker.join, 5.0)
            raise StoreError("open_failed", f"cannot open {self._path!r}: {error}") from error
        try:
            conn.row_factory = sqlite3.Row
            await self._pragma(conn, f"busy_timeout = {self._busy_timeout_ms}")
            mode = await self._pragma(conn, "journal_mode = WAL")
            self._wal = mode == "wal"
            if mode not in ("wal", "memory"):
                log.warning("SQLite store %s: journal mode is %s, not WAL", self._path, mode)
            # WAL + synchronous=NORMAL: a commit is durable against a crash of the
            # application (the WAL is in the OS's hands once written); only a power
            # loss or OS crash may drop the last commits, never corrupt the file.
            await self._pragma(conn, "synchronous = NORMAL")
            await self._pragma(conn, "foreign_keys = ON")
            await apply_migrations(conn, self._migrations)
            await self._rate_older_games(conn)
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError("open_failed", f"cannot open {self._path!r}: {error}") from error
            raise
        return conn

    async def _rate_older_games(self, conn: aiosqlite.Connection) -> None:
        """Rate the games stored before ratings existed (migration 0002) or before the
        global ratings did (0011): when there are rated games but no rating at all, or
        no global one, rebuild every rating once."""
        tables = await self._fetchall(
            conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' "
            "AND name = 'global_ratings'")
        if not tables:
            return  # a database staged at an older version (tests)
        rows = await self._fetchall(
            conn, "SELECT EXISTS (SELECT 1 FROM games WHERE rated) "
            "AND (NOT EXISTS (SELECT 1 FROM ratings) "
            "OR NOT EXISTS (SELECT 1 FROM global_ratings))")
        if rows and rows[0][0]:
            await self._execute(conn, "BEGIN IMMEDIATE")
            try:
                count = await self._rebuild(conn)
                await self._execute(conn, "COMMIT")
            except BaseException:
                await self._rollback(conn)
                raise
            log.info("rated %d games stored before ratings existed", count)

    @staticmethod
    async def _pragma(conn: aiosqlite.Connection, pragma: str) -> object:
        async with conn.execute(f"PRAGMA {pragma}") as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def close(self) -> None:
        """Close the connection (no-op if closed); waits for a running method."""
        async with self._lock:
            conn, self._conn = self._conn, None
            for shard in list(self._shard_locks):
                self._release_shard(shard)
            if conn is not None:
                await conn.close()

    @asynccontextmanager
    async def _session(self, what: str, begin: Begin | None) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, exclusively, inside a transaction if ``begin`` is given
        (committed on success, rolled back on any exception). SQLite errors come
        out as :class:`StoreError`."""
        async with self._lock:
            conn = self._conn
            if conn is None:
                raise not_open()
            try:
                try:
                    # BEGIN inside: a task cancelled while it waits (for another process's
                    # write lock) leaves it running in aiosqlite's thread, where it begins
                    # the transaction after all; the ROLLBACK queued behind it ends it.
                    if begin is not None:
                        await self._execute(conn, begin)
                    yield conn
                    if begin is not None:
                        await self._execute(conn, "COMMIT")
                except BaseException:
                    if begin is not None:
                        await self._rollback(conn)
                    raise
            except sqlite3.Error as error:
                raise StoreError(_error_code(error), f"{what}: {error}") from error
            except OverflowError as error:  # an integer past 64 bits
                raise StoreError("invalid_value", f"{what}: {error}") from error

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        try:
            async with conn.execute("ROLLBACK"):
                pass
        except sqlite3.Error:
            pass  # no transaction left to roll back (SQLite ended it on the error)

    @staticmethod
    async def _execute(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        async with conn.execute(sql, params) as cursor:
            return cursor.rowcount

    @staticmethod
    async def _insert(conn: aiosqlite.Connection, sql: str, params: Params) -> int:
        """Run one INSERT; the rowid of the new row."""
        async with conn.execute(sql, params) as cursor:
            rowid = cursor.lastrowid
        if rowid is None:
            raise StoreError("database_error", f"no row id after {sql.split('(')[0].strip()}")
        return rowid

    @staticmethod
    async def _fetchall(
        conn: aiosqlite.Connection, sql: str, params: Params = ()
    ) -> list[sqlite3.Row]:
        return list(await conn.execute_fetchall(sql, params))

    @staticmethod
    async def _executemany(
        conn: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[object]]
    ) -> None:
        async with conn.executemany(sql, rows):
            pass

    async def _table_exists(self, conn: aiosqlite.Connection, table_id: int) -> bool:
        rows = await self._fetchall(conn, "SELECT 1 FROM tables WHERE id = ?", (table_id,))
        return bool(rows)

    # -- schema and guilds ---------------------------------------------------------

    # -- the generic statements of StoreBase (a person's data) ---------------------

    dialect: ClassVar[Dialect] = SQLITE

    async def _transact(self, what: str, work: Callable[[aiosqlite.Connection], Awaitable[_T]],
                        *, readonly: bool = False) -> _T:
        async with self._session(what, "BEGIN" if readonly else "BEGIN IMMEDIATE") as conn:
            return await work(conn)

    async def _rows(self, conn: aiosqlite.Connection, sql: str, *params: object
                    ) -> list[sqlite3.Row]:
        return await self._fetchall(conn, sql, params)

    async def _snapshot(self, what: str, work: Callable[[aiosqlite.Connection], Awaitable[_T]]
                        ) -> _T:
        """On a second connection to the file, read-only, in one transaction: with WAL
        it reads a snapshot while the first goes on writing, so the live tables never
        wait for it. Without WAL (or in memory) a reader would hold up the writer
        anyway: then on the one connection, as any other transaction."""
        if not self._wal or self._conn is None:
            return await self._transact(what, work, readonly=True)
        try:
            conn = await aiosqlite.connect(self._path, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(_error_code(error), f"{what}: {error}") from error
        try:
            await self._pragma(conn, f"busy_timeout = {self._busy_timeout_ms}")
            await self._pragma(conn, "query_only = ON")
            await self._execute(conn, "BEGIN")
            result = await work(conn)
            await self._execute(conn, "COMMIT")
            return result
        except sqlite3.Error as error:
            raise StoreError(_error_code(error), f"{what}: {error}") from error
        finally:
            await conn.close()

    async def _chunks(self, conn: aiosqlite.Connection, sql: str, *params: object
                      ) -> AsyncIterator[list[dict[str, Any]]]:
        async with conn.execute(sql, params) as cursor:
            names = [column[0] for column in cursor.description]
            while rows := await cursor.fetchmany(EXPORT_CHUNK):
                yield [dict(zip(names, row, strict=True)) for row in rows]

    async def _change(self, conn: aiosqlite.Connection, sql: str, *params: object) -> int:
        return await self._execute(conn, sql, params)

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._session("schema_version", None) as conn:
            return await schema_version(conn)

    async def ensure_guild(self, guild_id: int, locale: str) -> None:
        """Create or update the guild's row (its locale for public messages)."""
        now = format_timestamp(utc_now())
        async with self._session("ensure_guild", None) as conn:
            await self._execute(
                conn,
                "INSERT INTO guilds (id, locale, created_at, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at",
                (guild_id, locale, now, now),
            )

    @staticmethod
    async def _ensure_guild_row(conn: aiosqlite.Connection, guild_id: int, now: str) -> None:
        """The guild's row, with the default locale if it is new."""
        async with conn.execute(
            "INSERT INTO guilds (id, created_at, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO NOTHING",
            (guild_id, now, now),
        ):
            pass

    # -- tables --------------------------------------------------------------------

    async def create_table(self, *, guild_id: int, channel_id: int, host_id: int, game: str,
                           seed: str, options: dict[str, Any], locale: str,
                           seats: list[SeatRecord]) -> TableRecord:
        """Insert a new table in status lobby with its seats, and return it with its id
        (as :meth:`load_table` would). The guild's row is created if needed."""
        options_json = dump_json(options, "table options")
        seat_rows = check_seats(seats, "new table")
        now = format_timestamp(utc_now())
        async with self._session("create_table", "BEGIN IMMEDIATE") as conn:
            await self._ensure_guild_row(conn, guild_id, now)
            table_id = await self._insert(
                conn,
                "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, options,"
                " locale, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, host_id, game, TableStatus.LOBBY.value, seed,
                 options_json, locale, now, now),
            )
            await self._executemany(
                conn,
                "INSERT INTO seats (table_id, seat, user_id, name, bot_level, away) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, *row) for row in seat_rows],
            )
            table = await self._load(conn, table_id)
        if table is None:  # pragma: no cover - the row was inserted just above
            raise table_missing(table_id)
        return table

    async def update_table(self, table_id: int, *, status: TableStatus | None = None,
                           thread_id: int | None = None, message_id: int | None = None,
                           ping_message_id: int | None = None,
                           options: dict[str, Any] | None = None) -> None:
        """Change some fields of a table (None leaves a field unchanged); the table's
        ``updated_at`` is set in any case. Raises :class:`StoreError`
        (``unknown_table``) if there is no such table."""
        changes = table_changes(table_id, format_timestamp(utc_now()), status=status,
                                thread_id=thread_id, message_id=message_id,
                                ping_message_id=ping_message_id, options=options)
        # Column names are table_changes' fixed keys, never the caller's.
        assignments = ", ".join(f"{column} = :{column}" for column in changes)
        async with self._session("update_table", None) as conn:
            count = await self._execute(
                conn, f"UPDATE tables SET {assignments} WHERE id = :table_id",
                {**changes, "table_id": table_id},
            )
        if count == 0:
            raise table_missing(table_id)

    async def clear_ping(self, table_id: int) -> None:
        """Forget the table's ping message id."""
        async with self._session("clear_ping", None) as conn:
            count = await self._execute(
                conn, "UPDATE tables SET ping_message_id = NULL, updated_at = ? WHERE id = ?",
                (format_timestamp(utc_now()), table_id),
            )
        if count == 0:
            raise table_missing(table_id)

    async def save_seats(self, table_id: int, seats: list[SeatRecord]) -> None:
        """Replace the table's seats."""
        seat_rows = check_seats(seats, f"table {table_id}")
        async with self._session("save_seats", "BEGIN IMMEDIATE") as conn:
            count = await self._execute(
                conn, "UPDATE tables SET updated_at = ? WHERE id = ?",
                (format_timestamp(utc_now()), table_id),
            )
            if count == 0:
                raise table_missing(table_id)
            await self._execute(conn, "DELETE FROM seats WHERE table_id = ?", (table_id,))
            await self._executemany(
                conn,
                "INSERT INTO seats (table_id, seat, user_id, name, bot_level, away) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, *row) for row in seat_rows],
            )

    async def append_action(self, table_id: int, action: ActionRecord) -> None:
        """Append one action, committed when this returns; raises
        :class:`SequenceConflictError` if ``seq`` is taken or is not the next number,
        and :class:`StoreError` (``unknown_table``) if there is no such table."""
        seq, payload = check_action(table_id, action)
        created_at = format_timestamp(action.created_at or utc_now())
        async with self._session("append_action", None) as conn:
            # One statement, so one atomic write transaction: the row goes in only if
            # the table's last seq is seq - 1 at that instant. Two writers (even on
            # two connections) cannot both pass the check.
            try:
                count = await self._execute(
                    conn,
                    "INSERT INTO actions (table_id, seq, payload, created_at) "
                    "SELECT :table_id, :seq, :payload, :created_at "
                    "WHERE (SELECT COALESCE(MAX(seq), 0) FROM actions "
                    "       WHERE table_id = :table_id) = :seq - 1",
                    {"table_id": table_id, "seq": seq, "payload": payload,
                     "created_at": created_at},
                )
            except sqlite3.IntegrityError:
                count = 0  # a foreign key (no such table) or the primary key (seq taken)
            if count == 1:
                return
            rows = await self._fetchall(
                conn,
                "SELECT (SELECT COUNT(*) FROM tables WHERE id = :table_id) AS found, "
                "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = :table_id) AS last",
                {"table_id": table_id},
            )
        if not rows[0]["found"]:
            raise table_missing(table_id)
        raise seq_refused(table_id, seq, rows[0]["last"])

    async def add_talk(self, table_id: int, line: TalkLine) -> None:
        """Store a phrase said at the table (see the protocol): one insert, refused if
        its ``seq`` is taken."""
        line = check_talk(table_id, line)
        async with self._session("add_talk", "BEGIN IMMEDIATE") as conn:
            if not await self._table_exists(conn, table_id):
                raise table_missing(table_id)
            try:
                await self._execute(
                    conn, "INSERT INTO talk (table_id, seq, seat, user_id, phrase, after_seq, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, line.seq, line.seat, line.user_id, line.phrase, line.after,
                     format_timestamp(line.created_at)))
            except sqlite3.IntegrityError:
                raise SequenceConflictError(
                    f"table {table_id}: talk seq {line.seq} is taken") from None

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table with its seats and actions in order; None if there is no such table.
        Raises :class:`CorruptRowError` if a row cannot be read."""
        async with self._session("load_table", "BEGIN") as conn:
            return await self._load(conn, table_id)

    async def _load(self, conn: aiosqlite.Connection, table_id: int) -> TableRecord | None:
        rows = await self._fetchall(
            conn, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        return table_from_rows(
            table_id, rows[0],
            await self._fetchall(
                conn, "SELECT seat, user_id, name, bot_level, away FROM seats "
                "WHERE table_id = ? ORDER BY seat", (table_id,)),
            await self._fetchall(
                conn, "SELECT seq, payload, created_at FROM actions WHERE table_id = ? "
                "ORDER BY seq", (table_id,)),
            await self._fetchall(
                conn, "SELECT seat, data FROM drafts WHERE table_id = ? ORDER BY seat",
                (table_id,)),
            await self._fetchall(
                conn, "SELECT user_id, application_id, token, message_id, created_at "
                "FROM panels WHERE table_id = ? ORDER BY user_id", (table_id,)),
            await self._fetchall(
                conn, "SELECT seq, seat, user_id, phrase, after_seq, created_at FROM talk "
                "WHERE table_id = ? ORDER BY seq", (table_id,)),
        )

    async def active_table_ids(self, *, shard_count: int = 1,
                               shard_ids: Collection[int] | None = None) -> list[int]:
        """Ids of tables in status lobby or playing (to rebuild after a restart), in
        creation order. A table whose status cannot be read is listed too, so that
        :meth:`load_table` reports it instead of it being silently forgotten.

        With ``shard_ids``, only the tables of guilds on those shards, Discord's rule
        being ``(guild_id >> 22) % shard_count``."""
        shards = check_shards(shard_count, shard_ids)
        placeholders = ", ".join("?" for _ in _OVER)
        sql = f"SELECT id FROM tables WHERE status NOT IN ({placeholders})"
        params: list[object] = list(_OVER)
        if shards is not None:
            sql += f" AND (guild_id >> 22) % ? IN ({', '.join('?' for _ in shards)})"
            params += [shard_count, *shards]
        async with self._session("active_table_ids", None) as conn:
            rows = await self._fetchall(conn, sql + " ORDER BY id", params)
        return [int(row["id"]) for row in rows]

    async def lock_shards(self, shard_ids: Collection[int], *, shard_count: int = 1) -> bool:
        """Take an exclusive lock per shard, held until :meth:`close`: a lock file
        ``<database>.shard-<id>.lock`` beside the database, ``flock``'ed. False (and
        nothing taken) if another process (or repository) holds one of them. An
        in-memory database is never shared, so its locks always succeed.
        (``shard_count`` is checked only: SQLite serves one process, which needs no
        fencing epochs.)"""
        ids = check_lock_request(shard_ids, shard_count)
        async with self._lock:
            if self._conn is None:
                raise not_open()
            taken: list[int] = []
            for shard in ids:
                if shard in self._shard_locks:
                    continue
                if self._path == ":memory:":
                    self._shard_locks[shard] = None
                    continue
                fd = os.open(f"{self._path}.shard-{shard}.lock", os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    for held in taken:
                        self._release_shard(held)
                    return False
                self._shard_locks[shard] = fd
                taken.append(shard)
            return True

    def _release_shard(self, shard: int) -> None:
        fd = self._shard_locks.pop(shard)
        if fd is None:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    async def check_shards(self) -> frozenset[int]:
        """The shards held: their lock files stay ``flock``'ed for the life of the
        process (or until :meth:`close`), so nothing can take them meanwhile.
        StoreError ``not_open`` if the store is not open."""
        if self._conn is None:
            raise not_open()
        return frozenset(self._shard_locks)

    def held_shards(self) -> frozenset[int]:
        """The shards :meth:`lock_shards` took (released by :meth:`close`)."""
        return frozenset(self._shard_locks)

    async def ping(self) -> None:
        """Return if the database answers a ``SELECT 1`` (StoreError ``not_open`` if
        it is not open)."""
        async with self._session("ping", None) as conn:
            await self._fetchall(conn, "SELECT 1")

    async def find_active_table(self, channel_id: int) -> int | None:
        """The active table whose channel or thread is ``channel_id``, if any (the
        newest if there are several)."""
        ids = await self._tables_in("find_active_table", channel_id, "id DESC LIMIT 1")
        return ids[0] if ids else None

    async def active_tables_in(self, channel_id: int) -> list[int]:
        """Ids of the active tables whose channel or thread is ``channel_id``, oldest
        first."""
        return await self._tables_in("active_tables_in", channel_id, "id")

    async def _tables_in(self, what: str, channel_id: int, order: str) -> list[int]:
        placeholders = ", ".join("?" for _ in _ACTIVE)
        async with self._session(what, None) as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT id FROM tables WHERE channel_id = ? AND status IN ({placeholders}) "
                f"UNION "
                f"SELECT id FROM tables WHERE thread_id = ? AND status IN ({placeholders}) "
                f"ORDER BY {order}",
                (channel_id, *_ACTIVE, channel_id, *_ACTIVE),
            )
        return [int(row["id"]) for row in rows]

    async def finished_direct_tables(self, since: datetime) -> list[int]:
        """Ids of the finished tables in direct messages changed since ``since``."""
        async with self._session("finished_direct_tables", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT id FROM tables WHERE guild_id = 0 AND channel_id = 0 "
                "AND status = ? AND updated_at >= ? ORDER BY id",
                (TableStatus.FINISHED.value, format_timestamp(since)))
        return [int(row["id"]) for row in rows]

    async def count_active_tables(self, channel_id: int) -> int:
        """How many active tables were opened in the (parent) channel ``channel_id``."""
        placeholders = ", ".join("?" for _ in _ACTIVE)
        async with self._session("count_active_tables", None) as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT COUNT(*) AS n FROM tables WHERE channel_id = ? "
                f"AND status IN ({placeholders})",
                (channel_id, *_ACTIVE),
            )
        return int(rows[0]["n"])

    async def count_open_tables_of(self, user_id: int) -> int:
        """How many active tables with a channel ``user_id`` hosts or is seated at (the
        statuses written out, so that SQLite reads only the active tables' index)."""
        statuses = ", ".join(f"'{status}'" for status in _ACTIVE)
        async with self._session("count_open_tables_of", None) as conn:
            rows = await self._fetchall(
                conn,
                f"SELECT COUNT(*) AS n FROM tables AS t WHERE t.status IN ({statuses}) "
                "AND t.channel_id <> 0 AND (t.host_id = ? OR EXISTS ("
                "SELECT 1 FROM seats AS s WHERE s.table_id = t.id AND s.user_id = ?))",
                (user_id, user_id),
            )
        return int(rows[0]["n"])

    # -- drafts and panels ---------------------------------------------------------

    async def save_draft(self, table_id: int, seat: int, data: dict[str, Any] | None) -> None:
        """Store a seat's choice in progress, replacing the previous one (None deletes
        it). Raises :class:`StoreError` (``unknown_table``) if there is no such table."""
        text = check_draft(table_id, seat, data)
        async with self._session("save_draft", "BEGIN IMMEDIATE") as conn:
            if not await self._table_exists(conn, table_id):
                raise table_missing(table_id)
            if text is None:
                await self._execute(conn, "DELETE FROM drafts WHERE table_id = ? AND seat = ?",
                                    (table_id, seat))
                return
            await self._execute(
                conn,
                "INSERT INTO drafts (table_id, seat, data, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET data = excluded.data, "
                "updated_at = excluded.updated_at",
                (table_id, seat, text, format_timestamp(utc_now())),
            )

    async def save_panel(self, table_id: int, panel: PanelRecord) -> None:
        """Store a person's live hand message, replacing their previous one at the table.
        Raises :class:`StoreError` (``unknown_table``) if there is no such table."""
        row = check_panel(table_id, panel)
        async with self._session("save_panel", "BEGIN IMMEDIATE") as conn:
            if not await self._table_exists(conn, table_id):
                raise table_missing(table_id)
            await self._execute(
                conn,
                "INSERT INTO panels (table_id, user_id, application_id, token, message_id, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE "
                "SET application_id = excluded.application_id, token = excluded.token, "
                "message_id = excluded.message_id, created_at = excluded.created_at",
                (table_id, *row),
            )

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """Forget a person's hand message at the table (no-op if there is none)."""
        async with self._session("delete_panel", None) as conn:
            await self._execute(conn, "DELETE FROM panels WHERE table_id = ? AND user_id = ?",
                                (table_id, user_id))

    # -- guild settings and metadata -----------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The settings the guild's admins chose (all None if none, or no such guild).
        Raises :class:`CorruptRowError` if the row cannot be read."""
        async with self._session("guild_settings", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT locale, turn_timer, target, tables_per_channel, daily_channel_id "
                "FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return settings_from_row(guild_id, rows[0] if rows else None)

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the guild's settings, creating the guild's row if needed."""
        row = check_guild_settings(guild_id, settings)
        now = format_timestamp(utc_now())
        async with self._session("save_guild_settings", "BEGIN IMMEDIATE") as conn:
            await self._ensure_guild_row(conn, guild_id, now)
            await self._execute(
                conn,
                "INSERT INTO guild_settings (guild_id, locale, turn_timer, target, "
                "tables_per_channel, daily_channel_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
                "turn_timer = excluded.turn_timer, target = excluded.target, "
                "tables_per_channel = excluded.tables_per_channel, "
                "daily_channel_id = excluded.daily_channel_id, "
                "updated_at = excluded.updated_at",
                (guild_id, *row, now),
            )

    async def get_meta(self, key: str) -> str | None:
        """The bookkeeping value under ``key`` (None if unset)."""
        check_meta_key(key)
        async with self._session("get_meta", None) as conn:
            rows = await self._fetchall(conn, "SELECT value FROM meta WHERE key = ?", (key,))
        return meta_value(key, rows[0] if rows else None)

    async def set_meta(self, key: str, value: str) -> None:
        """Set a bookkeeping value."""
        check_meta(key, value)
        async with self._session("set_meta", None) as conn:
            await self._execute(
                conn, "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- finished games ------------------------------------------------------------

    async def record_game(self, result: GameResult) -> int:
        """Store a finished game with its players and their stats, mark its table
        finished and rate it (unless it is not ``rated``), in one transaction; returns
        the game's id. Raises :class:`StoreError` (``unknown_table``,
        ``game_already_recorded``)."""
        game = game_rows(result)
        async with self._session("record_game", "BEGIN IMMEDIATE") as conn:
            # Timed under the write lock: games that finish at once in two processes
            # get finish times in the order they are rated, so a rebuild (finish order)
            # gives the same ratings.
            now = format_timestamp(utc_now())
            finished_at = format_timestamp(result.finished_at) if result.finished_at else now
            if not await self._table_exists(conn, result.table_id):
                raise table_missing(result.table_id)
            await self._ensure_guild_row(conn, result.guild_id, now)
            try:
                game_id = await self._insert(
                    conn,
                    "INSERT INTO games (table_id, guild_id, game, scores, winner, replay, "
                    "finished_at, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (result.table_id, result.guild_id, result.game, game.scores, result.winner,
                     game.replay, finished_at, game.rated),
                )
            except sqlite3.IntegrityError as error:
                raise game.already_recorded() from error
            await self._executemany(
                conn,
                "INSERT INTO game_players (game_id, seat, user_id, bot_level, name, team, won) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", game.players_of(game_id))
            await self._executemany(
                conn,
                "INSERT INTO game_player_stats (game_id, seat, key, value) VALUES (?, ?, ?, ?)",
                game.stats_of(game_id))
            await self._execute(
                conn, "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?",
                (TableStatus.FINISHED.value, now, result.table_id),
            )
            await self._rate_game(conn, game_id, result)
        return game_id

    # -- ratings (the rating itself: StoreBase._rate) -------------------------------

    async def _stored_ratings(self, conn: aiosqlite.Connection, guild_id: int | None,
                              game: str, keys: list[str]) -> list[sqlite3.Row]:
        marks = ", ".join("?" for _ in keys)
        if guild_id is None:
            return await self._fetchall(
                conn, "SELECT player, mu, sigma, games FROM global_ratings WHERE game = ? "
                f"AND player IN ({marks})", (game, *keys))
        return await self._fetchall(
            conn, "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? "
            f"AND game = ? AND player IN ({marks})", (guild_id, game, *keys))

    async def _store_ratings(self, conn: aiosqlite.Connection, guild_id: int | None,
                             ratings: list[tuple[object, ...]],
                             history: list[tuple[object, ...]]) -> None:
        scope, prefix, table = ("guild_id, ", "?, ", "") if guild_id is not None \
            else ("", "", "global_")
        await self._executemany(
            conn,
            f"INSERT INTO {table}ratings ({scope}game, player, user_id, mu, sigma, ordinal, "
            f"games) VALUES ({prefix}?, ?, ?, ?, ?, ?, ?) ON CONFLICT ({scope}game, player) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "ordinal = excluded.ordinal, games = excluded.games", ratings)
        await self._executemany(
            conn, f"INSERT INTO {table}rating_history (game_id, player, mu, sigma) "
            "VALUES (?, ?, ?, ?)", history)

    async def _clear_ratings(self, conn: aiosqlite.Connection) -> None:
        for table in ("rating_history", "ratings", "global_rating_history", "global_ratings"):
            await self._execute(conn, f"DELETE FROM {table}")

    async def _rated_game_rows(
        self, conn: aiosqlite.Connection
    ) -> tuple[list[sqlite3.Row], list[sqlite3.Row]]:
        game_rows = await self._fetchall(
            conn, "SELECT id, guild_id, game, scores FROM games WHERE rated "
            "ORDER BY finished_at, id")
        player_rows = await self._fetchall(
            conn, "SELECT game_id, seat, user_id, bot_level, name, team, won FROM game_players "
            "WHERE game_id IN (SELECT id FROM games WHERE rated) ORDER BY game_id, seat")
        return game_rows, player_rows

    async def rebuild_ratings(self) -> int:
        """Forget every rating and rate every stored rated game again in finish order,
        in one transaction; the number of games rated. Gives the numbers of the
        incremental updates (the same function on the same games in the same order)."""
        async with self._session("rebuild_ratings", "BEGIN IMMEDIATE") as conn:
            return await self._rebuild(conn)

    async def ratings(self, guild_id: int | None, game: str) -> list[RatingRow]:
        """Every current rating of the guild's game (None: the global ones), best first."""
        async with self._session("ratings", None) as conn:
            if guild_id is None:
                rows = await self._fetchall(
                    conn, "SELECT player, user_id, mu, sigma, games FROM global_ratings "
                    "WHERE game = ? ORDER BY ordinal DESC, player", (game,))
            else:
                rows = await self._fetchall(
                    conn, "SELECT player, user_id, mu, sigma, games FROM ratings "
                    "WHERE guild_id = ? AND game = ? ORDER BY ordinal DESC, player",
                    (guild_id, game))
        return rating_rows(rows)

    async def rating_history(self, guild_id: int | None, game: str,
                             user_id: int) -> list[RatingPoint]:
        """The player's rating after each of their rated games, oldest first (the global
        rating's when ``guild_id`` is None)."""
        async with self._session("rating_history", None) as conn:
            if guild_id is None:
                rows = await self._fetchall(
                    conn, "SELECT g.id, g.finished_at, h.mu, h.sigma "
                    "FROM global_rating_history AS h JOIN games AS g ON g.id = h.game_id "
                    "WHERE g.game = ? AND h.player = ? ORDER BY g.finished_at, g.id",
                    (game, f"u:{user_id}"))
            else:
                rows = await self._fetchall(
                    conn, "SELECT g.id, g.finished_at, h.mu, h.sigma FROM rating_history AS h "
                    "JOIN games AS g ON g.id = h.game_id WHERE g.guild_id = ? AND g.game = ? "
                    "AND h.player = ? ORDER BY g.finished_at, g.id",
                    (guild_id, game, f"u:{user_id}"))
        return rating_points(rows)

    async def partners(self, guild_id: int, game: str, user_id: int, *,
                       limit: int = 3) -> list[PartnerRow]:
        """Who the player sat with most in rated games: teammates in team games (Tichu),
        everyone at the table otherwise; most shared wins first, then most games."""
        check_page(limit, 0)
        team_only = int(game in TEAM_GAMES)
        async with self._session("partners", None) as conn:
            rows = await self._fetchall(
                conn,
                "SELECT CASE WHEN o.user_id IS NOT NULL THEN 'u:' || o.user_id "
                "            ELSE 'cpu:' || o.bot_level END AS player, MAX(o.name) AS name, "
                "       COUNT(DISTINCT g.id) AS games, "
                "       COUNT(DISTINCT CASE WHEN me.won = 1 AND o.won = 1 THEN g.id END) AS wins "
                "FROM games AS g "
                "JOIN game_players AS me ON me.game_id = g.id AND me.user_id = :user_id "
                "JOIN game_players AS o ON o.game_id = g.id AND o.seat <> me.seat "
                "     AND (o.user_id IS NULL OR o.user_id <> :user_id) "
                "     AND (o.user_id IS NOT NULL OR o.bot_level IS NOT NULL) "
                "     AND (:team_only = 0 OR o.team = me.team) "
                "WHERE g.guild_id = :guild_id AND g.game = :game AND g.rated "
                "GROUP BY player ORDER BY wins DESC, games DESC, player LIMIT :limit",
                {"guild_id": guild_id, "game": game, "user_id": user_id,
                 "team_only": team_only, "limit": limit})
        return partner_rows(rows)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many people the guild's leaderboard of the game has (players of its rated
        games)."""
        async with self._session("leaderboard_size", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT COUNT(DISTINCT gp.user_id) AS n FROM games AS g "
                "JOIN game_players AS gp ON gp.game_id = g.id "
                "WHERE g.guild_id = ? AND g.game = ? AND g.rated AND gp.user_id > 0",
                (guild_id, game))
        return as_int(rows[0]["n"], "leaderboard size")

    async def global_board_size(self, game: str) -> BoardSize:
        """How many people the global board of the game lists (they chose to appear) and
        how many it does not."""
        async with self._session("global_board_size", None) as conn:
            rows = await self._fetchall(conn, _GLOBAL_COUNTS, (game,))
        return board_size(rows[0])

    async def load_game(self, guild_id: int, game_id: int) -> GameResult | None:
        """One finished game of the guild, with its players, stats and replay."""
        params = {"guild_id": guild_id, "game_id": game_id}
        async with self._session("load_game", "BEGIN") as conn:
            game_rows = await self._fetchall(
                conn, "SELECT id, table_id, guild_id, game, scores, winner, replay, finished_at, "
                "rated FROM games WHERE id = :game_id AND guild_id = :guild_id", params)
            player_rows = await self._fetchall(
                conn, "SELECT game_id, seat, user_id, bot_level, name, team, won "
                "FROM game_players WHERE game_id = :game_id ORDER BY seat", params)
            stat_rows = await self._fetchall(
                conn, "SELECT game_id, seat, key, value FROM game_player_stats "
                "WHERE game_id = :game_id ORDER BY seat, key", params)
        if not game_rows:
            return None
        return games_from_rows(game_rows, player_rows, stat_rows)[0]

    async def _player_totals(self, guild_id: int | None, game: str, user_id: int | None,
                             limit: int, offset: int) -> list[LeaderboardRow]:
        params = {"guild_id": guild_id, "game": game, "user_id": user_id,
                  "limit": limit, "offset": offset}
        if guild_id is None:
            del params["guild_id"]
        async with self._session("leaderboard", None) as conn:
            rows = await self._fetchall(
                conn, _PLAYER_TOTALS if guild_id is not None else _GLOBAL_TOTALS, params)
        return leaderboard_rows(guild_id, rows)

    async def recent_games(self, guild_id: int, game: str, *, user_id: int | None = None,
                           limit: int = 10) -> list[GameResult]:
        """The last finished games, newest first (only those ``user_id`` played in,
        if given), with their players, stats and replays."""
        check_page(limit, 0)
        user_filter = "" if user_id is None else (
            "AND EXISTS (SELECT 1 FROM game_players AS gp "
            "WHERE gp.game_id = g.id AND gp.user_id = :user_id) ")
        recent = (
            "WITH recent AS (SELECT id FROM games AS g "
            f"WHERE g.guild_id = :guild_id AND g.game = :game {user_filter}"
            "ORDER BY g.finished_at DESC, g.id DESC LIMIT :limit) "
        )
        params = {"guild_id": guild_id, "game": game, "user_id": user_id, "limit": limit}
        async with self._session("recent_games", "BEGIN") as conn:
            game_rows = await self._fetchall(
                conn,
                recent + "SELECT g.id, g.table_id, g.guild_id, g.game, g.scores, g.winner, "
                "g.replay, g.finished_at, g.rated FROM games AS g JOIN recent AS r ON r.id = g.id "
                "ORDER BY g.finished_at DESC, g.id DESC",
                params,
            )
            player_rows = await self._fetchall(
                conn,
                recent + "SELECT p.game_id, p.seat, p.user_id, p.bot_level, p.name, p.team, "
                "p.won FROM game_players AS p JOIN recent AS r ON r.id = p.game_id "
                "ORDER BY p.game_id, p.seat",
                params,
            )
            stat_rows = await self._fetchall(
                conn,
                recent + "SELECT s.game_id, s.seat, s.key, s.value FROM game_player_stats AS s "
                "JOIN recent AS r ON r.id = s.game_id ORDER BY s.game_id, s.seat, s.key",
                params,
            )
        return games_from_rows(game_rows, player_rows, stat_rows)

    # -- duplicate: events, fields, board results ----------------------------------

    async def create_event(self, event: EventRecord) -> bool:
        """Store a new event (``created_at`` now if None); False (nothing changed) if
        its code exists already."""
        row = check_event(event)
        created_at = format_timestamp(event.created_at or utc_now())
        async with self._session("create_event", None) as conn:
            count = await self._execute(
                conn, "INSERT INTO dup_events (code, kind, seed, boards, guild_id, host_id, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                (*row, created_at))
        return count == 1

    async def get_event(self, code: str) -> EventRecord | None:
        """The event with this code (None if there is none)."""
        check_text(code, "an event code")
        async with self._session("get_event", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT code, kind, seed, boards, guild_id, host_id, created_at "
                "FROM dup_events WHERE code = ?", (code,))
        return event_from_row(rows[0] if rows else None)

    async def claim_boards(self, results: Sequence[BoardResult]) -> None:
        """Store the start of table-directions' attempts at boards with their players,
        all or nothing, in one transaction (under SQLite's write lock, so two claims
        never interleave). Raises :class:`StoreError` ``board_taken`` (nothing stored)
        if a player has a result on one of the boards already or a table-direction
        claimed it, ``unknown_table``, ``unknown_event``."""
        claims = [claim_rows(result) for result in results]
        now = utc_now()
        async with self._session("claim_boards", "BEGIN IMMEDIATE") as conn:
            for claim, result in zip(claims, results, strict=True):
                created_at = format_timestamp(result.created_at or now)
                users = claim.user_ids
                marks = ", ".join("?" for _ in users)
                if not await self._table_exists(conn, claim.table_id):
                    raise table_missing(claim.table_id)
                if not await self._fetchall(conn, "SELECT 1 FROM dup_events WHERE code = ?",
                                            (claim.event,)):
                    raise event_missing(claim.event)
                taken = await self._fetchall(
                    conn,
                    f"SELECT user_id FROM dup_players WHERE board = ? AND user_id IN ({marks})",
                    (claim.board, *users))
                if taken:
                    raise claim.taken(int(row["user_id"]) for row in taken)
                try:
                    await self._execute(
                        conn, "INSERT INTO dup_results (table_id, board, direction, event, "
                        "guild_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (*claim.result, created_at))
                    await self._executemany(
                        conn, "INSERT INTO dup_players (board, user_id, table_id, direction, "
                        "position, name) VALUES (?, ?, ?, ?, ?, ?)", claim.players)
                except sqlite3.IntegrityError as error:
                    raise claim.taken() from error

    async def finish_board(self, table_id: int, board: str, direction: int, diff: int,
                           replay: dict[str, Any]) -> None:
        """Set a claimed result's ``diff``, ``replay`` and ``finished_at`` (now). Called
        again with the same ``diff`` it changes nothing; StoreError ``unknown_result``
        if there is no such claim, ``board_finished`` if it was finished with another
        diff."""
        text = check_finish(table_id, board, direction, diff, replay)
        key = (table_id, board, direction)
        async with self._session("finish_board", "BEGIN IMMEDIATE") as conn:
            rows = await self._fetchall(
                conn, "SELECT diff FROM dup_results WHERE table_id = ? AND board = ? "
                "AND direction = ?", key)
            if not rows:
                raise result_missing(*key)
            stored = rows[0]["diff"]
            if stored is not None:
                if stored == diff:
                    return
                raise finished_already(*key, stored, diff)
            await self._execute(
                conn, "UPDATE dup_results SET diff = ?, replay = ?, finished_at = ? "
                "WHERE table_id = ? AND board = ? AND direction = ?",
                (diff, text, format_timestamp(utc_now()), *key))

    async def _board_results(self, what: str, query: ResultFilter) -> list[BoardResult]:
        where, params = query.where(lambda _: "?")
        results, players = board_results_sql(where, replay="r.replay")
        async with self._session(what, "BEGIN") as conn:
            result_rows = await self._fetchall(conn, results, params)
            player_rows = await self._fetchall(conn, players, params)
        return board_results_from_rows(result_rows, player_rows)

    async def user_daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The codes of the daily events in which the person finished at least one
        board, newest first (``daily:YYYY-MM-DD`` codes in reverse order)."""
        check_page(limit, 0)
        async with self._session("user_daily_days", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT DISTINCT r.event FROM dup_players AS p "
                "JOIN dup_results AS r ON r.table_id = p.table_id AND r.board = p.board "
                "     AND r.direction = p.direction "
                "JOIN dup_events AS e ON e.code = r.event "
                "WHERE p.user_id = ? AND e.kind = 'daily' AND r.diff IS NOT NULL "
                "ORDER BY r.event DESC LIMIT ?", (user_id, limit))
        return event_codes(rows)

    async def save_field(self, board: str, results: list[FieldResult]) -> None:
        """Store a board's whole field in one transaction, unless the board has one
        already (kept as it is: the first saved wins, no error)."""
        rows = field_rows(board, results)
        async with self._session("save_field", "BEGIN IMMEDIATE") as conn:
            if await self._fetchall(conn, "SELECT 1 FROM dup_fields WHERE board = ? LIMIT 1",
                                    (board,)):
                return
            await self._executemany(
                conn, "INSERT INTO dup_fields (board, idx, diff, replay) VALUES (?, ?, ?, ?)",
                rows)

    async def field(self, board: str) -> list[FieldResult]:
        """A board's field by index (empty if none is stored)."""
        check_text(board, "a board id")
        async with self._session("field", None) as conn:
            rows = await self._fetchall(
                conn, "SELECT idx, diff, replay FROM dup_fields WHERE board = ? ORDER BY idx",
                (board,))
        return field_from_rows(board, rows)

    # -- reviews (issue 25) --------------------------------------------------------

    async def save_review(self, record: ReviewRecord) -> None:
        """Store one person's review of one deal (``created_at`` now if None), unless
        that table, deal and seat has one already (kept as it is: the first saved wins,
        no error). Raises :class:`StoreError` ``unknown_table`` if there is no such
        table. Nothing is stored for a seat whose person erased their data meanwhile, and
        the names of those who did are blanked
        (:func:`bot.store.personal.seated_review`)."""
        review_row(record)  # checked before anything is read
        created_at = format_timestamp(record.created_at or utc_now())
        async with self._session("save_review", "BEGIN IMMEDIATE") as conn:
            if not await self._table_exists(conn, record.table_id):
                raise table_missing(record.table_id)
            seated = await self._fetchall(
                conn, "SELECT seat, user_id FROM seats WHERE table_id = ?", (record.table_id,))
            kept = seated_review(record, [(r["seat"], r["user_id"]) for r in seated])
            if kept is None:
                return
            row = review_row(kept)
            await self._execute(
                conn, "INSERT INTO reviews (table_id, deal, seat, user_id, review, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, deal, seat) DO NOTHING",
                (*row, created_at))

    async def review(self, table_id: int, deal: int, seat: int) -> ReviewRecord | None:
        """The review of that seat in that deal of the table (None if none is stored)."""
        check_review_key(table_id, deal, seat)
        async with self._session("review", None) as conn:
            rows = await self._fetchall(
                conn, f"SELECT {_REVIEW_COLUMNS} FROM reviews "
                "WHERE table_id = ? AND deal = ? AND seat = ?", (table_id, deal, seat))
        reviews = reviews_from_rows(rows)
        return reviews[0] if reviews else None

    async def user_reviews(self, table_id: int, user_id: int) -> list[ReviewRecord]:
        """A person's reviews at a table, by deal then seat (empty if none)."""
        check_user_reviews(table_id, user_id)
        async with self._session("user_reviews", None) as conn:
            rows = await self._fetchall(
                conn, f"SELECT {_REVIEW_COLUMNS} FROM reviews "
                "WHERE table_id = ? AND user_id = ? ORDER BY deal, seat", (table_id, user_id))
        return reviews_from_rows(rows)
