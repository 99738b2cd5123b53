"""Playing a duplicate board: one deal from 0–0, fair computer seeds, a computer field.

* :func:`board_game` starts a :class:`~engine.tichu.game.TichuGame` on a board's
  hands; the board's play is that game's first deal, so it is over when
  :func:`board_over` says so (the game's phase is then ``deal_over``: no single
  deal reaches the 1000-point target), and :func:`board_diff` gives a direction's
  deal score minus the other's, bonuses included.
* :func:`computer_seed` is the seed a computer player decides with: a hash of the
  board id, an optional salt and the JSON form of every action so far (the choices
  all seats make at once counted seat by seat: :func:`seed_order`), keyed with
  the deployment's key for the board (HMAC-SHA256), so that nobody without the key
  can foresee a computer's play. Two people who make the same choices on the same
  board meet the same computer play, however fast they made them — as long as the
  computers are deterministic
  (:func:`board_player`) and each table has its own player objects (a player
  remembers what its seats saw).
* :func:`play_field_table` plays a board with four computer players, salted with a
  table seed; :func:`play_field` plays several such tables (the "field" that
  people are compared with) and :func:`field_results` turns them into
  :class:`~engine.duplicate.scoring.Result` rows with synthetic players.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.duplicate.boards import SEATS, Board
from engine.duplicate.scoring import Result
from engine.errors import BadActionError, GameOverError, WrongPhaseError
from engine.tichu.actions import Action, DeclineGrand, Exchange, GrandTichu, action_to_json
from engine.tichu.ai import make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import Applied, TichuGame
from engine.tichu.view import Phase, TichuView

__all__ = [
    "DIRECTIONS",
    "BoardsGame",
    "FieldTable",
    "board_diff",
    "board_game",
    "board_over",
    "board_player",
    "board_replay",
    "board_scores",
    "computer_seed",
    "decide",
    "direction_of",
    "field_results",
    "play_board",
    "play_field",
    "play_field_table",
    "seed_order",
]

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


def _start(board_id: str, salt: str, key: bytes) -> bytes:
    if not isinstance(key, bytes):
        raise BadActionError("a computer's key must be bytes")
    start = json.dumps(["tichu-duplicate", board_id, salt]).encode()
    if key:
        return hmac.new(key, start, hashlib.sha256).digest()
    return hashlib.sha256(start).digest()


def _step(digest: bytes, action: Action) -> bytes:
    text = json.dumps(action_to_json(action), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(digest + text.encode()).digest()


def _phases(actions: Sequence[Action]) -> tuple[list[Action], list[Action], int | None]:
    """The actions of the Grand Tichu phase and of the exchange (each with the Tichu
    calls made meanwhile), and the index of the play's first action, or None while one
    of those two phases lasts."""
    grand: list[Action] = []
    exchange: list[Action] = []
    decided = exchanged = 0
    for i, action in enumerate(actions):
        if decided < SEATS:
            grand.append(action)
            decided += isinstance(action, GrandTichu | DeclineGrand)
        elif exchanged < SEATS:
            exchange.append(action)
            exchanged += isinstance(action, Exchange)
        else:
            return grand, exchange, i
    return grand, exchange, len(actions) if exchanged == SEATS else None


def seed_order(actions: Sequence[Action], seat: int) -> list[Action]:
    """The actions a decision of ``seat`` is seeded with, in the order they are hashed.

    Every seat makes its Grand Tichu choice and its exchange at once, so the order in
    which people's and computers' choices of those phases arrive is a matter of time,
    not of choice: once a phase is over, its actions count seat by seat (each seat's in
    the order it made them); while it lasts, only ``seat``'s own. The play counts as
    it went. So people who make the same choices meet the same computers, however
    fast they made them."""
    grand, exchange, play = _phases(actions)
    if sum(isinstance(a, GrandTichu | DeclineGrand) for a in grand) < SEATS:
        return [a for a in grand if a.seat == seat]  # the Grand Tichu phase lasts
    order = sorted(grand, key=_seat)
    if play is None:  # the exchange lasts
        return order + [a for a in exchange if a.seat == seat]
    return order + sorted(exchange, key=_seat) + list(actions[play:])


def _seat(action: Action) -> int:
    return action.seat


def computer_seed(board_id: str, actions: Sequence[Action], seat: int, salt: str = "",
                  key: bytes = b"") -> str:
    """The seed a computer player at ``seat`` decides with on ``board_id`` after
    ``actions``.

    A hash chain: ``h0 = HMAC-SHA256(key, JSON ["tichu-duplicate", board_id, salt])``,
    then ``h = SHA-256(h + JSON of the action)`` for each action of
    :func:`seed_order` (its replay form, keys sorted, no spaces); the seed is the last
    ``h`` in hex. ``salt`` is empty for people's tables (all of them meet the same
    computers) and a table seed for a computer field. ``key`` is the board's secret
    key: without it nobody can compute ``h0``, so nobody can foresee the computers'
    play. An empty ``key`` (boards dealt before deployments had a secret) starts the
    chain with ``SHA-256(JSON ...)``, which anyone can compute.
    """
    digest = _start(board_id, salt, key)
    for action in seed_order(actions, seat):
        digest = _step(digest, action)
    return digest.hex()


class _Seeded:
    """A player asked with :func:`computer_seed` of the game's actions so far for the
    seat it decides for (once the play has begun, the chain is extended as the game
    goes, not rehashed from the start)."""

    def __init__(self, player: Player, game: TichuGame, board_id: str, salt: str,
                 key: bytes) -> None:
        self.player = player
        self.game = game
        self.start = _start(board_id, salt, key)
        self.digest = b""
        self.hashed = 0
        """The actions in ``digest``: 0 until the play has begun."""

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        actions = self.game.actions
        seat = view.seat
        assert seat is not None
        if not self.hashed:
            _, _, play = _phases(actions)
            if play is None:
                digest = self.start
                for action in seed_order(actions, seat):
                    digest = _step(digest, action)
                return self.player.act(view, random.Random(digest.hex()))
            self.digest = self.start
            for action in seed_order(actions[:play], seat):
                self.digest = _step(self.digest, action)
            self.hashed = play
        while self.hashed < len(actions):
            self.digest = _step(self.digest, actions[self.hashed])
            self.hashed += 1
        return self.player.act(view, random.Random(self.digest.hex()))


FIELD_TOLERANCE = 5.0
"""Points a deal within which the ``hard`` player of a board draws among its best
candidates with the board's seeded rng (:attr:`~engine.tichu.ai.learned.LearnedPlayer.tolerance`):
so the tables of a field, each with its own seed, play a board in several ways."""


def board_player(level: str, samples: int | None = None) -> Player:
    """A fresh computer player of ``level`` that decides from its view and the rng
    alone, never from the clock, so its play cannot depend on the machine's load.
    ``hard`` draws among its candidates within :data:`FIELD_TOLERANCE` of the best.
    ``level`` "search" is the determinized Monte Carlo search that was ``hard``
    before the learned evaluator (:class:`~engine.tichu.ai.searcher.SearchPlayer`),
    without its time budget: it always plays ``samples`` deals (default: its own
    count). ``samples`` is ignored by the other levels."""
    if level == "hard":
        from engine.tichu.ai.hard import HardPlayer

        return HardPlayer(tolerance=FIELD_TOLERANCE)
    if level == "search":
        from engine.tichu.ai.searcher import DEFAULT_MAX_SAMPLES, SearchPlayer

        return SearchPlayer(budget_ms=None,
                            max_samples=DEFAULT_MAX_SAMPLES if samples is None else samples)
    return make_player(level)


def play_board(game: TichuGame, board_id: str, players: Sequence[Player],
               salt: str = "", key: bytes = b"") -> None:
    """Play the board's deal to its end with
    :func:`~engine.tichu.ai.selfplay.play_deal` (every seat asked from its own view,
    seats holding a bomb that beats the trick asked out of turn first), each
    decision with an rng seeded by :func:`computer_seed` (with ``salt`` and ``key``).
    ``players`` holds one player per seat; a person can be stood in for by a player that
    ignores the rng."""
    seeded: list[Player] = []
    wrappers: dict[int, _Seeded] = {}
    for player in players:
        # One wrapper per player object, so a player serving several seats keeps one chain.
        wrapper = wrappers.setdefault(id(player), _Seeded(player, game, board_id, salt, key))
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
                     samples: int | None = None, key: bytes = b"") -> FieldTable:
    """``board`` played by four computer players of ``level`` (one fresh player object
    for the table, see :func:`board_player` for ``samples``), every decision seeded
    by :func:`computer_seed` salted with ``"field:" + table_seed`` and keyed with
    ``key``: the same inputs always give the same play."""
    game = board_game(board)
    player = board_player(level, samples)
    play_board(game, board.id, [player] * 4, salt=f"field:{table_seed}", key=key)
    return FieldTable(board, table_seed, level, board_scores(game), tuple(game.actions))


def play_field(board: Board, tables: int = 8, level: str = FIELD_LEVEL, *,
               samples: int | None = None, key: bytes = b"") -> list[FieldTable]:
    """``tables`` computer tables on ``board``, with table seeds ``"1"``..``str(tables)``
    (each table independent of the others: a bot may play them in parallel)."""
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 0:
        raise BadActionError(f"the number of tables must be a whole number >= 0, not {tables!r}")
    return [play_field_table(board, level, str(t), samples=samples, key=key)
            for t in range(1, tables + 1)]


def field_results(tables: Iterable[FieldTable]) -> list[Result]:
    """Two results per table, one per direction, for players ``"field:{seed}/{direction}"``
    (a player may have one result per board, so each direction is its own player)."""
    return [Result(t.board.id, d, f"field:{t.table_seed}/{d}", t.diff(d))
            for t in tables for d in DIRECTIONS]


BOARDS_TARGET = 100_000
"""The target of a game of boards: never reached (a deal moves a team's total by 600 at
the most), so the game ends only after its last board, and its replay file, whose scores
carry over from deal to deal, never ends early either."""


class BoardsGame(TichuGame):
    """Several boards played one after the other, one deal each, at one table.

    Each board is played from 0–0 (the totals are set back to 0 when the next board
    starts: the players see the board's own score); :attr:`history` keeps every board's
    deal result. The game is over once its last board is; its winner is the direction
    with the greater sum of the boards' differences (None when equal)."""

    def __init__(self, boards: Sequence[Board]) -> None:
        if not boards:
            raise BadActionError("a game of boards needs at least one board")
        self.boards = tuple(boards)
        super().__init__(hands=self.boards[0].hands, target=BOARDS_TARGET)

    @property
    def board(self) -> Board:
        """The board being played (the last one once the game is over)."""
        return self.boards[self.deal_number]

    def diffs(self, direction: int) -> list[int]:
        """``direction``'s difference on each board played to its end, in order."""
        return [r.scores[direction] - r.scores[1 - direction] for r in self.history]

    def next_deal(self, hands: Sequence[Sequence[Card]] | None = None,
                  dealer: int | None = None) -> None:
        """The next board (``hands`` must be omitted or be that board's), from 0–0."""
        number = self.deal_number + 1
        if number >= len(self.boards):
            raise GameOverError("every board has been played")
        board = self.boards[number]
        if hands is not None and [list(h) for h in hands] != [list(h) for h in board.hands]:
            raise BadActionError("a game of boards deals its boards' hands")
        if self.phase is Phase.DEAL_OVER:
            self.scores = [0, 0]
        super().next_deal(board.hands, dealer)

    def _end_deal(self, done: Applied) -> Applied:
        done = super()._end_deal(done)
        if len(self.history) < len(self.boards):
            self.winner = None
            self.phase = Phase.DEAL_OVER
            return replace(done, winner=None)
        total = sum(self.diffs(0))
        self.winner = None if total == 0 else (0 if total > 0 else 1)
        self.phase = Phase.GAME_OVER
        return replace(done, winner=self.winner)


def decide(board: Board, actions: Sequence[Action], seat: int, level: str = FIELD_LEVEL, *,
           salt: str = "", samples: int | None = None, key: bytes = b"") -> Action | None:
    """What a computer of ``level`` at ``seat`` does on ``board`` after ``actions``.

    Decided from nothing but these arguments: a fresh player (:func:`board_player`)
    reads its seat's view after the actions (which lists every play of the deal, as a
    person at the table saw them), and decides with :func:`computer_seed`'s rng (with
    ``salt`` and the board's ``key``). So
    any process, before or after a restart, makes the same decision, and two
    people who made the same choices on a board meet the same computer play."""
    game = board_game(board)
    player = board_player(level, samples)
    for action in actions:
        game.apply(action)
    view = game.view(seat)
    return player.act(view, random.Random(computer_seed(board.id, actions, seat, salt, key)))
