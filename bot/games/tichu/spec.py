"""Tichu as the bot hosts it: four seats (partners opposite) or six (two teams of three,
alternating seats), to a target score."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from bot.games.base import GameModules, HandMessage
from bot.games.tichu import commands, controls, hand, log, results, table
from bot.games.tichu.boards import RECORD_NAME, board_task, decide_key, new_boards_game
from bot.store.models import TableRecord
from engine.duplicate.play import BoardsGame
from engine.errors import BadActionError
from engine.tichu import actions
from engine.tichu.actions import Gift, Pass, Play
from engine.tichu.ai import LEVELS, pending_seats
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase

if TYPE_CHECKING:
    from bot.tables.table import Table

DEFAULT_TARGET = 1000
SEAT_COUNTS = (4, 6)
PINGS = {Phase.GRAND: "ping.grand", Phase.EXCHANGE: "ping.exchange", Phase.GIFT: "ping.gift"}


class TichuSpec(GameModules):
    """Everything Tichu-specific the shared machinery asks for."""

    name = "tichu"
    panel_shows_table = True
    """At a table in direct messages, as on a daily board, its panel is the position."""
    parts: ClassVar[dict[str, ModuleType]] = {"log": log, "results": results, "table": table, "controls": controls,
             "commands": commands, "actions": actions}
    levels: tuple[str, ...] = LEVELS
    team_size = 2
    record_names = ("tichu", "tichu6")
    """Finished games are stored and rated as ``tichu`` (four players) or ``tichu6`` (six:
    their own rating pool and leaderboard); the replay stays a ``tichu`` file."""

    history_names = ("tichu", "tichu6", RECORD_NAME)
    """Games of duplicate boards are listed too (unrated; see :mod:`bot.cogs.records` for
    who may see them)."""

    def seat_count(self, options: Mapping[str, Any]) -> int:
        """Six with ``players: 6``, else four."""
        return 6 if options.get("players") == 6 else 4

    def new_game(self, record: TableRecord) -> TichuGame:
        target = record.options.get("target", DEFAULT_TARGET)
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise BadActionError(f"bad target {target!r}")
        players = record.options.get("players", 4)
        if players not in SEAT_COUNTS or isinstance(players, bool):
            raise BadActionError(f"bad number of players {players!r}")
        if len(record.seats) != players:
            raise BadActionError("the seats do not match the number of players")
        boards = new_boards_game(record.options)
        if boards is not None:
            if players != 4:
                raise BadActionError("boards are played by four")
            return boards
        return TichuGame(seed=record.seed, target=target, players=players)

    def computer_task(self, table: Table, seat: int, level: str,
                      purpose: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """On boards, a decision from the board and its actions alone (fair: the same
        choices meet the same computer play at every table); else the usual one."""
        if isinstance(table.game, BoardsGame):
            return board_task(table.game, seat, level, decide_key(table.record.options))
        return super().computer_task(table, seat, level, purpose)


    def due_seats(self, game: TichuGame) -> tuple[int, ...]:
        return pending_seats(game.view(None))

    def optional_seats(self, game: TichuGame) -> tuple[int, ...]:
        """Out of turn, any seat with cards may bomb an open trick."""
        if game.phase is not Phase.PLAY or not game.trick:
            return ()
        return tuple(s for s in range(game.n_seats) if game.hands[s] and s != game.turn)


    def is_move(self, action: Any) -> bool:
        """Plays (bombs out of turn too), passes and the Dragon's gift; calls, the Grand
        Tichu choice and the exchange are made once each, whatever others do."""
        return isinstance(action, Play | Pass | Gift)

    def ping_key(self, game: TichuGame) -> str:
        return PINGS.get(game.phase, "ping.turn")

    def panel_key(self, table: Table, seat: int) -> Hashable:
        return hand.panel_key(table, seat)

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           bombs_only: bool = False) -> HandMessage:
        return await hand.hand_message(table, seat, locale, bombs_only=bombs_only)


TICHU = TichuSpec()
