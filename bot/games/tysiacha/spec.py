"""Tysiacha as the bot hosts it: three seats (four with the dealer sitting out), to 1000."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from bot.games.base import GameModules, HandMessage
from bot.games.tysiacha import commands, controls, hand, log, results, table
from bot.store.models import TableRecord
from engine.errors import BadActionError
from engine.tysiacha import actions
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import can_redeal
from engine.tysiacha.view import Phase

if TYPE_CHECKING:
    from bot.tables.table import Table

LEVELS = ("easy", "normal", "hard")
PINGS = {Phase.BIDDING: "tysiacha.ping.bid", Phase.PRIKUP: "tysiacha.ping.prikup"}


def redeal_seats(game: TysiachaGame) -> tuple[int, ...]:
    """Seats off turn that hold the four 9s after the giving, before the first card."""
    return tuple(s for s in game.active if s != game.turn and can_redeal(game.view(s)))


class TysiachaSpec(GameModules):
    """Everything Tysiacha-specific the shared machinery asks for."""

    name = "tysiacha"
    parts: ClassVar[dict[str, ModuleType]] = {"log": log, "results": results, "table": table, "controls": controls,
             "commands": commands, "actions": actions}
    levels: tuple[str, ...] = LEVELS
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


    def due_seats(self, game: TysiachaGame) -> tuple[int, ...]:
        """The seat on turn; before the first card, a seat holding the four 9s comes first
        (it may ask for a redeal before anyone plays)."""
        if game.turn is None:
            return ()
        return (*redeal_seats(game), game.turn)

    def optional_seats(self, game: TysiachaGame) -> tuple[int, ...]:
        """A seat off turn holding the four 9s may ask for a redeal."""
        return redeal_seats(game)


    def ping_key(self, game: TysiachaGame) -> str:
        if redeal_seats(game):
            return "tysiacha.ping.redeal"
        return PINGS.get(game.phase, "ping.turn")

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           bombs_only: bool = False) -> HandMessage:
        return await hand.hand_message(table, seat, locale)


TYSIACHA = TysiachaSpec()
