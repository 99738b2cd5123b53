""""Play now" in the store (issue 53): the queue, ready checks, blocks, the games people
left early, and leases, written once for both backends.

:class:`QueueStore` is the part of every repository (:class:`~bot.store.base.StoreBase`
inherits it) that runs the statements of :class:`QueueSql`, in the small dialect of
:mod:`bot.store.personal` (parameter markers, times, flags). Every method checks what it
is given before it reads or writes anything; a refusal is a
:class:`~bot.store.models.QueueRefusedError` raised inside the method's one transaction,
so nothing of it is written.

What holds the rules:

- one entry per person: ``queue_people``'s primary key is the person, so two processes
  queueing one person at once cannot both succeed (the second's insert is skipped, and
  its transaction refused);
- a ready check takes its entries only while they wait (``check_id IS NULL``, in one
  ``UPDATE`` that must change them all); its answers and its close go one at a time (the
  check's row is locked first on PostgreSQL; SQLite runs one write at a time);
- a lease is one ``INSERT … ON CONFLICT DO UPDATE … WHERE`` (free, expired, or the
  holder's already), on the server's clock on PostgreSQL.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Generic, TypeVar

from bot.store.codec import (
    as_flag,
    as_int,
    as_optional_int,
    as_optional_str,
    as_str,
    parse_optional_timestamp,
    parse_timestamp,
    utc,
    utc_now,
)
from bot.store.models import (
    DEPARTURES_KEPT,
    FILL_AFTER,
    MAX_BLOCKS,
    PARTNER_GAMES,
    QUEUE_POOLS,
    READY_CHECKS_KEPT,
    READY_SECONDS,
    Answer,
    CheckStatus,
    CorruptRowError,
    Pool,
    PoolCount,
    QueueEntry,
    QueueRefusedError,
    ReadyCheck,
    ReadyMember,
    ReadyMessage,
    ReadyOutcome,
    StoreError,
)
from bot.store.personal import POSTGRES, Dialect
from bot.store.rows import Row, as_float, table_missing

C = TypeVar("C")
T = TypeVar("T")

_SNOWFLAKE = 2**63
_CHUNK = 500
"""People per statement where a statement names many (``IN (…)``)."""
REASONS = ("left", "away")
"""Why a person left a game early: by their own choice, or out after missed turns."""
LOCALE_LENGTH = 35
"""The longest locale text kept (a BCP 47 tag; Discord's are 2 to 5 letters)."""


def refuse(code: str, message: str) -> QueueRefusedError:
    return QueueRefusedError(code, message)


def _person(value: object) -> bool:
    return type(value) is int and 0 < value < _SNOWFLAKE


def check_person(value: object, what: str = "a person") -> int:
    """A Discord user id (QueueRefusedError ``not_a_person``)."""
    if not _person(value):
        raise refuse("not_a_person", f"{what} must be a Discord user id, got {value!r}")
    assert isinstance(value, int)
    return value


def check_pool(pool: object) -> Pool:
    """A pool the queue has: a game it seats, one of its seat counts, rated or not
    (QueueRefusedError ``unknown_game``, ``bad_seats``)."""
    if not isinstance(pool, Pool) or pool.game not in QUEUE_POOLS:
        game = pool.game if isinstance(pool, Pool) else pool
        raise refuse("unknown_game", f"the queue seats {sorted(QUEUE_POOLS)}, not {game!r}")
    if type(pool.seats) is not int or pool.seats not in QUEUE_POOLS[pool.game]:
        raise refuse("bad_seats", f"{pool.game} is played by {QUEUE_POOLS[pool.game]}, "
                     f"not {pool.seats!r}")
    if not isinstance(pool.rated, bool):
        raise refuse("unknown_game", f"rated must be a bool, got {pool.rated!r}")
    return pool


def _rating(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise refuse("bad_rating", f"{what} must be a finite number, got {value!r}")
    return float(value)


def check_entry(entry: QueueEntry) -> QueueEntry:
    """``entry`` checked as a new entry of the queue (every refusal of
    :meth:`QueueStore.queue_join` that needs no reading)."""
    if not isinstance(entry, QueueEntry):
        raise refuse("bad_entry", f"not a QueueEntry: {entry!r}")
    pool = check_pool(entry.pool)
    user = check_person(entry.user_id)
    if not isinstance(entry.locale, str) or not 0 < len(entry.locale) <= LOCALE_LENGTH \
            or not entry.locale.isprintable():
        raise refuse("bad_locale", f"a locale must be a short text, got {entry.locale!r}")
    _rating(entry.rating, "the rating")
    if entry.fill_after is not None and entry.fill_after not in FILL_AFTER:
        raise refuse("bad_fill", f"computers fill after {FILL_AFTER} s or never (None), "
                     f"not {entry.fill_after!r}")
    if entry.guild_id is not None and not _person(entry.guild_id):
        raise refuse("bad_entry", f"the guild must be a Discord id or None, got "
                     f"{entry.guild_id!r}")
    if entry.joined_at is not None and not isinstance(entry.joined_at, datetime):
        raise refuse("bad_entry", "joined_at must be a datetime or None")
    if entry.waves != 0 or entry.id is not None or entry.check_id is not None:
        raise refuse("bad_entry", "a new entry has no id, no ready check and no missed wave")
    if entry.partner_id is None:
        if entry.partner_rating is not None:
            raise refuse("bad_entry", "a partner's rating without a partner")
        return entry
    partner = check_person(entry.partner_id, "a partner")
    if partner == user:
        raise refuse("self_partner", "a person cannot be their own partner")
    if pool.game not in PARTNER_GAMES:
        raise refuse("partner_no_teams", f"{pool.game} has no teams: no partner")
    _rating(entry.partner_rating, "the partner's rating")
    return entry


def _ids(values: Iterable[object], what: str) -> list[int]:
    """Distinct positive ids, sorted (StoreError ``invalid_argument``)."""
    out = set()
    for value in values:
        if type(value) is not int or not 0 < value < _SNOWFLAKE:
            raise StoreError("invalid_argument", f"{what} must be positive ids, got {value!r}")
        out.add(value)
    return sorted(out)


def _moment(value: datetime | None) -> datetime:
    if value is None:
        return utc_now()
    if not isinstance(value, datetime):
        raise StoreError("invalid_argument", f"a time must be a datetime, got {value!r}")
    return utc(value)


def _chunks(values: Sequence[int]) -> Iterable[Sequence[int]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start:start + _CHUNK]


# -- reading --------------------------------------------------------------------------


def entries_from_rows(rows: Iterable[Row]) -> list[QueueEntry]:
    """Entries from the rows of :meth:`QueueSql.entries` (one per person, by entry then
    position), in the order given."""
    found: dict[int, dict[str, Any]] = {}
    for row in rows:
        where = f"queue entry {row['id']!r}"
        entry_id = as_int(row["id"], where)
        fields = found.get(entry_id)
        if fields is None:
            fields = found[entry_id] = {
                "id": entry_id,
                "pool": Pool(as_str(row["game"], f"{where} game"),
                             as_int(row["seats"], f"{where} seats"),
                             as_flag(row["rated"], f"{where} rated")),
                "locale": as_str(row["locale"], f"{where} locale"),
                "fill_after": as_optional_int(row["fill_after"], f"{where} fill_after"),
                "guild_id": as_optional_int(row["guild_id"], f"{where} guild_id"),
                "joined_at": parse_timestamp(row["joined_at"], f"{where} joined_at"),
                "waves": as_int(row["waves"], f"{where} waves"),
                "check_id": as_optional_int(row["check_id"], f"{where} check_id"),
            }
        position = as_int(row["position"], f"{where} position")
        user = as_int(row["user_id"], f"{where} user_id")
        rating = as_float(row["rating"], f"{where} rating")
        if position == 0 and "user_id" not in fields:
            fields["user_id"], fields["rating"] = user, rating
        elif position == 1 and "partner_id" not in fields:
            fields["partner_id"], fields["partner_rating"] = user, rating
        else:
            raise CorruptRowError(f"{where}: two people at position {position}")
    entries = []
    for entry_id, fields in found.items():
        if "user_id" not in fields:
            raise CorruptRowError(f"queue entry {entry_id}: a partner without a person")
        entries.append(QueueEntry(**fields))
    return entries


def check_from_rows(row: Row, member_rows: Iterable[Row]) -> ReadyCheck:
    where = f"ready check {row['id']!r}"
    status = row["status"]
    if status not in {s.value for s in CheckStatus}:
        raise CorruptRowError(f"{where}: unknown status {status!r}")
    members = []
    for member in member_rows:
        at = f"{where}, member {member['user_id']!r}"
        answer = as_optional_str(member["answer"], f"{at} answer")
        if answer is not None and answer not in {a.value for a in Answer}:
            raise CorruptRowError(f"{at}: unknown answer {answer!r}")
        channel = as_optional_int(member["channel_id"], f"{at} channel_id")
        message = as_optional_int(member["message_id"], f"{at} message_id")
        locale = as_optional_str(member["locale"], f"{at} locale")
        if (channel is None) != (message is None) or (channel is None) != (locale is None):
            raise CorruptRowError(f"{at}: a ready check message without all its fields")
        members.append(ReadyMember(
            user_id=as_int(member["user_id"], at), entry_id=as_int(member["entry_id"], at),
            seat=as_int(member["seat"], f"{at} seat"),
            answer=None if answer is None else Answer(answer),
            answered_at=parse_optional_timestamp(member["answered_at"], f"{at} answered_at"),
            message=None if channel is None or message is None or locale is None
            else ReadyMessage(channel, message, locale)))
    return ReadyCheck(
        id=as_int(row["id"], where),
        pool=Pool(as_str(row["game"], f"{where} game"), as_int(row["seats"], f"{where} seats"),
                  as_flag(row["rated"], f"{where} rated")),
        filled=as_flag(row["filled"], f"{where} filled"),
        status=CheckStatus(status),
        created_at=parse_timestamp(row["created_at"], f"{where} created_at"),
        expires_at=parse_timestamp(row["expires_at"], f"{where} expires_at"),
        closed_at=parse_optional_timestamp(row["closed_at"], f"{where} closed_at"),
        members=tuple(sorted(members, key=lambda m: m.seat)))


# -- the statements -------------------------------------------------------------------

_ENTRY = ("SELECT e.id, e.game, e.seats, e.rated, e.locale, e.fill_after, e.guild_id, "
          "e.joined_at, e.waves, e.check_id, p.user_id, p.position, p.rating "
          "FROM queue_entries AS e JOIN queue_people AS p ON p.entry_id = e.id ")
_ORDER = " ORDER BY e.joined_at, e.id, p.position"
_CHECK = ("SELECT id, game, seats, rated, filled, CASE WHEN status = 'seated' AND EXISTS ("
          "SELECT 1 FROM queue_entries AS e WHERE e.check_id = c.id) THEN 'seating' "
          "ELSE status END AS status, created_at, expires_at, closed_at "
          "FROM ready_checks AS c WHERE id = {m1}")
_MEMBERS = ("SELECT user_id, entry_id, seat, answer, answered_at, channel_id, message_id, "
            "locale FROM ready_members "
            "WHERE check_id = {m1} ORDER BY seat")


@dataclass(frozen=True, slots=True)
class QueueSql:
    """The queue's statements in one backend's dialect."""

    d: Dialect

    @property
    def pg(self) -> bool:
        return self.d is POSTGRES

    def m(self, n: int) -> str:
        return self.d.mark(n)

    def marks(self, count: int, first: int = 1) -> str:
        return ", ".join(self.m(first + i) for i in range(count))

    @property
    def lock(self) -> str:
        """Lock the rows read until the transaction ends (PostgreSQL; SQLite writes one
        transaction at a time)."""
        return " FOR UPDATE" if self.pg else ""

    # -- entries

    def entry_of(self) -> str:
        """The entry holding person 1."""
        return (_ENTRY + "WHERE e.id = (SELECT entry_id FROM queue_people WHERE user_id = "
                f"{self.m(1)})" + _ORDER)

    def entry(self) -> str:
        return _ENTRY + f"WHERE e.id = {self.m(1)}" + _ORDER

    def pool_entries(self) -> str:
        """The waiting entries of the pool (game, seats, rated)."""
        m = self.m
        return (_ENTRY + f"WHERE e.game = {m(1)} AND e.seats = {m(2)} AND e.rated = {m(3)} "
                "AND e.check_id IS NULL" + _ORDER)

    def queued(self, count: int) -> str:
        return f"SELECT user_id FROM queue_people WHERE user_id IN ({self.marks(count)})"

    def blocked_pair(self) -> str:
        m = self.m
        return (f"SELECT 1 FROM blocks WHERE (blocker = {m(1)} AND blocked = {m(2)}) "
                f"OR (blocker = {m(2)} AND blocked = {m(1)})")

    def insert_entry(self) -> str:
        return ("INSERT INTO queue_entries (game, seats, rated, locale, fill_after, guild_id, "
                f"joined_at, waves) VALUES ({self.marks(7)}, 0) RETURNING id")

    def insert_person(self) -> str:
        return ("INSERT INTO queue_people (user_id, entry_id, position, rating) VALUES "
                f"({self.marks(4)}) ON CONFLICT (user_id) DO NOTHING RETURNING user_id")

    def delete_entry(self) -> str:
        return f"DELETE FROM queue_entries WHERE id = {self.m(1)}"

    def counts(self) -> str:
        return ("SELECT e.game, e.seats, e.rated, COUNT(DISTINCT e.id) AS entries, "
                "COUNT(*) AS people, "
                "SUM(CASE WHEN e.check_id IS NULL THEN 1 ELSE 0 END) AS waiting "
                "FROM queue_entries AS e JOIN queue_people AS p ON p.entry_id = e.id "
                "GROUP BY e.game, e.seats, e.rated ORDER BY e.game, e.seats, e.rated")

    def miss_wave(self, count: int) -> str:
        return ("UPDATE queue_entries SET waves = waves + 1 WHERE check_id IS NULL "
                f"AND id IN ({self.marks(count)})")

    # -- ready checks

    def check(self) -> str:
        return _CHECK.format(m1=self.m(1))

    def lock_check(self) -> str:
        return f"SELECT status, expires_at FROM ready_checks WHERE id = {self.m(1)}" + self.lock

    def members(self) -> str:
        return _MEMBERS.format(m1=self.m(1))

    def people_of_entries(self, count: int) -> str:
        """Every person of the entries that hold one of ``count`` people, with their
        entry's pool and check."""
        return ("SELECT p.user_id, p.entry_id, e.game, e.seats, e.rated, e.check_id "
                "FROM queue_people AS p JOIN queue_entries AS e ON e.id = p.entry_id "
                "WHERE p.entry_id IN (SELECT entry_id FROM queue_people "
                f"WHERE user_id IN ({self.marks(count)})) ORDER BY p.entry_id, p.position")

    def insert_check(self) -> str:
        return ("INSERT INTO ready_checks (game, seats, rated, filled, status, created_at, "
                f"expires_at) VALUES ({self.marks(4)}, 'open', {self.marks(2, 5)}) RETURNING id")

    def insert_member(self) -> str:
        return (f"INSERT INTO ready_members (check_id, user_id, entry_id, seat) VALUES "
                f"({self.marks(4)})")

    def take_entries(self, count: int) -> str:
        return (f"UPDATE queue_entries SET check_id = {self.m(1)} WHERE check_id IS NULL "
                f"AND id IN ({self.marks(count, 2)})")

    def answer(self) -> str:
        m = self.m
        return (f"UPDATE ready_members SET answer = {m(3)}, answered_at = {m(4)} "
                f"WHERE check_id = {m(1)} AND user_id = {m(2)}")

    def note_message(self) -> str:
        m = self.m
        return (f"UPDATE ready_members SET channel_id = {m(3)}, message_id = {m(4)}, "
                f"locale = {m(5)} WHERE check_id = {m(1)} AND user_id = {m(2)}")

    def time_out(self) -> str:
        m = self.m
        return (f"UPDATE ready_members SET answer = 'timeout', answered_at = {m(2)} "
                f"WHERE check_id = {m(1)} AND answer IS NULL")

    def close(self) -> str:
        m = self.m
        return (f"UPDATE ready_checks SET status = {m(2)}, closed_at = {m(3)} "
                f"WHERE id = {m(1)} AND status = 'open'")

    def check_entries(self) -> str:
        """The entries a check holds (still in the queue)."""
        return f"SELECT id FROM queue_entries WHERE check_id = {self.m(1)}"

    def seat_entries(self) -> str:
        return f"DELETE FROM queue_entries WHERE check_id = {self.m(1)}"

    def unseat(self) -> str:
        """A seating check whose table was not made: failed."""
        return (f"UPDATE ready_checks SET status = 'failed' WHERE id = {self.m(1)} "
                "AND status = 'seated'")

    def seating_checks(self) -> str:
        """The seated checks that still hold their people's entries (their table is not
        known to be made), oldest first."""
        return ("SELECT c.id FROM ready_checks AS c WHERE c.status = 'seated' AND EXISTS "
                "(SELECT 1 FROM queue_entries AS e WHERE e.check_id = c.id) ORDER BY c.id")

    def drop_entries(self, count: int) -> str:
        return f"DELETE FROM queue_entries WHERE id IN ({self.marks(count)})"

    def return_entries(self) -> str:
        return f"UPDATE queue_entries SET check_id = NULL WHERE check_id = {self.m(1)}"

    def due_checks(self) -> str:
        return ("SELECT c.id FROM ready_checks AS c WHERE c.status = 'open' AND ("
                f"c.expires_at <= {self.m(1)} "
                "OR EXISTS (SELECT 1 FROM ready_members AS m WHERE m.check_id = c.id "
                "AND m.answer = 'decline') "
                "OR NOT EXISTS (SELECT 1 FROM ready_members AS m WHERE m.check_id = c.id "
                "AND (m.answer IS NULL OR m.answer <> 'accept'))) ORDER BY c.id")

    def declines(self) -> str:
        m = self.m
        return ("SELECT answered_at FROM ready_members WHERE user_id = "
                f"{m(1)} AND answer IN ('decline', 'timeout') AND answered_at >= {m(2)} "
                "ORDER BY answered_at")

    # -- blocks

    def block_count(self) -> str:
        m = self.m
        return (f"SELECT COUNT(*) AS n, COUNT(CASE WHEN blocked = {m(2)} THEN 1 END) AS had "
                f"FROM blocks WHERE blocker = {m(1)}")

    def insert_block(self) -> str:
        return ("INSERT INTO blocks (blocker, blocked, created_at) VALUES "
                f"({self.marks(3)}) ON CONFLICT DO NOTHING")

    def delete_block(self) -> str:
        return f"DELETE FROM blocks WHERE blocker = {self.m(1)} AND blocked = {self.m(2)}"

    def blocks_of(self) -> str:
        return f"SELECT blocked FROM blocks WHERE blocker = {self.m(1)} ORDER BY blocked"

    def blocks_by(self, count: int) -> str:
        return f"SELECT blocker, blocked FROM blocks WHERE blocker IN ({self.marks(count)})"

    # -- games left early

    def table_exists(self) -> str:
        return f"SELECT 1 FROM tables WHERE id = {self.m(1)}"

    def insert_departure(self) -> str:
        return ("INSERT INTO departures (user_id, table_id, reason, left_at) VALUES "
                f"({self.marks(4)}) ON CONFLICT DO NOTHING")

    def departures(self, count: int) -> str:
        return ("SELECT user_id, COUNT(*) AS n FROM departures WHERE left_at >= "
                f"{self.m(1)} AND user_id IN ({self.marks(count, 2)}) GROUP BY user_id")

    # -- ratings

    def global_rating(self) -> str:
        """The global rating of game 1 of the player key 2."""
        m = self.m
        return f"SELECT ordinal FROM global_ratings WHERE game = {m(1)} AND player = {m(2)}"

    # -- leases

    def take_lease(self) -> str:
        """Parameters: the name, the holder, the seconds (and, on SQLite, now)."""
        m = self.m
        if self.pg:
            until, now = f"clock_timestamp() + make_interval(secs => {m(3)})", \
                "clock_timestamp()"
        else:
            until, now = m(3), m(4)
        return ("INSERT INTO leases AS l (name, holder, epoch, expires_at, renewed_at) "
                f"VALUES ({m(1)}, {m(2)}, 1, {until}, {now}) ON CONFLICT (name) DO UPDATE SET "
                "epoch = CASE WHEN l.holder = excluded.holder THEN l.epoch ELSE l.epoch + 1 END, "
                "holder = excluded.holder, expires_at = excluded.expires_at, "
                "renewed_at = excluded.renewed_at "
                "WHERE l.holder = excluded.holder OR l.expires_at <= excluded.renewed_at "
                "RETURNING epoch")

    def release_lease(self) -> str:
        """Parameters: the name, the holder (and, on SQLite, now)."""
        m = self.m
        now = "clock_timestamp()" if self.pg else m(3)
        return (f"UPDATE leases SET expires_at = {now} WHERE name = {m(1)} AND holder = {m(2)} "
                f"AND expires_at > {now}")

    # -- the sweep

    def sweep(self) -> list[str]:
        """The closed checks (not one left seating: its people's entries), then the
        departures, older than parameter 1."""
        m = self.m
        return [f"DELETE FROM ready_checks WHERE status <> 'open' AND closed_at < {m(1)} "
                "AND NOT EXISTS (SELECT 1 FROM queue_entries AS e "
                "WHERE e.check_id = ready_checks.id)",
                f"DELETE FROM departures WHERE left_at < {m(1)}"]


class QueueStore(ABC, Generic[C]):
    """The queue's methods of :class:`~bot.store.models.Repository`, for both backends
    (what a backend gives: :class:`~bot.store.base.StoreBase`'s generic statements)."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def _transact(self, what: str, work: Callable[[C], Awaitable[T]], *,
                        readonly: bool = False) -> T: ...

    @abstractmethod
    async def _rows(self, conn: C, sql: str, *params: object) -> list[Any]: ...

    @abstractmethod
    async def _change(self, conn: C, sql: str, *params: object) -> int: ...

    def _queue_sql(self) -> QueueSql:
        return QueueSql(self.dialect)

    # -- entries

    async def queue_join(self, entry: QueueEntry) -> QueueEntry:
        """Put a person, or a partner pair, in the queue (see
        :meth:`~bot.store.models.Repository.queue_join`: the refusals)."""
        entry = check_entry(entry)
        sql, d = self._queue_sql(), self.dialect
        joined = _moment(entry.joined_at)
        people = list(zip(entry.people, entry.ratings, strict=True))

        async def work(conn: C) -> QueueEntry:
            queued = {int(r["user_id"]) for r in
                      await self._rows(conn, sql.queued(len(people)), *entry.people)}
            if entry.user_id in queued:
                raise refuse("already_queued", f"user {entry.user_id} is queued already")
            if queued:
                raise refuse("partner_queued", f"the partner {entry.partner_id} is queued "
                             "already")
            if entry.partner_id is not None and await self._rows(
                    conn, sql.blocked_pair(), entry.user_id, entry.partner_id):
                raise refuse("partner_blocked", "one of the partners blocked the other")
            pool = entry.pool
            entry_id = int((await self._rows(
                conn, sql.insert_entry(), pool.game, pool.seats, d.flag(pool.rated),
                entry.locale, entry.fill_after, entry.guild_id, d.time(joined)))[0]["id"])
            for position, (user, rating) in enumerate(people):
                # A person queued at the same moment by another process: skipped here,
                # and the whole transaction refused (rolled back).
                if not await self._rows(conn, sql.insert_person(), user, entry_id, position,
                                        float(rating)):
                    raise refuse("already_queued" if position == 0 else "partner_queued",
                                 f"user {user} was queued meanwhile")
            return entries_from_rows(await self._rows(conn, sql.entry(), entry_id))[0]
        return await self._transact("queue_join", work)

    async def queue_leave(self, user_id: int) -> QueueEntry | None:
        """Take the person's entry (and their partner's place) out of the queue; in an
        open ready check, as their decline."""
        sql, d = self._queue_sql(), self.dialect
        now = utc_now()

        async def work(conn: C) -> QueueEntry | None:
            found = entries_from_rows(await self._rows(conn, sql.entry_of(), user_id))
            if not found:
                return None
            entry = found[0]
            if entry.check_id is not None:
                rows = await self._rows(conn, sql.lock_check(), entry.check_id)
                if rows and rows[0]["status"] == CheckStatus.OPEN.value:
                    await self._change(conn, sql.answer(), entry.check_id, user_id,
                                       Answer.DECLINE.value, d.time(now))
            await self._change(conn, sql.delete_entry(), entry.id)
            return entry
        return await self._transact("queue_leave", work)

    async def queue_entry(self, user_id: int) -> QueueEntry | None:
        """The entry that holds the person (None if they are not queued)."""
        sql = self._queue_sql()

        async def work(conn: C) -> QueueEntry | None:
            found = entries_from_rows(await self._rows(conn, sql.entry_of(), user_id))
            return found[0] if found else None
        return await self._transact("queue_entry", work, readonly=True)

    async def queue_entries(self, pool: Pool) -> list[QueueEntry]:
        """The waiting entries of a pool, first come first."""
        pool = check_pool(pool)
        sql, d = self._queue_sql(), self.dialect

        async def work(conn: C) -> list[QueueEntry]:
            return entries_from_rows(await self._rows(
                conn, sql.pool_entries(), pool.game, pool.seats, d.flag(pool.rated)))
        return await self._transact("queue_entries", work, readonly=True)

    async def queue_counts(self) -> list[PoolCount]:
        """How many wait in each pool that has someone."""
        sql = self._queue_sql()

        async def work(conn: C) -> list[PoolCount]:
            out = []
            for row in await self._rows(conn, sql.counts()):
                where = f"queue of {row['game']!r}"
                out.append(PoolCount(
                    pool=Pool(as_str(row["game"], where), as_int(row["seats"], where),
                              as_flag(row["rated"], where)),
                    entries=as_int(row["entries"], where), people=as_int(row["people"], where),
                    waiting=int(row["waiting"])))
            return out
        return await self._transact("queue_counts", work, readonly=True)

    async def miss_wave(self, entry_ids: Collection[int]) -> int:
        """One more missed wave for each entry still waiting; how many changed."""
        ids = _ids(entry_ids, "entries")
        sql = self._queue_sql()

        async def work(conn: C) -> int:
            return sum([await self._change(conn, sql.miss_wave(len(part)), *part)
                        for part in _chunks(ids)])
        return await self._transact("miss_wave", work) if ids else 0

    # -- ready checks

    async def _check(self, conn: C, check_id: int) -> ReadyCheck | None:
        sql = self._queue_sql()
        rows = await self._rows(conn, sql.check(), check_id)
        if not rows:
            return None
        return check_from_rows(rows[0], await self._rows(conn, sql.members(), check_id))

    async def open_ready_check(self, pool: Pool, seats: Sequence[int | None], *,
                               filled: bool = False, now: datetime | None = None,
                               seconds: float = READY_SECONDS) -> ReadyCheck:
        """Propose a table to the people of ``seats`` (see
        :meth:`~bot.store.models.Repository.open_ready_check`)."""
        pool = check_pool(pool)
        seats = list(seats)
        users = [user for user in seats if user is not None]
        if (len(seats) != pool.seats or not users or len(set(users)) != len(users)
                or not all(_person(user) for user in users)):
            raise refuse("bad_check", f"a table of {pool.seats} seats with each person once, "
                         f"not {seats!r}")
        if not isinstance(filled, bool) or (not filled and len(users) != len(seats)):
            raise refuse("bad_check", "only a table filled by computers has a computer seat")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
                or not 0 < seconds <= 3600:
            raise StoreError("invalid_argument", f"a ready check lasts 0 to 3600 s, not "
                             f"{seconds!r}")
        created = _moment(now)
        expires = created + timedelta(seconds=seconds)
        sql, d = self._queue_sql(), self.dialect

        async def work(conn: C) -> ReadyCheck:
            rows = await self._rows(conn, sql.people_of_entries(len(users)), *users)
            entry_of = {int(r["user_id"]): int(r["entry_id"]) for r in rows}
            missing = [user for user in users if user not in entry_of]
            if missing:
                raise refuse("entry_gone", f"not in the queue: {missing}")
            if set(entry_of) != set(users):
                raise refuse("partner_missing", f"partners without a seat: "
                             f"{sorted(set(entry_of) - set(users))}")
            for row in rows:
                if (row["game"], int(row["seats"]), bool(row["rated"])) != \
                        (pool.game, pool.seats, pool.rated) or row["check_id"] is not None:
                    raise refuse("entry_gone", f"user {row['user_id']} waits in another pool "
                                 "or is in another ready check")
            check_id = int((await self._rows(
                conn, sql.insert_check(), pool.game, pool.seats, d.flag(pool.rated),
                d.flag(filled), d.time(created), d.time(expires)))[0]["id"])
            for seat, user in enumerate(seats):
                if user is not None:
                    await self._change(conn, sql.insert_member(), check_id, user,
                                       entry_of[user], seat)
            entries = sorted(set(entry_of.values()))
            if await self._change(conn, sql.take_entries(len(entries)), check_id,
                                  *entries) != len(entries):
                raise refuse("entry_gone", "an entry was taken meanwhile")
            check = await self._check(conn, check_id)
            assert check is not None
            return check
        return await self._transact("open_ready_check", work)

    async def answer_ready_check(self, check_id: int, user_id: int, accept: bool, *,
                                 now: datetime | None = None) -> ReadyCheck:
        """Note a person's answer (see the refusals in
        :meth:`~bot.store.models.Repository.answer_ready_check`)."""
        moment = _moment(now)
        answer = Answer.ACCEPT if accept else Answer.DECLINE
        sql, d = self._queue_sql(), self.dialect

        async def work(conn: C) -> ReadyCheck:
            rows = await self._rows(conn, sql.lock_check(), check_id)
            if not rows:
                raise refuse("no_check", f"no ready check {check_id}")
            if rows[0]["status"] != CheckStatus.OPEN.value:
                raise refuse("check_closed", f"ready check {check_id} is closed")
            if moment >= parse_timestamp(rows[0]["expires_at"], "ready check expires_at"):
                raise refuse("check_expired", f"ready check {check_id} has expired")
            check = await self._check(conn, check_id)
            assert check is not None
            member = check.member(user_id)
            if member is None:
                raise refuse("not_in_check", f"user {user_id} is not in ready check {check_id}")
            if member.answer is not None:
                raise refuse("already_answered", f"user {user_id} answered already")
            await self._change(conn, sql.answer(), check_id, user_id, answer.value,
                               d.time(moment))
            check = await self._check(conn, check_id)
            assert check is not None
            return check
        return await self._transact("answer_ready_check", work)

    async def note_ready_message(self, check_id: int, user_id: int,
                                 message: ReadyMessage) -> bool:
        """Keep a member's ready check message (see
        :meth:`~bot.store.models.Repository.note_ready_message`)."""
        if not isinstance(message, ReadyMessage) or not _person(message.channel_id) \
                or not _person(message.message_id) or not isinstance(message.locale, str) \
                or not message.locale:
            raise StoreError("invalid_argument", f"a ready check message, not {message!r}")
        sql = self._queue_sql()

        async def work(conn: C) -> bool:
            return await self._change(conn, sql.note_message(), check_id, user_id,
                                      message.channel_id, message.message_id,
                                      message.locale) == 1
        return await self._transact("note_ready_message", work)

    async def close_ready_check(self, check_id: int, *,
                                now: datetime | None = None) -> ReadyOutcome:
        """Close a decided check (see :meth:`~bot.store.models.Repository.close_ready_check`)."""
        moment = _moment(now)
        sql, d = self._queue_sql(), self.dialect

        async def work(conn: C) -> ReadyOutcome:
            rows = await self._rows(conn, sql.lock_check(), check_id)
            if not rows:
                raise refuse("no_check", f"no ready check {check_id}")
            if rows[0]["status"] != CheckStatus.OPEN.value:
                raise refuse("check_closed", f"ready check {check_id} is closed")
            check = await self._check(conn, check_id)
            assert check is not None
            expired = moment >= check.expires_at
            waiting = {int(r["id"]) for r in await self._rows(conn, sql.check_entries(),
                                                               check_id)}
            answers = [m.answer for m in check.members]
            everyone = all(a is Answer.ACCEPT for a in answers)
            if everyone and {m.entry_id for m in check.members} <= waiting:
                # Seating: the entries stay, held by the check, until its table started
                # (seat_ready_check) or was not made (unseat_ready_check).
                await self._change(conn, sql.close(), check_id, CheckStatus.SEATED.value,
                                   d.time(moment))
                return ReadyOutcome(check=await self._closed(conn, check_id))
            if not (everyone or expired or Answer.DECLINE in answers):
                raise refuse("check_open", f"ready check {check_id} still waits for answers")
            if expired:
                await self._change(conn, sql.time_out(), check_id, d.time(moment))
            out = {m.entry_id for m in check.members
                   if m.answer is Answer.DECLINE or (expired and m.answer is None)}
            out |= {m.entry_id for m in check.members} - waiting
            dropped = sorted(out & waiting)
            if dropped:
                await self._change(conn, sql.drop_entries(len(dropped)), *dropped)
            await self._change(conn, sql.return_entries(), check_id)
            await self._change(conn, sql.close(), check_id, CheckStatus.FAILED.value,
                               d.time(moment))
            return ReadyOutcome(
                check=await self._closed(conn, check_id),
                returned=tuple(m.user_id for m in check.members if m.entry_id not in out),
                removed=tuple(m.user_id for m in check.members if m.entry_id in out))
        return await self._transact("close_ready_check", work)

    async def seat_ready_check(self, check_id: int) -> int:
        """The table of a seating check started: its entries leave the queue (see
        :meth:`~bot.store.models.Repository.seat_ready_check`)."""
        sql = self._queue_sql()

        async def work(conn: C) -> int:
            await self._seating(conn, check_id)
            return await self._change(conn, sql.seat_entries(), check_id)
        return await self._transact("seat_ready_check", work)

    async def unseat_ready_check(self, check_id: int, *, requeue: bool) -> ReadyOutcome:
        """The table of a seating check was not made (see
        :meth:`~bot.store.models.Repository.unseat_ready_check`)."""
        sql = self._queue_sql()

        async def work(conn: C) -> ReadyOutcome:
            check = await self._seating(conn, check_id)
            held = {int(r["id"]) for r in await self._rows(conn, sql.check_entries(),
                                                            check_id)}
            if requeue:
                await self._change(conn, sql.return_entries(), check_id)
            else:
                await self._change(conn, sql.seat_entries(), check_id)
            await self._change(conn, sql.unseat(), check_id)
            back = {m.user_id for m in check.members if requeue and m.entry_id in held}
            return ReadyOutcome(
                check=await self._closed(conn, check_id),
                returned=tuple(m.user_id for m in check.members if m.user_id in back),
                removed=tuple(m.user_id for m in check.members if m.user_id not in back))
        return await self._transact("unseat_ready_check", work)

    async def _seating(self, conn: C, check_id: int) -> ReadyCheck:
        """The check, locked, if it is seating (else QueueRefusedError ``no_check``,
        ``not_seating``)."""
        if not await self._rows(conn, self._queue_sql().lock_check(), check_id):
            raise refuse("no_check", f"no ready check {check_id}")
        check = await self._check(conn, check_id)
        assert check is not None
        if check.status is not CheckStatus.SEATING:
            raise refuse("not_seating", f"ready check {check_id} is not seating")
        return check

    async def seating_ready_checks(self) -> list[int]:
        """The checks left seating, oldest first."""
        sql = self._queue_sql()

        async def work(conn: C) -> list[int]:
            return [int(r["id"]) for r in await self._rows(conn, sql.seating_checks())]
        return await self._transact("seating_ready_checks", work, readonly=True)

    async def _closed(self, conn: C, check_id: int) -> ReadyCheck:
        check = await self._check(conn, check_id)
        assert check is not None
        return check

    async def ready_check(self, check_id: int) -> ReadyCheck | None:
        """The check with its members (None if there is none)."""
        async def work(conn: C) -> ReadyCheck | None:
            return await self._check(conn, check_id)
        return await self._transact("ready_check", work, readonly=True)

    async def due_ready_checks(self, now: datetime | None = None) -> list[int]:
        """The open checks decided by now, oldest first."""
        moment = self.dialect.time(_moment(now))
        sql = self._queue_sql()

        async def work(conn: C) -> list[int]:
            return [int(r["id"]) for r in await self._rows(conn, sql.due_checks(), moment)]
        return await self._transact("due_ready_checks", work, readonly=True)

    async def recent_declines(self, user_id: int, since: datetime) -> list[datetime]:
        """When the person declined or let a check time out since ``since``."""
        moment = self.dialect.time(_moment(since))
        sql = self._queue_sql()

        async def work(conn: C) -> list[datetime]:
            return [parse_timestamp(r["answered_at"], "a decline")
                    for r in await self._rows(conn, sql.declines(), user_id, moment)]
        return await self._transact("recent_declines", work, readonly=True)

    # -- blocks

    async def block(self, blocker: int, blocked: int, *, now: datetime | None = None) -> bool:
        """``blocker`` blocks ``blocked`` (False: blocked already)."""
        check_person(blocker)
        check_person(blocked, "the person blocked")
        if blocker == blocked:
            raise refuse("block_self", "a person cannot block themselves")
        moment = self.dialect.time(_moment(now))
        sql = self._queue_sql()

        async def work(conn: C) -> bool:
            row = (await self._rows(conn, sql.block_count(), blocker, blocked))[0]
            if int(row["had"]):
                return False
            if int(row["n"]) >= MAX_BLOCKS:
                raise refuse("too_many_blocks", f"user {blocker} blocked {MAX_BLOCKS} people")
            return await self._change(conn, sql.insert_block(), blocker, blocked, moment) == 1
        return await self._transact("block", work)

    async def unblock(self, blocker: int, blocked: int) -> bool:
        """Remove a block; whether there was one."""
        sql = self._queue_sql()

        async def work(conn: C) -> bool:
            return await self._change(conn, sql.delete_block(), blocker, blocked) > 0
        return await self._transact("unblock", work)

    async def blocks_of(self, user_id: int) -> list[int]:
        """The people the person blocked."""
        sql = self._queue_sql()

        async def work(conn: C) -> list[int]:
            return [int(r["blocked"]) for r in await self._rows(conn, sql.blocks_of(), user_id)]
        return await self._transact("blocks_of", work, readonly=True)

    async def blocks_among(self, user_ids: Iterable[int]) -> set[tuple[int, int]]:
        """The blocks between people of ``user_ids``."""
        people = _ids(user_ids, "people")
        among = set(people)
        sql = self._queue_sql()

        async def work(conn: C) -> set[tuple[int, int]]:
            found: set[tuple[int, int]] = set()
            for part in _chunks(people):
                for row in await self._rows(conn, sql.blocks_by(len(part)), *part):
                    if int(row["blocked"]) in among:
                        found.add((int(row["blocker"]), int(row["blocked"])))
            return found
        return await self._transact("blocks_among", work, readonly=True) if people else set()

    # -- games left early

    async def record_departure(self, user_id: int, table_id: int, *, reason: str = "left",
                               when: datetime | None = None) -> bool:
        """Note a game left early (once per person and table)."""
        check_person(user_id)
        if reason not in REASONS:
            raise refuse("bad_reason", f"a departure is {REASONS}, not {reason!r}")
        moment = self.dialect.time(_moment(when))
        sql = self._queue_sql()

        async def work(conn: C) -> bool:
            if not await self._rows(conn, sql.table_exists(), table_id):
                raise table_missing(table_id)
            return await self._change(conn, sql.insert_departure(), user_id, table_id,
                                      reason, moment) == 1
        return await self._transact("record_departure", work)

    async def left_early(self, user_ids: Iterable[int], *,
                         since: datetime) -> dict[int, int]:
        """How many games each left early since ``since`` (those with one or more)."""
        people = _ids(user_ids, "people")
        moment = self.dialect.time(_moment(since))
        sql = self._queue_sql()

        async def work(conn: C) -> dict[int, int]:
            found: dict[int, int] = {}
            for part in _chunks(people):
                for row in await self._rows(conn, sql.departures(len(part)), moment, *part):
                    found[int(row["user_id"])] = int(row["n"])
            return found
        return await self._transact("left_early", work, readonly=True) if people else {}

    # -- ratings

    async def queue_rating(self, user_id: int, game: str) -> float | None:
        """The person's global rating of the game (issue 53: every rated game anywhere,
        whichever server or direct messages they queue from), as the leaderboard shows
        it."""
        sql = self._queue_sql()

        async def work(conn: C) -> float | None:
            rows = await self._rows(conn, sql.global_rating(), game, f"u:{user_id}")
            return as_float(rows[0]["ordinal"], "a rating") if rows else None
        return await self._transact("queue_rating", work, readonly=True)

    # -- leases

    async def take_lease(self, name: str, holder: str, seconds: float) -> int | None:
        """Take or renew a lease; its epoch while held, None if another holds it."""
        if not isinstance(name, str) or not name or not isinstance(holder, str) or not holder:
            raise StoreError("invalid_argument", "a lease and its holder are non-empty texts")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
                or not 0 < seconds <= 86400:
            raise StoreError("invalid_argument", f"a lease lasts 0 to 86400 s, not {seconds!r}")
        sql, d = self._queue_sql(), self.dialect
        if sql.pg:
            params: tuple[object, ...] = (name, holder, float(seconds))
        else:
            now = utc_now()
            params = (name, holder, d.time(now + timedelta(seconds=seconds)), d.time(now))

        async def work(conn: C) -> int | None:
            rows = await self._rows(conn, sql.take_lease(), *params)
            return int(rows[0]["epoch"]) if rows else None
        return await self._transact("take_lease", work)

    async def release_lease(self, name: str, holder: str) -> bool:
        """Let the lease go if ``holder`` holds it."""
        sql, d = self._queue_sql(), self.dialect
        params: tuple[object, ...] = (name, holder) if sql.pg else \
            (name, holder, d.time(utc_now()))

        async def work(conn: C) -> bool:
            return await self._change(conn, sql.release_lease(), *params) > 0
        return await self._transact("release_lease", work)

    # -- the sweep

    async def sweep_queue(self, now: datetime | None = None) -> int:
        """Delete the ready checks closed over an hour ago (but those left seating) and
        the games left early over 30 days ago; how many rows went."""
        moment = _moment(now)
        sql, d = self._queue_sql(), self.dialect
        checks, departures = sql.sweep()

        async def work(conn: C) -> int:
            gone = await self._change(conn, checks, d.time(moment - READY_CHECKS_KEPT))
            return gone + await self._change(conn, departures,
                                             d.time(moment - DEPARTURES_KEPT))
        return await self._transact("sweep_queue", work)
