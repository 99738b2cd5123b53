"""Playing a duplicate board: one deal from 0–0, fair computer seeds, a computer field.

* :func:`board_game` starts a :class:`~engine.tichu.game.TichuGame` on a board's
  hands; the board's play is that game's first deal, so it is over when
  :func:`board_over` says so (the game's phase is then ``deal_over``: no single
  deal reaches the 1000-point target), and :func:`board_diff` gives a direction's
  deal score minus the other's, bonuses included.
* :func:`computer_seed` is the seed a computer player decides with: a hash of the
  board id, an optional salt and the JSON form of every action so far. Two people
  who make the same choices on the same board meet the same computer play — as
  long as the computers are deterministic (:func:`board_player`) and each table
  has its own player objects (a player remembers what its seats saw).
* :func:`play_field_table` plays a board with four computer players, salted with a
  table seed; :func:`play_field` plays several such tables (the "field" that
  people are compared with) and :func:`field_results` turns them into
  :class:`~engine.duplicate.scoring.Result` rows with synthetic players.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.duplicate.boards import Board
from engine.duplicate.scoring import Result
from engine.errors import BadActionError, WrongPhaseError
from engine.tichu.actions import Action, action_to_json
from engine.tichu.ai import make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import TichuView

__all__ = ["DIRECTIONS", "FieldTable", "board_diff", "board_game", "board_over", "board_player",
           "board_replay", "board_scores", "computer_seed", "direction_of", "field_results",
           "play_board", "play_field", "play_field_table"]

DIRECTIONS = (0, 1)
"""Direction 0 holds seats 0 and 2, direction 1 seats 1 and 3, on every board."""
FIELD_LEVEL = "hard"


def direction_of(seat: int) -> int:
    """The direction of a seat (its team)."""
    return seat % 2


def board_game(board: Board) -> TichuGame:
    """A game whose first deal is the board, both teams at 0."""
    return TichuGame(hands=board.hands)


def board_over(game: TichuGame) -> bool:
    """Whether the board's deal (the game's first) is over."""
    return bool(game.history)


def board_scores(game: TichuGame) -> tuple[int, int]:
    """Each direction's score of the board's deal, bonuses included;
    :class:`~engine.errors.WrongPhaseError` before the deal is over."""
    if not game.history:
        raise WrongPhaseError("the board is not over")
    first, second = game.history[0].scores
    return first, second


def board_diff(game: TichuGame, direction: int) -> int:
    """``direction``'s deal score minus the other direction's (a result's ``diff``)."""
    if direction not in DIRECTIONS or isinstance(direction, bool):
        raise BadActionError(f"a direction is 0 or 1, not {direction!r}")
    scores = board_scores(game)
    return scores[direction] - scores[1 - direction]


def board_replay(board: Board, actions: Iterable[Action]) -> dict[str, Any]:
    """The replay file of a play of ``board`` (``python -m engine replay`` reads it)."""
    return {"game": "tichu", "deals": [{"hands": board.to_json()["hands"],
                                        "actions": [action_to_json(a) for a in actions]}]}


def _start(board_id: str, salt: str) -> bytes:
    return hashlib.sha256(json.dumps(["tichu-duplicate", board_id, salt]).encode()).digest()


def _step(digest: bytes, action: Action) -> bytes:
    text = json.dumps(action_to_json(action), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(digest + text.encode()).digest()


def computer_seed(board_id: str, actions: Iterable[Action], salt: str = "") -> str:
    """The seed a computer player decides with on ``board_id`` after ``actions``.

    A hash chain: ``h0 = SHA-256(JSON ["tichu-duplicate", board_id, salt])``, then
    ``h = SHA-256(h + JSON of the action)`` for each action in order (its replay
    form, keys sorted, no spaces); the seed is the last ``h`` in hex. ``salt`` is
    empty for people's tables (all of them meet the same computers) and a table
    seed for a computer field.
    """
    digest = _start(board_id, salt)
    for action in actions:
        digest = _step(digest, action)
    return digest.hex()


class _Seeded:
    """A player asked with :func:`computer_seed` of the game's actions so far (the
    chain extended as the game goes, not rehashed from the start)."""

    def __init__(self, player: Player, game: TichuGame, board_id: str, salt: str) -> None:
        self.player = player
        self.game = game
        self.digest = _start(board_id, salt)
        self.hashed = 0

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        actions = self.game.actions
        while self.hashed < len(actions):
            self.digest = _step(self.digest, actions[self.hashed])
            self.hashed += 1
        return self.player.act(view, random.Random(self.digest.hex()))


def board_player(level: str, samples: int | None = None) -> Player:
    """A fresh computer player of ``level`` that decides from its view and the rng
    alone: the ``hard`` level without its time budget (its search always plays its
    full sample count, ``samples`` or the level's default), so its play cannot
    depend on the machine's load. ``samples`` is ignored by the other levels."""
    if level == "hard":
        from engine.tichu.ai.hard import DEFAULT_MAX_SAMPLES, HardPlayer

        return HardPlayer(budget_ms=None,
                          max_samples=DEFAULT_MAX_SAMPLES if samples is None else samples)
    return make_player(level)


def play_board(game: TichuGame, board_id: str, players: Sequence[Player],
               salt: str = "") -> None:
    """Play the board's deal to its end with
    :func:`~engine.tichu.ai.selfplay.play_deal` (every seat asked from its own view,
    seats holding a bomb that beats the trick asked out of turn first), each
    decision with an rng seeded by :func:`computer_seed`. ``players`` holds one
    player per seat; a person can be stood in for by a player that ignores the rng."""
    seeded: list[Player] = []
    wrappers: dict[int, _Seeded] = {}
    for player in players:
        # One wrapper per player object, so a player serving several seats keeps one chain.
        wrapper = wrappers.setdefault(id(player), _Seeded(player, game, board_id, salt))
        seeded.append(wrapper)
    play_deal(game, seeded, random.Random(0))


@dataclass(frozen=True, slots=True)
class FieldTable:
    """One computer table's play of a board."""

    board: Board
    table_seed: str
    level: str
    scores: tuple[int, int]
    """Each direction's deal score."""
    actions: tuple[Action, ...]

    def diff(self, direction: int) -> int:
        """``direction``'s score minus the other's."""
        return self.scores[direction] - self.scores[1 - direction]

    def replay(self) -> dict[str, Any]:
        """The replay file of this play (to store it, or show how it was played)."""
        return board_replay(self.board, self.actions)

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board.id, "table_seed": self.table_seed, "level": self.level,
                "scores": list(self.scores), "diffs": [self.diff(0), self.diff(1)],
                "actions": [action_to_json(a) for a in self.actions]}


def play_field_table(board: Board, level: str = FIELD_LEVEL, table_seed: str = "1", *,
                     samples: int | None = None) -> FieldTable:
    """``board`` played by four computer players of ``level`` (one fresh player object
    for the table, see :func:`board_player` for ``samples``), every decision seeded
    by :func:`computer_seed` salted with ``"field:" + table_seed``: the same inputs
    always give the same play."""
    game = board_game(board)
    player = board_player(level, samples)
    play_board(game, board.id, [player] * 4, salt=f"field:{table_seed}")
    return FieldTable(board, table_seed, level, board_scores(game), tuple(game.actions))


def play_field(board: Board, tables: int = 8, level: str = FIELD_LEVEL, *,
               samples: int | None = None) -> list[FieldTable]:
    """``tables`` computer tables on ``board``, with table seeds ``"1"``..``str(tables)``
    (each table independent of the others: a bot may play them in parallel)."""
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 0:
        raise BadActionError(f"the number of tables must be a whole number >= 0, not {tables!r}")
    return [play_field_table(board, level, str(t), samples=samples)
            for t in range(1, tables + 1)]


def field_results(tables: Iterable[FieldTable]) -> list[Result]:
    """Two results per table, one per direction, for players ``"field:{seed}/{direction}"``
    (a player may have one result per board, so each direction is its own player)."""
    return [Result(t.board.id, d, f"field:{t.table_seed}/{d}", t.diff(d))
            for t in tables for d in DIRECTIONS]
