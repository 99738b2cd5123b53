"""Tichu tables that play duplicate boards (a daily board, a duplicate table): the game
of boards, and the computers' stateless, fair decisions there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.duplicate.boards import Board
from engine.duplicate.play import BoardsGame, decide
from engine.errors import BadActionError
from engine.tichu.actions import Action, action_from_json, action_to_json

RECORD_NAME = "tichu_dup"
"""The name games of boards are stored under: their own history and standings, never
rated."""
DECIDE_KEY = "decide_key"
"""The option holding the key a table's computers decide with on its boards (derived from
the board secret: :func:`bot.games.tichu.duplicate.decision_key`); absent at tables dealt
before deployments had one."""


def boards_of(options: Mapping[str, Any]) -> list[Board] | None:
    """The boards a table plays (its ``boards`` option), or None for a usual game."""
    boards = options.get("boards")
    if boards is None:
        return None
    if not isinstance(boards, list) or not boards:
        raise BadActionError("a table of boards needs a list of boards")
    return [Board.from_json(b) for b in boards]


def new_boards_game(options: Mapping[str, Any]) -> BoardsGame | None:
    boards = boards_of(options)
    return None if boards is None else BoardsGame(boards)


def decide_key(options: Mapping[str, Any]) -> str:
    """The key a table's computers decide with on its boards ("" if it has none)."""
    key = options.get(DECIDE_KEY, "")
    return key if isinstance(key, str) else ""


def board_move(board: dict[str, Any], actions: list[dict[str, Any]], seat: int,
               level: str, key: str = "") -> Action | None:
    """A computer's decision on a board (run in a worker process): from the board, the
    board's actions so far and the table's key only (see
    :func:`engine.duplicate.play.decide`)."""
    return decide(Board.from_json(board), [action_from_json(a) for a in actions], seat, level,
                  key=key.encode())


def board_task(game: BoardsGame, seat: int, level: str,
               key: str = "") -> tuple[Any, tuple[Any, ...]]:
    """The worker's call for a computer's decision on the board being played."""
    actions = [action_to_json(a) for a in game.deal_log[-1][1]]
    return board_move, (game.board.to_json(), actions, seat, level, key)
