"""The PostgreSQL backend of the store (asyncpg), behind :class:`Repository`.

A pool of connections shared by the methods; each write that takes more than one
statement runs in its own transaction, retried when PostgreSQL reports a
serialization failure or a deadlock (the whole transaction runs again, so a
retry never half-applies). Several bot processes may share one database:

- ratings stay right when games finish at the same moment in different processes:
  ``record_game`` takes a transaction-scoped advisory lock per game (its every
  guild's, since they share its global rating) before it numbers the game and reads
  the ratings, so the games of one leaderboard are rated one after the other, in
  their finish order;
- ``lock_shards`` takes a session advisory lock per shard on a connection of its
  own (the lock session), held until :meth:`PostgresRepository.close` (or the
  process's death), and a fencing epoch per shard (table ``shard_epochs``): each
  owner of a shard gets the next epoch, and while a repository holds shards its
  writes to their tables go through only if the stored epoch is still its own.
  A process whose lock session died (a database restart, a terminated backend)
  thus cannot overwrite what the shard's next owner wrote: once another process
  took the shard, its writes raise :class:`ShardLostError`. Until then its epoch
  is still the stored one, and its writes go through (nobody else writes there).
  ``check_shards`` tells what is still provably held.

When the database blinks: every failure comes out as :class:`StoreError`, those
where the database did not answer (connection refused or lost, missing socket,
server shutting down or starting, timeout) as :class:`StoreUnavailableError`.
Nothing waits longer than about ``timeout`` for the server (connect, pool
acquire, each statement); a connection that failed that way is terminated, not
returned to the pool, and new connections replace it once the server is back.
Retrying is the caller's choice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import uuid
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Coroutine, Sequence
from datetime import datetime
from typing import Any, ClassVar, Literal, TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.ratings import TEAM_GAMES
from bot.store.base import (
    EXPORT_CHUNK,
    StoreBase,
    board_results_sql,
    global_counts_sql,
    player_totals_sql,
)
from bot.store.codec import (
    check_draft,
    check_guild_settings,
    check_meta,
    check_meta_key,
    check_panel,
    dump_json,
    load_json,
    utc,
    utc_now,
)
from bot.store.migrate import Migration, load_migrations
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
    ShardLostError,
    StoreError,
    StoreUnavailableError,
    TableRecord,
    TableStatus,
    TalkLine,
)
from bot.store.personal import POSTGRES, QUEUE_TABLE, REVIEW_JOBS, Dialect, job_for, seated_review
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

T = TypeVar("T")
Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"
Isolation = Literal["read_committed", "repeatable_read", "serializable"]
Tx = Callable[[Conn], Awaitable[T]]

# Advisory lock keys. The two-key form (int4, int4) and the one-key form (int8) are
# separate spaces in PostgreSQL: shards use (SHARD_LOCK_CLASS, shard id), the
# migrations and ratings use int8 keys.
SHARD_LOCK_CLASS = 0x7469  # "ti"
MIGRATION_LOCK_KEY = 0x7469_6368_7500_0001
RETRYABLE = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)

DEFAULT_TIMEOUT = 10.0
DEFAULT_SHARD_LEASE = 30.0
# Migrations may rewrite big tables: they get far longer than a statement of the bot.
MIGRATION_TIMEOUT = 600.0

# The errors that mean "the database did not answer": the socket is missing or
# refused (OSError), nothing came back in time (TimeoutError, which
# asyncio.TimeoutError is), the connection is gone (class 08), the server is
# shutting down, starting or cancelled the statement (class 57), it has no room for
# another connection, or asyncpg lost track of the protocol (InternalClientError).
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InternalClientError,
)

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, message_id, ping_message_id, host_id, game, "
    "status, seed, options::text AS options, locale, created_at, updated_at"
)

# The ranking (bot/store/base.py) in PostgreSQL's words; SUM of a bigint is numeric.
_PLAYER_TOTALS = player_totals_sql(guild_id="$1", game="$2", user_id="$3::bigint", limit="$4",
                                   offset="$5", won="won", total="st.total::bigint")
_GLOBAL_TOTALS = player_totals_sql(guild_id=None, game="$1", user_id="$2::bigint", limit="$3",
                                   offset="$4", won="won", total="st.total::bigint")
_GLOBAL_COUNTS = global_counts_sql("$1")

# A table with its seats, actions, drafts and panels in one statement: the child rows
# come as JSON arrays of objects with the same columns as SQLite's rows (JSON columns
# as text, timestamps as ISO text), read by the same code (bot.store.rows).
_LOAD_TABLE = f"""
SELECT {_TABLE_COLUMNS},
  (SELECT COALESCE(json_agg(json_build_object(
       'seat', seat, 'user_id', user_id, 'name', name, 'bot_level', bot_level, 'away', away)
       ORDER BY seat), '[]') FROM seats WHERE table_id = $1)::text AS seats,
  (SELECT COALESCE(json_agg(json_build_object(
       'seq', seq, 'payload', payload::text, 'created_at', created_at) ORDER BY seq), '[]')
   FROM actions WHERE table_id = $1)::text AS actions,
  (SELECT COALESCE(json_agg(json_build_object('seat', seat, 'data', data::text)
       ORDER BY seat), '[]') FROM drafts WHERE table_id = $1)::text AS drafts,
  (SELECT COALESCE(json_agg(json_build_object(
       'user_id', user_id, 'application_id', application_id, 'token', token,
       'message_id', message_id, 'created_at', created_at) ORDER BY user_id), '[]')
   FROM panels WHERE table_id = $1)::text AS panels,
  (SELECT COALESCE(json_agg(json_build_object(
       'seq', seq, 'seat', seat, 'user_id', user_id, 'phrase', phrase,
       'after_seq', after_seq, 'created_at', created_at) ORDER BY seq), '[]')
   FROM talk WHERE table_id = $1)::text AS talk
FROM tables WHERE id = $1
"""

_GAME_COLUMNS = ("g.id, g.table_id, g.guild_id, g.game, g.scores::text AS scores, g.winner, "
                 "g.replay::text AS replay, g.finished_at, g.rated")
_REVIEW_COLUMNS = "table_id, deal, seat, user_id, review::text AS review, created_at"


def _count(status: str) -> int:
    """The row count of a command status such as ``INSERT 0 1`` or ``UPDATE 3``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


def rating_lock_key(game: str) -> int:
    """The advisory lock key that serializes the rating of one game: of every guild,
    since the global rating of the game (issue 53) moves with each of their games."""
    return _lock_key(f"rating:{game}")


def field_lock_key(board: str) -> int:
    """The advisory lock key that serializes the saving of one board's field."""
    return _lock_key(f"field:{board}")


def _lock_key(name: str) -> int:
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset between two uses of a connection: nothing to do, which saves a
    round trip per method. The methods leave no session state behind (no SET, LISTEN,
    cursor or session lock: the shard locks live on a connection of their own), and
    asyncpg still rolls back a transaction left open before calling this."""


def _unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database did not answer (see ``_UNAVAILABLE``);
    asyncpg says "connection is closed" or "pool is closing" with a plain
    InterfaceError."""
    if isinstance(error, _UNAVAILABLE):
        return True
    if isinstance(error, asyncpg.InterfaceError) and not isinstance(error, ValueError):
        text = str(error)
        return "closed" in text or "closing" in text
    return False


def _describe(error: BaseException) -> str:
    text = str(error) or ("no answer in time" if isinstance(error, TimeoutError) else "")
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _OutageInOneLine(logging.Filter):
    """asyncpg's pool logs a traceback each time it cannot reopen its connections while
    the server is away. The bot reports the outage itself; of these, one line is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and _unavailable(error):
            record.msg = f"{record.getMessage()}: {_describe(error)}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


logging.getLogger("asyncpg.pool").addFilter(_OutageInOneLine())


class _LostReleaseInOneLine(logging.Filter):
    """asyncpg returns a connection to its pool in a shielded task, so that a cancelled
    caller (a timeout, the bot stopping) still gives it back. When the server went away
    meanwhile, that task fails with nobody to read its error, and asyncio logs it as a
    traceback ("Task exception was never retrieved"). The connection is simply lost, and
    the pool opens another: of these, one line is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and _unavailable(error) \
                and "PoolConnectionHolder.release" in record.getMessage():
            record.msg = ("PostgreSQL: a connection given back to the pool was lost "
                          f"({_describe(error)})")
            record.args = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = None
            record.exc_text = None
        return True


logging.getLogger("asyncio").addFilter(_LostReleaseInOneLine())
OutageInOneLine = _OutageInOneLine
"""The filter, for other loggers that speak of the same outages (the job queue's)."""


def _store_error(what: str, error: Exception) -> StoreError:
    """``error`` as the store reports it: :class:`StoreUnavailableError` when the
    database did not answer, else a :class:`StoreError` with the code it deserves."""
    if isinstance(error, StoreError):
        return error
    if _unavailable(error):
        return StoreUnavailableError(f"{what}: the database did not answer "
                                     f"({_describe(error)})")
    if isinstance(error, asyncpg.PostgresError):
        return StoreError(_error_code(error), f"{what}: {error}")
    # A value asyncpg cannot send (an id past 64 bits …) is a ValueError too.
    code = "invalid_value" if isinstance(error, ValueError) else "database_error"
    return StoreError(code, f"{what}: {_describe(error)}")


def _fence_sql(first: int, *, lock: bool) -> str:
    """A condition true if the shard of table ``$1`` is held by the repository at the
    epoch still stored for it. Its parameters, from ``$first`` on: the shard count,
    the held shards, their epochs (same order) and the repository's owner token (see
    ``PostgresRepository._fence``). With ``lock``, the shard's row is share-locked
    until the transaction ends, so an epoch bump (``lock_shards`` of another
    process, FOR UPDATE) waits for the write to commit, and a write waiting on a bump
    sees the new epoch and is refused."""
    count, shards, epochs, owner = (f"${first + i}" for i in range(4))
    return (
        f"EXISTS (SELECT 1 FROM shard_epochs AS e "
        f"JOIN unnest({shards}::int[], {epochs}::bigint[]) AS h (shard, epoch) "
        f"ON h.shard = e.shard AND h.epoch = e.epoch "
        f"WHERE e.shard_count = {count}::int AND e.owner = {owner}::text AND e.shard = "
        f"(SELECT (t.guild_id >> 22) % {count}::int FROM tables AS t WHERE t.id = $1)"
        + (" FOR SHARE OF e)" if lock else ")"))


def _refusal_sql(first: int) -> str:
    """Why a fenced write to table ``$1`` changed nothing: whether the table exists,
    its shard, whether the fence holds, the shard's owner now, and the table's last
    action's seq."""
    return (
        f"SELECT EXISTS (SELECT 1 FROM tables WHERE id = $1) AS found, "
        f"(SELECT ((guild_id >> 22) % ${first}::int)::int FROM tables WHERE id = $1) "
        f"AS shard, {_fence_sql(first, lock=False)} AS ours, "
        f"(SELECT e.owner FROM shard_epochs AS e WHERE e.shard_count = ${first}::int AND "
        f"e.shard = (SELECT (t.guild_id >> 22) % ${first}::int FROM tables AS t "
        f"WHERE t.id = $1)) AS owner, "
        f"(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1) AS last")


Fence: TypeAlias = tuple[int, list[int], list[int], str]


def _error_code(error: asyncpg.PostgresError) -> str:
    if isinstance(error, RETRYABLE):
        return "busy"
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return "constraint_failed"
    if isinstance(error, asyncpg.DataError):
        return "invalid_value"
    return "database_error"


class PostgresRepository(StoreBase[Conn]):
    """The store in a PostgreSQL database, through an asyncpg pool.

    ``dsn`` is a ``postgresql://`` URL; ``pool_size`` the most connections the pool
    opens; ``retries`` how many times a transaction is tried when PostgreSQL asks
    for it (serialization failure, deadlock); ``migrations`` replaces the packaged
    ones (tests). ``timeout`` (seconds) bounds every wait for the server: opening
    a connection, taking one from the pool, each statement (the pool's
    ``command_timeout``). ``shard_lease`` (seconds) is how long after its last
    renewal (``check_shards``) a shard's owner keeps it through a database restart
    (see :meth:`lock_shards`)."""

    def __init__(self, dsn: str, *, pool_size: int = 10, retries: int = 8,
                 migrations: Sequence[Migration] | None = None,
                 on_connect: Callable[[asyncpg.Connection], Coroutine[Any, Any, None]] | None
                 = None,
                 timeout: float = DEFAULT_TIMEOUT,
                 shard_lease: float = DEFAULT_SHARD_LEASE,
                 ) -> None:
        if pool_size < 1:
            raise StoreError("invalid_argument", f"the pool size must be >= 1, got {pool_size}")
        check_timeout(timeout)
        if not shard_lease >= 0:
            raise StoreError("invalid_argument",
                             f"the shard lease must be >= 0 s, got {shard_lease}")
        self._dsn = dsn
        self._pool_size = pool_size
        self._retries = max(1, retries)
        self._timeout = float(timeout)
        self._lease = float(shard_lease)
        self._migrations = (list(migrations) if migrations is not None
                            else load_migrations(postgres=True))
        self._on_connect = on_connect  # called for each new pooled connection (benchmarks)
        self._pool: asyncpg.Pool | None = None
        self._state = asyncio.Lock()
        self._append_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        # The shards: the lock session, the epoch of each shard held (and verified),
        # the shard count they belong to, and whether writes are fenced (from the
        # first lock_shards that succeeded on).
        self._token = uuid.uuid4().hex  # this repository, as owner of its shards' rows
        self._shard_conn: asyncpg.Connection | None = None
        self._shards: dict[int, int] = {}
        # The epoch of each shard this repository last took, kept when its lock session
        # is lost: the fence lets its writes through as long as no other process took
        # the shard since (its epoch in the database is still this one).
        self._epochs: dict[int, int] = {}
        self._shard_count = 1
        self._fenced = False

    @property
    def dsn(self) -> str:
        return self._dsn

    @property
    def pool_size(self) -> int:
        return self._pool_size

    @property
    def timeout(self) -> float:
        return self._timeout

    @property
    def shard_lease(self) -> float:
        return self._lease

    # -- connection ----------------------------------------------------------------

    async def open(self) -> None:
        """Connect (the pool) and apply pending migrations (no-op if open). Raises
        :class:`StoreUnavailableError` if the server does not answer, StoreError
        ``open_failed`` if it refuses (no such database, bad password …)."""
        async with self._state:
            if self._pool is not None:
                return
            try:
                pool = await asyncpg.create_pool(
                    self._dsn, min_size=1, max_size=self._pool_size, init=self._on_connect,
                    reset=_keep_session, timeout=self._timeout,
                    command_timeout=self._timeout)
            except Exception as error:
                if _unavailable(error):
                    raise StoreUnavailableError(
                        f"cannot connect to PostgreSQL: {_describe(error)}") from error
                raise StoreError("open_failed", f"cannot connect to PostgreSQL: "
                                 f"{_describe(error)}") from error
            try:
                async with pool.acquire(timeout=self._timeout) as conn:
                    await self._migrate(conn)
                    await self._rate_older_games(conn)
            except BaseException as error:
                pool.terminate()
                if isinstance(error, StoreError):
                    raise
                if isinstance(error, Exception):
                    if _unavailable(error):
                        raise StoreUnavailableError(
                            f"cannot open the database: {_describe(error)}") from error
                    raise StoreError("open_failed", f"cannot open the database: "
                                     f"{_describe(error)}") from error
                raise
            self._pool = pool

    async def _migrate(self, conn: Conn) -> list[int]:
        known = self._migrations
        latest = known[-1].version if known else 0
        applied: list[int] = []
        wait = MIGRATION_TIMEOUT
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY,
                               timeout=wait)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        for migration in known:
            try:
                async with conn.transaction():
                    # One process at a time; the version is read again under the lock.
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY,
                                       timeout=wait)
                    current = await conn.fetchval(
                        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
                    if current > latest:
                        raise StoreError(
                            "schema_too_new",
                            f"the database is at schema version {current} but this code knows "
                            f"only up to {latest}; run a newer version of the bot")
                    if current >= migration.version:
                        continue
                    await conn.execute(migration.sql, timeout=wait)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        migration.version, migration.name)
                    applied.append(migration.version)
            except asyncpg.PostgresError as error:
                if _unavailable(error):
                    raise
                raise StoreError("migration_failed",
                                 f"migration {migration.label} failed: {error}") from error
        return applied

    async def _rate_older_games(self, conn: Conn) -> None:
        """Rate the games stored before ratings existed, or before the global ratings
        did (0011), as SQLite does: when there are rated games but no rating at all, or
        no global one, rebuild every rating once."""
        if not await conn.fetchval("SELECT to_regclass('global_ratings') IS NOT NULL"):
            return  # a database staged at an older version (tests)
        if await conn.fetchval(
                "SELECT EXISTS (SELECT 1 FROM games WHERE rated) "
                "AND (NOT EXISTS (SELECT 1 FROM ratings) "
                "OR NOT EXISTS (SELECT 1 FROM global_ratings))"):
            async with conn.transaction():
                count = await self._rebuild(conn)
            log.info("rated %d games stored before ratings existed", count)

    async def close(self) -> None:
        """Hand the held shards over (their rows lose this owner, best effort, so that
        another process takes them at once), release the shard locks and close the
        pool (no-op if closed). Waits about ``timeout`` at most for the server; what
        does not close in time is terminated."""
        async with self._state:
            pool, self._pool = self._pool, None
            shard_conn, self._shard_conn = self._shard_conn, None
            held, self._shards = self._shards, {}
            self._epochs = {}
            self._fenced = False  # reopened, it writes unfenced until lock_shards again
            if shard_conn is not None:
                await self._end_session(shard_conn, held)
            if pool is not None:
                try:
                    async with asyncio.timeout(self._timeout):
                        await pool.close()
                except Exception as error:
                    log.warning("PostgreSQL pool did not close in time (%s): terminated",
                                _describe(error))
                    pool.terminate()

    async def _end_session(self, conn: asyncpg.Connection, held: dict[int, int]) -> None:
        """Clear the owner of the shards ``held`` (if their epoch is still ours), then
        close the lock session: its advisory locks go with it."""
        if conn.is_closed():
            return
        try:
            async with asyncio.timeout(min(self._timeout, 2.0)):
                if held:
                    shards = sorted(held)
                    await conn.execute(
                        "UPDATE shard_epochs AS e SET owner = NULL "
                        "FROM unnest($2::int[], $3::bigint[]) AS h (shard, epoch) "
                        "WHERE e.shard_count = $1 AND e.shard = h.shard "
                        "AND e.epoch = h.epoch AND e.owner = $4",
                        self._shard_count, shards, [held[s] for s in shards], self._token)
                await conn.close()
        except Exception as error:
            log.info("the lock session did not close cleanly (%s): terminated",
                     _describe(error))
            conn.terminate()

    def _the_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise not_open()
        return self._pool

    async def _run(self, what: str, work: Tx[T], *, transaction: bool = True,
                   isolation: Isolation = "read_committed", readonly: bool = False) -> T:
        """Run ``work`` on a pooled connection, inside a transaction unless told not to;
        the whole transaction is tried again on a serialization failure or deadlock.
        Every error comes out as :class:`StoreError` (:class:`StoreUnavailableError`
        if the database did not answer)."""
        pool = self._the_pool()
        for attempt in range(1, self._retries + 1):
            try:
                return await self._attempt(pool, work, transaction, isolation, readonly)
            except RETRYABLE as error:
                if attempt == self._retries:
                    raise StoreError("busy", f"{what}: gave up after {attempt} tries: "
                                     f"{error}") from error
                log.debug("%s: %s, try %d again", what, type(error).__name__, attempt + 1)
                await asyncio.sleep(random.uniform(0, 0.002 * 2**attempt))
            except StoreError:
                raise
            except Exception as error:
                raise _store_error(what, error) from error
        raise AssertionError("unreachable")  # pragma: no cover

    async def _attempt(self, pool: asyncpg.Pool, work: Tx[T], transaction: bool,
                       isolation: Isolation, readonly: bool) -> T:
        """One try of ``work``. Each wait is bounded: the pool's acquire by
        ``timeout``, each statement by the pool's ``command_timeout``. A connection
        that did not answer (or whose caller was cancelled mid-statement) is
        terminated rather than rolled back and reused: the server rolls back what it
        had, and the pool opens a new connection in its place."""
        async with pool.acquire(timeout=self._timeout) as conn:
            try:
                if not transaction:
                    return await work(conn)
                tx = conn.transaction(isolation=isolation, readonly=readonly)
                await tx.start()
                try:
                    result = await work(conn)
                except BaseException as error:
                    if not _unavailable(error) and not isinstance(error, asyncio.CancelledError):
                        await tx.rollback()
                    raise
                await tx.commit()
                return result
            except BaseException as error:
                if _unavailable(error) or isinstance(error, asyncio.CancelledError):
                    # (Already released if asyncpg saw it close: nothing left to end.)
                    with contextlib.suppress(asyncpg.InterfaceError):
                        conn.terminate()
                raise

    async def ping(self) -> None:
        """Return if the database answers a ``SELECT 1`` within the timeout, else raise
        :class:`StoreUnavailableError` (StoreError ``not_open`` if not open)."""
        async def work(conn: Conn) -> None:
            await conn.fetchval("SELECT 1")
        await self._run("ping", work, transaction=False)

    # -- shards --------------------------------------------------------------------

    def held_shards(self) -> frozenset[int]:
        """The shards this repository believes it holds now (no I/O): taken by
        :meth:`lock_shards` and not found lost since."""
        return frozenset(self._shards)

    def _fence(self) -> Fence | None:
        """The parameters of ``_fence_sql`` (None: writes are not fenced, this
        repository never held a shard)."""
        if not self._fenced:
            return None
        shards = sorted(self._epochs)
        return self._shard_count, shards, [self._epochs[s] for s in shards], self._token

    def _forget(self, shards: Collection[int], why: str) -> None:
        lost = sorted(s for s in shards if s in self._shards)
        for shard in lost:
            del self._shards[shard]
        if lost:
            log.warning("lost shard(s) %s: %s", lost, why)

    def _on_session_closed(self, conn: asyncpg.Connection | Conn) -> None:
        """The lock session's termination listener: its advisory locks are gone, so
        are the shards (a later lock_shards takes them again with a new epoch)."""
        if conn is not self._shard_conn:
            return  # an older session, or close() ending this one
        self._shard_conn = None
        lost, self._shards = sorted(self._shards), {}
        if lost:
            log.warning("lost the lock session of shard(s) %s: its connection to PostgreSQL "
                        "closed; they are no longer held", lost)

    def _drop_session(self, conn: asyncpg.Connection | None, why: str) -> None:
        """Give up the lock session ``conn`` (terminated) and every shard."""
        if conn is not None and conn is self._shard_conn:
            self._shard_conn = None
            lost, self._shards = sorted(self._shards), {}
            if lost:
                log.warning("lost the lock session of shard(s) %s: %s", lost, why)
        if conn is not None and not conn.is_closed():
            conn.terminate()

    async def _lock_session(self) -> asyncpg.Connection:
        """The lock session, opened (again) if there is none or it closed."""
        conn = self._shard_conn
        if conn is not None and not conn.is_closed():
            return conn
        self._drop_session(conn, "its connection closed")
        conn = await asyncpg.connect(self._dsn, timeout=self._timeout,
                                     command_timeout=self._timeout)
        conn.add_termination_listener(self._on_session_closed)
        self._shard_conn = conn
        return conn

    async def lock_shards(self, shard_ids: Collection[int], *, shard_count: int = 1) -> bool:
        """Take the shards ``shard_ids`` (of ``shard_count``) for this repository, held
        until :meth:`close`: a session advisory lock each on the lock session (a
        connection of its own), then, in one transaction, the next fencing epoch of
        each. False (nothing new taken) if another session holds one of the locks, or
        if a shard's previous owner may be reconnecting after a database restart: it
        renewed its lease (``check_shards``) under the previous server within
        ``shard_lease`` seconds, so it gets the shard back first. Shards already held
        are not taken again.

        Raises :class:`StoreUnavailableError` if the database does not answer; the
        lock session is then given up (with any shard held on it), and a later call
        opens a new one."""
        ids = check_lock_request(shard_ids, shard_count, below=2**31)
        async with self._state:
            self._the_pool()
            if self._shard_conn is not None and self._shard_conn.is_closed():
                self._drop_session(self._shard_conn, "its connection closed")
            if self._shards and shard_count != self._shard_count:
                raise StoreError(
                    "invalid_argument",
                    f"this repository holds shards {sorted(self._shards)} of "
                    f"{self._shard_count}, not of {shard_count}")
            wanted = [shard for shard in ids if shard not in self._shards]
            if not wanted:
                return True
            conn: asyncpg.Connection | None = None
            try:
                conn = await self._lock_session()
                epochs = await self._take_shards(conn, shard_count, wanted)
                if epochs is None:
                    return False
                if conn is not self._shard_conn or conn.is_closed():
                    raise StoreUnavailableError("lock_shards: the lock session closed")
            except asyncio.CancelledError:
                self._drop_session(conn, "lock_shards was cancelled")
                raise
            except Exception as error:
                if not (_unavailable(error) or (conn is not None and conn.is_closed())):
                    raise _store_error("lock_shards", error) from error
                # The session may hold locks or an open transaction it cannot tell about.
                self._drop_session(conn, f"lock_shards failed: {_describe(error)}")
                if isinstance(error, StoreUnavailableError):
                    raise
                raise StoreUnavailableError(f"lock_shards: the database did not answer "
                                            f"({_describe(error)})") from error
            self._shards.update(epochs)
            self._epochs.update(epochs)
            self._shard_count = shard_count
            self._fenced = True
            return True

    async def _take_shards(self, conn: asyncpg.Connection, shard_count: int,
                           wanted: list[int]) -> dict[int, int] | None:
        """The advisory locks, then the epochs of ``wanted``; None (nothing kept) if
        refused."""
        # A lock this session already holds is not taken twice (they stack).
        rows = await conn.fetch(
            "SELECT s.shard, h.held, CASE WHEN h.held THEN true "
            "ELSE pg_try_advisory_lock($1, s.shard) END AS locked "
            "FROM unnest($2::int[]) AS s (shard) CROSS JOIN LATERAL (SELECT EXISTS ("
            "  SELECT 1 FROM pg_locks AS l WHERE l.locktype = 'advisory' "
            "  AND l.pid = pg_backend_pid() AND l.granted AND l.objsubid = 2 "
            f"  AND l.classid = {SHARD_LOCK_CLASS} AND l.objid = s.shard::oid) AS held) AS h "
            "ORDER BY s.shard", SHARD_LOCK_CLASS, wanted)
        taken = [int(row["shard"]) for row in rows if row["locked"] and not row["held"]]
        if all(row["locked"] for row in rows):
            try:
                epochs = await self._claim_epochs(conn, shard_count, wanted)
            except Exception as error:
                if taken and not _unavailable(error) and not conn.is_closed():
                    await conn.execute(
                        "SELECT pg_advisory_unlock($1, s) FROM unnest($2::int[]) AS s",
                        SHARD_LOCK_CLASS, taken)
                raise
            if epochs is not None:
                return epochs
        if taken:
            await conn.execute("SELECT pg_advisory_unlock($1, s) FROM unnest($2::int[]) AS s",
                               SHARD_LOCK_CLASS, taken)
        return None

    async def _claim_epochs(self, conn: asyncpg.Connection, shard_count: int,
                            wanted: list[int]) -> dict[int, int] | None:
        """In one transaction: refuse (None) if a shard's previous owner may be
        reconnecting after a database restart, else give each shard its next epoch."""
        async with conn.transaction():
            waiting = await conn.fetch(
                "SELECT shard, renewed_at + make_interval(secs => $4) AS lease_until "
                "FROM shard_epochs WHERE shard_count = $1 AND shard = ANY($2::int[]) "
                "AND owner <> $3 AND server_started < pg_postmaster_start_time() "
                "AND now() - renewed_at < make_interval(secs => $4) "
                "ORDER BY shard FOR UPDATE", shard_count, wanted, self._token, self._lease)
            if waiting:
                for row in waiting:
                    log.info("shard %d: its owner before the database restart may still be "
                             "reconnecting (lease until %s)", row["shard"],
                             row["lease_until"].isoformat(timespec="seconds"))
                return None
            rows = await conn.fetch(
                "INSERT INTO shard_epochs AS e (shard_count, shard, epoch, owner, renewed_at, "
                "server_started) SELECT $1, s, 1, $3, now(), pg_postmaster_start_time() "
                "FROM unnest($2::int[]) AS s ON CONFLICT (shard_count, shard) DO UPDATE "
                "SET epoch = e.epoch + 1, owner = excluded.owner, "
                "renewed_at = excluded.renewed_at, server_started = excluded.server_started "
                "RETURNING shard, epoch", shard_count, wanted, self._token)
        return {int(row["shard"]): int(row["epoch"]) for row in rows}

    async def check_shards(self) -> frozenset[int]:
        """The shards this repository still provably holds, their leases renewed: the
        lock session is open and answers, ``pg_locks`` shows its advisory lock of
        each granted, and each one's stored epoch and owner are still this
        repository's. Shards found lost are forgotten (a later :meth:`lock_shards`
        takes them again with a new epoch); a closed lock session loses them all.

        Raises :class:`StoreUnavailableError`, forgetting nothing, if the database
        does not tell in time (unreachable, frozen)."""
        async with self._state:
            self._the_pool()
            held = dict(self._shards)
            conn = self._shard_conn
            if not held:
                return frozenset()
            if conn is None or conn.is_closed():
                self._drop_session(conn, "its connection closed")
                return frozenset()
            shards = sorted(held)
            try:
                rows = await conn.fetch(
                    "UPDATE shard_epochs AS e SET renewed_at = now(), "
                    "server_started = pg_postmaster_start_time() "
                    "FROM unnest($2::int[], $3::bigint[]) AS h (shard, epoch) "
                    "WHERE e.shard_count = $1 AND e.shard = h.shard AND e.epoch = h.epoch "
                    "AND e.owner = $4 AND EXISTS (SELECT 1 FROM pg_locks AS l "
                    "  WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() "
                    f"  AND l.granted AND l.objsubid = 2 AND l.classid = {SHARD_LOCK_CLASS} "
                    "  AND l.objid = h.shard::oid) "
                    "RETURNING e.shard", self._shard_count, shards, [held[s] for s in shards],
                    self._token)
            except Exception as error:
                if conn.is_closed():
                    self._drop_session(conn, f"its connection closed ({_describe(error)})")
                    return frozenset()
                raise _store_error("check_shards", error) from error
            kept = {int(row["shard"]) for row in rows}
            self._forget(set(shards) - kept, "the lock session no longer holds their lock or "
                         "their epoch moved on (another process took them)")
            return frozenset(self._shards)

    async def _check_fenced(self, conn: Conn, table_id: int, fence: Fence | None) -> None:
        """Before a write to ``table_id``'s rows: the table exists, and (``fence``: a
        process that holds shards) its shard is still this repository's, its row locked
        for the transaction; else the refusal (:meth:`_refused`)."""
        if fence is None:
            if not await conn.fetchval(
                    "SELECT EXISTS (SELECT 1 FROM tables WHERE id = $1)", table_id):
                raise table_missing(table_id)
        elif not await conn.fetchval(f"SELECT {_fence_sql(2, lock=True)}", table_id, *fence):
            raise await self._refused(conn, table_id, fence)

    async def _refused(self, conn: Conn, table_id: int, fence: Fence) -> StoreError:
        """Why the fenced write to ``table_id`` changed nothing: no such table, or the
        shard is no longer this repository's (:class:`ShardLostError`, the shard
        forgotten)."""
        row = await conn.fetchrow(_refusal_sql(2), table_id, *fence)
        assert row is not None
        if not row["found"]:
            return table_missing(table_id)
        return self._lost(table_id, int(row["shard"]), fence[0], row["owner"])

    def _lost(self, table_id: int, shard: int, shard_count: int,
              owner: str | None) -> StoreError:
        """The error of a write the fence refused. If this repository itself took the
        shard again meanwhile (a new epoch, after its lock session was lost), the write
        only raced that: :class:`StoreUnavailableError`, try again. Otherwise another
        process owns the shard: :class:`ShardLostError`, and the shard is forgotten."""
        if owner == self._token:
            return StoreUnavailableError(
                f"table {table_id}: shard {shard} of {shard_count} was taken again by this "
                "process during the write (a new epoch); nothing was written, try again")
        self._forget([shard], f"a write to table {table_id} was refused: another process "
                     "owns the shard now")
        self._epochs.pop(shard, None)
        return ShardLostError(
            f"table {table_id}: shard {shard} of {shard_count} is no longer this process's "
            "(another process took it); the write was refused")

    # -- the generic statements of StoreBase (a person's data) ---------------------

    dialect: ClassVar[Dialect] = POSTGRES

    async def _transact(self, what: str, work: Tx[T], *, readonly: bool = False) -> T:
        return await self._run(what, work, isolation="repeatable_read" if readonly
                               else "read_committed", readonly=readonly)

    async def _rows(self, conn: Conn, sql: str, *params: object) -> list[asyncpg.Record]:
        return list(await conn.fetch(sql, *params))

    async def _snapshot(self, what: str, work: Tx[T]) -> T:
        """A pooled connection of its own, in a repeatable-read transaction: the live
        tables' work goes on the pool's other connections meanwhile."""
        return await self._transact(what, work, readonly=True)

    async def _chunks(self, conn: Conn, sql: str, *params: object
                      ) -> AsyncIterator[list[dict[str, Any]]]:
        cursor = await conn.cursor(sql, *params)
        while records := await cursor.fetch(EXPORT_CHUNK):
            yield [dict(record.items()) for record in records]

    async def _change(self, conn: Conn, sql: str, *params: object) -> int:
        status = await conn.execute(sql, *params)
        last = str(status).rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def _erase_jobs(self, conn: Conn, user_id: int) -> int:
        """Delete the person's review jobs from PgQueuer's table (queued, being made or
        failed): their payload names the person."""
        if not await conn.fetchval(f"SELECT to_regclass('{QUEUE_TABLE}') IS NOT NULL"):
            return 0
        rows = await conn.fetch(f"SELECT id, payload FROM {QUEUE_TABLE} "
                                "WHERE entrypoint = $1", REVIEW_JOBS)
        ids = [int(r["id"]) for r in rows if job_for(r["payload"]) == user_id]
        if ids:
            await conn.execute(f"DELETE FROM {QUEUE_TABLE} WHERE id = ANY($1::bigint[])", ids)
        return len(ids)

    # -- schema and guilds ---------------------------------------------------------

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async def work(conn: Conn) -> int:
            return int(await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
        return await self._run("schema_version", work, transaction=False)

    async def ensure_guild(self, guild_id: int, locale: str) -> None:
        """Create or update the guild's row (Discord's locale of the guild)."""
        now = utc_now()

        async def work(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO guilds (id, locale, created_at, updated_at) VALUES ($1, $2, $3, $3) "
                "ON CONFLICT (id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at", guild_id, locale, now)
        await self._run("ensure_guild", work, transaction=False)

    @staticmethod
    async def _ensure_guild_row(conn: Conn, guild_id: int, now: datetime) -> None:
        await conn.execute(
            "INSERT INTO guilds (id, created_at, updated_at) VALUES ($1, $2, $2) "
            "ON CONFLICT (id) DO NOTHING", guild_id, now)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The settings the guild's admins chose (all None if none, or no such guild)."""
        async def work(conn: Conn) -> GuildSettings:
            row = await conn.fetchrow(
                "SELECT locale, turn_timer, target, tables_per_channel, daily_channel_id "
                "FROM guild_settings WHERE guild_id = $1", guild_id)
            return settings_from_row(guild_id, row)
        return await self._run("guild_settings", work, transaction=False)

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the guild's settings, creating the guild's row if needed."""
        row = check_guild_settings(guild_id, settings)
        now = utc_now()

        async def work(conn: Conn) -> None:
            await self._ensure_guild_row(conn, guild_id, now)
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, turn_timer, target, "
                "tables_per_channel, daily_channel_id, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) "
                "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
                "turn_timer = excluded.turn_timer, target = excluded.target, "
                "tables_per_channel = excluded.tables_per_channel, "
                "daily_channel_id = excluded.daily_channel_id, "
                "updated_at = excluded.updated_at", guild_id, *row, now)
        await self._run("save_guild_settings", work)

    async def get_meta(self, key: str) -> str | None:
        """The bookkeeping value under ``key`` (None if unset)."""
        check_meta_key(key)

        async def work(conn: Conn) -> str | None:
            return meta_value(key, await conn.fetchrow("SELECT value FROM meta WHERE key = $1",
                                                       key))
        return await self._run("get_meta", work, transaction=False)

    async def set_meta(self, key: str, value: str) -> None:
        """Set a bookkeeping value."""
        check_meta(key, value)

        async def work(conn: Conn) -> None:
            await conn.execute("INSERT INTO meta (key, value) VALUES ($1, $2) "
                               "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               key, value)
        await self._run("set_meta", work, transaction=False)

    # -- tables --------------------------------------------------------------------

    async def create_table(self, *, guild_id: int, channel_id: int, host_id: int, game: str,
                           seed: str, options: dict[str, Any], locale: str,
                           seats: list[SeatRecord]) -> TableRecord:
        """Insert a new table in status lobby with its seats, and return it with its id."""
        options_json = dump_json(options, "table options")
        seat_rows = check_seats(seats, "new table")
        now = utc_now()

        async def work(conn: Conn) -> TableRecord:
            await self._ensure_guild_row(conn, guild_id, now)
            table_id = await conn.fetchval(
                "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, options,"
                " locale, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8,"
                " $9, $9) RETURNING id",
                guild_id, channel_id, host_id, game, TableStatus.LOBBY.value, seed,
                options_json, locale, now)
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, bot_level, away) "
                "VALUES ($1, $2, $3, $4, $5, $6)", [(table_id, *row) for row in seat_rows])
            table = await self._load(conn, table_id)
            if table is None:  # pragma: no cover - inserted just above
                raise table_missing(table_id)
            return table
        return await self._run("create_table", work)

    async def update_table(self, table_id: int, *, status: TableStatus | None = None,
                           thread_id: int | None = None, message_id: int | None = None,
                           ping_message_id: int | None = None,
                           options: dict[str, Any] | None = None) -> None:
        """Change some fields of a table (None leaves a field unchanged)."""
        changes = table_changes(table_id, utc_now(), status=status, thread_id=thread_id,
                                message_id=message_id, ping_message_id=ping_message_id,
                                options=options)
        # Column names are table_changes' fixed keys, never the caller's.
        assignments = ", ".join(
            f"{column} = ${i}" + ("::jsonb" if column == "options" else "")
            for i, column in enumerate(changes, start=2))
        # A change of status is fenced (see lock_shards); the message ids are not.
        fence = self._fence() if status is not None else None
        sql = f"UPDATE tables SET {assignments} WHERE id = $1"
        args = [table_id, *changes.values()]
        if fence is not None:
            sql += " AND " + _fence_sql(len(args) + 1, lock=True)
            args += fence

        async def work(conn: Conn) -> int:
            return _count(await conn.execute(sql, *args))
        if await self._run("update_table", work, transaction=False) == 0:
            if fence is None:
                raise table_missing(table_id)

            async def refused(conn: Conn) -> StoreError:
                return await self._refused(conn, table_id, fence)
            raise await self._run("update_table", refused, transaction=False)

    async def clear_ping(self, table_id: int) -> None:
        """Forget the table's ping message id."""
        async def work(conn: Conn) -> int:
            return _count(await conn.execute(
                "UPDATE tables SET ping_message_id = NULL, updated_at = $2 WHERE id = $1",
                table_id, utc_now()))
        if await self._run("clear_ping", work, transaction=False) == 0:
            raise table_missing(table_id)

    async def save_seats(self, table_id: int, seats: list[SeatRecord]) -> None:
        """Replace the table's seats."""
        seat_rows = check_seats(seats, f"table {table_id}")
        fence = self._fence()

        async def work(conn: Conn) -> None:
            if fence is None:
                if _count(await conn.execute("UPDATE tables SET updated_at = $2 WHERE id = $1",
                                             table_id, utc_now())) == 0:
                    raise table_missing(table_id)
            elif _count(await conn.execute(
                    f"UPDATE tables SET updated_at = $2 WHERE id = $1 AND {_fence_sql(3, lock=True)}",
                    table_id, utc_now(), *fence)) == 0:
                raise await self._refused(conn, table_id, fence)
            await conn.execute("DELETE FROM seats WHERE table_id = $1", table_id)
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, bot_level, away) "
                "VALUES ($1, $2, $3, $4, $5, $6)", [(table_id, *row) for row in seat_rows])
        await self._run("save_seats", work)

    async def append_action(self, table_id: int, action: ActionRecord) -> None:
        """Append one action in one statement (one round trip); raises
        :class:`SequenceConflictError` if ``seq`` is taken or is not the next number."""
        seq, payload = check_action(table_id, action)
        created_at = utc(action.created_at or utc_now())
        fence = self._fence()
        # The row goes in only if the table's last seq is seq - 1 (and, fenced, if the
        # table's shard is still ours); two writers of one seq meet on the primary
        # key (DO NOTHING: not inserted).
        sql = ("INSERT INTO actions (table_id, seq, payload, created_at) "
               "SELECT $1, $2, $3::jsonb, $4 "
               "WHERE (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1) = $2 - 1"
               + ("" if fence is None else " AND " + _fence_sql(5, lock=True))
               + " ON CONFLICT DO NOTHING")
        args = (table_id, seq, payload, created_at, *(fence or ()))

        async def insert(conn: Conn) -> int:
            try:
                return _count(await conn.execute(sql, *args))
            except asyncpg.ForeignKeyViolationError:
                return 0

        # One process's appends to one table reach the server in call order (as on
        # SQLite's single connection): asyncio.Lock serves its waiters first come,
        # first served. Other tables' appends go on in parallel.
        lock = self._append_locks.get(table_id)
        if lock is None:
            lock = self._append_locks[table_id] = asyncio.Lock()
        async with lock:
            inserted = await self._run("append_action", insert, transaction=False)
        if inserted == 1:
            return

        async def diagnose(conn: Conn) -> asyncpg.Record:
            if fence is None:
                row = await conn.fetchrow(
                    "SELECT EXISTS (SELECT 1 FROM tables WHERE id = $1) AS found, true AS ours, "
                    "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1) AS last",
                    table_id)
            else:
                row = await conn.fetchrow(_refusal_sql(2), table_id, *fence)
            assert row is not None
            return row
        row = await self._run("append_action", diagnose, transaction=False)
        if not row["found"]:
            raise table_missing(table_id)
        if fence is not None and not row["ours"]:
            raise self._lost(table_id, int(row["shard"]), fence[0], row["owner"])
        raise seq_refused(table_id, seq, row["last"])

    async def add_talk(self, table_id: int, line: TalkLine) -> None:
        """Store a phrase said at the table (see the protocol), fenced as a draft is."""
        line = check_talk(table_id, line)
        fence = self._fence()

        async def work(conn: Conn) -> None:
            await self._check_fenced(conn, table_id, fence)
            inserted = _count(await conn.execute(
                "INSERT INTO talk (table_id, seq, seat, user_id, phrase, after_seq, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                table_id, line.seq, line.seat, line.user_id, line.phrase, line.after,
                utc(line.created_at)))
            if not inserted:
                raise SequenceConflictError(f"table {table_id}: talk seq {line.seq} is taken")
        await self._run("add_talk", work)

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table with its seats, actions, drafts and panels, in one statement (one
        round trip, one snapshot)."""
        async def work(conn: Conn) -> TableRecord | None:
            return await self._load(conn, table_id)
        return await self._run("load_table", work, transaction=False)

    @staticmethod
    async def _load(conn: Conn, table_id: int) -> TableRecord | None:
        row = await conn.fetchrow(_LOAD_TABLE, table_id)
        if row is None:
            return None
        where = f"table {table_id}"
        parts = {name: load_json(row[name], f"{where} {name}")
                 for name in ("seats", "actions", "drafts", "panels", "talk")}
        return table_from_rows(table_id, row, parts["seats"], parts["actions"],
                               parts["drafts"], parts["panels"], parts["talk"])

    async def active_table_ids(self, *, shard_count: int = 1,
                               shard_ids: Collection[int] | None = None) -> list[int]:
        """Ids of tables not known to be over, in creation order; with ``shard_ids``,
        only those of guilds with ``(guild_id >> 22) % shard_count`` among them."""
        shards = check_shards(shard_count, shard_ids)

        async def work(conn: Conn) -> list[int]:
            rows = await conn.fetch(
                "SELECT id FROM tables WHERE status <> ALL($1::text[]) AND "
                "($2::int[] IS NULL OR ((guild_id >> 22) % $3) = ANY($2::int[])) ORDER BY id",
                list(OVER), shards, shard_count)
            return [int(row["id"]) for row in rows]
        return await self._run("active_table_ids", work, transaction=False)

    async def find_active_table(self, channel_id: int) -> int | None:
        """The newest active table whose channel or thread is ``channel_id``, if any."""
        ids = await self.active_tables_in(channel_id)
        return ids[-1] if ids else None

    async def active_tables_in(self, channel_id: int) -> list[int]:
        """Ids of the active tables whose channel or thread is ``channel_id``, oldest first."""
        async def work(conn: Conn) -> list[int]:
            rows = await conn.fetch(
                "SELECT id FROM tables WHERE channel_id = $1 AND status = ANY($2::text[]) "
                "UNION SELECT id FROM tables WHERE thread_id = $1 AND status = ANY($2::text[]) "
                "ORDER BY id", channel_id, list(ACTIVE))
            return [int(row["id"]) for row in rows]
        return await self._run("active_tables_in", work, transaction=False)

    async def finished_direct_tables(self, since: datetime) -> list[int]:
        """Ids of the finished tables in direct messages changed since ``since``."""
        async def work(conn: Conn) -> list[int]:
            rows = await conn.fetch(
                "SELECT id FROM tables WHERE guild_id = 0 AND channel_id = 0 AND status = $1 "
                "AND updated_at >= $2 ORDER BY id", TableStatus.FINISHED.value, utc(since))
            return [int(row["id"]) for row in rows]
        return await self._run("finished_direct_tables", work, transaction=False)

    async def count_active_tables(self, channel_id: int) -> int:
        """How many active tables were opened in the (parent) channel ``channel_id``."""
        async def work(conn: Conn) -> int:
            return int(await conn.fetchval(
                "SELECT COUNT(*) FROM tables WHERE channel_id = $1 AND status = ANY($2::text[])",
                channel_id, list(ACTIVE)))
        return await self._run("count_active_tables", work, transaction=False)

    async def count_open_tables_of(self, user_id: int) -> int:
        """How many active tables with a channel ``user_id`` hosts or is seated at (the
        statuses written out, so that the planner may read only the active tables' index)."""
        statuses = ", ".join(f"'{status}'" for status in ACTIVE)

        async def work(conn: Conn) -> int:
            return int(await conn.fetchval(
                f"SELECT COUNT(*) FROM tables AS t WHERE t.status IN ({statuses}) "
                "AND t.channel_id <> 0 AND (t.host_id = $1 OR EXISTS ("
                "SELECT 1 FROM seats AS s WHERE s.table_id = t.id AND s.user_id = $1))",
                user_id))
        return await self._run("count_open_tables_of", work, transaction=False)

    # -- drafts and panels ---------------------------------------------------------

    async def save_draft(self, table_id: int, seat: int, data: dict[str, Any] | None) -> None:
        """Store a seat's choice in progress, replacing the previous one (None deletes)."""
        text = check_draft(table_id, seat, data)
        now = utc_now()
        fence = self._fence()

        async def work(conn: Conn) -> None:
            await self._check_fenced(conn, table_id, fence)
            if text is None:
                await conn.execute("DELETE FROM drafts WHERE table_id = $1 AND seat = $2",
                                   table_id, seat)
                return
            await conn.execute(
                "INSERT INTO drafts (table_id, seat, data, updated_at) "
                "VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (table_id, seat) DO UPDATE "
                "SET data = excluded.data, updated_at = excluded.updated_at",
                table_id, seat, text, now)
        await self._run("save_draft", work)

    async def save_panel(self, table_id: int, panel: PanelRecord) -> None:
        """Store a person's live hand message, replacing their previous one at the table."""
        user_id, application_id, token, message_id, _ = check_panel(table_id, panel)
        created_at = utc(panel.created_at)

        async def work(conn: Conn) -> int:
            try:
                return _count(await conn.execute(
                    "INSERT INTO panels (table_id, user_id, application_id, token, message_id, "
                    "created_at) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (table_id, user_id) DO UPDATE "
                    "SET application_id = excluded.application_id, token = excluded.token, "
                    "message_id = excluded.message_id, created_at = excluded.created_at",
                    table_id, user_id, application_id, token, message_id, created_at))
            except asyncpg.ForeignKeyViolationError:
                return 0
        if await self._run("save_panel", work, transaction=False) == 0:
            raise table_missing(table_id)

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """Forget a person's hand message at the table (no-op if there is none)."""
        async def work(conn: Conn) -> None:
            await conn.execute("DELETE FROM panels WHERE table_id = $1 AND user_id = $2",
                               table_id, user_id)
        await self._run("delete_panel", work, transaction=False)

    # -- finished games ------------------------------------------------------------

    async def record_game(self, result: GameResult) -> int:
        """Store a finished game, mark its table finished and rate it (unless it is
        not ``rated``), in one transaction; games of one game are rated one at a time
        (their guild's ratings and the global ones)."""
        game = game_rows(result)
        given_finish = utc(result.finished_at) if result.finished_at else None
        fence = self._fence()
        finish = "UPDATE tables SET status = $2, updated_at = $3 WHERE id = $1"
        if fence is not None:
            finish += " AND " + _fence_sql(4, lock=True)

        async def work(conn: Conn) -> int:
            # Taken first: the finish time and the id are chosen under the lock, so the
            # finish order is the order the ratings are updated in.
            now = await conn.fetchval(
                "SELECT clock_timestamp() FROM (SELECT pg_advisory_xact_lock($1)) AS locked",
                rating_lock_key(result.game))
            if _count(await conn.execute(finish, result.table_id, TableStatus.FINISHED.value,
                                         now, *(fence or ()))) == 0:
                if fence is None:
                    raise table_missing(result.table_id)
                raise await self._refused(conn, result.table_id, fence)
            await self._ensure_guild_row(conn, result.guild_id, now)
            try:
                game_id = int(await conn.fetchval(
                    "INSERT INTO games (table_id, guild_id, game, scores, winner, replay, "
                    "finished_at, rated) VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $8) "
                    "RETURNING id",
                    result.table_id, result.guild_id, result.game, game.scores, result.winner,
                    game.replay, given_finish or now, game.rated))
            except asyncpg.UniqueViolationError as error:
                raise game.already_recorded() from error
            await conn.executemany(
                "INSERT INTO game_players (game_id, seat, user_id, bot_level, name, team, won) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)", game.players_of(game_id))
            if game.stats:
                await conn.executemany(
                    "INSERT INTO game_player_stats (game_id, seat, key, value) "
                    "VALUES ($1, $2, $3, $4)", game.stats_of(game_id))
            await self._rate_game(conn, game_id, result)
            return game_id
        return await self._run("record_game", work)

    # -- ratings (the rating itself: StoreBase._rate) -------------------------------

    async def _stored_ratings(self, conn: Conn, guild_id: int | None, game: str,
                              keys: list[str]) -> list[asyncpg.Record]:
        if guild_id is None:
            return await conn.fetch(
                "SELECT player, mu, sigma, games FROM global_ratings WHERE game = $1 "
                "AND player = ANY($2::text[]) ORDER BY player FOR UPDATE", game, keys)
        return await conn.fetch(
            "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = $1 "
            "AND game = $2 AND player = ANY($3::text[]) ORDER BY player FOR UPDATE",
            guild_id, game, keys)

    async def _store_ratings(self, conn: Conn, guild_id: int | None,
                             ratings: list[tuple[object, ...]],
                             history: list[tuple[object, ...]]) -> None:
        if guild_id is None:
            await conn.executemany(
                "INSERT INTO global_ratings (game, player, user_id, mu, sigma, ordinal, games) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game, player) "
                "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "ordinal = excluded.ordinal, games = excluded.games", ratings)
            await conn.executemany(
                "INSERT INTO global_rating_history (game_id, player, mu, sigma) "
                "VALUES ($1, $2, $3, $4)", history)
            return
        await conn.executemany(
            "INSERT INTO ratings (guild_id, game, player, user_id, mu, sigma, ordinal, games) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (guild_id, game, player) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "ordinal = excluded.ordinal, games = excluded.games", ratings)
        await conn.executemany(
            "INSERT INTO rating_history (game_id, player, mu, sigma) VALUES ($1, $2, $3, $4)",
            history)

    async def _clear_ratings(self, conn: Conn) -> None:
        # Readers wait for the rebuilt ratings; record_game waits too (it reads them).
        await conn.execute("LOCK TABLE ratings, rating_history, global_ratings, "
                           "global_rating_history IN ACCESS EXCLUSIVE MODE")
        for table in ("rating_history", "ratings", "global_rating_history", "global_ratings"):
            await conn.execute(f"DELETE FROM {table}")

    async def _rated_game_rows(
        self, conn: Conn
    ) -> tuple[list[asyncpg.Record], list[asyncpg.Record]]:
        game_rows = await conn.fetch(
            "SELECT id, guild_id, game, scores::text AS scores FROM games WHERE rated "
            "ORDER BY finished_at, id")
        player_rows = await conn.fetch(
            "SELECT game_id, seat, user_id, bot_level, name, team, won FROM game_players "
            "WHERE game_id IN (SELECT id FROM games WHERE rated) ORDER BY game_id, seat")
        return game_rows, player_rows

    async def rebuild_ratings(self) -> int:
        """Forget every rating and rate every stored rated game again in finish order,
        in one transaction; the number of games rated."""
        async def work(conn: Conn) -> int:
            return await self._rebuild(conn)
        return await self._run("rebuild_ratings", work)

    async def ratings(self, guild_id: int | None, game: str) -> list[RatingRow]:
        """Every current rating of the guild's game (None: the global ones), best first."""
        async def work(conn: Conn) -> list[RatingRow]:
            if guild_id is None:
                return rating_rows(await conn.fetch(
                    "SELECT player, user_id, mu, sigma, games FROM global_ratings "
                    "WHERE game = $1 ORDER BY ordinal DESC, player", game))
            return rating_rows(await conn.fetch(
                "SELECT player, user_id, mu, sigma, games FROM ratings "
                "WHERE guild_id = $1 AND game = $2 ORDER BY ordinal DESC, player",
                guild_id, game))
        return await self._run("ratings", work, transaction=False)

    async def rating_history(self, guild_id: int | None, game: str,
                             user_id: int) -> list[RatingPoint]:
        """The player's rating after each of their rated games, oldest first (the global
        rating's when ``guild_id`` is None)."""
        async def work(conn: Conn) -> list[RatingPoint]:
            if guild_id is None:
                return rating_points(await conn.fetch(
                    "SELECT g.id, g.finished_at, h.mu, h.sigma "
                    "FROM global_rating_history AS h JOIN games AS g ON g.id = h.game_id "
                    "WHERE g.game = $1 AND h.player = $2 ORDER BY g.finished_at, g.id",
                    game, f"u:{user_id}"))
            return rating_points(await conn.fetch(
                "SELECT g.id, g.finished_at, h.mu, h.sigma FROM rating_history AS h "
                "JOIN games AS g ON g.id = h.game_id WHERE g.guild_id = $1 AND g.game = $2 "
                "AND h.player = $3 ORDER BY g.finished_at, g.id",
                guild_id, game, f"u:{user_id}"))
        return await self._run("rating_history", work, transaction=False)

    async def partners(self, guild_id: int, game: str, user_id: int, *,
                       limit: int = 3) -> list[PartnerRow]:
        """Who the player sat with most in rated games (teammates in Tichu), most shared
        wins first."""
        check_page(limit, 0)

        async def work(conn: Conn) -> list[PartnerRow]:
            return partner_rows(await conn.fetch(
                "SELECT CASE WHEN o.user_id IS NOT NULL THEN 'u:' || o.user_id "
                "            ELSE 'cpu:' || o.bot_level END AS player, MAX(o.name) AS name, "
                "       COUNT(DISTINCT g.id)::bigint AS games, "
                "       COUNT(DISTINCT CASE WHEN me.won AND o.won THEN g.id END)::bigint "
                "       AS wins "
                "FROM games AS g "
                "JOIN game_players AS me ON me.game_id = g.id AND me.user_id = $3 "
                "JOIN game_players AS o ON o.game_id = g.id AND o.seat <> me.seat "
                "     AND (o.user_id IS NULL OR o.user_id <> $3) "
                "     AND (o.user_id IS NOT NULL OR o.bot_level IS NOT NULL) "
                "     AND (NOT $4 OR o.team = me.team) "
                "WHERE g.guild_id = $1 AND g.game = $2 AND g.rated "
                "GROUP BY 1 ORDER BY wins DESC, games DESC, player LIMIT $5",
                guild_id, game, user_id, game in TEAM_GAMES, limit))
        return await self._run("partners", work, transaction=False)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many people the guild's leaderboard of the game has (players of its rated
        games)."""
        async def work(conn: Conn) -> int:
            return int(await conn.fetchval(
                "SELECT COUNT(DISTINCT gp.user_id) FROM games AS g "
                "JOIN game_players AS gp ON gp.game_id = g.id "
                "WHERE g.guild_id = $1 AND g.game = $2 AND g.rated AND gp.user_id > 0",
                guild_id, game))
        return await self._run("leaderboard_size", work, transaction=False)

    async def global_board_size(self, game: str) -> BoardSize:
        """How many people the global board of the game lists (they chose to appear) and
        how many it does not."""
        async def work(conn: Conn) -> BoardSize:
            return board_size((await conn.fetch(_GLOBAL_COUNTS, game))[0])
        return await self._run("global_board_size", work, transaction=False)

    async def _player_totals(self, guild_id: int | None, game: str, user_id: int | None,
                             limit: int, offset: int) -> list[LeaderboardRow]:
        async def work(conn: Conn) -> list[LeaderboardRow]:
            if guild_id is None:
                return leaderboard_rows(None, await conn.fetch(
                    _GLOBAL_TOTALS, game, user_id, limit, offset))
            return leaderboard_rows(guild_id, await conn.fetch(
                _PLAYER_TOTALS, guild_id, game, user_id, limit, offset))
        return await self._run("leaderboard", work, transaction=False)

    async def load_game(self, guild_id: int, game_id: int) -> GameResult | None:
        """One finished game of the guild, with its players, stats and replay."""
        async def work(conn: Conn) -> GameResult | None:
            game_rows = await conn.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games AS g WHERE g.id = $1 AND g.guild_id = $2",
                game_id, guild_id)
            if not game_rows:
                return None
            return games_from_rows(
                game_rows,
                await conn.fetch("SELECT game_id, seat, user_id, bot_level, name, team, won "
                                 "FROM game_players WHERE game_id = $1 ORDER BY seat", game_id),
                await conn.fetch("SELECT game_id, seat, key, value FROM game_player_stats "
                                 "WHERE game_id = $1 ORDER BY seat, key", game_id))[0]
        return await self._run("load_game", work, isolation="repeatable_read", readonly=True)

    async def recent_games(self, guild_id: int, game: str, *, user_id: int | None = None,
                           limit: int = 10) -> list[GameResult]:
        """The last finished games, newest first (only those ``user_id`` played in)."""
        check_page(limit, 0)

        async def work(conn: Conn) -> list[GameResult]:
            game_rows = await conn.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games AS g WHERE g.guild_id = $1 AND g.game = $2 "
                "AND ($3::bigint IS NULL OR EXISTS (SELECT 1 FROM game_players AS gp "
                "     WHERE gp.game_id = g.id AND gp.user_id = $3)) "
                "ORDER BY g.finished_at DESC, g.id DESC LIMIT $4", guild_id, game, user_id, limit)
            ids = [row["id"] for row in game_rows]
            return games_from_rows(
                game_rows,
                await conn.fetch("SELECT game_id, seat, user_id, bot_level, name, team, won "
                                 "FROM game_players WHERE game_id = ANY($1::bigint[]) "
                                 "ORDER BY game_id, seat", ids),
                await conn.fetch("SELECT game_id, seat, key, value FROM game_player_stats "
                                 "WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat, key",
                                 ids))
        return await self._run("recent_games", work, isolation="repeatable_read", readonly=True)

    # -- duplicate: events, fields, board results ----------------------------------

    async def create_event(self, event: EventRecord) -> bool:
        """Store a new event (``created_at`` now if None); False (nothing changed) if
        its code exists already."""
        row = check_event(event)
        created_at = utc(event.created_at or utc_now())

        async def work(conn: Conn) -> int:
            return _count(await conn.execute(
                "INSERT INTO dup_events (code, kind, seed, boards, guild_id, host_id, "
                "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (code) DO NOTHING",
                *row, created_at))
        return await self._run("create_event", work, transaction=False) == 1

    async def get_event(self, code: str) -> EventRecord | None:
        """The event with this code (None if there is none)."""
        check_text(code, "an event code")

        async def work(conn: Conn) -> EventRecord | None:
            return event_from_row(await conn.fetchrow(
                "SELECT code, kind, seed, boards, guild_id, host_id, created_at "
                "FROM dup_events WHERE code = $1", code))
        return await self._run("get_event", work, transaction=False)

    async def claim_boards(self, results: Sequence[BoardResult]) -> None:
        """Store the start of table-directions' attempts at boards with their players,
        all or nothing, in one transaction. The primary keys decide between two claims
        at once, in any processes: the later one waits for the earlier to commit, then
        finds its rows (nothing of it is stored). Raises :class:`StoreError`
        ``board_taken``, ``unknown_table``, ``unknown_event``; fenced like the other
        writes to a table (:class:`ShardLostError`)."""
        claims = [claim_rows(result) for result in results]
        now = utc_now()
        fence = self._fence()

        async def work(conn: Conn) -> None:
            for claim, result in zip(claims, results, strict=True):
                created_at = utc(result.created_at or now)
                await self._check_fenced(conn, claim.table_id, fence)
                if not await conn.fetchval(
                        "SELECT EXISTS (SELECT 1 FROM dup_events WHERE code = $1)", claim.event):
                    raise event_missing(claim.event)
                if _count(await conn.execute(
                        "INSERT INTO dup_results (table_id, board, direction, event, guild_id, "
                        "created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                        *claim.result, created_at)) == 0:
                    raise claim.taken()
                inserted = await conn.fetch(
                    "INSERT INTO dup_players (board, user_id, table_id, direction, position, "
                    "name) SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], "
                    "$4::int[], $5::int[], $6::text[]) ON CONFLICT DO NOTHING RETURNING user_id",
                    *(list(column) for column in zip(*claim.players, strict=True)))
                if len(inserted) < len(claim.players):
                    # Raised inside the transaction: it is rolled back, every row of it.
                    mine = {int(row["user_id"]) for row in inserted}
                    raise claim.taken(user for user in claim.user_ids if user not in mine)
        await self._run("claim_boards", work)

    async def finish_board(self, table_id: int, board: str, direction: int, diff: int,
                           replay: dict[str, Any]) -> None:
        """Set a claimed result's ``diff``, ``replay`` and ``finished_at`` (now), fenced
        like the other writes to a table. Called again with the same ``diff`` it
        changes nothing; StoreError ``unknown_result`` if there is no such claim,
        ``board_finished`` if it was finished with another diff."""
        text = check_finish(table_id, board, direction, diff, replay)
        key = (table_id, board, direction)
        fence = self._fence()

        async def work(conn: Conn) -> None:
            row = await conn.fetchrow(
                "SELECT diff FROM dup_results WHERE table_id = $1 AND board = $2 "
                "AND direction = $3 FOR UPDATE", *key)
            if row is None:
                raise result_missing(*key)
            if fence is not None and not await conn.fetchval(
                    f"SELECT {_fence_sql(2, lock=True)}", table_id, *fence):
                raise await self._refused(conn, table_id, fence)
            if row["diff"] is not None:
                if row["diff"] == diff:
                    return
                raise finished_already(*key, row["diff"], diff)
            await conn.execute(
                "UPDATE dup_results SET diff = $4, replay = $5::jsonb, finished_at = $6 "
                "WHERE table_id = $1 AND board = $2 AND direction = $3",
                *key, diff, text, utc_now())
        await self._run("finish_board", work)

    async def _board_results(self, what: str, query: ResultFilter) -> list[BoardResult]:
        where, params = query.where(lambda n: f"${n}")
        results, players = board_results_sql(where, replay="r.replay::text")

        async def work(conn: Conn) -> list[BoardResult]:
            return board_results_from_rows(await conn.fetch(results, *params),
                                           await conn.fetch(players, *params))
        return await self._run(what, work, isolation="repeatable_read", readonly=True)

    async def user_daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The codes of the daily events in which the person finished at least one
        board, newest first (``daily:YYYY-MM-DD`` codes in reverse order)."""
        check_page(limit, 0)

        async def work(conn: Conn) -> list[str]:
            return event_codes(await conn.fetch(
                "SELECT DISTINCT r.event FROM dup_players AS p "
                "JOIN dup_results AS r ON r.table_id = p.table_id AND r.board = p.board "
                "     AND r.direction = p.direction "
                "JOIN dup_events AS e ON e.code = r.event "
                "WHERE p.user_id = $1 AND e.kind = 'daily' AND r.diff IS NOT NULL "
                "ORDER BY r.event DESC LIMIT $2", user_id, limit))
        return await self._run("user_daily_days", work, transaction=False)

    async def save_field(self, board: str, results: list[FieldResult]) -> None:
        """Store a board's whole field in one transaction, unless the board has one
        already (kept as it is: the first saved wins, no error). Two processes saving
        one board's field at once take turns (a transaction-scoped advisory lock)."""
        rows = field_rows(board, results)

        async def work(conn: Conn) -> None:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", field_lock_key(board))
            # A statement of its own, so that it sees what the lock's previous holder
            # committed (a statement reads the snapshot of its start).
            if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM dup_fields WHERE board = $1)",
                                   board):
                return
            await conn.executemany(
                "INSERT INTO dup_fields (board, idx, diff, replay) VALUES ($1, $2, $3, $4::jsonb)",
                rows)
        await self._run("save_field", work)

    async def field(self, board: str) -> list[FieldResult]:
        """A board's field by index (empty if none is stored)."""
        check_text(board, "a board id")

        async def work(conn: Conn) -> list[FieldResult]:
            return field_from_rows(board, await conn.fetch(
                "SELECT idx, diff, replay::text AS replay FROM dup_fields WHERE board = $1 "
                "ORDER BY idx", board))
        return await self._run("field", work, transaction=False)

    # -- reviews (issue 25) --------------------------------------------------------

    async def save_review(self, record: ReviewRecord) -> None:
        """Store one person's review of one deal (``created_at`` now if None), unless
        that table, deal and seat has one already (kept as it is: the first saved wins,
        no error; of two saves at once, the later waits for the earlier to commit and
        then stores nothing). Raises :class:`StoreError` ``unknown_table`` if there is
        no such table. Not fenced: it never overwrites. Nothing is stored for a seat
        whose person erased their data meanwhile (the erase holds the seats' rows until it
        commits), and the names of those who did are blanked
        (:func:`bot.store.personal.seated_review`)."""
        review_row(record)  # checked before anything is read
        created_at = utc(record.created_at or utc_now())

        async def work(conn: Conn) -> bool:
            seated = await conn.fetch(
                "SELECT seat, user_id FROM seats WHERE table_id = $1 FOR SHARE", record.table_id)
            if not seated and not await conn.fetchval(
                    "SELECT EXISTS (SELECT 1 FROM tables WHERE id = $1)", record.table_id):
                return False
            kept = seated_review(record, [(r["seat"], r["user_id"]) for r in seated])
            if kept is None:
                return True
            try:
                await conn.execute(
                    "INSERT INTO reviews (table_id, deal, seat, user_id, review, created_at) "
                    "VALUES ($1, $2, $3, $4, $5::jsonb, $6) "
                    "ON CONFLICT (table_id, deal, seat) DO NOTHING", *review_row(kept),
                    created_at)
            except asyncpg.ForeignKeyViolationError:
                return False
            return True
        if not await self._run("save_review", work):
            raise table_missing(record.table_id)

    async def review(self, table_id: int, deal: int, seat: int) -> ReviewRecord | None:
        """The review of that seat in that deal of the table (None if none is stored)."""
        check_review_key(table_id, deal, seat)

        async def work(conn: Conn) -> list[ReviewRecord]:
            return reviews_from_rows(await conn.fetch(
                f"SELECT {_REVIEW_COLUMNS} FROM reviews "
                "WHERE table_id = $1 AND deal = $2 AND seat = $3", table_id, deal, seat))
        reviews = await self._run("review", work, transaction=False)
        return reviews[0] if reviews else None

    async def user_reviews(self, table_id: int, user_id: int) -> list[ReviewRecord]:
        """A person's reviews at a table, by deal then seat (empty if none)."""
        check_user_reviews(table_id, user_id)

        async def work(conn: Conn) -> list[ReviewRecord]:
            return reviews_from_rows(await conn.fetch(
                f"SELECT {_REVIEW_COLUMNS} FROM reviews "
                "WHERE table_id = $1 AND user_id = $2 ORDER BY deal, seat", table_id, user_id))
        return await self._run("user_reviews", work, transaction=False)


def store_error(what: str, error: Exception) -> StoreError:
    """``error`` as the store reports it (for the job queue, which shares the database):
    :class:`StoreUnavailableError` when the database did not answer."""
    return _store_error(what, error)
