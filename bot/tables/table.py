"""One table at run time: its stored record, its game rebuilt from the log, its lock."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.store.models import CorruptRowError, SeatRecord, TableRecord, TableStatus
from engine.errors import EngineError

if TYPE_CHECKING:
    from bot.games.base import GameSpec

LOG_SIZE = 8
OVER = ("deal_over", "game_over")


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the table's text log, rendered later in the reader's language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)
    announce: bool = False
    """Whether the presenter also posts a message for it (a deal summary, the end)."""


def seat_kind(seat: SeatRecord) -> SeatKind:
    if seat.user_id is not None:
        return SeatKind.HUMAN
    if seat.bot_level is not None:
        return SeatKind.COMPUTER
    return SeatKind.EMPTY


def phase_of(game: Any) -> str:
    """The engine phase as plain text (every engine's Phase is a StrEnum)."""
    return str(game.phase.value)


class Table:
    """A table: lobby or game. All changes go through :class:`~bot.tables.service.TableService`
    under :attr:`lock`."""

    def __init__(self, record: TableRecord, spec: GameSpec, game: Any = None) -> None:
        self.record = record
        self.spec = spec
        self.game = game
        self.lock = asyncio.Lock()
        self.seq = len(record.actions)
        self.last_activity = time.monotonic()
        self.log: deque[LogEntry] = deque(maxlen=LOG_SIZE)
        self.announcements: list[LogEntry] = []
        """Deal summaries and the like, waiting for the presenter to post them."""

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
        value = self.record.options.get("turn_timer")
        return float(value) if value else None

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

    # --------------------------------------------------------------- events
    def note(self, applied: Any) -> None:
        """Add the text-log lines of an applied action."""
        for entry in self.spec.describe(applied):
            self.log.append(entry)
            if entry.announce:
                self.announcements.append(entry)

    # -------------------------------------------------------------- rebuild
    @classmethod
    def rebuild(cls, record: TableRecord, spec: GameSpec) -> Table:
        """A table from its stored record: the game replayed from seed and actions."""
        if record.status is not TableStatus.PLAYING and not record.actions:
            return cls(record, spec)
        try:
            table = cls(record, spec, spec.new_game(record))
        except EngineError as exc:
            raise CorruptRowError(f"table {record.id}: cannot start its game ({exc})") from None
        game = table.game
        for stored in record.actions:
            try:
                action = spec.action_from_json(stored.payload)
                if phase_of(game) == "deal_over":
                    game.next_deal()
                table.note(game.apply(action))
            except EngineError as exc:
                raise CorruptRowError(
                    f"table {record.id}: action {stored.seq} does not replay ({exc})") from None
        if phase_of(game) == "deal_over":
            game.next_deal()
        table.announcements.clear()
        return table
