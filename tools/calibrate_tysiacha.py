"""How well Tysiacha's ``hard`` foresees its own contracts: its prikup estimates against
what its play then makes of them.

``python -m tools.calibrate_tysiacha --deals 800 --jobs 2`` plays each duplicate deal of
the version arena (:mod:`tools.versus_tricks`: deal 0 of a fresh game seeded
``"versus:{k}"``) with ``hard`` players in every seat, with no clock (``--samples`` a
decision), until the soloist sees the prikup. There it asks the soloist's
:meth:`~engine.tysiacha.ai.HardPlayer.prikup_values`: the estimate of playing its chosen
gifts at the contract held (the mean over the sampled deals, valued as the player values
a deal's end: the seat's change less the mean of the others'), and what it decides (play,
raise, concede). Then, whatever it decided, the deal is played on by the same players
with those gifts at the contract held, and the seat's true value is taken from the score
sheet. The report gives the estimate and the true value side by side, overall and by the
estimate's band, and for the raises how many of the raised contracts the soloist's
points would have made.

A well-calibrated player's two columns agree; where the estimate is above the truth,
the player takes contracts it should give up (or raises them) more often than it should.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass

from engine.tysiacha.actions import Give
from engine.tysiacha.ai import HardPlayer, pending_seats
from engine.tysiacha.cards import card_points
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.selfplay import play_deal
from engine.tysiacha.view import Phase

BAND = 40
"""The width of the estimate's bands in the report (points of value)."""


@dataclass(frozen=True, slots=True)
class Prikup:
    """One soloist's prikup: what it foresaw and what came of playing on."""

    deal: int
    held: int
    """The contract held on seeing the prikup."""
    chosen: int
    """The contract it chose (``held`` or a raise)."""
    conceded: bool
    estimate: float
    """The mean value of playing its gifts at ``held``, over its sampled deals."""
    truth: float
    """The value the score sheet gave when the deal was played on at ``held``."""
    points: int
    """The soloist's card and marriage points at the deal's end."""


def bid(k: int, player: HardPlayer, rng: random.Random) -> TysiachaGame:
    """Deal ``k`` of the arena, bid by ``player`` in every seat."""
    game = TysiachaGame(players=3, seed=f"versus:{k}")
    while game.phase is Phase.BIDDING:
        for seat in pending_seats(game.view(None)):
            action = player.act(game.view(seat), rng)
            if action is not None:
                game.apply(action)
                break
    return game


def one_deal(k: int, samples: int = 32) -> Prikup | None:
    """Deal ``k`` of the arena played by ``hard`` players; None when it ends before the
    prikup (a redeal)."""
    player = HardPlayer(budget_ms=None, samples=samples)
    rng = random.Random(k)
    game = bid(k, player, rng)
    soloist = game.soloist
    if game.phase is not Phase.PRIKUP or soloist is None:
        return None
    view = game.view(soloist)
    assert view.contract is not None
    sums, n = player.prikup_values(view)
    gifts, chosen, conceded = player.prikup_plan(view, (sums, n))
    given = next(g for g, _ in sums if tuple(sorted(g)) == gifts)
    estimate = sums[(given, view.contract)] / n
    on = deepcopy(game)
    on.apply(Give(soloist, gifts))
    play_deal(on, [player] * 3, rng)
    earned = [on.scores[s] - game.scores[s] for s in range(game.n_seats)]
    others = [earned[s] for s in view.active if s != soloist]
    # The estimate's measure (at a game's first deal no barrel or penalty counts).
    truth = earned[soloist] - sum(others) / len(others)
    points = card_points(on.won[soloist]) + on.marriage_points(soloist)
    return Prikup(k, view.contract, chosen, conceded, estimate, truth, points)


def _one(args: tuple[int, int]) -> Prikup | None:
    return one_deal(*args)


def run(deals: int, first: int = 0, samples: int = 32, jobs: int = 1) -> list[Prikup]:
    """The prikups of ``deals`` deals from ``first`` (in the deals' order)."""
    tasks = [(k, samples) for k in range(first, first + deals)]
    if jobs <= 1:
        found = [_one(t) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            found = list(pool.imap(_one, tasks))
    return [p for p in found if p is not None]


def _line(label: str, rows: Sequence[Prikup]) -> str:
    estimate = statistics.fmean(p.estimate for p in rows)
    truth = statistics.fmean(p.truth for p in rows)
    return (f"  {label:<22} {len(rows):>5}  estimate {estimate:+7.1f}  truth {truth:+7.1f}"
            f"  conceded {sum(p.conceded for p in rows):>4}")


def report(rows: Sequence[Prikup]) -> str:
    """The figures: estimate against truth, overall, played or conceded, by band; the
    raises."""
    if not rows:
        return "no prikup was seen"
    lines = ["the value of playing on at the contract held, as estimated and as played",
             _line("all", rows)]
    for conceded, label in ((False, "played (or raised)"), (True, "conceded")):
        part = [p for p in rows if p.conceded == conceded]
        if part:
            lines.append(_line(label, part))
    lines.append("by the estimate's band")
    bands: dict[int, list[Prikup]] = {}
    for p in rows:
        bands.setdefault(int(p.estimate // BAND) * BAND, []).append(p)
    for low in sorted(bands):
        lines.append(_line(f"{low:+d} to {low + BAND:+d}", bands[low]))
    raised = [p for p in rows if not p.conceded and p.chosen > p.held]
    if raised:
        made = sum(p.points >= p.chosen for p in raised)
        lines.append(f"raises {len(raised)}: the points played at the contract held reach "
                     f"the raised contract in {made} ({100 * made / len(raised):.0f}%)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m tools.calibrate_tysiacha",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=800, help="deals to play")
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    p.add_argument("--samples", type=int, default=32, help="samples a decision")
    p.add_argument("--jobs", type=int, default=1, help="processes")
    args = p.parse_args(argv)
    if args.deals < 1 or args.samples < 1 or args.jobs < 1 or args.first < 0:
        p.error("--deals, --samples and --jobs are at least 1, --first at least 0")
    print(report(run(args.deals, args.first, args.samples, args.jobs)))


if __name__ == "__main__":
    main()
