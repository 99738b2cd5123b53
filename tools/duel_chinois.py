"""Chinois's ways to bid, or to play, against each other in this engine, on duplicate pairs.

``--bids A:B`` compares two ways to bid with the play fixed (every seat plays ``normal``'s
cards, or ``--fixed``'s); ``--play A:B`` two ways to play with the bids fixed (every seat
bids the learned bid, or ``--fixed``'s). Pair ``k`` deals the ``k``-th of ``--rounds`` in turn (all 28 by default: 1 to 13
cards) from ``duel:k`` and plays it twice: ``A`` in seats 0 and 2 and ``B`` in 1 and 3, then
swapped. A deal's margin is ``A``'s seats' mean score less ``B``'s, a pair's the mean of its
two deals; printed, the mean over the pairs with its 95% interval (normal approximation).
Deterministic: the sampled ways run without a time budget.

Ways to bid: ``normal`` (the nearest legal bid to the heuristic estimate), ``learned``
(``hard``'s: the bid network; ``normal``'s bid in the 13-card rounds); ways to play:
``normal``, ``learned`` (the play network of ``HardPlayer(learned_play=True)``),
``search`` (``hard``'s: sampled deals played out, 32 a card).

Run: ``python -m tools.duel_chinois --bids learned:normal --pairs 3000``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
from collections.abc import Callable, Sequence

from engine.cards import Card
from engine.chinois.actions import Bid, Play
from engine.chinois.ai import HardPlayer, NormalPlayer, PlayoutPlayer
from engine.chinois.deal import seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.rules import ROUNDS
from engine.chinois.view import ChinoisView, Phase
from tools.arena_openspiel import parse_rounds

_NORMAL = NormalPlayer()
_HARD = HardPlayer(learned_play=True, budget_ms=None)

BIDS: dict[str, Callable[[ChinoisView], int]] = {"normal": _NORMAL.bid, "learned": _HARD.bid}
PLAYS: dict[str, Callable[[ChinoisView], Card]] = {
    "normal": _NORMAL.card, "learned": _HARD.card,
    "search": lambda view: PlayoutPlayer.card(_HARD, view)}


ALL_ROUNDS = tuple(range(1, ROUNDS + 1))


def margin(task: tuple[str, str, str, str, tuple[int, ...], int, bool]) -> float:
    """One deal of pair ``k``: ``a``'s seats' mean score less ``b``'s (``a`` in seats 1 and 3
    when ``swap``), every seat's other half of the game done the ``fixed`` way."""
    what, a, b, fixed, rounds, k, swap = task
    game = ChinoisGame(deal=seeded_deal(f"duel:{k}", rounds[k % len(rounds)]))
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        way = a if (seat % 2 == 0) != swap else b
        if game.phase is Phase.BID:
            game.apply(Bid(seat, BIDS[way if what == "bids" else fixed](view)))
        else:
            game.apply(Play(seat, PLAYS[way if what == "play" else fixed](view)))
    scores = game.history[-1].scores
    ours = (scores[1] + scores[3]) / 2 if swap else (scores[0] + scores[2]) / 2
    return ours - (sum(scores) / 2 - ours)


def duel(what: str, a: str, b: str, pairs: int, jobs: int = 1,
         rounds: tuple[int, ...] = ALL_ROUNDS, fixed: str | None = None) -> list[float]:
    """Each pair's margin of ``a`` over ``b``, in order (pair ``k`` deals the ``k``-th of
    ``rounds`` in turn); ``fixed`` is how every seat plays (``what`` is ``bids``: ``normal``
    unless given) or bids (``play``: ``learned`` unless given)."""
    fixed = fixed or ("normal" if what == "bids" else "learned")
    tasks = [(what, a, b, fixed, rounds, k, swap) for k in range(pairs)
             for swap in (False, True)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            deals = pool.map(margin, tasks, chunksize=8)
    else:
        deals = [margin(t) for t in tasks]
    return [(deals[2 * k] + deals[2 * k + 1]) / 2 for k in range(pairs)]


def ways(text: str, known: Sequence[str]) -> tuple[str, str]:
    a, _, b = text.partition(":")
    if a not in known or b not in known:
        raise argparse.ArgumentTypeError(f"{text!r}: two of {', '.join(known)} as A:B")
    return a, b


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.duel_chinois",
                                description=(__doc__ or "").split("\n\n")[0])
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--bids", type=lambda t: ways(t, list(BIDS)), help="A:B ways to bid")
    which.add_argument("--play", type=lambda t: ways(t, list(PLAYS)), help="A:B ways to play")
    p.add_argument("--pairs", type=int, default=1000, help="pairs of deals")
    p.add_argument("--rounds", type=parse_rounds, default=ALL_ROUNDS,
                   help="Chinois rounds dealt in turn (default 1-28; 13-16: the 13-card rounds)")
    p.add_argument("--fixed", default=None,
                   help="how every seat plays (with --bids; default normal) or bids (with "
                   "--play; default learned)")
    p.add_argument("--jobs", type=int, default=1, help="processes (results do not depend on it)")
    args = p.parse_args(argv)
    what = "bids" if args.bids else "play"
    a, b = args.bids or args.play
    if args.fixed is not None and args.fixed not in (PLAYS if what == "bids" else BIDS):
        p.error(f"--fixed {args.fixed}: not a way to {'play' if what == 'bids' else 'bid'}")
    values = duel(what, a, b, args.pairs, args.jobs, args.rounds, args.fixed)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    print(f"{what}: {a} over {b}: {mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f}) "
          f"points a seat a deal over {len(values)} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
