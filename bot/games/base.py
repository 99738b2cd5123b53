"""What the shared table machinery needs from each game.

The lobby, seats, lock, store, timers, computer players, presenter, refusals
and commands are built once (``bot/tables``, ``bot/views``, ``bot/cogs``); a
game brings its rules (through its engine package) and its messages.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.store.models import GameResult, TableRecord
from engine.replay import game_from_replay

if TYPE_CHECKING:
    from bot.tables.ids import ComponentId
    from bot.tables.table import LogEntry, Table
    from bot.views.controller import Controller


@dataclass(slots=True)
class HandMessage:
    """A seat's private message: text, the hand image, the controls."""

    content: str
    image: bytes | None
    view: discord.ui.View

    def files(self) -> list[discord.File]:
        if self.image is None:
            return []
        return [discord.File(io.BytesIO(self.image), filename="hand.png")]


@dataclass(slots=True)
class PublicMessage:
    """A message everyone sees, built only from public information."""

    content: str
    image: bytes | None
    view: discord.ui.View | None
    filename: str = "table.png"

    def files(self) -> list[discord.File]:
        if self.image is None:
            return []
        return [discord.File(io.BytesIO(self.image), filename=self.filename)]


@dataclass(frozen=True, slots=True)
class Option:
    """A ``/<game> new`` option: its name, type and limits (the cog builds the command)."""

    name: str
    kind: type
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()


class GameSpec(Protocol):
    """One game, as the bot hosts it."""

    name: str
    """The game's engine package and command group: ``tichu``, ``chinois``, ``tysiacha``."""
    levels: tuple[str, ...]
    """Computer levels, weakest first."""
    team_size: int
    """2 for Tichu (seats s and s+n/2 are partners), 1 where everyone plays alone."""

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

    def describe(self, applied: Any) -> list[LogEntry]:
        """The table-log lines of an applied action."""

    def result(self, table: Table) -> GameResult:
        """The record of a finished game."""

    def ping_key(self, game: Any) -> str:
        """The catalog key of the "your turn" ping for the current phase."""

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           state: str | None = None, bombs_only: bool = False) -> HandMessage:
        """The seat's private message now. ``state`` is a game's own multi-step choice."""

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        """The public table message (image, recent plays, buttons)."""

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        """A message to post for a log entry (a round summary, the final sheet), or None."""

    def new_command(self, bot: Any) -> Any:
        """The ``/<game> new`` callback with the game's options (it calls
        :func:`bot.cogs.games.open_table`)."""

    async def handle(self, controller: Controller, interaction: discord.Interaction[Any],
                     table: Table, seat: int, cid: ComponentId, values: list[str],
                     locale: str) -> None:
        """A game-specific click on the seat's private message (already acknowledged)."""


class GameModules:
    """The part of a spec every game shares: its package holds modules of the same names
    (``log.describe``, ``results.game_result``, ``table.table_message`` and
    ``table.announcement``, ``controls.handle``, ``commands.new_command``) and its engine
    package ``engine.<name>.actions`` the JSON form of its actions. Looked up when first
    used, so the modules may import the shared machinery freely."""

    name: str

    def _module(self, module: str) -> Any:
        return importlib.import_module(f"bot.games.{self.name}.{module}")

    def action_from_json(self, data: Any) -> Any:
        return importlib.import_module(f"engine.{self.name}.actions").action_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        out: dict[str, Any] = importlib.import_module(
            f"engine.{self.name}.actions").action_to_json(action)
        return out

    def describe(self, applied: Any) -> list[LogEntry]:
        lines: list[LogEntry] = self._module("log").describe(applied)
        return lines

    def result(self, table: Table) -> GameResult:
        """The finished game's record. Its per-player figures are computed from its
        replay (the action log stored with it), so stored figures and log never drift
        apart: :meth:`stats_from_replay` gives them back from any stored game."""
        result: GameResult = self._module("results").game_result(table)
        derived = self.stats_from_replay(result.replay)
        for player in result.players:
            player.stats = derived[player.seat]
        return result

    def stats_from_replay(self, replay: Mapping[str, Any]) -> dict[int, dict[str, int]]:
        """Per seat, the figures of a stored game, recomputed from its replay."""
        game = game_from_replay(replay)
        stats = self._module("results").player_stats
        return {seat: stats(game, seat) for seat in range(game.n_seats)}

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        message: PublicMessage = await self._module("table").table_message(table, locale)
        return message

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        message: PublicMessage | None = await self._module("table").announcement(
            table, entry, locale)
        return message

    def new_command(self, bot: Any) -> Any:
        return self._module("commands").new_command(bot)

    async def handle(self, controller: Controller, interaction: discord.Interaction[Any],
                     table: Table, seat: int, cid: ComponentId, values: list[str],
                     locale: str) -> None:
        await self._module("controls").handle(controller, interaction, table, seat, cid,
                                              values, locale)
