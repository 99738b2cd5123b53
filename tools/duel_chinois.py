"""Chinois's ways to bid, or to play, against each other in this engine, on duplicate pairs.

``--bids A:B`` compares two ways to bid with the play fixed (every seat plays ``normal``'s
cards); ``--play A:B`` two ways to play with the bids fixed (every seat bids ``hard``'s
learned bid). Pair ``k`` deals round ``1 + k mod 28`` (1 to 13 cards) from
``duel:k`` and plays it twice: ``A`` in seats 0 and 2 and ``B`` in 1 and 3, then
swapped. A deal's margin is ``A``'s seats' mean score less ``B``'s, a pair's the mean of its
two deals; printed, the mean over the pairs with its 95% interval (normal approximation).
Deterministic: the sampled ways run without a time budget.

Ways to bid: ``normal`` (the nearest legal bid to the heuristic estimate), ``learned``
(``hard``'s: the bid network); ways to play: ``normal``, ``learned`` (``hard``'s: the play
network), ``search`` (the sampled play-outs of ``hard-search``, 32 deals a card).

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

_NORMAL = NormalPlayer()
_HARD = HardPlayer(budget_ms=None)

BIDS: dict[str, Callable[[ChinoisView], int]] = {"normal": _NORMAL.bid, "learned": _HARD.bid}
PLAYS: dict[str, Callable[[ChinoisView], Card]] = {
    "normal": _NORMAL.card, "learned": _HARD.card,
    "search": lambda view: PlayoutPlayer.card(_HARD, view)}


def margin(task: tuple[str, str, str, int, bool]) -> float:
    """One deal of pair ``k``: ``a``'s seats' mean score less ``b``'s (``a`` in seats 1 and 3
    when ``swap``)."""
    what, a, b, k, swap = task
    game = ChinoisGame(deal=seeded_deal(f"duel:{k}", 1 + k % ROUNDS))
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        way = a if (seat % 2 == 0) != swap else b
        if game.phase is Phase.BID:
            game.apply(Bid(seat, BIDS[way if what == "bids" else "learned"](view)))
        else:
            game.apply(Play(seat, PLAYS[way if what == "play" else "normal"](view)))
    scores = game.history[-1].scores
    ours = (scores[1] + scores[3]) / 2 if swap else (scores[0] + scores[2]) / 2
    return ours - (sum(scores) / 2 - ours)


def duel(what: str, a: str, b: str, pairs: int, jobs: int = 1) -> list[float]:
    """Each pair's margin of ``a`` over ``b``, in order."""
    tasks = [(what, a, b, k, swap) for k in range(pairs) for swap in (False, True)]
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
    p.add_argument("--jobs", type=int, default=1, help="processes (results do not depend on it)")
    args = p.parse_args(argv)
    what = "bids" if args.bids else "play"
    a, b = args.bids or args.play
    values = duel(what, a, b, args.pairs, args.jobs)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    print(f"{what}: {a} over {b}: {mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f}) "
          f"points a seat a deal over {len(values)} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
