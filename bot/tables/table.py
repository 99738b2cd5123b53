"""One table at run time: its stored record, its game rebuilt from the log, its lock."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.store.models import CorruptRowError, SeatRecord, TableRecord, TableStatus, TalkLine
from bot.tables.phrases import PHRASES
from bot.tables.rules import LogEntry
from engine.errors import EngineError

if TYPE_CHECKING:
    from bot.tables.rules import TableRules

LOG_SIZE = 8
OVER = ("deal_over", "game_over")
TALK_KEY = "log.talk"
"""The log line of a phrase said at the table: ``{name}: {phrase}``, the phrase (its
key, ``values["phrase"]``) in each reader's language."""


def talk_entry(line: TalkLine) -> LogEntry:
    """The table-log line of a phrase said."""
    return LogEntry(TALK_KEY, {"seat": line.seat, "phrase": line.phrase})


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    COMPUTER = "computer"


def seat_kind(seat: SeatRecord) -> SeatKind:
    """Who plays the seat now: a person, a computer (also for a person who is away after
    missing their turns), or nobody yet."""
    if seat.user_id is not None and not seat.away:
        return SeatKind.HUMAN
    if seat.bot_level is not None:
        return SeatKind.COMPUTER
    return SeatKind.EMPTY


def phase_of(game: Any) -> str:
    """The engine phase as plain text (every engine's Phase is a StrEnum)."""
    return str(game.phase.value)


class Table:
    """A table: lobby or game. All changes go through :class:`~bot.tables.core.TableCore`
    under :attr:`lock`."""

    def __init__(self, record: TableRecord, spec: TableRules, game: Any = None) -> None:
        self.record = record
        self.spec = spec
        self.game = game
        self.lock = asyncio.Lock()
        self.seq = len(record.actions)
        self.last_activity = time.monotonic()
        n = len(record.seats)
        self.moves = [0] * n
        """Per seat: how many turn decisions (:meth:`TableRules.is_move`) it has made."""
        self.misses = [0] * n
        """Per seat: its decisions a computer made in a row for its person, their time run
        out (``by`` ``timer``) or their seat kept while they are away (``away``); their
        own decision, or their coming back (:attr:`back_at`), starts it again."""
        self.due_since: dict[int, float] = {}
        """Seats a person must act for, with the wall-clock time they became due."""
        self.last_human = _epoch(record.updated_at or record.created_at)
        """Wall-clock time of the last action a person made (or the table's last change)."""
        self.log: deque[LogEntry] = deque(maxlen=LOG_SIZE)
        self.announcements: list[LogEntry] = []
        """Deal summaries and the like, waiting for the presenter to post them."""
        self.unsure = False
        """A write of this table failed without an answer (the database went away): the
        store may hold it or not, so the table is read again before its next change."""
        self.unrecorded = False
        """The game is over and its last action stored, but its result, rating and history
        are not yet (the store failed in between): they are recorded as soon as it answers."""

    # ------------------------------------------------------------ properties
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def status(self) -> TableStatus:
        return self.record.status

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    @property
    def n_seats(self) -> int:
        return len(self.record.seats)

    @property
    def target(self) -> Any:
        return self.record.options.get("target")

    @property
    def turn_timer(self) -> float | None:
        """Seconds a person has for a decision; None when the table has no timer."""
        value = self.record.options.get("turn_timer")
        return float(value) if isinstance(value, int | float) and value > 0 else None

    def deadline(self, seat: int) -> float | None:
        """When the seat's time for its current decision runs out (wall clock)."""
        limit = self.turn_timer
        since = self.due_since.get(seat)
        return None if limit is None or since is None else since + limit

    @property
    def private(self) -> bool:
        """A table played alone, in its person's private panel only (a daily board): no
        thread, no public message, no ping."""
        return self.record.options.get("private") is True

    @property
    def direct(self) -> bool:
        """A table shown in its seats' direct messages (``options["surface"]`` is
        ``"direct"``): each seat's DM holds one live panel, the table and its hand; no
        server, no thread (its guild is 0, driven by the process of shard 0)."""
        return self.record.options.get("surface") == "direct"

    @property
    def finish_at(self) -> float | None:
        """When (wall clock) the computers finish the game for its people, if ever (a
        daily board left unfinished at the end of its day)."""
        value = self.record.options.get("finish_at")
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
            else None

    @property
    def out(self) -> dict[int, tuple[int, str]]:
        """Per seat, the person who lost it for good (the seat is a computer's for the rest
        of the game): gone for :data:`~bot.tables.drivers.MISSES_BEFORE_OUT` decisions in
        a row at a table in DMs, or left it; kept in ``options["out"]`` so that the
        result counts them as the seat's player and their later clicks are refused."""
        stored = self.record.options.get("out")
        found: dict[int, tuple[int, str]] = {}
        if isinstance(stored, dict):
            for seat, entry in stored.items():
                if str(seat).isdigit() and isinstance(entry, list) and len(entry) == 2 \
                        and isinstance(entry[0], int) and isinstance(entry[1], str):
                    found[int(seat)] = (entry[0], entry[1])
        return found

    def lost_seat(self, user_id: int) -> bool:
        """Whether ``user_id`` lost their seat here for good (:attr:`out`)."""
        return any(user == user_id for user, _ in self.out.values())

    @property
    def back_at(self) -> dict[int, int]:
        """Per seat, the count of actions when its person last came back to the seat a
        computer kept (``options["back"]``): the misses counted before it no longer
        count, after a restart too."""
        stored = self.record.options.get("back")
        return {int(k): v for k, v in stored.items() if str(k).isdigit()
                and isinstance(v, int) and not isinstance(v, bool)} \
            if isinstance(stored, dict) else {}

    @property
    def end_votes(self) -> list[int]:
        """People who voted to end the table."""
        votes = self.record.options.get("end_votes", [])
        return [v for v in votes if isinstance(v, int)] if isinstance(votes, list) else []

    @property
    def drafts(self) -> dict[int, dict[str, Any]]:
        """Per seat, its choice in progress (exchange picks, the menu page it looks at)."""
        return self.record.drafts

    def humans(self) -> list[int]:
        """Seats where a person sits (also one who is away)."""
        return [s.seat for s in self.record.seats if s.user_id is not None]

    @property
    def channel_id(self) -> int:
        """Where the table plays: its thread if it has one, else the channel."""
        return self.record.thread_id or self.record.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for s in self.record.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def kind(self, seat: int) -> SeatKind:
        return seat_kind(self.record.seats[seat])

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def idle(self, seat: int, now: float | None = None) -> bool:
        """Whether the person of ``seat`` has stopped playing it: they are away (a computer
        keeps the seat after missed turns), the turn timer made their last decision for
        them (they have not acted since), or their time for the current one has run out.
        Only such a seat may be handed to a computer by its host
        (:meth:`~bot.tables.seats.Seats.takeover`); all of it is rebuilt from the
        store (the seat's ``away``, each action's ``by``)."""
        if self.seats[seat].away or self.misses[seat] > 0:
            return True
        deadline = self.deadline(seat)
        return deadline is not None and deadline <= (time.time() if now is None else now)

    # --------------------------------------------------------------- events
    def count(self, action: Any, by: str) -> None:
        """Keep the per-seat counters of an applied action."""
        seat = getattr(action, "seat", None)
        if not isinstance(seat, int) or not 0 <= seat < len(self.moves):
            return
        if self.spec.is_move(action):
            self.moves[seat] += 1
        if by in ("timer", "away"):
            self.misses[seat] += 1
        elif by == "human":
            self.misses[seat] = 0

    def note(self, applied: Any) -> None:
        """Add the text-log lines of an applied action."""
        for entry in self.spec.describe(applied):
            self.log.append(entry)
            if entry.announce:
                self.announcements.append(entry)

    @property
    def talk(self) -> list[TalkLine]:
        """The phrases said at the table, in order (stored: ``record.talk``)."""
        return self.record.talk

    def said(self, line: TalkLine) -> None:
        """Add a stored phrase to the table's talk and its log."""
        self.record.talk.append(line)
        self.log.append(talk_entry(line))

    # -------------------------------------------------------------- rebuild
    def adopt(self, fresh: Table) -> None:
        """Take the state of ``fresh`` (the same table rebuilt from the store), keeping
        this object, its lock and the deadlines of the seats still due: everything that
        holds this table goes on with the stored truth."""
        self.record = fresh.record
        self.game = fresh.game
        self.seq = fresh.seq
        self.moves = fresh.moves
        self.misses = fresh.misses
        self.last_human = fresh.last_human
        self.log = fresh.log
        self.unsure = False
        self.unrecorded = fresh.game_over and self.status is TableStatus.PLAYING

    @property
    def game_over(self) -> bool:
        """Whether the game has ended (its last action is applied)."""
        return self.game is not None and phase_of(self.game) == "game_over"

    @classmethod
    def rebuild(cls, record: TableRecord, spec: TableRules) -> Table:
        """A table from its stored record: the game replayed from seed and actions."""
        if record.status is not TableStatus.PLAYING and not record.actions:
            return cls(record, spec)
        try:
            table = cls(record, spec, spec.new_game(record))
        except EngineError as exc:
            raise CorruptRowError(f"table {record.id}: cannot start its game ({exc})") from None
        game = table.game
        # Each phrase said goes in the log where it was said: after the actions the
        # table had then (a phrase no longer offered is left out of the log).
        talk = [line for line in record.talk if line.phrase in PHRASES]
        waiting = 0
        back = table.back_at
        for stored in record.actions:
            while waiting < len(talk) and talk[waiting].after < stored.seq:
                table.log.append(talk_entry(talk[waiting]))
                waiting += 1
            for seat, at in back.items():  # its person came back after action ``at``
                if at == stored.seq - 1 and 0 <= seat < table.n_seats:
                    table.misses[seat] = 0
            try:
                action = spec.action_from_json(stored.payload)
                if phase_of(game) == "deal_over":
                    game.next_deal()
                table.note(game.apply(action))
                by = stored.payload.get("by", "human")
                table.count(action, by)
                if by == "human" and stored.created_at is not None:
                    table.last_human = max(table.last_human, _epoch(stored.created_at))
            except EngineError as exc:
                raise CorruptRowError(
                    f"table {record.id}: action {stored.seq} does not replay ({exc})") from None
        for line in talk[waiting:]:
            table.log.append(talk_entry(line))
        for seat, at in back.items():
            if at == table.seq and 0 <= seat < table.n_seats:
                table.misses[seat] = 0
        if phase_of(game) == "deal_over":
            game.next_deal()
        table.announcements.clear()
        table.unrecorded = table.game_over and record.status is TableStatus.PLAYING
        return table


def _epoch(moment: datetime | None) -> float:
    return moment.timestamp() if moment is not None else time.time()
