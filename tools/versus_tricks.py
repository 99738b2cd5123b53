"""Versus for the trick games: this tree's Tysiacha (or Chinois) player against a player
of another commit, in duplicate deals.

The twin of :mod:`tools.versus` (Tichu): the other commit's player runs in a child
process with that commit's worktree first on ``sys.path`` (:class:`tools.versus.Remote`
speaking to :mod:`tools.versus_server`), this process holds the authoritative game,
asks each seat from its own view, applies every action (the engine checks it) and
sends it to the child, whose copy of the deal must end with the same score.

Each duplicate deal (``--game tysiacha``: deal 0 of a fresh game seeded
``"{seed}:{k}"``, at 0 points; ``--game chinois``: round ``1 + k % 28`` dealt from that
seed) is played once in every arrangement of the two players on the seats with
both present: 6 for Tysiacha's 3 seats, 14 for Chinois's 4. Every seat is then each
side's equally often, so the luck of the cards cancels. An arrangement's margin is
the mean deal score of this tree's seats minus that of the other side's; a deal's
value is the mean of its arrangements' margins. The report gives the mean points a
deal with its 95% confidence interval (over the deals), the deals won, and per
side the mean points of a seat a deal, the contracts taken and made, failed or
conceded (Tysiacha: the soloist's; Chinois: every seat's bid, made when its tricks
equal it) and the decision times (wall time of the decisions applied, p50 and p99).

Run: ``python -m tools.versus_tricks --game tysiacha --against 20683d2 --level hard
--vs hard --deals 600 --jobs 2`` (``make versus-tysiacha``); without ``--against`` the
other side is this tree too.
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import format_cards
from tools.versus import (
    Remote,
    RemoteSeat,
    decision_times,
    follow,
    in_order,
    other_tree,
    outcome,
    run_options,
    told,
)

REFERENCE = "20683d2"
"""The commit of the Tysiacha ``hard`` player the learned one is measured against."""


# ------------------------------------------------------------------ the games

@dataclass(frozen=True)
class TrickGame:
    """What the versus needs of one game."""

    name: str
    seats: int
    new: Callable[[str, int], Any]
    """The game at the start of duplicate deal ``k`` of a seed."""
    start: Callable[[Any], dict[str, Any]]
    """The child's ``start`` request for that deal (without level and seed)."""
    play: Callable[[Any, Sequence[Any], random.Random, Callable[..., None]], None]
    """Play the deal to its end, telling each action applied (game, seat, action, s)."""
    codec: tuple[Callable[[Any], dict[str, Any]], Callable[[Any], Any]]
    make_player: Callable[[str], Any]
    contracts: Callable[[Any], list[tuple[int, bool | None]]]
    """The deal's contracts: (seat, made), None when conceded."""


def _tysiacha() -> TrickGame:
    from engine.tysiacha import actions, ai, selfplay
    from engine.tysiacha.game import TysiachaGame
    from engine.tysiacha.view import DealKind

    def start(game: TysiachaGame) -> dict[str, Any]:
        return {"game": "tysiacha", "players": game.n_seats, "dealer": game.deal.dealer,
                "hands": [format_cards(h) for h in game.deal.hands],
                "prikup": format_cards(game.deal.prikup)}

    def contracts(game: TysiachaGame) -> list[tuple[int, bool | None]]:
        result = game.history[-1]
        if result.soloist is None or result.kind is DealKind.REDEAL:
            return []
        return [(result.soloist, result.made)]

    return TrickGame("tysiacha", 3, lambda seed, k: TysiachaGame(players=3, seed=f"{seed}:{k}"),
                     start, selfplay.play_deal, (actions.action_to_json, actions.action_from_json),
                     ai.make_player, contracts)


def _chinois() -> TrickGame:
    from engine.chinois import actions, ai, selfplay
    from engine.chinois.deal import seeded_deal
    from engine.chinois.game import ChinoisGame
    from engine.chinois.rules import ROUNDS

    def new(seed: str, k: int) -> ChinoisGame:
        return ChinoisGame(deal=seeded_deal(f"{seed}:{k}", 1 + k % ROUNDS))

    def start(game: ChinoisGame) -> dict[str, Any]:
        deal = game.deal
        return {"game": "chinois", "players": 4, "round": deal.round, "dealer": deal.dealer,
                "hands": [format_cards(h) for h in deal.hands],
                "trump_card": None if deal.trump_card is None else str(deal.trump_card)}

    def contracts(game: ChinoisGame) -> list[tuple[int, bool | None]]:
        result = game.history[-1]
        return [(s, result.bids[s] == result.tricks[s]) for s in range(4)]

    return TrickGame("chinois", 4, new, start, selfplay.play_round,
                     (actions.action_to_json, actions.action_from_json), ai.make_player,
                     contracts)


GAMES: dict[str, Callable[[], TrickGame]] = {"tysiacha": _tysiacha, "chinois": _chinois}


def arrangements(seats: int) -> list[tuple[int, ...]]:
    """Every arrangement of the two sides (0: this tree, 1: the other) on ``seats`` seats
    with both present, in a fixed order."""
    return [a for a in itertools.product((0, 1), repeat=seats) if 0 < sum(a) < seats]


# ---------------------------------------------------------------- the play

@dataclass(frozen=True)
class DealTask:
    game: str
    k: int
    seed: str
    level: str
    vs: str
    tree: Path


@dataclass
class Seating:
    """One arrangement of a deal, as played."""

    game: Any
    sides: tuple[int, ...]
    """Per seat, its side: 0 this tree's player, 1 the other's."""
    decision_ms: tuple[list[float], list[float]]

    def seat_points(self) -> tuple[list[int], list[int]]:
        """Each side's seats' deal scores."""
        scores = self.game.history[-1].scores
        return ([scores[s] for s, side in enumerate(self.sides) if side == 0],
                [scores[s] for s, side in enumerate(self.sides) if side == 1])

    @property
    def margin(self) -> float:
        ours, theirs = self.seat_points()
        return sum(ours) / len(ours) - sum(theirs) / len(theirs)


@dataclass
class DealPlayed:
    k: int
    seatings: list[Seating]

    @property
    def value(self) -> float:
        return sum(s.margin for s in self.seatings) / len(self.seatings)


def play_seating(task: DealTask, remote: Remote, sides: tuple[int, ...], n: int) -> Seating:
    """Play deal ``task.k`` with this tree's player on the seats ``sides`` marks 0."""
    rules = GAMES[task.game]()
    game = rules.new(task.seed, task.k)
    base = f"versus:{task.seed}:{task.k}:{n}"
    remote.request({"op": "start", **rules.start(game), "level": task.vs,
                    "seed": f"{base}:other"})
    local = rules.make_player(task.level)
    proxy = RemoteSeat(remote)
    players = [local if side == 0 else proxy for side in sides]
    spent: tuple[list[float], list[float]] = ([], [])

    def observe(game: Any, seat: int, action: Any, seconds: float) -> None:
        if sides[seat] == 0:
            spent[0].append(seconds * 1000.0)
        else:
            spent[1].append(proxy.seconds * 1000.0)
        remote.apply(action)

    rules.play(game, players, random.Random(f"{base}:this"), observe)
    theirs = remote.end()
    ours = list(game.history[-1].scores)
    if theirs["scores"] != ours or theirs["actions"] != len(game.actions):
        raise RuntimeError(f"deal {task.k}: the other side's copy of the deal ended "
                           f"{theirs}, this one {ours} after {len(game.actions)} actions")
    return Seating(game, sides, spent)


def play_one(task: DealTask, remote: Remote) -> DealPlayed:
    rules = GAMES[task.game]()
    return DealPlayed(task.k, [play_seating(task, remote, sides, n)
                               for n, sides in enumerate(arrangements(rules.seats))])


def _remote(task: DealTask) -> Remote:
    return Remote(task.tree, GAMES[task.game]().codec)


def play_deals(deals: int, *, game: str, level: str, vs: str, tree: Path, seed: str = "versus",
               jobs: int = 1, first: int = 0) -> Iterator[DealPlayed]:
    """Play duplicate deals ``first`` .. ``first + deals - 1`` against the player of
    ``tree`` on ``jobs`` processes (each with its own child); results in deal order."""
    tasks = [DealTask(game, k, seed, level, vs, tree) for k in range(first, first + deals)]
    yield from in_order(tasks, play_one, _remote, jobs)


# -------------------------------------------------------------- the report

@dataclass
class SideTally:
    level: str
    seat_points: list[int] = field(default_factory=list)
    made: int = 0
    failed: int = 0
    conceded: int = 0
    decision_ms: list[float] = field(default_factory=list)


@dataclass
class Tally:
    sides: tuple[SideTally, SideTally]
    values: list[float] = field(default_factory=list)

    def add(self, played: DealPlayed, rules: TrickGame) -> None:
        self.values.append(played.value)
        for seating in played.seatings:
            for side, points in zip(self.sides, seating.seat_points(), strict=True):
                side.seat_points.extend(points)
            for seat, made in rules.contracts(seating.game):
                side = self.sides[seating.sides[seat]]
                if made is None:
                    side.conceded += 1
                elif made:
                    side.made += 1
                else:
                    side.failed += 1
            for side, spent in zip(self.sides, seating.decision_ms, strict=True):
                side.decision_ms.extend(spent)


def report(tally: Tally, game: str, seconds: float, jobs: int = 1) -> str:
    a, b = tally.sides
    n = len(tally.values)
    line, won, tied, lost = outcome(tally.values, a.level, b.level)
    seats = GAMES[game]().seats
    lines = [f"{a.level} v {b.level}, {game}: {n} duplicate deals "
             f"({len(arrangements(seats))} seatings each) in {seconds:.1f} s wall, "
             f"{jobs} job{'s' if jobs != 1 else ''}", line,
             f"  deals won {won}, tied {tied}, lost {lost}"]
    width = max(len(a.level), len(b.level))
    for side in tally.sides:
        per_seat = sum(side.seat_points) / max(1, len(side.seat_points))
        taken = side.made + side.failed + side.conceded
        lines.append(
            f"  {side.level:{width}s}  {per_seat:6.1f} points a seat a deal  contracts "
            f"{taken}: made {side.made}, failed {side.failed}, conceded {side.conceded}  "
            f"{decision_times(side.decision_ms)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> Tally:
    tree, name = (Path(args.tree), str(args.tree)) if args.tree else other_tree(args.against)
    rules = GAMES[args.game]()
    tally = Tally((SideTally(f"{args.level} (this tree)"), SideTally(f"{args.vs} ({name})")))

    def add(played: DealPlayed) -> int:
        tally.add(played, rules)
        return len(tally.values)

    follow(play_deals(args.deals, game=args.game, level=args.level, vs=args.vs, tree=tree,
                      seed=args.seed, jobs=args.jobs, first=args.first), add,
           lambda played: f"  deal {played.k}: {played.value:+.1f} (" + ", ".join(
               f"{s.margin:+.0f}" for s in played.seatings) + ")",
           lambda seconds: report(tally, args.game, seconds, args.jobs), args, args.deals)
    return tally


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.versus_tricks",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="tysiacha")
    p.add_argument("--against", nargs="?", const=REFERENCE, default=None, metavar="COMMIT",
                   help=f"the other side's commit (alone: {REFERENCE}; left out: this tree)")
    p.add_argument("--tree", default=None,
                   help="the other side's source tree, a worktree already made (instead "
                   "of --against)")
    p.add_argument("--level", default="hard", help="this tree's player")
    p.add_argument("--deals", type=int, default=600, help="duplicate deals")
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    run_options(p, "deal")
    return p


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    told(lambda: run(args), "versus_tricks")


if __name__ == "__main__":
    main()
