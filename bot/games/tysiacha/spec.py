"""Tysiacha as the bot hosts it: three seats (four with the dealer sitting out), to 1000."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import HandMessage, PublicMessage
from bot.games.tysiacha import controls, hand
from bot.games.tysiacha.log import describe
from bot.games.tysiacha.results import game_result
from bot.games.tysiacha.table import announcement as _announcement
from bot.games.tysiacha.table import table_message as _table_message
from bot.store.models import GameResult, TableRecord
from engine.errors import BadActionError
from engine.tysiacha.actions import action_from_json, action_to_json
from engine.tysiacha.cards import NINES
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.view import Phase

if TYPE_CHECKING:
    from bot.tables.ids import ComponentId
    from bot.tables.table import LogEntry, Table
    from bot.views.controller import Controller

LEVELS = ("easy", "normal")
PINGS = {Phase.BIDDING: "tysiacha.ping.bid", Phase.PRIKUP: "tysiacha.ping.prikup"}


def redeal_seats(game: TysiachaGame) -> tuple[int, ...]:
    """Seats off turn that hold the four 9s after the giving, before the first card."""
    if game.phase is not Phase.PLAY or game.started:
        return ()
    return tuple(s for s in game.active if s != game.turn and set(game.hands[s]) >= NINES)


class TysiachaSpec:
    """Everything Tysiacha-specific the shared machinery asks for."""

    name = "tysiacha"
    levels = LEVELS
    team_size = 1

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return 4 if options.get("players") == 4 else 3

    def new_game(self, record: TableRecord) -> TysiachaGame:
        players = record.options.get("players", 3)
        rounding = record.options.get("rounding", 10)
        if players not in (3, 4) or rounding not in (5, 10) or isinstance(players, bool):
            raise BadActionError(f"bad options {players!r}, {rounding!r}")
        if len(record.seats) != players:
            raise BadActionError("the seats do not match the number of players")
        return TysiachaGame(players=players, rounding=rounding, seed=record.seed)

    def action_from_json(self, data: Any) -> Any:
        return action_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return action_to_json(action)

    def due_seats(self, game: TysiachaGame) -> tuple[int, ...]:
        """The seat on turn; before the first card, a seat holding the four 9s comes first
        (it may ask for a redeal before anyone plays)."""
        if game.turn is None:
            return ()
        return (*redeal_seats(game), game.turn)

    def optional_seats(self, game: TysiachaGame) -> tuple[int, ...]:
        """A seat off turn holding the four 9s may ask for a redeal."""
        return redeal_seats(game)

    def describe(self, applied: Any) -> list[LogEntry]:
        return describe(applied)

    def result(self, table: Table) -> GameResult:
        return game_result(table)

    def ping_key(self, game: TysiachaGame) -> str:
        if redeal_seats(game):
            return "tysiacha.ping.redeal"
        return PINGS.get(game.phase, "ping.turn")

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           state: str | None = None, bombs_only: bool = False) -> HandMessage:
        gifts = hand.parse_gift_state(state) if state else None
        return await hand.hand_message(table, seat, locale, gifts=gifts)

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        return await _table_message(table, locale)

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        return await _announcement(table, entry, locale)

    def new_command(self, bot: Any) -> Any:
        """The ``/tysiacha new`` callback, with Tysiacha's options."""
        from bot.games.tysiacha.commands import new_command

        return new_command(bot)

    async def handle(self, controller: Controller, interaction: discord.Interaction[Any],
                     table: Table, seat: int, cid: ComponentId, values: list[str],
                     locale: str) -> None:
        await controls.handle(controller, interaction, table, seat, cid, values, locale)


TYSIACHA = TysiachaSpec()
