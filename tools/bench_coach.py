"""The coach's costs (issue 25): the CPU seconds of one hint and of one person's review
of one deal, at the engine's default settings.

1. **Hints.** ``--hints`` decision points are drawn (seeded) from ``--deals`` deals
   played by ``hard`` players (without a time budget, :data:`PLAY_SAMPLES` samples a
   search, so the deals depend on the seed alone), taking the grand, exchange and play
   phases in turn so that the rare slow kinds are measured too: a point is the replay
   cut just before one of the deal's actions, and the seat that acted there. Each
   point's :func:`engine.review.hint` is timed with ``time.process_time`` in this
   process; goal at most 0.3 s (issue 39; it was 2 s when hints played options out).
2. **Reviews.** ``--reviews`` one-seat reviews of one deal: the second deal of a
   two-deal game between the same players, ``review_game(data, [seat], deals=[1])``,
   seats taken in turn; goal a median of at most 1 s and a max of at most 4 s (it was
   20 s).

The deals are those of the search player that was ``hard`` before the learned
evaluator (:class:`~engine.tichu.ai.searcher.SearchPlayer`), as when the figures of the
coach's play-outs were measured, so both are measured on the same deals.

Printed: median and max per measure (and per kind of hint). Figures are printed,
never asserted. The machine is shared: run it under ``nice`` beside other work, and
read the CPU seconds, not the wall clock.

    python -m tools.bench_coach [--hints N] [--reviews N] [--deals N] [--seed S]
        [--play-samples K]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.review import hint, review_game
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.legal import play_options
from engine.tichu.replay import read_file, to_replay
from engine.tichu.view import Phase

PLAY_SAMPLES = 24
"""Samples of the hard players' searches in the deals played for the bench (fast)."""
HINT_GOAL = 0.3
REVIEW_GOAL = 1.0
REVIEW_MAX_GOAL = 4.0
PHASES = ("grand", "exchange", "play")


def played(seed: str, deals: int = 1, samples: int = PLAY_SAMPLES) -> dict[str, Any]:
    """A replay of ``deals`` deals between hard players (``samples`` a search), from
    ``seed`` alone."""
    game = TichuGame(seed=seed)
    player = SearchPlayer(budget_ms=None, max_samples=samples)
    rng = random.Random(f"coach-play:{seed}")
    for d in range(deals):
        if d:
            game.next_deal()
        play_deal(game, [player] * game.n_seats, rng)
        if game.phase is Phase.GAME_OVER:
            break
    return to_replay(game)


@dataclass(frozen=True, slots=True)
class Point:
    """A decision point: ``data`` cut before action ``index`` of its last deal, ``seat``
    the seat that acted there; ``phase`` its phase group (grand, exchange, play)."""

    data: dict[str, Any]
    index: int
    seat: int
    phase: str

    def cut(self) -> dict[str, Any]:
        deals = [dict(d) for d in self.data["deals"]]
        deals[-1]["actions"] = deals[-1]["actions"][:self.index]
        return {**self.data, "deals": deals}


def _phase(action: dict[str, Any], first_play: int, index: int) -> str:
    if action["do"] in ("grand_tichu", "decline_grand"):
        return "grand"
    return "exchange" if index < first_play else "play"


def _choices(data: dict[str, Any]) -> list[bool]:
    """Per action of the replay's last deal: did its seat have more than one option in
    play (several plays, or a play and the pass)? True before play."""
    read = read_file(data)
    last = read.deals[-1]
    game = TichuGame(target=read.target, hands=read.deals[0].hands, players=read.players,
                     dealer=read.deals[0].dealer)
    for deal in read.deals[:-1]:
        for action in deal.actions:
            game.apply(action)
        game.next_deal(last.hands, last.dealer)
    out: list[bool] = []
    for action in last.actions:
        view = game.view(action.seat)
        plays, may_pass = play_options(view)
        out.append(view.phase is not Phase.PLAY or len(plays) + may_pass > 1)
        game.apply(action)
    return out


def points(replays: Sequence[dict[str, Any]], count: int, seed: str) -> list[Point]:
    """``count`` decision points drawn from ``replays``, the phases taken in turn (in
    play, only the points where the seat had a choice)."""
    rng = random.Random(f"coach-points:{seed}")
    pools: dict[str, list[Point]] = {p: [] for p in PHASES}
    for data in replays:
        actions = data["deals"][-1]["actions"]
        first_play = next((i for i, a in enumerate(actions) if a["do"] == "play"),
                          len(actions))
        for i, (action, choice) in enumerate(zip(actions, _choices(data), strict=True)):
            if choice:
                phase = _phase(action, first_play, i)
                pools[phase].append(Point(data, i, action["seat"], phase))
    chosen: list[Point] = []
    for k in range(count):
        pool = pools[PHASES[k % len(PHASES)]] or [p for ps in pools.values() for p in ps]
        chosen.append(pool.pop(rng.randrange(len(pool))))
    return chosen


@dataclass(frozen=True, slots=True)
class HintCost:
    phase: str
    kind: str | None
    """The hint's kind, None when the seat had nothing to decide (a forced pass)."""
    seconds: float


def hint_costs(chosen: Sequence[Point]) -> list[HintCost]:
    """The CPU seconds of each point's hint (this process)."""
    costs: list[HintCost] = []
    for point in chosen:
        data = point.cut()
        began = time.process_time()
        found = hint(data, point.seat)
        costs.append(HintCost(point.phase, None if found is None else found.kind,
                              time.process_time() - began))
    return costs


def review_costs(count: int, seed: str, replays: Sequence[dict[str, Any]] | None = None,
                 play_samples: int = PLAY_SAMPLES) -> list[float]:
    """The CPU seconds of ``count`` one-seat reviews of a game's last deal (two-deal games
    played from ``seed``, unless ``replays`` are given), seats in turn."""
    out: list[float] = []
    for k in range(count):
        data = replays[k % len(replays)] if replays else \
            played(f"coach-review:{seed}:{k}", 2, play_samples)
        last = len(data["deals"]) - 1
        began = time.process_time()
        review_game(data, [k % 4], deals=[last])
        out.append(time.process_time() - began)
    return out


def summary(name: str, seconds: Sequence[float], goal: str | None = None) -> str:
    """``name: n N, median X s, max Y s (goal ...)``."""
    if not seconds:
        return f"{name}: none"
    line = (f"{name}: n {len(seconds)}, median {statistics.median(seconds):.3f} s, "
            f"max {max(seconds):.3f} s")
    return line + (f" (goal {goal})" if goal is not None else "")


def hint_lines(costs: Sequence[HintCost]) -> list[str]:
    lines = [summary("one hint, CPU", [c.seconds for c in costs if c.kind is not None],
                     f"≤ {HINT_GOAL:g} s")]
    for kind in sorted({c.kind for c in costs if c.kind is not None}):
        lines.append("  " + summary(kind, [c.seconds for c in costs if c.kind == kind]))
    none = [c.seconds for c in costs if c.kind is None]
    if none:
        lines.append("  " + summary("no hint (nothing to decide)", none))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_coach",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=30, help="hints timed (0: none)")
    parser.add_argument("--reviews", type=int, default=4,
                        help="reviews of one seat's deal timed (0: none)")
    parser.add_argument("--deals", type=int, default=6, help="deals the hints are drawn from")
    parser.add_argument("--play-samples", type=int, default=PLAY_SAMPLES,
                        help="samples a search of the hard players who play the deals")
    parser.add_argument("--seed", default="1", help="seed of the deals and of the moments timed")
    args = parser.parse_args(argv)
    if args.hints > 0:
        began = time.process_time()
        replays = [played(f"coach-hint:{args.seed}:{i}", 1, args.play_samples)
                   for i in range(max(1, args.deals))]
        print(f"{len(replays)} hard deals played for the hints "
              f"({time.process_time() - began:.0f} CPU s)", flush=True)
        costs = hint_costs(points(replays, args.hints, args.seed))
        for line in hint_lines(costs):
            print(line, flush=True)
    if args.reviews > 0:
        seconds = review_costs(args.reviews, args.seed, play_samples=args.play_samples)
        print(summary("one seat's review of one deal, CPU", seconds,
                      f"median ≤ {REVIEW_GOAL:g} s, max ≤ {REVIEW_MAX_GOAL:g} s"), flush=True)


if __name__ == "__main__":
    main()
