"""Versus: this tree's Tichu computer player against a player of another commit.

Each pair deals the cards of one seed (``TichuGame(seed=f"{seed}:{k}")``: a
fresh game at 0-0, one deal) and plays them twice: this tree's ``--level``
player on the even seats and the other commit's ``--vs`` player on the odd
seats, then the sides swapped, the same cards. A pair's value is the mean over
its two seatings of this side's deal score minus the other side's, so the luck
of the deal cancels. The report gives the mean points a deal with its 95%
confidence interval (mean ± 1.96 sd/√n over the pairs), the share of pairs won,
the calls made and won, double (triple) victories and the decision times of
each side (wall time, p50 and p99 of the decisions applied).

The other commit's player runs in a child process of this venv's python with a
detached worktree of the commit first on ``sys.path`` (made once under the
system's temp directory, as :func:`tools.bench_compare.baseline_tree` does, and
reused); the child checks it imported that worktree's ``engine``. It is
:mod:`tools.versus_server`, sent from this tree, speaking JSON lines: this
process holds the authoritative game, asks the seats as
:func:`engine.tichu.ai.selfplay.play_deal` does (it *is* that loop, the other
side's seats being proxies that ask the child), applies every action (the
engine checks it) and sends each to the child, whose copy of the deal, dealt
from the same hands, must end with the same score.

Run: ``python -m tools.versus --against 159e36d --level hard --vs hard --pairs 400 --jobs 2``
(``make versus``); ``--against`` alone means :data:`REFERENCE`; without
``--against`` the other side is this tree too (``--level hard --vs normal``
measures two levels in the same format).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.cards import format_cards
from engine.tichu.actions import Action, action_from_json, action_to_json
from engine.tichu.ai import LEVELS
from engine.tichu.ai.base import Player
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from tools.arena import Side, _tally, percentile
from tools.bench_compare import baseline_tree
from tools.versus_server import SEARCH_LEVELS, player_of

REFERENCE = "159e36d"
"""The commit of the ``hard`` player every change to a player must beat."""
ROOT = Path(__file__).resolve().parent.parent
SERVER = Path(__file__).resolve().with_name("versus_server.py")


class UnknownCommitError(ValueError):
    """``--against`` names no commit of this repository."""


def resolve(commit: str) -> str:
    """The full hash of ``commit`` (a hash, a branch, ``HEAD``...)."""
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                           f"{commit}^{{commit}}"], capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise UnknownCommitError(f"no commit {commit!r} in {ROOT}")
    return done.stdout.strip()


def other_tree(against: str | None) -> tuple[Path, str]:
    """The tree the other side's player comes from, and its name in the report."""
    if against is None:
        return ROOT, "this tree"
    sha = resolve(against)
    name = against if sha.startswith(against) else f"{against} = {sha[:9]}"
    return baseline_tree(sha[:12]), name


# ------------------------------------------------------------ the other side

class Remote:
    """The other tree's player, in its child process (:mod:`tools.versus_server`); the
    actions go to and from JSON by ``codec`` (``action_to_json``, ``action_from_json``:
    Tichu's unless given)."""

    def __init__(self, tree: Path, codec: tuple[Callable[[Any], dict[str, Any]],
                                               Callable[[Any], Any]] | None = None) -> None:
        self.tree = tree.resolve()
        self.codec = codec if codec is not None else (action_to_json, action_from_json)
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), str(self.tree)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, cwd=str(self.tree),
            env=dict(os.environ, PYTHONHASHSEED="0"))
        hello = self._read()
        engine = Path(hello["engine"]).resolve()
        if not engine.is_relative_to(self.tree):
            self.close()
            raise RuntimeError(f"the other side imported the engine of {engine.parent}, "
                               f"not the one of {self.tree}")

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def _read(self) -> dict[str, Any]:
        line = self._pipes()[1].readline()
        if not line:
            raise RuntimeError(f"the other side's process ended (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the other side failed: {answer['error']}")
        return answer

    def _send(self, request: dict[str, Any]) -> None:
        self._pipes()[0].write(json.dumps(request) + "\n")

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        self._send(request)
        self._pipes()[0].flush()
        return self._read()

    def start(self, game: TichuGame, level: str, seed: str) -> None:
        """A fresh deal from ``game``'s hands as dealt, and a fresh ``level`` player
        deciding with ``random.Random(seed)``."""
        self.request({"op": "start", "hands": [format_cards(h) for h in game.dealt],
                      "players": game.n_seats, "dealer": game.dealer, "level": level,
                      "seed": seed})

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the child's copy (sent with the next question: no answer)."""
        self._send({"op": "apply", "action": self.codec[0](action)})

    def ask(self, seat: int) -> tuple[Any, float]:
        """The seat's decision (None: none now) and the seconds it took (wall time, in
        the child)."""
        answer = self.request({"op": "ask", "seat": seat})
        data = answer["action"]
        return (None if data is None else self.codec[1](data)), float(answer["seconds"])

    def end(self) -> dict[str, Any]:
        """The child's copy of the deal: its scores and action count."""
        return self.request({"op": "end"})

    def close(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.closed:
            stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class RemoteSeat:
    """A computer player (of Tichu, or of a trick game) whose decisions come from the child:
    it asks for ``view.seat`` (the child decides from its own copy's view, with its
    own random generator; the ``rng`` given is this side's and is not used)."""

    def __init__(self, remote: Remote) -> None:
        self.remote = remote
        self.seconds = 0.0
        """How long the last decision took in the child."""

    def act(self, view: Any, rng: random.Random) -> Any:
        assert view.seat is not None  # (a seat's own view, never the public one)
        action, self.seconds = self.remote.ask(view.seat)
        return action


# ---------------------------------------------------------------- the play

@dataclass(frozen=True)
class PairTask:
    k: int
    seed: str
    players: int
    level: str
    vs: str
    tree: Path


@dataclass
class Seating:
    """One deal of a pair, as played."""

    game: TichuGame
    current_team: int
    """The team (0: even seats, 1: odd seats) of this tree's player."""
    decision_ms: tuple[list[float], list[float]]
    """Milliseconds of each applied decision: this tree's side, the other side."""

    @property
    def margin(self) -> int:
        """This side's deal score minus the other side's."""
        scores = self.game.history[-1].scores
        return scores[self.current_team] - scores[1 - self.current_team]


@dataclass
class PairResult:
    k: int
    seatings: tuple[Seating, Seating]

    @property
    def value(self) -> float:
        return sum(s.margin for s in self.seatings) / 2


def deal_seed(seed: str, k: int) -> str:
    return f"{seed}:{k}"


def team_seed(task: PairTask, team: int) -> str:
    """The seed of the random generator of the player of ``team`` in pair ``task.k``."""
    return f"versus:{task.seed}:{task.k}:team{team}"


def play_seating(task: PairTask, remote: Remote, swap: bool) -> Seating:
    """Deal pair ``task.k``'s cards and play them, this tree's player on the even
    seats (odd seats if ``swap``)."""
    game = TichuGame(seed=deal_seed(task.seed, task.k), players=task.players)
    current_team = 1 if swap else 0
    # Each team's random generator is seeded from the pair and the team, whichever side
    # plays it: two identical deterministic players then play the same deal twice.
    remote.start(game, task.vs, team_seed(task, 1 - current_team))
    local: Player = player_of(task.level)
    proxy = RemoteSeat(remote)
    seats: list[Player] = [local if s % 2 == current_team else proxy
                           for s in range(task.players)]
    spent: tuple[list[float], list[float]] = ([], [])

    def observe(game: TichuGame, seat: int, action: Action, seconds: float) -> None:
        if seat % 2 == current_team:
            spent[0].append(seconds * 1000.0)
        else:
            spent[1].append(proxy.seconds * 1000.0)
        remote.apply(action)

    play_deal(game, seats, random.Random(team_seed(task, current_team)), observe)
    theirs = remote.end()
    ours = list(game.history[-1].scores)
    if theirs["scores"] != ours or theirs["actions"] != len(game.actions):
        raise RuntimeError(f"pair {task.k}: the other side's copy of the deal ended "
                           f"{theirs}, this one {ours} after {len(game.actions)} actions")
    game.touch()  # (drops cached views before the game is sent back from a worker)
    return Seating(game, current_team, spent)


def play_pair(task: PairTask, remote: Remote) -> PairResult:
    return PairResult(task.k, (play_seating(task, remote, False),
                               play_seating(task, remote, True)))


_worker: tuple[Callable[[Any, Remote], Any], Callable[[Any], Remote]] | None = None
"""What a pool worker plays (set before the pool forks): the play of one task, and how
its child process is started."""
_worker_remote: Remote | None = None
"""A pool worker's own child process, started with its first task."""


def _play_in_worker(task: Any) -> Any:
    global _worker_remote
    assert _worker is not None
    play, start = _worker
    if _worker_remote is None:
        _worker_remote = start(task)
    return play(task, _worker_remote)


def in_order(tasks: Sequence[Any], play: Callable[[Any, Remote], Any],
             start: Callable[[Any], Remote], jobs: int = 1) -> Iterator[Any]:
    """``play(task, remote)`` for each of ``tasks`` on ``jobs`` processes, each with its
    own child process (``start(task)``); the results come in the tasks' order."""
    global _worker
    if not tasks:
        return
    remote = start(tasks[0])  # (also checks the other side starts, before any worker does)
    if jobs <= 1:
        try:
            for task in tasks:
                yield play(task, remote)
        finally:
            remote.close()
        return
    remote.close()
    _worker = (play, start)
    pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        yield from pool.imap(_play_in_worker, tasks)
    finally:
        pool.terminate()
        pool.join()


def play_pairs(pairs: int, *, level: str, vs: str, tree: Path, seed: str = "versus",
               players: int = 4, jobs: int = 1) -> Iterator[PairResult]:
    """Play pairs 0 .. ``pairs`` - 1 against the player of ``tree``, on ``jobs``
    processes (each with its own child); the results come in pair order."""
    tasks = [PairTask(k, seed, players, level, vs, tree) for k in range(pairs)]
    yield from in_order(tasks, play_pair, lambda task: Remote(task.tree), jobs)


# -------------------------------------------------------------- the report

@dataclass
class Tally:
    """The figures of a run so far."""

    sides: tuple[Side, Side]
    values: list[float]

    def add(self, result: PairResult) -> None:
        self.values.append(result.value)
        for seating in result.seatings:
            _tally(seating.game, self.sides, (0, 1) if seating.current_team == 0 else (1, 0))
            self.sides[0].decision_ms.extend(seating.decision_ms[0])
            self.sides[1].decision_ms.extend(seating.decision_ms[1])


def confidence(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (z · sd / √n)."""
    if not values:
        return 0.0, math.inf
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, z * statistics.stdev(values) / math.sqrt(len(values))


def per_call(made: int, calls: int, bonus: int) -> str:
    """`` (+N a call)``: the mean points a call won or lost its team (its bonus when
    made, the same lost when not), or nothing without calls."""
    return f" ({bonus * (2 * made - calls) / calls:+.0f} a call)" if calls else ""


def decision_times(ms: Sequence[float], digits: int = 1) -> str:
    """``decision p50 … ms p99 … ms (wall)``: the median (to ``digits``) and the 99th
    percentile of decision times in milliseconds."""
    return (f"decision p50 {percentile(ms, 0.5):.{digits}f} ms "
            f"p99 {percentile(ms, 0.99):.1f} ms (wall)")


def outcome(values: Sequence[float], a: str, b: str) -> tuple[str, int, int, int]:
    """The line of ``a``'s mean points a deal over ``b`` with its 95% interval, and how
    many of ``values`` were won, tied and lost."""
    mean, half = confidence(values)
    won = sum(v > 0 for v in values)
    tied = sum(v == 0 for v in values)
    return (f"  {a} over {b}: {mean:+.1f} points a deal "
            f"(95% CI {mean - half:+.1f} to {mean + half:+.1f})", won, tied,
            len(values) - won - tied)


def report(tally: Tally, seconds: float, players: int = 4, jobs: int = 1) -> str:
    a, b = tally.sides
    n = len(tally.values)
    line, won, tied, lost = outcome(tally.values, a.level, b.level)
    sweep = "double" if players == 4 else "triple"
    lines = [f"{a.level} v {b.level}, {players} players: {n} pairs ({2 * n} deals) "
             f"in {seconds:.1f} s wall, {jobs} job{'s' if jobs != 1 else ''}", line,
             f"  pairs won {won}, tied {tied}, lost {lost}: "
             f"{(won + tied / 2) / max(1, n):.1%} won (ties half)"]
    width = max(len(a.level), len(b.level))
    for side in tally.sides:
        deals = len(side.deal_points) or 1
        tichu = f"{side.tichu_made}/{side.tichu}{per_call(side.tichu_made, side.tichu, 100)}"
        grand = f"{side.grand_made}/{side.grand}{per_call(side.grand_made, side.grand, 200)}"
        lines.append(
            f"  {side.level:{width}s}  {sum(side.deal_points) / deals:6.1f} points a deal  "
            f"Tichu made {tichu:18s}  Grand made {grand:16s}  {sweep} victories "
            f"{side.doubles:3d}  {decision_times(side.decision_ms, 2)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> Tally:
    tree, name = other_tree(args.against)
    tally = Tally((Side(f"{args.level} (this tree)"), Side(f"{args.vs} ({name})")), [])

    def add(result: PairResult) -> int:
        tally.add(result)
        return len(tally.values)

    follow(play_pairs(args.pairs, level=args.level, vs=args.vs, tree=tree, seed=args.seed,
                      players=args.players, jobs=args.jobs), add,
           lambda result: f"  pair {result.k}: {result.value:+.1f} (" + ", ".join(
               f"{s.game.history[-1].scores}" for s in result.seatings) + ")",
           lambda seconds: report(tally, seconds, args.players, args.jobs), args, args.pairs)
    return tally


def follow(results: Iterator[Any], add: Callable[[Any], int], line: Callable[[Any], str],
           figures: Callable[[float], str], args: argparse.Namespace, total: int) -> None:
    """Gather a run's ``results``: each added (``add`` says how many so far), its line on
    standard error (unless ``--quiet``), the ``figures`` so far every ``--report-every``
    results and at the end (``figures`` given the seconds of wall time)."""
    start = time.perf_counter()
    for result in results:
        done = add(result)
        if not args.quiet:
            print(line(result), file=sys.stderr, flush=True)
        if args.report_every and done % args.report_every == 0 and done < total:
            print(figures(time.perf_counter() - start) + "  (so far)", flush=True)
    print(figures(time.perf_counter() - start), flush=True)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.versus",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--against", nargs="?", const=REFERENCE, default=None, metavar="COMMIT",
                   help=f"the other side's commit (alone: {REFERENCE}, the reference hard "
                   "player; left out: this tree)")
    p.add_argument("--level", choices=(*LEVELS, *SEARCH_LEVELS), default="hard",
                   help="this tree's player")
    p.add_argument("--pairs", type=int, default=400, help="pairs of deals (seeds)")
    p.add_argument("--players", type=int, choices=(4, 6), default=4,
                   help="seats at the table: 4, or 6 for the Tientsin variant")
    run_options(p, "pair")
    return p


def run_options(p: argparse.ArgumentParser, unit: str) -> None:
    """The options :mod:`tools.versus` and :mod:`tools.versus_tricks` share: the other
    side's player, the jobs, the seed, the report's rhythm; ``unit`` is what is played
    (a pair, a deal)."""
    p.add_argument("--vs", default="hard", help="the other side's player")
    p.add_argument("--jobs", type=int, default=1,
                   help=f"processes playing {unit}s side by side")
    p.add_argument("--seed", default="versus", help="prefix of the deals' seeds")
    p.add_argument("--report-every", type=int, default=0,
                   help=f"print the figures so far every N {unit}s (0: only at the end)")
    p.add_argument("--quiet", action="store_true", help=f"no line per {unit}")


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    told(lambda: run(args), "versus")


def told(run: Callable[[], object], prog: str) -> None:
    """``run()``, its failures told in one line: a commit that is not there (exit 2), the
    other side that would not start or disagreed (exit 1)."""
    try:
        run()
    except UnknownCommitError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except RuntimeError as exc:  # (the other side would not start, or disagreed)
        print(f"{prog}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
