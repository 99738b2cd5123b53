"""Tichu as the bot hosts it: four seats, partners opposite, to a target score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import HandMessage, PublicMessage
from bot.games.tichu import controls, hand
from bot.games.tichu.log import describe
from bot.games.tichu.results import game_result
from bot.games.tichu.table import announcement as _announcement
from bot.games.tichu.table import table_message as _table_message
from bot.store.models import GameResult, TableRecord
from engine.errors import BadActionError
from engine.tichu.actions import action_from_json, action_to_json
from engine.tichu.ai import LEVELS, pending_seats
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase

if TYPE_CHECKING:
    from bot.tables.ids import ComponentId
    from bot.tables.table import LogEntry, Table
    from bot.views.controller import Controller

DEFAULT_TARGET = 1000
PINGS = {Phase.GRAND: "ping.grand", Phase.EXCHANGE: "ping.exchange", Phase.GIFT: "ping.gift"}


class TichuSpec:
    """Everything Tichu-specific the shared machinery asks for."""

    name = "tichu"
    levels = LEVELS
    team_size = 2

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return TichuGame.n_seats

    def new_game(self, record: TableRecord) -> TichuGame:
        target = record.options.get("target", DEFAULT_TARGET)
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise BadActionError(f"bad target {target!r}")
        return TichuGame(seed=record.seed, target=target)

    def action_from_json(self, data: Any) -> Any:
        return action_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return action_to_json(action)

    def due_seats(self, game: TichuGame) -> tuple[int, ...]:
        return pending_seats(game.view(None))

    def optional_seats(self, game: TichuGame) -> tuple[int, ...]:
        """Out of turn, any seat with cards may bomb an open trick."""
        if game.phase is not Phase.PLAY or not game.trick:
            return ()
        return tuple(s for s in range(game.n_seats) if game.hands[s] and s != game.turn)

    def describe(self, applied: Any) -> list[LogEntry]:
        return describe(applied)

    def result(self, table: Table) -> GameResult:
        return game_result(table)

    def ping_key(self, game: TichuGame) -> str:
        return PINGS.get(game.phase, "ping.turn")

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           state: str | None = None, bombs_only: bool = False) -> HandMessage:
        exchange = hand.parse_exchange_state(state) if state else None
        return await hand.hand_message(table, seat, locale, exchange=exchange,
                                       bombs_only=bombs_only)

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        return await _table_message(table, locale)

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        return await _announcement(table, entry, locale)

    def new_command(self, bot: Any) -> Any:
        """The ``/tichu new`` callback, with Tichu's options."""
        from bot.games.tichu.commands import new_command

        return new_command(bot)

    async def handle(self, controller: Controller, interaction: discord.Interaction[Any],
                     table: Table, seat: int, cid: ComponentId, values: list[str],
                     locale: str) -> None:
        await controls.handle(controller, interaction, table, seat, cid, values, locale)


TICHU = TichuSpec()
