"""What the table machinery needs to know of a game's rules (no Discord here).

Each game package implements it as part of its :class:`bot.games.base.GameSpec`;
the table service is given the games it hosts, so this layer never imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.store.models import GameResult, TableRecord


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the table's text log, rendered later in the reader's language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)
    announce: bool = False
    """Whether the presenter also posts a message for it (a deal summary, the end)."""



class TableRules(Protocol):
    """One game's rules glue, as the game-agnostic tables use it."""

    name: str
    """The game's engine package and command group: ``tichu``, ``chinois``, ``tysiacha``."""
    levels: tuple[str, ...]
    """Computer levels, weakest first."""
    team_size: int
    """How many seats form a team (1 where everyone plays alone)."""

    def seat_count(self, options: Mapping[str, Any]) -> int:
        """How many seats a table with these options has."""

    def new_game(self, record: TableRecord) -> Any:
        """The engine game of a table, from its seed and options."""

    def action_from_json(self, data: Any) -> Any: ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def due_seats(self, game: Any) -> tuple[int, ...]:
        """Seats that must act before the game can go on (pinged, timed)."""

    def optional_seats(self, game: Any) -> tuple[int, ...]:
        """Other seats a computer player may act for now (a Tichu bomb, a redeal)."""

    def is_move(self, action: Any) -> bool:
        """Whether ``action`` is one of the seat's turn decisions. A control for a move
        carries the seat's move count, so a repeated click or a control from before the
        seat's last move never applies; other decisions (a call, the Grand Tichu choice,
        the exchange) can be made once and the engine refuses a repeat."""

    def computer_task(self, table: Any, seat: int, level: str,
                      purpose: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """What a worker process runs for a computer's decision for ``seat`` at ``table``
        (``purpose``: ``ai`` for a computer seat, ``timer`` for a person's time run out):
        a picklable function and its arguments. Deterministic, so a table replays the
        same way after a restart."""

    def describe(self, applied: Any) -> list[LogEntry]:
        """The table-log lines of an applied action."""

    def result(self, table: Any) -> GameResult:
        """The record of a finished game (``table`` is the :class:`~bot.tables.table.Table`)."""
