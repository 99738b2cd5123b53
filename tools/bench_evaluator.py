"""The learned evaluator against the play-outs it replaces: error and cost.

Positions are taken from ``normal`` self-play deals (every ``--every``-th decision of
a seat on its turn in play). At each, the value of the heuristics' action, ours
minus theirs in points, is estimated two ways:

* **model**: the shipped evaluator on the after-state (:mod:`engine.tichu.ai.features`);
* **play-outs**: ``--samples`` deals of the unseen cards, consistent with what the
  seat knows (:func:`~engine.tichu.ai.sampling.sample_hands`), each played out after
  the action by the search's rollout policy (:func:`~engine.tichu.ai.search.rollout`),
  the mean taken, as the coach and the ``search`` player do.

Printed: each estimate's error against the deal's real outcome (RMSE, and its
correlation), the gap between the two (RMSE), and the CPU time of one estimate.

Run ``python -m tools.bench_evaluator [--deals 60] [--samples 64]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.tichu.actions import Action, Pass, Play
from engine.tichu.ai import model
from engine.tichu.ai.features import combo_of, encode
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.sampling import sample_hands
from engine.tichu.ai.search import apply_candidate, game_at, rollout
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView


@dataclass
class Position:
    view: TichuView
    action: Play | Pass
    outcome: float = 0.0


def positions(deals: int, every: int, seed: str) -> list[Position]:
    """Decisions on the seat's turn in play, from ``normal`` self-play, with the deal's
    outcome for the seat's team."""
    found: list[Position] = []
    for d in range(deals):
        found += _deal_positions(f"{seed}:{d}", every)
    return found


class _Watching(NormalPlayer):
    """The normal player, keeping the last view each seat was asked from."""

    def __init__(self) -> None:
        super().__init__()
        self.views: dict[int, TichuView] = {}

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        if view.phase is Phase.PLAY and view.seat is not None:
            self.views[view.seat] = view
        return super().act(view, rng)


def _deal_positions(seed: str, every: int) -> list[Position]:
    game = TichuGame(seed=seed)
    player = _Watching()
    mine: list[tuple[int, Position]] = []
    count = 0

    def observe(g: TichuGame, seat: int, action: Action, spent: float) -> None:
        nonlocal count
        view = player.views.pop(seat, None)
        if view is None or not isinstance(action, (Play, Pass)) or view.turn != seat:
            return
        count += 1
        if count % every == 0:
            mine.append((seat, Position(view, action)))

    play_deal(game, [player] * 4, random.Random(seed), observe)
    result = game.history[-1].scores
    for seat, pos in mine:
        pos.outcome = result[seat % 2] - result[1 - seat % 2]
    return [pos for _, pos in mine]


def playout_value(pos: Position, samples: int, rng: random.Random) -> float:
    view = pos.view
    seat = view.seat
    assert seat is not None
    know = knowledge_of(view)
    combo = None if isinstance(pos.action, Pass) else combo_of(view, pos.action)
    assert isinstance(pos.action, Pass) or combo is not None
    wish = pos.action.wish if isinstance(pos.action, Play) else None
    to = pos.action.to if isinstance(pos.action, Play) else None
    total = 0
    for _ in range(samples):
        game = game_at(view, sample_hands(view, know, rng))
        apply_candidate(game, seat, combo, wish, to)
        total += rollout(game, seat % 2)
    return total / samples


def rmse(a: Sequence[float], b: Sequence[float]) -> float:
    return math.sqrt(statistics.fmean((x - y) ** 2 for x, y in zip(a, b, strict=True)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_evaluator",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60,
                        help="deals of normal players the positions are taken from")
    parser.add_argument("--every", type=int, default=4, help="keep every N-th decision")
    parser.add_argument("--samples", type=int, default=64, help="play-outs per position")
    parser.add_argument("--seed", default="bench-evaluator",
                        help="seed of the deals and the play-outs")
    args = parser.parse_args(argv)
    found = positions(args.deals, args.every, args.seed)
    evaluator = model.evaluator(4)
    rng = random.Random(args.seed)
    started = time.process_time()
    learned = [float(evaluator.values(encode(p.view, p.action)[None, :])[0]) for p in found]
    model_cpu = (time.process_time() - started) / len(found)
    started = time.process_time()
    playouts = [playout_value(p, args.samples, rng) for p in found]
    playout_cpu = (time.process_time() - started) / len(found)
    outcomes = [p.outcome for p in found]
    print(f"{len(found)} positions from {args.deals} normal deals "
          f"(every {args.every}th decision on turn), {args.samples} play-outs each")
    for name, values, cpu in (("model", learned, model_cpu),
                              ("play-outs", playouts, playout_cpu)):
        corr = float(np.corrcoef(values, outcomes)[0, 1])
        print(f"  {name:9s} RMSE against the outcome {rmse(values, outcomes):6.1f} points, "
              f"correlation {corr:.3f}, {cpu * 1000:8.3f} ms CPU an estimate")
    print(f"  the two apart: RMSE {rmse(learned, playouts):.1f} points; "
          f"the outcome's own spread {statistics.pstdev(outcomes):.1f}")


if __name__ == "__main__":
    main()
