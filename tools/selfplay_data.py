"""Self-play data for the learned evaluator: after-states and the deals' outcomes.

Four (or six) :class:`Explorer` seats play whole games. At each decision an
explorer takes its base player's choice (the ``normal`` heuristics, or a learned
player), except that now and then it tries another candidate of
:func:`~engine.tichu.ai.choices.choices`, so that the model sees what follows the
actions it will be asked to compare: a borderline Grand Tichu or Tichu call
either way, other exchanges, other plays, a bomb or none, the other opponent for
the Dragon. Each decision's after-state (:func:`~engine.tichu.ai.features.encode`)
is recorded (plays only one time in :data:`KEEP_PLAYS`, the rest always), and
when the deal ends every record gets the deal's outcome for its seat: the score
difference of its team, and who went out first (relative to the seat).

Run through ``python -m tools.train``; :func:`generate` is deterministic for a seed.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.tichu.ai import bidding
from engine.tichu.ai.choices import Choices
from engine.tichu.ai.evaluator import Evaluator
from engine.tichu.ai.features import encode, width
from engine.tichu.ai.knowledge import Knowledge
from engine.tichu.ai.learned import ChoicePlayer, LearnedPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView

EXPLORE = {"grand": 0.5, "tichu": 0.5, "exchange": 0.3, "play": 0.08, "bomb": 0.15, "gift": 0.5}
"""Chance of trying a random candidate instead of the base choice, by decision.
Calls are explored at this rate near the heuristics' bar (:data:`CALL_BAND`)..."""
CALL_BAND = 1.5
WIDE = 0.03
"""...and at this rate (``--wide``) on any other hand: the model must have seen what a
call on a hopeless hand (or silence on a sure one) costs, to value it when a person
does it."""
KEEP_PLAYS = 3
"""One play decision in this many is recorded (plays are many and alike)."""
KINDS = ("grand", "tichu", "exchange", "play", "bomb", "gift")


@dataclass
class Records:
    """Recorded after-states of one game, waiting for their deals' outcomes."""

    rows: list[np.ndarray] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)


class Explorer(ChoicePlayer):
    """A base player's choices, now and then another candidate; records every
    decision's after-state in :attr:`records`."""

    def __init__(self, base: LearnedPlayer | None, records: Records, explore: bool = True,
                 wide: float = WIDE) -> None:
        self.base = base
        self.records = records
        self.explore = explore
        self.wide = wide
        self.deal = 0

    def pick(self, view: TichuView, know: Knowledge, options: Choices,
             rng: random.Random) -> int:
        chosen = options.heuristic if self.base is None else \
            self.base.pick(view, know, options, rng)
        kind = options.kind
        rate = EXPLORE.get(kind, 0.0) if self._near_bar(view, kind) else self.wide
        if self.explore and rng.random() < rate:
            chosen = rng.randrange(len(options.actions))
        if kind != "play" or rng.random() * KEEP_PLAYS < 1.0:
            assert view.seat is not None
            self.records.rows.append(encode(view, options.actions[chosen], kind=kind))
            self.records.seats.append(view.seat)
            self.records.kinds.append(KINDS.index(kind) if kind in KINDS else -1)
            self.records.deals.append(self.deal)
        return chosen

    @staticmethod
    def _near_bar(view: TichuView, kind: str) -> bool:
        hand = [int(c) for c in view.hand]
        if kind == "grand":
            return abs(bidding.grand_strength(hand) - bidding.GRAND_THRESHOLD) < CALL_BAND
        if kind == "tichu":
            return abs(bidding.call_strength(hand) - bidding.TICHU_THRESHOLD) < CALL_BAND
        return True


@dataclass
class Data:
    """After-states (``x``), outcomes (``diff``: points, ours minus theirs;
    ``first``: the seat out first, relative to the recorded seat, -1 if none),
    the decision kind of each row and the game it came from."""

    x: np.ndarray
    diff: np.ndarray
    first: np.ndarray
    kind: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.x.shape[0])

    @staticmethod
    def join(parts: Sequence[Data]) -> Data:
        return Data(*(np.concatenate([getattr(p, f) for p in parts])
                      for f in ("x", "diff", "first", "kind", "game")))

    def take(self, rows: np.ndarray) -> Data:
        return Data(self.x[rows], self.diff[rows], self.first[rows], self.kind[rows],
                    self.game[rows])


def play_game(seed: str, game_no: int, players: int, base: Evaluator | None,
              target: int = 1000, explore: bool = True, wide: float = WIDE) -> Data:
    """One whole game of explorers; its records with their outcomes."""
    records = Records()
    learned = LearnedPlayer(base) if base is not None else None
    explorer = Explorer(learned, records, explore, wide)
    rng = random.Random(f"explore:{seed}:{game_no}")
    game = TichuGame(seed=f"train:{seed}:{game_no}", target=target, players=players)
    seats = [explorer] * players
    while True:
        explorer.deal = len(game.history)
        play_deal(game, seats, rng)
        if game.phase is Phase.GAME_OVER or len(game.history) >= 30:
            break
        game.next_deal()
    n = len(records.rows)
    diff = np.zeros(n, dtype=np.float32)
    first = np.full(n, -1, dtype=np.int8)
    for i, (seat, deal) in enumerate(zip(records.seats, records.deals, strict=True)):
        result = game.history[deal]
        team = seat % 2
        diff[i] = result.scores[team] - result.scores[1 - team]
        if result.out:
            first[i] = (result.out[0] - seat) % players
    x = np.stack(records.rows).astype(np.float16) if n else \
        np.zeros((0, width(players)), dtype=np.float16)
    return Data(x, diff, first, np.array(records.kinds, dtype=np.int8),
                np.full(n, game_no, dtype=np.int32))


_BASE: Evaluator | None = None


def _one(task: tuple[str, int, int, bool, float]) -> Data:
    seed, game_no, players, explore, wide = task
    return play_game(seed, game_no, players, _BASE, explore=explore, wide=wide)


def generate(seed: str, games: int, players: int = 4, base: Evaluator | None = None,
             jobs: int = 1, first_game: int = 0, explore: bool = True,
             wide: float = WIDE) -> Data:
    """Records of ``games`` games (numbered from ``first_game``), on ``jobs`` processes;
    the same for any job count."""
    global _BASE
    _BASE = base
    tasks = [(seed, g, players, explore, wide) for g in range(first_game, first_game + games)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_one, tasks, chunksize=4)
    else:
        parts = [_one(t) for t in tasks]
    return Data.join(parts)
