"""Engine speed: legal plays of single Tichu hands and a random four-player deal, a
six-player deal, a random Chinois game and
13-card deal and a Tysiacha deal played out, and a whole game replayed (deals and
replays timed in process CPU time).

Run ``make bench`` (or ``python -m tools.bench_engine``). Figures are printed,
never asserted: timing tests flake, benchmarks don't.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from engine.cards import parse_cards
from engine.chinois import ai as chinois_ai
from engine.chinois.deal import seeded_deal as chinois_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.selfplay import play_game as play_chinois_game
from engine.chinois.selfplay import play_round as play_chinois_round
from engine.replay import run_replay
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_deal, play_game
from engine.tichu.cards import DECK
from engine.tichu.combos import readings
from engine.tichu.game import TichuGame
from engine.tichu.legal import legal_plays
from engine.tichu.replay import to_replay
from engine.tichu.view import Phase, TichuView, TrickPlay
from engine.tysiacha import ai as tysiacha_ai
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.selfplay import play_deal as play_tysiacha_deal

HANDS = 2000
REPEATS = 3
"""Each hand (each deal) is timed this many times and its fastest run kept, as
``timeit`` does: on a shared machine the slower runs measure the scheduler.
Deals (milliseconds) are timed in process CPU time, which a busy machine does not
inflate by switching the process out; single hands (microseconds) by the wall
clock, whose fastest of three runs is rarely switched out."""

def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _view(hand: list[int], top_cards: str | None) -> TichuView:
    game = TichuGame(seed=0)
    trick: tuple[TrickPlay, ...] = ()
    if top_cards:
        combo = readings(parse_cards(top_cards.split()))[0]
        trick = (TrickPlay(1, combo),)
    base = game.view(0)
    return replace(base, phase=Phase.PLAY, turn=0, hand=tuple(DECK[c] for c in hand), trick=trick,
                   wish=None)


def _time_each(views: list[TichuView], fn: Callable[[TichuView], object]) -> list[float]:
    """Microseconds per view, the fastest of :data:`REPEATS` rounds."""
    best = [float("inf")] * len(views)
    clock = time.perf_counter
    for _ in range(REPEATS):
        for i, view in enumerate(views):
            start = clock()
            fn(view)
            spent = (clock() - start) * 1e6
            if spent < best[i]:
                best[i] = spent
    return best


def legal_play_times() -> dict[str, tuple[list[float], float]]:
    """Per position ("lead", "pair"): the times of 2000 random 14-card hands and the
    mean number of plays."""
    rng = random.Random(42)
    hands = [rng.sample(range(56), 14) for _ in range(HANDS)]
    out = {}
    for key, top in (("lead", None), ("pair", "6c 6d")):
        views = [_view(h, top) for h in hands]
        _time_each(views[:200], legal_plays)  # warm-up
        times = _time_each(views, legal_plays)
        counts = [len(legal_plays(v)) for v in views]
        out[key] = (times, statistics.mean(counts))
    return out


def random_deal_times(n_seats: int = 4, deals: int = 300) -> tuple[list[float], float]:
    """Milliseconds per random deal played out by random (easy) players, and the
    mean number of actions."""
    players = [EasyPlayer()] * n_seats
    times = []
    actions = []
    for seed in range(deals):
        best = float("inf")
        for _ in range(REPEATS):
            game = TichuGame(seed=seed, players=n_seats)
            rng = random.Random(seed)
            start = time.process_time()
            play_deal(game, players, rng)
            best = min(best, (time.process_time() - start) * 1e3)
            assert game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
        times.append(best)
        actions.append(len(game.actions))
    return times, statistics.mean(actions)


def _row(label: str, values: list[float], unit: str) -> str:
    return (f"| {label:52s} | {statistics.median(values):8.2f} {unit} | "
            f"{_percentile(values, 0.9):8.2f} {unit} |")


def bench_table() -> None:
    """Legal plays of single hands (wall clock, microseconds) and random four-player
    deals played out (process CPU time, milliseconds): median and p90."""
    legal = legal_play_times()
    lead, lead_plays = legal["lead"]
    pair, pair_plays = legal["pair"]
    deals, deal_actions = random_deal_times(4)
    print("| measure | median | p90 |")
    print("| --- | --- | --- |")
    print(_row("legal plays of a random 14-card hand, on a lead", lead, "us"))
    print(_row("legal plays of a random 14-card hand, on a pair of 6s", pair, "us"))
    print(_row("a random 4-player deal played out, 4 random players", deals, "ms"))
    print(f"(mean {lead_plays:.1f} plays on a lead, {pair_plays:.1f} on the pair; "
          f"{deal_actions:.0f} actions a deal; each hand or deal timed {REPEATS}x, fastest kept)")


def bench_six() -> None:
    times, actions = random_deal_times(6)
    print(f"{'random 6-player Tichu deal played out':40s} median {statistics.median(times):7.2f} ms"
          f"   p90 {_percentile(times, 0.9):7.2f} ms   (mean {actions:.0f} actions)")


def bench_chinois(games: int = 30) -> None:
    """Whole Chinois games (28 rounds of 1 to 13 cards) between random players."""
    players = [chinois_ai.EasyPlayer()] * 4
    times = []
    actions = []
    for seed in range(games):
        best = float("inf")
        for _ in range(REPEATS):
            start = time.process_time()
            game = play_chinois_game(players, seed=seed)
            best = min(best, (time.process_time() - start) * 1e3)
        times.append(best)
        actions.append(len(game.actions))
    per_round = statistics.median(times) / 28
    print(f"{'random Chinois game played out (28 rounds)':40s} median {statistics.median(times):7.2f} ms"
          f"   p90 {_percentile(times, 0.9):7.2f} ms   (mean {statistics.mean(actions):.0f} actions;"
          f" {per_round:.2f} ms a round)")


def bench_chinois_deal(deals: int = 300, round_: int = 13) -> None:
    """One Chinois deal of 13 cards each (round 13: the whole deck, bids and 13
    tricks) played out by random players."""
    players = [chinois_ai.EasyPlayer()] * 4
    times = []
    actions = []
    for seed in range(deals):
        best = float("inf")
        for _ in range(REPEATS):
            game = ChinoisGame(deal=chinois_deal(seed, round_))
            rng = random.Random(seed)
            start = time.process_time()
            play_chinois_round(game, players, rng)
            best = min(best, (time.process_time() - start) * 1e3)
        times.append(best)
        actions.append(len(game.actions))
    print(f"{'random Chinois 13-card deal played out':40s} median {statistics.median(times):7.2f} ms"
          f"   p90 {_percentile(times, 0.9):7.2f} ms   (mean {statistics.mean(actions):.0f} actions)")


def bench_tysiacha(deals: int = 300) -> None:
    players = [tysiacha_ai.EasyPlayer()] * 3
    times = []
    actions = []
    for seed in range(deals):
        best = float("inf")
        for _ in range(REPEATS):
            game = TysiachaGame(seed=seed)
            rng = random.Random(seed)
            start = time.process_time()
            play_tysiacha_deal(game, players, rng)
            best = min(best, (time.process_time() - start) * 1e3)
        times.append(best)
        actions.append(len(game.actions))
    print(f"{'random Tysiacha deal played out':40s} median {statistics.median(times):7.2f} ms"
          f"   p90 {_percentile(times, 0.9):7.2f} ms   (mean {statistics.mean(actions):.0f} actions)")


def bench_replay() -> None:
    game = play_game([EasyPlayer()] * 4, seed=7)
    data = json.loads(json.dumps(to_replay(game)))
    actions = sum(len(d["actions"]) for d in data["deals"])
    times = []
    for _ in range(5):
        start = time.process_time()
        out = run_replay(data)
        times.append((time.process_time() - start) * 1e3)
    assert out["winner"] == game.winner
    print(f"replay of a {max(game.scores)}-point game ({len(game.history)} deals, {actions} actions)"
          f"  median {statistics.median(times):7.1f} ms")


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(
        prog="python -m tools.bench_engine",
        description="Engine speed: legal plays of single Tichu hands, deals of every game "
        "played out and a whole game replayed, timed in process CPU time (figures printed, "
        "never asserted).").parse_args(argv)
    bench_table()
    bench_six()
    bench_chinois()
    bench_chinois_deal()
    bench_tysiacha()
    bench_replay()


if __name__ == "__main__":
    main()
