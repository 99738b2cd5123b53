"""Chinois as the bot hosts it: four seats, each for itself, 28 rounds (1…13…1 cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import HandMessage, PublicMessage
from bot.games.chinois import controls, hand
from bot.games.chinois.log import describe
from bot.games.chinois.results import game_result
from bot.games.chinois.table import announcement as _announcement
from bot.games.chinois.table import table_message as _table_message
from bot.store.models import GameResult, TableRecord
from engine.chinois.actions import action_from_json, action_to_json
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase

if TYPE_CHECKING:
    from bot.tables.ids import ComponentId
    from bot.tables.table import LogEntry, Table
    from bot.views.controller import Controller

LEVELS = ("easy", "normal")
"""The computer levels of :func:`engine.chinois.ai.make_player`, weakest first."""
PINGS = {Phase.BID: "ping.chinois.bid", Phase.PLAY: "ping.chinois.play"}


class ChinoisSpec:
    """Everything Chinois-specific the shared machinery asks for."""

    name = "chinois"
    levels = LEVELS
    team_size = 1

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return ChinoisGame.n_seats

    def new_game(self, record: TableRecord) -> ChinoisGame:
        return ChinoisGame(seed=record.seed)

    def action_from_json(self, data: Any) -> Any:
        return action_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return action_to_json(action)

    def due_seats(self, game: ChinoisGame) -> tuple[int, ...]:
        if game.phase in (Phase.BID, Phase.PLAY) and game.turn is not None:
            return (game.turn,)
        return ()

    def optional_seats(self, game: ChinoisGame) -> tuple[int, ...]:
        return ()

    def describe(self, applied: Any) -> list[LogEntry]:
        return describe(applied)

    def result(self, table: Table) -> GameResult:
        return game_result(table)

    def ping_key(self, game: ChinoisGame) -> str:
        return PINGS.get(game.phase, "ping.chinois.play")

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           state: str | None = None, bombs_only: bool = False) -> HandMessage:
        return await hand.hand_message(table, seat, locale)

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        return await _table_message(table, locale)

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        return await _announcement(table, entry, locale)

    def new_command(self, bot: Any) -> Any:
        """The ``/chinois new`` callback, with Chinois's options."""
        from bot.games.chinois.commands import new_command

        return new_command(bot)

    async def handle(self, controller: Controller, interaction: discord.Interaction[Any],
                     table: Table, seat: int, cid: ComponentId, values: list[str],
                     locale: str) -> None:
        await controls.handle(controller, interaction, table, seat, cid, values, locale)


CHINOIS = ChinoisSpec()
