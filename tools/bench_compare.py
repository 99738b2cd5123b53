"""The Tichu engine against a baseline commit, side by side on this machine.

``python -m tools.bench_compare`` (and ``make bench``) makes a detached git
worktree of :data:`BASELINE` (once, under the system's temp directory), then
runs three measures in child processes, one importing ``engine`` from that
worktree and one from this tree, alternating which goes first, for several
rounds. Each round gives one ratio per measure, baseline time over current
time (above 1: this tree is faster); the median ratio and its spread (min-max
over the rounds) are printed. On a shared machine the spread is part of the
answer: the rounds interleave the two trees so that a busy spell slows both.

The measures, in process CPU time (the child's own, not the machine's):

``deal``
    :data:`DEALS` four-player deals (seeds 0, 1, ...) played out from the deal
    to the score by four random (``easy``) players through
    :func:`engine.tichu.ai.selfplay.play_deal` (after five other deals, untimed).
``legal``
    :func:`engine.tichu.legal.legal_plays` on a lead for :data:`HANDS` random
    14-card hands (seeded, so the same hands on both sides), each hand asked
    once (its first analysis, as in a game: no cache holds it), after 300 other
    hands, untimed.
``playouts``
    The playouts the ``hard`` player runs for one decision, for each of
    :data:`POSITIONS` positions (see :func:`search_positions`): for each of
    :data:`SAMPLES` deals of the unseen cards, each candidate play is applied to
    a game built at the position (:func:`~engine.tichu.ai.search.game_at`,
    :func:`~engine.tichu.ai.search.apply_candidate`) and played out
    (:func:`~engine.tichu.ai.search.rollout`), as
    :meth:`SearchPlayer.search <engine.tichu.ai.searcher.SearchPlayer.search>` does.
    The sampled deals are seeded shuffles of the other seats' real cards, made
    outside the timing, so both sides play out the same games. :data:`WARM_UP`
    other positions are played out first, untimed: a player that searches has
    searched before, and keeps the plans it evaluated (memoised).

Each child also prints a checksum of what it computed (plays listed, actions
applied, rollout scores); the two trees must agree, or the comparison says so.
The measures use only functions that exist in both trees.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BASELINE = "af464a4"
"""The commit compared against: main before the engine's readability and speed work."""
ROUNDS = 5
DEALS = 200
HANDS = 5000
POSITIONS = 24
WARM_UP = 12
"""Positions played out before the timing: the plan evaluation keeps what it
worked out (memoised), as it has in a player that has searched before."""
SAMPLES = 12
MEASURES = ("deal", "legal", "playouts")
GOALS = {"deal": 1.7, "legal": 1.4, "playouts": 1.5}
LABELS = {
    "deal": f"a random 4-player deal played out ({DEALS} deals, easy players)",
    "legal": f"legal plays of a 14-card hand on a lead ({HANDS} hands)",
    "playouts": f"hard's playouts for one decision ({POSITIONS} positions x {SAMPLES} deals)",
}
ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------- the measures
# (run in a child process, importing ``engine`` from the tree under test)

VIEW_FIELDS = ("seat", "n_seats", "phase", "deal_number", "turn", "hand", "hand_counts",
               "grand_decided", "calls", "has_played", "exchanged", "given", "received",
               "trick", "passed", "wish", "out", "trick_points", "scores", "target", "history",
               "winner", "bombs_played", "last_trick", "last_trick_taker", "dealer",
               "grand_packet")
"""The view's fields in both trees: views are built by keyword from these."""


def measure_deal() -> tuple[float, str]:
    from engine.tichu.ai import EasyPlayer
    from engine.tichu.ai.selfplay import play_deal
    from engine.tichu.game import TichuGame

    players = [EasyPlayer()] * 4
    for seed in range(1000, 1005):  # warm-up
        play_deal(TichuGame(seed=seed), players, random.Random(seed))
    sha = hashlib.sha256()
    spent = 0.0
    for seed in range(DEALS):
        game = TichuGame(seed=seed)
        rng = random.Random(seed)
        start = time.process_time()
        play_deal(game, players, rng)
        spent += time.process_time() - start
        sha.update(repr((len(game.actions), game.scores)).encode())
    return spent, sha.hexdigest()[:16]


def _lead_views(seed: int, count: int) -> list[Any]:
    from engine.tichu.cards import DECK
    from engine.tichu.game import TichuGame
    from engine.tichu.view import Phase, TichuView

    base = TichuGame(seed=0).view(0)
    fields = {name: getattr(base, name) for name in VIEW_FIELDS}
    fields.update(phase=Phase.PLAY, turn=0, trick=(), wish=None)
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        hand = tuple(DECK[c] for c in rng.sample(range(56), 14))
        views.append(TichuView(**{**fields, "hand": hand}))
    return views


def measure_legal() -> tuple[float, str]:
    from engine.tichu.legal import legal_plays

    for view in _lead_views(7, 300):  # warm-up, on other hands
        legal_plays(view)
    views = _lead_views(42, HANDS)
    clock = time.process_time
    count = 0
    start = clock()
    for view in views:
        count += len(legal_plays(view))
    spent = clock() - start
    # (the checksum afterwards, untimed: keeping every list while timing would
    # time the garbage collector walking them)
    sha = hashlib.sha256()
    for view in views:
        sha.update(repr([(p.kind.value, p.rank, [int(c) for c in p.cards], p.phoenix)
                         for p in legal_plays(view)]).encode())
    return spent, f"{count}:{sha.hexdigest()[:12]}"


def search_positions(count: int) -> list[dict[str, Any]]:
    """Positions where ``hard`` searches, from seeded deals of four ``hard`` seats
    whose search is recorded (and answered with the heuristics' favourite, not
    run): the seat's view, the real hands, and the candidates ``hard`` weighs
    there, with its wish and Dog target. Made once by the parent (with this
    tree's players) and written down, so that both trees play out the same
    positions and candidates, whatever the heuristics that chose them."""
    import importlib

    from engine.tichu.ai import tactics

    search: Any
    try:
        search = importlib.import_module("engine.tichu.ai.searcher").SearchPlayer
    except ImportError:  # a tree from before the learned player (the search was "hard")
        search = importlib.import_module("engine.tichu.ai.hard").HardPlayer
    from engine.tichu.ai.selfplay import play_deal
    from engine.tichu.game import TichuGame

    found: list[dict[str, Any]] = []
    game: Any = None

    class Recorder(search):  # type: ignore[misc]
        def first_out_chance(self, view: Any, know: Any, rng: Any) -> float:
            return 0.0

        def search(self, view: Any, know: Any, candidates: Any, rng: Any) -> Any:
            found.append({
                "view": {name: _plain(getattr(view, name)) for name in VIEW_FIELDS},
                "hands": [[int(c) for c in h] for h in game.hands],
                "candidates": [_plain(c) for c in candidates],
                "wish": tactics.choose_wish(view, know),
                "dog_to": tactics.choose_dog_target(view)})
            return candidates[0]

    seed = 0
    while len(found) < count:
        game = TichuGame(seed=f"search:{seed}")
        play_deal(game, [Recorder(budget_ms=None, max_samples=1) for _ in range(4)],
                  random.Random(seed))
        seed += 1
    return found[:count]


def _plain(value: Any) -> Any:
    """A view's field (or a combination) as JSON: enums by value, cards as numbers,
    records as lists of their fields."""
    from enum import Enum

    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return [[k, int(v)] for k, v in value.items()]
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return [_plain(getattr(value, f)) for f in value.__dataclass_fields__]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return value


def _view_from(fields: dict[str, Any]) -> Any:
    """The :class:`TichuView` written down by :func:`_plain` (public constructors only)."""
    from engine.tichu.cards import DECK
    from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay

    def calls(values: list[Any]) -> tuple[Any, ...]:
        return tuple(None if c is None else Call(c) for c in values)

    def plays(values: list[Any]) -> tuple[Any, ...]:
        return tuple(TrickPlay(seat, _combo_from(combo), out_of_turn)
                     for seat, combo, out_of_turn in values)

    v = dict(fields)
    v.update(phase=Phase(v["phase"]), hand=tuple(DECK[c] for c in v["hand"]),
             calls=calls(v["calls"]), trick=plays(v["trick"]), last_trick=plays(v["last_trick"]),
             given={k: DECK[c] for k, c in v["given"]}, received={k: DECK[c] for k, c in v["received"]},
             history=tuple(DealResult(n, tuple(out), tuple(cp), tuple(bp), calls(cl), dv, tv)
                           for n, out, cp, bp, cl, dv, tv in v["history"]))
    for name in ("hand_counts", "grand_decided", "has_played", "exchanged", "passed", "out",
                 "trick_points", "scores", "bombs_played"):
        v[name] = tuple(v[name])
    return TichuView(**v)


def _combo_from(value: list[Any] | None) -> Any:
    from engine.tichu.cards import DECK
    from engine.tichu.combos import Combo, Kind

    if value is None:
        return None
    kind, rank, length, cards, phoenix = value
    return Combo(Kind(kind), rank, length, tuple(DECK[c] for c in cards), phoenix)


def deal_back(hands: Sequence[Sequence[int]], seat: int, rng: random.Random, *,
              sort: bool = False) -> list[list[int]]:
    """The cards of the seats other than ``seat`` (sorted first, with ``sort``),
    shuffled by ``rng`` and dealt back to them in the same numbers, in seat order;
    ``seat`` keeps its own. (Also used by the rollout digest test: a plain
    function of this file, which the bench's children import from this tree.)"""
    pool = [c for s, h in enumerate(hands) if s != seat for c in h]
    if sort:
        pool.sort()
    rng.shuffle(pool)
    out = []
    for s, h in enumerate(hands):
        if s == seat:
            out.append(list(h))
        else:
            out.append(pool[:len(h)])
            del pool[:len(h)]
    return out


def measure_playouts(positions: Path) -> tuple[float, str]:
    from engine.tichu.ai.search import apply_candidate, game_at, rollout
    from engine.tichu.cards import DOG, MAHJONG

    def play_out(work: list[tuple[Any, ...]], scores: list[int]) -> None:
        for view, samples, candidates, wish, dog_to in work:
            # SearchPlayer.search's loop, without its sampling and statistics
            seat = view.seat
            team = seat % 2
            for hands in samples:
                for combo in candidates:
                    game = game_at(view, hands)
                    to = dog_to if combo is not None and combo.cards == (DOG,) else None
                    apply_candidate(game, seat, combo,
                                    wish if combo and MAHJONG in combo.cards else None, to)
                    scores.append(rollout(game, team))

    work = []
    for i, pos in enumerate(json.loads(positions.read_text())):
        view = _view_from(pos["view"])
        samples = [deal_back(pos["hands"], view.seat, random.Random(f"{i}:{k}"), sort=True)
                   for k in range(SAMPLES)]
        work.append((view, samples, [_combo_from(c) for c in pos["candidates"]], pos["wish"],
                     pos["dog_to"]))
    play_out(work[POSITIONS:], [])  # warm-up, on other positions
    scores: list[int] = []
    clock = time.process_time
    start = clock()
    play_out(work[:POSITIONS], scores)
    spent = clock() - start
    sha = hashlib.sha256(repr(scores).encode())
    return spent, f"{len(scores)}:{sha.hexdigest()[:12]}"


def child(measure: str, positions: Path | None) -> None:
    import engine

    if measure == "playouts":
        assert positions is not None
        result = measure_playouts(positions)
    else:
        result = {"deal": measure_deal, "legal": measure_legal}[measure]()
    print(json.dumps({"seconds": result[0], "check": result[1], "engine": engine.__file__}))


# ------------------------------------------------------------------ the parent

def baseline_tree(commit: str = BASELINE) -> Path:
    """A detached worktree of ``commit`` (made once, then reused)."""
    path = Path(tempfile.gettempdir()) / f"tichu-bench-{commit}"
    if not (path / "engine").is_dir():
        # (--force: a worktree left registered after the temp directory was cleaned)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force",
                        str(path), commit], check=True, capture_output=True)
    return path


def run_child(tree: Path, measure: str, positions: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", measure,
                          "--tree", str(tree), "--positions", str(positions)],
                         env=env, check=True, capture_output=True, text=True, cwd=str(tree))
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(data["engine"]).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"the child imported {data['engine']}, not the engine of {tree}")
    return data


def compare(rounds: int = ROUNDS, measures: tuple[str, ...] = MEASURES,
            baseline: Path | None = None) -> dict[str, list[float]]:
    """Run the measures for both trees, interleaved; print and return the ratios."""
    base = baseline or baseline_tree()
    trees = {"baseline": base, "current": ROOT}
    times: dict[str, dict[str, list[float]]] = {m: {"baseline": [], "current": []}
                                                 for m in measures}
    checks: dict[str, dict[str, set[str]]] = {m: {"baseline": set(), "current": set()}
                                               for m in measures}
    positions = Path(tempfile.gettempdir()) / f"tichu-bench-positions-{os.getpid()}.json"
    if "playouts" in measures:
        positions.write_text(json.dumps(search_positions(POSITIONS + WARM_UP)))
    try:
        for r in range(rounds):
            order = ("baseline", "current") if r % 2 == 0 else ("current", "baseline")
            for m in measures:
                for side in order:
                    data = run_child(trees[side], m, positions)
                    times[m][side].append(data["seconds"])
                    checks[m][side].add(data["check"])
            print(f"  round {r + 1}/{rounds}: " + ", ".join(
                f"{m} {times[m]['baseline'][-1] / times[m]['current'][-1]:.2f}x"
                for m in measures), flush=True)
    finally:
        positions.unlink(missing_ok=True)
    ratios = {}
    print(f"Baseline {BASELINE} ({base}) against this tree ({ROOT}), {rounds} interleaved rounds,"
          " process CPU time; ratio = baseline time / current time")
    print("| measure | baseline median | current median | ratio median | ratio min-max | goal |")
    print("| --- | --- | --- | --- | --- | --- |")
    for m in measures:
        b, c = times[m]["baseline"], times[m]["current"]
        rs = [x / y for x, y in zip(b, c, strict=True)]
        ratios[m] = rs
        goal = GOALS[m]
        met = "met" if statistics.median(rs) >= goal else "NOT met"
        print(f"| {LABELS[m]} | {statistics.median(b) * 1e3:8.1f} ms | "
              f"{statistics.median(c) * 1e3:8.1f} ms | {statistics.median(rs):.2f}x | "
              f"{min(rs):.2f}-{max(rs):.2f}x | {goal}x {met} |")
    for m in measures:
        if checks[m]["baseline"] != checks[m]["current"] or len(checks[m]["current"]) != 1:
            print(f"WARNING: {m}: the trees computed different results "
                  f"(baseline {sorted(checks[m]['baseline'])}, current {sorted(checks[m]['current'])})")
        else:
            print(f"{m}: same results on both sides (checksum {checks[m]['current'].pop()})")
    return ratios


def use_tree(tree: Path) -> None:
    """Import the engine of ``tree``, never this file's own tree's (a child's first step,
    before anything imports ``engine``)."""
    sys.path[:] = [str(tree)] + [p for p in sys.path if Path(p).resolve() != ROOT
                                 and Path(p).resolve() != Path(__file__).resolve().parent]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_compare",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"rounds, each running the measures on both trees (default {ROUNDS})")
    parser.add_argument("--measures", default=",".join(MEASURES),
                        help=f"comma-separated measures (default: all, {','.join(MEASURES)})")
    parser.add_argument("--baseline", type=Path, help="a tree to compare against "
                        f"(default: a worktree of {BASELINE})")
    parser.add_argument("--child", choices=MEASURES, help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--positions", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        if args.tree is not None:
            use_tree(args.tree)
        child(args.child, args.positions)
        return
    compare(args.rounds, tuple(args.measures.split(",")), args.baseline)


if __name__ == "__main__":
    main()
