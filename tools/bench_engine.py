"""Engine speed: legal_plays, a random deal played out (four and six players), and a
whole game replayed.

Run ``make bench`` (or ``python -m tools.bench_engine``). Figures are printed,
never asserted: timing tests flake, benchmarks don't.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from engine.cards import parse_cards
from engine.replay import run_replay
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_deal, play_game
from engine.tichu.cards import DECK
from engine.tichu.combos import readings
from engine.tichu.game import TichuGame
from engine.tichu.legal import legal_plays
from engine.tichu.replay import to_replay
from engine.tichu.view import Phase, TichuView, TrickPlay

HANDS = 2000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _view(hand: list[int], top_cards: str | None) -> TichuView:
    game = TichuGame(seed=0)
    trick = ()
    if top_cards:
        combo = readings(parse_cards(top_cards.split()))[0]
        trick = (TrickPlay(1, combo),)
    base = game.view(0)
    return replace(base, phase=Phase.PLAY, turn=0, hand=tuple(DECK[c] for c in hand), trick=trick,
                   wish=None)


def _time_each(views: list[TichuView], fn: Callable[[TichuView], object]) -> list[float]:
    out = []
    clock = time.perf_counter
    for view in views:
        start = clock()
        fn(view)
        out.append((clock() - start) * 1e6)
    return out


def bench_legal_plays() -> None:
    rng = random.Random(42)
    hands = []
    for _ in range(HANDS):
        hand = rng.sample(range(56), 14)
        hands.append(hand)
    for label, top in (("on a lead", None), ("against a pair of 6s", "6c 6d")):
        views = [_view(h, top) for h in hands]
        _time_each(views[:200], legal_plays)  # warm-up
        times = _time_each(views, legal_plays)
        counts = [len(legal_plays(v)) for v in views]
        print(f"legal_plays {label:22s} median {statistics.median(times):7.1f} us   "
              f"p90 {_percentile(times, 0.9):7.1f} us   (mean {statistics.mean(counts):.1f} plays)")


def bench_random_deal(n_seats: int = 4) -> None:
    players = [EasyPlayer()] * n_seats
    times = []
    actions = []
    for seed in range(300):
        game = TichuGame(seed=seed, players=n_seats)
        rng = random.Random(seed)
        start = time.perf_counter()
        play_deal(game, players, rng)
        times.append((time.perf_counter() - start) * 1e3)
        actions.append(len(game.actions))
        assert game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    label = "random deal played out" if n_seats == 4 else "random 6-player deal played out"
    print(f"{label:32s} median {statistics.median(times):7.2f} ms   "
          f"p90 {_percentile(times, 0.9):7.2f} ms   (mean {statistics.mean(actions):.0f} actions)")


def bench_replay() -> None:
    game = play_game([EasyPlayer()] * 4, seed=7)
    data = json.loads(json.dumps(to_replay(game)))
    actions = sum(len(d["actions"]) for d in data["deals"])
    times = []
    for _ in range(5):
        start = time.perf_counter()
        out = run_replay(data)
        times.append((time.perf_counter() - start) * 1e3)
    assert out["winner"] == game.winner
    print(f"replay of a {max(game.scores)}-point game ({len(game.history)} deals, {actions} actions)"
          f"  median {statistics.median(times):7.1f} ms")


def main() -> None:
    bench_legal_plays()
    bench_random_deal()
    bench_random_deal(6)
    bench_replay()


if __name__ == "__main__":
    main()
