"""Chinois as the bot hosts it: four seats, each for itself, 28 rounds (1…13…1 cards)."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from bot.games.base import GameModules, HandMessage
from bot.games.chinois import commands, controls, hand, log, results, table
from bot.store.models import TableRecord
from engine.chinois import actions
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase

if TYPE_CHECKING:
    from bot.tables.table import Table

LEVELS = ("easy", "normal", "hard")
"""The computer levels of :func:`engine.chinois.ai.make_player`, weakest first."""
PINGS = {Phase.BID: "ping.chinois.bid", Phase.PLAY: "ping.chinois.play"}


class ChinoisSpec(GameModules):
    """Everything Chinois-specific the shared machinery asks for."""

    name = "chinois"
    parts: ClassVar[dict[str, ModuleType]] = {"log": log, "results": results, "table": table, "controls": controls,
             "commands": commands, "actions": actions}
    levels: tuple[str, ...] = LEVELS
    team_size = 1

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return ChinoisGame.n_seats

    def new_game(self, record: TableRecord) -> ChinoisGame:
        return ChinoisGame(seed=record.seed)


    def due_seats(self, game: ChinoisGame) -> tuple[int, ...]:
        if game.phase in (Phase.BID, Phase.PLAY) and game.turn is not None:
            return (game.turn,)
        return ()

    def optional_seats(self, game: ChinoisGame) -> tuple[int, ...]:
        return ()


    def ping_key(self, game: ChinoisGame) -> str:
        return PINGS.get(game.phase, "ping.chinois.play")

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           bombs_only: bool = False) -> HandMessage:
        return await hand.hand_message(table, seat, locale)


CHINOIS = ChinoisSpec()
