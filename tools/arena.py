"""Arena: computer levels against each other in duplicate games.

Each game seed is played twice with the teams swapped (level A on the even
seats, then on the odd seats, the cards dealt the same), so the luck of the deal
cancels. ``--players 6`` plays the six-player variant (teams 0+2+4 v 1+3+5). For every pairing it prints the games won with a 95% Wilson interval,
the mean points per deal, Tichu and Grand Tichu calls and how often they were
made, double victories, and the p50 and p99 milliseconds per decision of each
level (decisions that were applied; a seat asked out of turn that waits is not
counted).

Run: ``python -m tools.arena --games 40 --pairs hard:easy,hard:normal,normal:easy``
(``--games`` counts games per pairing, so 40 is 20 seeds each played twice), or
``python -m tools.arena --players 6 --games 20 --pairs normal:easy,hard:normal``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.tichu.actions import Action
from engine.tichu.ai import make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Call, Phase


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Side:
    """What one level did over a pairing."""

    level: str
    games_won: float = 0.0
    deal_points: list[int] = field(default_factory=list)
    tichu: int = 0
    tichu_made: int = 0
    grand: int = 0
    grand_made: int = 0
    doubles: int = 0
    """Double victories (four players) or triple victories (six)."""
    decision_ms: list[float] = field(default_factory=list)


def _build(level: str, budget_ms: float | None) -> Player:
    if level == "search" and budget_ms is not None:
        return SearchPlayer(budget_ms=budget_ms)
    return make_player(level)


@dataclass(frozen=True)
class _Task:
    """One game of a pairing: seed ``n``, teams swapped or not."""

    a: str
    b: str
    n: int
    swap: bool
    seed: str
    target: int
    max_deals: int | None
    budget_ms: float | None
    players: int


def _play_one(task: _Task) -> tuple[TichuGame, tuple[int, int], list[float], list[float], int]:
    """Play one game: (game, side of each team, decision ms of side a and b, deals)."""
    levels = (task.b, task.a) if task.swap else (task.a, task.b)
    side_of_team = (1, 0) if task.swap else (0, 1)
    built = [_build(levels[s % 2], task.budget_ms) for s in range(2)]
    seats = [built[s % 2] for s in range(task.players)]
    spent_ms: tuple[list[float], list[float]] = ([], [])

    def observe(game: TichuGame, seat: int, action: Action, spent: float) -> None:
        spent_ms[side_of_team[seat % 2]].append(spent * 1000.0)

    game_seed = f"{task.seed}:{task.n}" if task.players == 4 else \
        f"{task.seed}:{task.players}:{task.n}"
    game = TichuGame(seed=game_seed, target=task.target, players=task.players)
    rng = random.Random(f"players:{game_seed}:{task.swap}")
    deals = 0
    while True:
        play_deal(game, seats, rng, observe)
        deals += 1
        if game.phase is Phase.GAME_OVER or (task.max_deals is not None
                                             and deals >= task.max_deals):
            break
        game.next_deal()
    game.touch()
    return game, side_of_team, spent_ms[0], spent_ms[1], deals


def play_pairing(a: str, b: str, games: int, *, seed: str = "arena", target: int = 1000,
                 max_deals: int | None = None, budget_ms: float | None = None,
                 progress: bool = True, players: int = 4, jobs: int = 1,
                 report_every: int = 0) -> tuple[Side, Side]:
    """Play ``games`` games (half the seeds, each twice with the teams swapped) at a
    table of ``players`` seats (4 or 6), on ``jobs`` processes. Every
    ``report_every`` games (0: never) the figures so far are printed."""
    sides = (Side(a), Side(b))
    seeds = max(1, games // 2)
    tasks = [_Task(a, b, n, swap, seed, target, max_deals, budget_ms, players)
             for n in range(seeds) for swap in (False, True)]
    start = time.perf_counter()
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        results: Iterator[tuple[TichuGame, tuple[int, int], list[float], list[float], int]] = \
            pool.imap(_play_one, tasks)
    else:
        pool = None
        results = map(_play_one, tasks)
    try:
        for played, (task, (game, side_of_team, ms_a, ms_b, deals)) in \
                enumerate(zip(tasks, results, strict=True), 1):
            sides[0].decision_ms.extend(ms_a)
            sides[1].decision_ms.extend(ms_b)
            _tally(game, sides, side_of_team)
            if progress:
                print(f"  {a} v {b}: seed {task.n} {'swapped' if task.swap else 'straight'} "
                      f"scores {game.scores} after {deals} deals", file=sys.stderr, flush=True)
            if report_every and played % report_every == 0 and played < len(tasks):
                print(report(sides, played, time.perf_counter() - start, players) +
                      "  (so far)", flush=True)
    finally:
        if pool is not None:
            pool.terminate()
    return sides


def _tally(game: TichuGame, sides: tuple[Side, Side], side_of_team: tuple[int, int]) -> None:
    if game.winner is not None:
        sides[side_of_team[game.winner]].games_won += 1
    else:
        # A game cut short (max_deals): the leader wins, a tie is half each.
        s0, s1 = game.scores
        if s0 == s1:
            sides[0].games_won += 0.5
            sides[1].games_won += 0.5
        else:
            sides[side_of_team[0 if s0 > s1 else 1]].games_won += 1
    for deal in game.history:
        for team in (0, 1):
            side = sides[side_of_team[team]]
            side.deal_points.append(deal.scores[team])
            if deal.sweep == team:
                side.doubles += 1
        for seat, call in enumerate(deal.calls):
            if call is None:
                continue
            side = sides[side_of_team[seat % 2]]
            made = bool(deal.out) and deal.out[0] == seat
            if call is Call.TICHU:
                side.tichu += 1
                side.tichu_made += made
            else:
                side.grand += 1
                side.grand_made += made


def report(sides: tuple[Side, Side], games: int, seconds: float, players: int = 4) -> str:
    """The figures of a pairing over ``games`` games played."""
    a, b = sides
    n = max(1, games)
    low, high = wilson(a.games_won, n)
    sweep = "double" if players == 4 else "triple"
    table = "" if players == 4 else f" ({players} players)"
    lines = [f"{a.level} vs {b.level}{table}: {n} games in {seconds:.0f} s",
             f"  {a.level} won {a.games_won:g}/{n} = {a.games_won / n:.0%} "
             f"(95% CI {low:.0%}-{high:.0%})"]
    for side in sides:
        deals = len(side.deal_points) or 1
        tichu = f"{side.tichu_made}/{side.tichu}" + (
            f" ({side.tichu_made / side.tichu:.0%})" if side.tichu else "")
        grand = f"{side.grand_made}/{side.grand}" + (
            f" ({side.grand_made / side.grand:.0%})" if side.grand else "")
        lines.append(
            f"  {side.level:6s} mean {sum(side.deal_points) / deals:6.1f} pts/deal  "
            f"Tichu made {tichu}  Grand made {grand}  {sweep} victories {side.doubles}  "
            f"decision p50 {percentile(side.decision_ms, 0.5):.2f} ms "
            f"p99 {percentile(side.decision_ms, 0.99):.1f} ms")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.arena",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40,
                        help="games per pairing (seeds x 2, teams swapped)")
    parser.add_argument("--pairs", default="hard:easy,hard:normal,normal:easy",
                        help="comma-separated level pairs A:B")
    parser.add_argument("--target", type=int, default=1000, help="points that win a game")
    parser.add_argument("--max-deals", type=int, default=None,
                        help="cut each game after this many deals (for quick checks)")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="time budget of the search level's search (default: its own)")
    parser.add_argument("--seed", default="arena", help="prefix of the game seeds")
    parser.add_argument("--players", type=int, choices=(4, 6), default=4,
                        help="seats at the table: 4, or 6 for the Tientsin variant")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes playing games side by side (default 1)")
    parser.add_argument("--report-every", type=int, default=0,
                        help="print the figures so far every N games (0: only at the end)")
    args = parser.parse_args(argv)
    for pair in args.pairs.split(","):
        a, b = pair.strip().split(":")
        start = time.perf_counter()
        sides = play_pairing(a, b, args.games, seed=args.seed, target=args.target,
                             max_deals=args.max_deals, budget_ms=args.budget_ms,
                             progress=not args.quiet, players=args.players, jobs=args.jobs,
                             report_every=args.report_every)
        played = max(1, args.games // 2) * 2
        print(report(sides, played, time.perf_counter() - start, args.players), flush=True)


if __name__ == "__main__":
    main()
