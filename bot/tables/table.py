"""One table at run time: its stored record, its game rebuilt from the log, its lock."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.store.models import CorruptRowError, SeatRecord, TableRecord, TableStatus
from engine.errors import EngineError
from engine.tichu.actions import Action, action_from_json
from engine.tichu.game import Applied, TichuGame
from engine.tichu.view import Phase

LOG_SIZE = 8
DEFAULT_TARGET = 1000


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the table's text log, rendered later in the reader's language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)


def seat_kind(seat: SeatRecord) -> SeatKind:
    if seat.user_id is not None:
        return SeatKind.HUMAN
    if seat.bot_level is not None:
        return SeatKind.COMPUTER
    return SeatKind.EMPTY


class Table:
    """A table: lobby or game. All changes go through :class:`~bot.tables.service.TableService`
    under :attr:`lock`."""

    def __init__(self, record: TableRecord, game: TichuGame | None = None) -> None:
        self.record = record
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
    def target(self) -> int:
        return int(self.record.options.get("target", DEFAULT_TARGET))

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

    def names(self) -> list[str]:
        return [s.name for s in self.record.seats]

    def humans(self) -> list[int]:
        return [s.seat for s in self.record.seats if s.user_id is not None]

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    # --------------------------------------------------------------- events
    def note(self, applied: Applied) -> None:
        """Add the text-log lines of an applied action."""
        for entry in describe(applied):
            self.log.append(entry)
            if entry.key in ("log.deal_over", "log.game_over"):
                self.announcements.append(entry)

    # -------------------------------------------------------------- rebuild
    @classmethod
    def rebuild(cls, record: TableRecord) -> Table:
        """A table from its stored record: the game replayed from seed and actions."""
        if record.status is not TableStatus.PLAYING and not record.actions:
            return cls(record)
        table = cls(record, new_game(record))
        assert table.game is not None
        for stored in record.actions:
            try:
                action = action_from_json(stored.payload)
                if table.game.phase is Phase.DEAL_OVER:
                    table.game.next_deal()
                table.note(table.game.apply(action))
            except EngineError as exc:
                raise CorruptRowError(
                    f"table {record.id}: action {stored.seq} does not replay ({exc})") from None
        if table.game.phase is Phase.DEAL_OVER:
            table.game.next_deal()
        table.announcements.clear()
        return table


def new_game(record: TableRecord) -> TichuGame:
    target = record.options.get("target", DEFAULT_TARGET)
    if not isinstance(target, int) or target <= 0:
        raise CorruptRowError(f"table {record.id}: bad target {target!r}")
    return TichuGame(seed=record.seed, target=target)


def describe(applied: Applied) -> list[LogEntry]:
    """The log lines of one applied action (keys of the ``log.*`` catalog entries)."""
    from engine.tichu.actions import CallTichu, DeclineGrand, Exchange, Gift, GrandTichu, Pass

    action: Action = applied.action
    seat = action.seat
    out: list[LogEntry] = []
    if isinstance(action, GrandTichu):
        out.append(LogEntry("log.grand_tichu", {"seat": seat}))
    elif isinstance(action, CallTichu):
        out.append(LogEntry("log.tichu", {"seat": seat}))
    elif isinstance(action, DeclineGrand | Exchange):
        pass
    elif isinstance(action, Pass):
        out.append(LogEntry("log.pass", {"seat": seat}))
    elif isinstance(action, Gift):
        out.append(LogEntry("log.gift", {"seat": seat, "to": action.to}))
    elif applied.combo is not None:
        key = "log.bomb" if applied.combo.is_bomb else "log.play"
        out.append(LogEntry(key, {"seat": seat, "combo": applied.combo, "wish": action_wish(action)}))
    if applied.exchange_done:
        out.append(LogEntry("log.exchange_done", {"lead": applied.lead}))
    if applied.wish_fulfilled:
        out.append(LogEntry("log.wish_fulfilled", {"seat": seat}))
    if applied.went_out:
        out.append(LogEntry("log.out", {"seat": seat}))
    if applied.trick_taken_by is not None:
        out.append(LogEntry("log.trick", {"seat": applied.trick_taken_by}))
    if applied.deal_result is not None:
        out.append(LogEntry("log.deal_over", {"number": applied.deal_result.number,
                                              "scores": applied.deal_result.scores}))
    if applied.winner is not None:
        out.append(LogEntry("log.game_over", {"team": applied.winner}))
    return out


def action_wish(action: Action) -> int | None:
    return getattr(action, "wish", None)
