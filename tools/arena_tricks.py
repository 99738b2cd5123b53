"""Levels against each other in the trick-taking games: results and decision times.

Per game, one hero seat (``normal`` by default) plays against seats of another
level (``easy`` by default; ``--pairs hard:normal`` for hard against normal); the hero moves
round the table from one game to the next. Printed per game: the mean final
score of the normal seat and of the easy seats, the normal seat's share of the
wins with a 95% Wilson interval (a shared Chinois win counts as a fraction; the
share of an equal player would be 1/4 in Chinois, 1/3 in Tysiacha), and the
time each level takes per decision (p50 and p99, in ms). Figures are printed,
never asserted.

Run: ``python -m tools.arena_tricks [--games N] [--only chinois|tysiacha]
[--pairs normal:easy,hard:normal] [--jobs 2]``. The games and their seeds do not
depend on ``--jobs``; the hard players' time budgets make their choices depend a
little on the machine's load.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.chinois import ai as chinois_ai
from engine.chinois.selfplay import play_game as play_chinois
from engine.tysiacha import ai as tysiacha_ai
from engine.tysiacha.selfplay import play_game as play_tysiacha

MAX_TYSIACHA_DEALS = 200
"""Easy players can drift far below zero; a game not over by then counts as no win."""


class Timed:
    """Wraps a computer player and records how long each decision takes."""

    def __init__(self, player: Any, times: list[float]) -> None:
        self.player = player
        self.times = times

    def act(self, view: Any, rng: random.Random) -> Any:
        start = time.perf_counter()
        action = self.player.act(view, rng)
        if action is not None:
            self.times.append((time.perf_counter() - start) * 1000)
        return action


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _one_game(task: tuple[str, int, int, str, str]) -> tuple[int, list[int], list[int],
                                                            dict[str, list[float]]]:
    """Play game ``g`` of an arena (in a worker process with ``--jobs``): the hero's
    seat, the final scores, the winners and each level's decision times."""
    name, seats, g, hero_level, rest_level = task
    play, make_player = _GAMES[name]
    times: dict[str, list[float]] = {hero_level: [], rest_level: []}
    hero = g % seats
    players = [Timed(make_player(hero_level if s == hero else rest_level),
                     times[hero_level if s == hero else rest_level]) for s in range(seats)]
    scores, winners = play(players, g)
    return hero, scores, winners, times


def arena(name: str, seats: int, games: int, hero_level: str = "normal",
          rest_level: str = "easy", jobs: int = 1) -> None:
    """Play ``games`` games of one ``hero_level`` seat against ``rest_level`` seats
    and print the figures (games shared among ``jobs`` processes)."""
    hero_name, rest_name = hero_level, rest_level
    times: dict[str, list[float]] = {hero_name: [], rest_name: []}
    hero_scores: list[int] = []
    rest_scores: list[int] = []
    wins = 0.0
    unfinished = 0
    start = time.perf_counter()
    tasks = [(name, seats, g, hero_level, rest_level) for g in range(games)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_one_game, tasks, chunksize=1)
    else:
        results = [_one_game(t) for t in tasks]
    for hero, scores, winners, game_times in results:
        for level, values in game_times.items():
            times[level].extend(values)
        hero_scores.append(scores[hero])
        rest_scores.extend(s for i, s in enumerate(scores) if i != hero)
        if not winners:
            unfinished += 1
        elif hero in winners:
            wins += 1 / len(winners)
    elapsed = time.perf_counter() - start
    low, high = wilson(wins, games)
    print(f"== {name}: {games} games, 1 {hero_name} vs {seats - 1} {rest_name} ({elapsed:.1f} s)")
    print(f"  mean score   {hero_name} {statistics.mean(hero_scores):8.1f}"
          f"   {rest_name} {statistics.mean(rest_scores):8.1f}")
    print(f"  {hero_name} wins  {wins / games:6.1%}  (95% CI {low:.1%} - {high:.1%};"
          f" an equal player: {1 / seats:.1%})" + (f"; {unfinished} unfinished" if unfinished else ""))
    for level, values in times.items():
        print(f"  {level:<6} ms per decision  p50 {percentile(values, 0.5):.3f}"
              f"  p99 {percentile(values, 0.99):.3f}  max {max(values):.3f}  ({len(values)} decisions)")


def _chinois(players: list[Any], seed: int) -> tuple[list[int], list[int]]:
    game = play_chinois(players, seed=f"arena:{seed}")
    return list(game.scores), list(game.winners or ())


def _tysiacha(players: list[Any], seed: int) -> tuple[list[int], list[int]]:
    game = play_tysiacha(players, seed=f"arena:{seed}", max_deals=MAX_TYSIACHA_DEALS)
    return list(game.scores), [] if game.winner is None else [game.winner]


_GAMES: dict[str, tuple[Callable[[list[Any], int], tuple[list[int], list[int]]],
                         Callable[[str], Any]]] = {
    "Chinois": (_chinois, chinois_ai.make_player),
    "Tysiacha": (_tysiacha, tysiacha_ai.make_player),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.arena_tricks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per trick-taking game")
    parser.add_argument("--only", choices=("chinois", "tysiacha"),
                        help="play this game only (default: both)")
    parser.add_argument("--pairs", default="normal:easy",
                        help="comma-separated HERO:REST levels, one hero seat against the rest")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes sharing the games (results do not depend on it)")
    args = parser.parse_args(argv)
    for pair in args.pairs.split(","):
        hero, rest = pair.strip().split(":")
        if args.only in (None, "chinois"):
            arena("Chinois", 4, args.games, hero, rest, args.jobs)
        if args.only in (None, "tysiacha"):
            arena("Tysiacha", 3, args.games, hero, rest, args.jobs)


if __name__ == "__main__":
    main()
