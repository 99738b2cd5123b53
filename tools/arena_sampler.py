"""Hard Chinois with the shared sampler against hard Chinois with the sampler it replaced.

The old sampler dealt the unseen cards at random, ignoring the voids the tricks
had shown; it is kept here only, copied as it was, and plugged into a subclass
of the sampled player (:class:`~engine.chinois.ai.PlayoutPlayer`, ``hard`` before its
learned values: :class:`OldHardPlayer`), so nothing in ``engine`` can reach it.

Each deal seed is played twice, as a whole game of 28 rounds from the same seed
(so the same cards): the new player in seats 0 and 2 and the old one in seats 1
and 3, then swapped. A game's margin is the mean final score of the new seats
less that of the old seats; a seed's margin is the mean of its two games. Printed:
the mean margin per game with its 95% interval (normal approximation over the
seeds' paired margins), the new player's share of the wins, and each version's
time per card decision. With ``--budget-ms`` left out the players have no time
limit, so the run is deterministic and does not depend on ``--jobs`` or the load.

Run: ``python -m tools.arena_sampler [--seeds N] [--samples 32] [--budget-ms MS]
[--rounds 28] [--jobs 2] [--max-minutes M]``. With ``--max-minutes`` the games
still running at the deadline are stopped and only the seeds with both games
played count: which seeds those are depends on the machine's speed, not their
results.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable

from engine.cards import Card
from engine.chinois.ai import PlayoutPlayer, unseen_cards
from engine.chinois.selfplay import play_game
from engine.chinois.view import ChinoisView
from tools.arena_tricks import Timed, percentile


def old_sample_hands(view: ChinoisView, rng: random.Random) -> list[list[Card]]:
    """The sampler before the shared one (engine/chinois/ai.py ``_sample_hands``), as it
    was: the unseen cards dealt at random to the others in their public counts."""
    seat = view.seat
    assert seat is not None
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    for s, count in enumerate(view.hand_counts):
        if s == seat:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[:count])
            del unseen[:count]
    return hands


class OldHardPlayer(PlayoutPlayer):
    """The hard player with the old sampler."""

    def sampler(self, view: ChinoisView) -> Callable[[random.Random], list[list[Card]]]:
        return lambda rng: old_sample_hands(view, rng)


NEW_SEATS = ((0, 2), (1, 3))
"""Where the new player sits in the first and the second game of a seed."""


def _one_game(task: tuple[int, int, int, float | None, int]) -> tuple[
        int, int, list[int], list[int], dict[str, list[float]]]:
    """Game ``half`` (0 or 1) of seed ``g``: its scores, winners and decision times."""
    g, half, samples, budget_ms, rounds = task
    new_seats = NEW_SEATS[half]
    times: dict[str, list[float]] = {"new": [], "old": []}
    players = []
    for s in range(4):
        version = "new" if s in new_seats else "old"
        cls = PlayoutPlayer if version == "new" else OldHardPlayer
        players.append(Timed(cls(samples=samples, budget_ms=budget_ms), times[version]))
    game = play_game(players, seed=f"sampler:{g}", max_rounds=rounds)
    return g, half, list(game.scores), list(game.winners or ()), times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.arena_sampler",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=32, help="deal seeds, each played twice")
    parser.add_argument("--samples", type=int, default=32, help="the hard players' deals per card")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="the hard players' time per card (default: none, deterministic)")
    parser.add_argument("--rounds", type=int, default=28, help="rounds per game (28: whole)")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="stop starting games after this long; only whole seeds count")
    args = parser.parse_args(argv)
    tasks = [(g, half, args.samples, args.budget_ms, args.rounds)
             for g in range(args.seeds) for half in (0, 1)]
    start = time.perf_counter()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    results = []
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            running = pool.imap_unordered(_one_game, tasks, chunksize=1)
            for _ in tasks:
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                try:
                    results.append(running.next(left))
                except multiprocessing.TimeoutError:
                    break  # leaving the block stops the games still running
    else:
        for task in tasks:
            results.append(_one_game(task))
            if deadline is not None and time.perf_counter() > deadline:
                break
    elapsed = time.perf_counter() - start
    # Only seeds 0..k-1 with both games done count (the deadline may cut some short).
    halves: dict[int, int] = {}
    for g, *_ in results:
        halves[g] = halves.get(g, 0) + 1
    whole = 0
    while halves.get(whole) == 2:
        whole += 1
    dropped = len(results)
    results = sorted(r for r in results if r[0] < whole)
    dropped -= len(results)
    if not results:
        print(f"no seed finished both its games in {elapsed:.0f} s")
        return
    margins: dict[int, list[float]] = {}
    times: dict[str, list[float]] = {"new": [], "old": []}
    wins = 0.0
    new_total = old_total = 0.0
    for g, half, scores, winners, game_times in results:
        new_seats = NEW_SEATS[half]
        new = statistics.mean(scores[s] for s in new_seats)
        old = statistics.mean(scores[s] for s in range(4) if s not in new_seats)
        new_total += new
        old_total += old
        margins.setdefault(g, []).append(new - old)
        if winners:
            wins += sum(1 for w in winners if w in new_seats) / len(winners)
        for version, values in game_times.items():
            times[version].extend(values)
    paired = [statistics.mean(m) for m in margins.values()]
    n = len(paired)
    mean = statistics.mean(paired)
    sd = statistics.stdev(paired) if n > 1 else float("nan")
    half_width = 1.96 * sd / math.sqrt(n) if n > 1 else float("nan")
    games = len(results)
    print(f"== Chinois, hard (shared sampler) vs hard (old sampler): {n} seeds x 2 games "
          f"({games} games), {args.rounds} rounds each, {args.samples} samples per card, "
          f"budget {args.budget_ms} ms ({elapsed:.0f} s"
          + (f"; {dropped} game(s) of unfinished seeds left out" if dropped else "") + ")")
    print(f"  mean score per seat   new {new_total / games:7.1f}   old {old_total / games:7.1f}")
    print(f"  margin per game (new - old)  {mean:+.2f}  95% CI [{mean - half_width:+.2f}, "
          f"{mean + half_width:+.2f}]  (sd of paired margins {sd:.1f})")
    print(f"  new seats' share of the wins  {wins / games:.1%}  (equal players: 50%)")
    for version, values in times.items():
        print(f"  {version} ms per action (bids and cards)  p50 {percentile(values, 0.5):.1f}"
              f"  p99 {percentile(values, 0.99):.1f}  ({len(values)} decisions)")


if __name__ == "__main__":
    main()
