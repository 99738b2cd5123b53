"""Train the learned evaluator from nothing: self-play data, a fit, figures, a model file.

``python -m tools.train --seed 1 --games 6000 --parts 2 --jobs 2 --out engine/tichu/ai/models/tichu4.npz``
does everything: it plays ``--parts`` times ``--games`` self-play games of the
``normal`` player with exploration (:mod:`tools.selfplay_data`), fits a small neural
network (scikit-learn's ``MLPRegressor``) to the outcomes, measures it on held-out
games, and writes the model file and its card (the same path with ``.md``). With
``--rounds 2`` or more it then plays new games with the learned player as the base
and fits again on all the data (policy iteration), keeping each round's model.

The steps can be run apart, to keep data between runs:

* ``python -m tools.train data --seed 1 --games 8000 --out data/g0.npz [--base MODEL]``
* ``python -m tools.train fit data/g0.npz [data/g1.npz ...] --seed 1 --out MODEL``

Every file is written whole: a temporary file, then renamed, so a stopped run
leaves the last complete model and never half a file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.tichu.ai import bidding, features
from engine.tichu.ai.evaluator import Evaluator, from_bytes, to_bytes
from tools.selfplay_data import KINDS, WIDE, Data, generate

DIFF_SCALE = 100.0
"""The score output is trained in hundreds of points."""
FIRST_WEIGHT = 1.0
PART_GAMES = 100_000
"""Part ``i`` of the data (round ``r``, part ``k``: ``i = r * parts + k``) is games
``PART_GAMES * i`` onwards of seed ``seed + i``, the same as the step
``python -m tools.train data --seed SEED+i --first-game PART_GAMES*i``."""
HELD_OUT = 0.1
"""Share of games kept out of the fit, to measure it (and, of the rest, to stop it)."""
PATIENCE = 3
"""Passes without a better held-out error before the fit stops."""


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_data(data: Data, path: Path) -> None:
    import io

    buffer = io.BytesIO()
    np.savez(buffer, x=data.x, diff=data.diff, first=data.first, kind=data.kind, game=data.game)
    write_whole(path, buffer.getvalue())


def load_data(path: Path) -> Data:
    with np.load(path, allow_pickle=False) as f:
        return Data(f["x"], f["diff"], f["first"], f["kind"], f["game"])


def load_model(path: Path) -> Evaluator:
    return from_bytes(path.read_bytes(), str(path))


def targets(data: Data, players: int) -> np.ndarray:
    """The network's training outputs: score difference / DIFF_SCALE, then one-hot first out."""
    y = np.zeros((len(data), 1 + players), dtype=np.float32)
    y[:, 0] = data.diff / DIFF_SCALE
    has = data.first >= 0
    y[np.flatnonzero(has), 1 + data.first[has].astype(np.int64)] = FIRST_WEIGHT
    return y


def split(data: Data, seed: int) -> tuple[Data, Data]:
    """Training and held-out rows, by whole games."""
    fit_rows, held_rows = held_out(data.game, seed)
    return data.take(fit_rows), data.take(held_rows)


def held_out(groups: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows to fit and the rows held out, as indices: :data:`HELD_OUT` of the
    ``groups`` (a game, a deal: rows that share an outcome) drawn from ``seed``, whole."""
    names = np.unique(groups)
    rng = np.random.default_rng(seed)
    held = rng.choice(names, size=max(1, int(len(names) * HELD_OUT)), replace=False)
    mask = np.isin(groups, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


CHUNK = 262_144
"""Rows made float32 and fed to the network at once (a pass goes through all of them in
a seeded random order, chunk after chunk): the whole data set in float32 did not fit
in the machine's 24 GB beside its copies."""


def fit(train: Data, players: int, seed: int, hidden: Sequence[int], epochs: int,
        log: bool = True, alpha: float = 1e-3, rate: float = 1e-3
        ) -> list[tuple[np.ndarray, np.ndarray]]:
    """A network fitted to ``train``; its layers as (weights, biases).

    Every record of a deal shares the deal's outcome, so rows of one deal are far
    from independent: a network can learn the deals by heart. The stopping rule
    therefore watches games the fit never sees (:data:`HELD_OUT` of ``train``'s
    games): after each pass over the rest, the squared error there; the weights of
    the best pass are kept, and the fit stops after :data:`PATIENCE` passes without
    a better one (or ``epochs``)."""
    from sklearn.neural_network import MLPRegressor

    fit_rows, stop_rows = split(train, seed + 1)
    x = fit_rows.x  # (float16: made float32 a chunk at a time, to fit in memory)
    y = targets(fit_rows, players)
    y_stop = targets(stop_rows, players)
    model = MLPRegressor(hidden_layer_sizes=tuple(hidden), activation="relu", solver="adam",
                         alpha=alpha, batch_size=512, learning_rate_init=rate,
                         random_state=seed, shuffle=True)
    return fit_passes(model, x, y, stop_rows.x, y_stop, seed, epochs, log)


def fit_passes(model: Any, x: np.ndarray, y: np.ndarray, x_stop: np.ndarray,
               y_stop: np.ndarray, seed: int, epochs: int, log: bool = True,
               chunk_rows: int = CHUNK) -> list[tuple[np.ndarray, np.ndarray]]:
    """The passes of a fit of ``model`` (a scikit-learn ``MLPRegressor``) and its stopping
    rule: each pass goes through ``x``, ``y`` in a seeded random order, ``chunk_rows``
    rows (made float32) at a time; after it, the squared error on ``x_stop``,
    ``y_stop``. The weights of the best pass are kept, and the fit stops after
    :data:`PATIENCE` passes without a better one (or ``epochs``)."""
    order = np.random.default_rng(seed)

    def one_pass() -> None:
        rows = order.permutation(len(x))
        for start in range(0, len(rows), chunk_rows):
            chunk = rows[start:start + chunk_rows]
            model.partial_fit(x[chunk].astype(np.float32), y[chunk])  # (batch by batch)

    def held_error() -> float:
        predicted = np.concatenate([
            model.predict(x_stop[i:i + chunk_rows].astype(np.float32)).reshape(-1, y.shape[1])
            for i in range(0, len(x_stop), chunk_rows)])
        return float(((predicted - y_stop) ** 2).mean())

    return best_pass(model, one_pass, held_error, epochs, log)


def best_pass(model: Any, one_pass: Callable[[], None], held_error: Callable[[], float],
              epochs: int, log: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    """The weights of ``model`` (a scikit-learn ``MLPRegressor``) after its best pass: up
    to ``epochs`` times ``one_pass()`` then ``held_error()`` on rows the fit never sees,
    stopping after :data:`PATIENCE` passes without a better error."""
    best: list[tuple[np.ndarray, np.ndarray]] | None = None
    best_error = float("inf")
    waited = 0
    for epoch in range(epochs):
        one_pass()
        error = held_error()
        if log:
            print(f"pass {epoch + 1}: training loss {model.loss_:.4f}, "
                  f"held-out error {error:.4f}", file=sys.stderr, flush=True)
        if error < best_error:
            best_error, waited = error, 0
            best = [(w.astype(np.float32).copy(), b.astype(np.float32).copy())
                    for w, b in zip(model.coefs_, model.intercepts_, strict=True)]
        else:
            waited += 1
            if waited >= PATIENCE:
                break
    assert best is not None
    return best


def measure(evaluator: Evaluator, held: Data, players: int) -> dict[str, float]:
    """Figures on held-out rows: the score error, the Brier score of "goes out first"
    against always guessing the base rate, per decision kind the score error."""
    pred = evaluator.predict(held.x.astype(np.float32))
    figures: dict[str, float] = {"rows": float(len(held))}
    err = pred.diff - held.diff
    figures["diff_mae"] = float(np.abs(err).mean())
    figures["diff_rmse"] = float(np.sqrt((err ** 2).mean()))
    figures["diff_rmse_constant"] = float(held.diff.std())
    has = held.first >= 0
    onehot = np.zeros((int(has.sum()), players))
    onehot[np.arange(onehot.shape[0]), held.first[has].astype(np.int64)] = 1.0
    brier = ((pred.first[has] - onehot) ** 2).sum(axis=1).mean()
    base = onehot.mean(axis=0)
    brier_base = ((base - onehot) ** 2).sum(axis=1).mean()
    mine = pred.first[has][:, 0]
    figures["brier_first"] = float(brier)
    figures["brier_first_base"] = float(brier_base)
    figures["brier_self_first"] = float(((mine - onehot[:, 0]) ** 2).mean())
    for k, name in enumerate(KINDS):
        rows = held.kind == k
        if rows.any():
            figures[f"diff_rmse.{name}"] = float(np.sqrt((err[rows] ** 2).mean()))
    figures.update(call_briers(held, pred.first[:, 0], players))
    return figures


def call_briers(held: Data, mine: np.ndarray, players: int) -> dict[str, float]:
    """At the Grand Tichu and Tichu decisions, the Brier score of "this seat goes out
    first": the model's, against the heuristics' bar read as a forecast (the rate of
    going out first among these rows above the bar, and among those below it: the
    best the bar can say, fitted on the very rows it is scored on)."""
    ix = {name: i for i, name in enumerate(features.layout(players))}
    out: dict[str, float] = {}
    bars = {"grand": ("hand.grand_strength", 5.0, bidding.GRAND_THRESHOLD),
            "tichu": ("hand.call_strength", 3.0, bidding.TICHU_THRESHOLD)}
    for name, (slot, scale, bar) in bars.items():
        rows = (held.kind == KINDS.index(name)) & (held.first >= 0)
        if rows.sum() < 2:
            continue
        first = (held.first[rows] == 0).astype(np.float64)
        above = held.x[rows, ix[slot]].astype(np.float64) * scale >= bar
        forecast = np.where(above, first[above].mean() if above.any() else 0.0,
                            first[~above].mean() if (~above).any() else 0.0)
        out[f"brier_first.{name}"] = float(((mine[rows] - first) ** 2).mean())
        out[f"brier_first.{name}.bar"] = float(((forecast - first) ** 2).mean())
    return out


def card(path: Path, meta: dict[str, object], figures: dict[str, float]) -> str:
    lines = [f"# Model card: {path.name}", "",
             "The learned evaluator of Tichu (see `engine/tichu/ai/evaluator.py`).", "",
             "## Data", "", str(meta.get("data", "")), "",
             "## Features", "",
             f"`engine/tichu/ai/features.py`, layout digest `{meta.get('features', '')}`, "
             f"{meta.get('inputs', '')} inputs.", "",
             "## Network", "",
             f"Hidden layers {meta.get('hidden')}, ReLU; outputs: the score difference "
             f"(x{DIFF_SCALE:g} points) and each seat's chance to go out first.", ""]
    members = int(str(meta.get("members", 1)))
    if members > 1:
        how = ("fitted apart, below" if "member_meta" in meta
               else f"seeds {meta.get('seed')} onwards")
        lines += [f"An ensemble of {members} such networks ({how}), averaged as one "
                  f"network whose hidden layers are {members} times as wide, "
                  f"block-diagonal after the first.", ""]
    lines += ["## Training", "", f"`{meta.get('command', '')}`", ""]
    if "train_seconds" in meta:
        lines += [f"Time: {float(str(meta['train_seconds'])):.0f} s of wall time.", ""]
    lines += ["## Figures on held-out games", ""]
    lines += [f"- {k}: {v:.4f}" for k, v in figures.items()]
    return "\n".join(lines) + "\n"


Layers = list[tuple[np.ndarray, np.ndarray]]


def ensemble(members: Sequence[Layers]) -> Layers:
    """The mean of networks of one shape, as one network: the first layers side by side,
    the hidden ones block-diagonal, the outputs averaged. Its outputs are the members'
    mean (up to float32 rounding), and the model file and the inference stay as they are."""
    k = len(members)
    if k == 1:
        return list(members[0])
    depth = len(members[0])
    layers: Layers = []
    for i in range(depth):
        ws = [m[i][0] for m in members]
        bs = [m[i][1] for m in members]
        if i == 0:
            w, b = np.concatenate(ws, axis=1), np.concatenate(bs)
        elif i < depth - 1:
            w = np.zeros((sum(x.shape[0] for x in ws), sum(x.shape[1] for x in ws)),
                         dtype=np.float32)
            row = col = 0
            for x in ws:
                w[row:row + x.shape[0], col:col + x.shape[1]] = x
                row, col = row + x.shape[0], col + x.shape[1]
            b = np.concatenate(bs)
        else:
            w, b = np.concatenate(ws, axis=0) / k, np.sum(bs, axis=0) / k
        layers.append((w.astype(np.float32), b.astype(np.float32)))
    return layers


def merge(models: Sequence[Evaluator], out: Path, command: str) -> Evaluator:
    """Models fitted apart (to other data, say) averaged as one (:func:`ensemble`), written
    to ``out`` with a card listing each member's data, command and held-out figures (the
    members' held-out games differ, so the ensemble has no figures of its own there)."""
    if len({(m.n_seats, tuple(w.shape for w, _ in m.layers)) for m in models}) != 1:
        raise SystemExit("merge: the models differ in seats or in shape")
    first = models[0]
    meta: dict[str, object] = {
        key: first.meta[key] for key in ("n_seats", "diff_scale", "first_weight", "hidden")}
    meta.update(command=command, members=len(models), seed=first.meta.get("seed"),
                data="; ".join(f"member {i + 1}: {m.meta.get('data')}"
                               for i, m in enumerate(models)),
                member_meta=[{key: m.meta.get(key) for key in ("command", "data", "figures")}
                             for m in models])
    layers = ensemble([m.layers for m in models])
    write_whole(out, to_bytes(layers, meta))
    made = from_bytes(out.read_bytes(), str(out))
    lines = card(out, dict(made.meta), {}).splitlines()
    lines = lines[:lines.index("## Figures on held-out games")]
    for i, m in enumerate(models):
        lines += [f"## Member {i + 1}", "", f"`{m.meta.get('command', '')}`", "",
                  str(m.meta.get("data", "")), ""]
        figures = m.meta.get("figures")
        if isinstance(figures, dict):
            lines += [f"- {k}: {float(v):.4f}" for k, v in figures.items()] + [""]
    write_whole(out.with_suffix(".md"), ("\n".join(lines).rstrip() + "\n").encode())
    return made


@dataclass(frozen=True)
class Recipe:
    """What :func:`recipe` makes: the shipped model's steps, with their sizes."""

    seed: int
    games: int
    parts: int
    members: int
    base_games: int
    players: int = 4
    jobs: int = 1
    hidden: Sequence[int] = (256, 128)
    alpha: float = 1e-3
    rate: float = 1e-3


def recipe(plan: Recipe, work: Path, out: Path, command: str, log: bool = True) -> Evaluator:
    """The ensemble the bot ships, from nothing, each step a file in ``work`` (a step whose
    file is there is not made again, so a stopped run goes on where it was):

    1. ``parts`` parts of ``normal``'s self-play data (as ``data``: part *k* is seed
       ``seed + k`` from game ``PART_GAMES * k``);
    2. ``members`` networks fitted to them, seeds ``seed`` onwards (as ``fit --seed S
       --epochs 1``: every fit so far was best after one pass);
    3. ``base_games`` games of the first network's own player (``data --base``: seed
       ``seed + parts`` from game ``PART_GAMES * parts``) and one more network, seed
       ``seed``, fitted to all the data: it has seen what the learned player does;
    4. all of them averaged as one (``merge``).

    Why: a network fitted alone stops after one pass over rows that share their deal's
    outcome, and two fits differ by as much as one round of new data gains; their mean
    ranks options better, the more so when the members saw different data."""
    work.mkdir(parents=True, exist_ok=True)

    def step(path: Path, make: Callable[[], object]) -> Path:
        if not path.exists():
            make()
        elif log:
            print(f"kept {path}", file=sys.stderr, flush=True)
        return path

    def fitted(path: Path, data: Sequence[Path], seed: int) -> Path:
        same = (f"python -m tools.train fit {' '.join(map(str, data))} --seed {seed} "
                f"--epochs 1 --hidden {','.join(map(str, plan.hidden))} --out {path}")
        return step(path, lambda: build([load_data(p) for p in data], plan.players, seed,
                                        plan.hidden, 1, path, same, log, plan.alpha,
                                        plan.rate))

    def played(path: Path, seed: int, games: int, first: int,
               base: Evaluator | None) -> Path:
        return step(path, lambda: save_data(generate(str(seed), games, plan.players, base,
                                                     plan.jobs, first_game=first), path))

    parts = [played(work / f"part{k}.npz", plan.seed + k, plan.games, PART_GAMES * k, None)
             for k in range(plan.parts)]
    members = [fitted(work / f"member{j}.npz", parts, plan.seed + j)
               for j in range(plan.members)]
    if plan.base_games > 0:
        own = played(work / f"part{plan.parts}.npz", plan.seed + plan.parts, plan.base_games,
                     PART_GAMES * plan.parts, load_model(members[0]))
        members.append(fitted(work / f"member{plan.members}.npz", [*parts, own], plan.seed))
    return merge([load_model(p) for p in members], out, command)


def build(datasets: list[Data], players: int, seed: int, hidden: Sequence[int], epochs: int,
          out: Path, command: str, log: bool = True, alpha: float = 1e-3,
          rate: float = 1e-3, members: int = 1) -> tuple[Evaluator, dict[str, float]]:
    """Fit a model to ``datasets`` (emptied once joined: memory is what limits the fit),
    measure it on held-out games, and write it and its card to ``out``.

    With ``members`` above 1 the model is an ensemble: that many networks fitted to the
    same games with seeds ``seed``, ``seed + 1``, ... (their own order of the rows, first
    weights and games that stop the fit), averaged as one network (:func:`ensemble`).
    Every row of a deal shares one noisy outcome, and each network stops after about one
    pass, so single networks differ; their mean ranks a seat's options better."""
    start = time.perf_counter()
    data = Data.join(datasets)
    datasets.clear()
    described = f"{len(np.unique(data.game))} self-play games, {len(data)} after-states"
    train, held = split(data, seed)
    del data  # (the split holds copies: memory is what limits the fit)
    if log:
        print(f"fit on {len(train)} rows, {len(np.unique(train.game))} games; "
              f"held out {len(held)} rows", file=sys.stderr, flush=True)
    layers = ensemble([fit(train, players, seed + j, hidden, epochs, log, alpha, rate)
                       for j in range(members)])
    meta: dict[str, object] = {
        "n_seats": players, "diff_scale": DIFF_SCALE, "first_weight": FIRST_WEIGHT,
        "hidden": list(hidden), "members": members, "alpha": alpha, "learning_rate": rate,
        "seed": seed,
        "command": command,
        "data": described,
        "train_seconds": round(time.perf_counter() - start, 1),
    }
    blob = to_bytes(layers, meta)
    evaluator = from_bytes(blob, str(out))
    figures = measure(evaluator, held, players)
    meta = dict(evaluator.meta, figures=figures)
    write_whole(out, to_bytes(layers, meta))
    write_whole(out.with_suffix(".md"), card(out, meta, figures).encode())
    return from_bytes(out.read_bytes(), str(out)), figures


STEPS = ("data", "fit", "merge", "ensemble")
"""The steps that run apart, each named first on the command line; without one, all."""


def parser() -> argparse.ArgumentParser:
    """The command line: the whole run's options, or a step's name and its options."""
    whole = argparse.ArgumentParser(
        prog="python -m tools.train", description=__doc__.split("\n\n")[0],
        usage="%(prog)s [-h] --games GAMES --out OUT [options]\n"
        "       %(prog)s {data,fit,merge,ensemble} [-h] ...",
        epilog="Without a step, one run does everything. A step's options follow its name: "
        "python -m tools.train STEP --help.")
    steps = whole.add_subparsers(dest="step", metavar="STEP",
                                 title="steps run apart, to keep data between runs")
    helps = {"data": "play self-play games and save them as data",
             "fit": "fit a network to saved data and write its model file",
             "merge": "average model files into one network",
             "ensemble": "the shipped four-seat model from nothing, as make model does"}
    parsers = {"all": whole} | {name: steps.add_parser(
        name, prog=f"python -m tools.train {name}", help=helps[name],
        description=helps[name][0].upper() + helps[name][1:] + ".") for name in STEPS}
    for step, p in parsers.items():
        p.add_argument("--seed", type=int, default=1,
                       help="seed of the self-play games and of the fits (default 1)")
        p.add_argument("--players", type=int, choices=(4, 6), default=4,
                       help="seats at the table: 4, or 6 for Tichu for six")
        p.add_argument("--jobs", type=int, default=1, help="processes playing the games")
        step_options(step, p)
        if step in ("fit", "all", "ensemble"):
            fit_options(step, p)
        p.add_argument("--quiet", action="store_true", help="no progress lines")
    return whole


def step_options(step: str, parser: argparse.ArgumentParser) -> None:
    """The options of ``step`` alone (``all``: the whole run, no step named)."""
    if step == "data":
        parser.add_argument("--games", type=int, required=True, help="self-play games")
        parser.add_argument("--first-game", type=int, default=0,
                            help="number of the first game (part k of a whole run starts "
                            f"at k × {PART_GAMES:,})")
        parser.add_argument("--base", type=Path, default=None,
                            help="a model whose learned player is the base (default: normal)")
        parser.add_argument("--wide", type=float, default=WIDE,
                            help="chance of trying the other call on a hand far from the "
                            f"heuristics' bar (default {WIDE})")
        parser.add_argument("--out", type=Path, required=True, help="the data file written")
    elif step == "fit":
        parser.add_argument("data", type=Path, nargs="+", help="data files of the data step")
        parser.add_argument("--out", type=Path, required=True,
                            help="the model file written (its card beside it, .md)")
    elif step == "merge":
        parser.add_argument("models", type=Path, nargs="+", help="the model files averaged")
        parser.add_argument("--out", type=Path, required=True, help="the model file written")
    elif step == "ensemble":
        parser.add_argument("--games", type=int, required=True,
                            help="self-play games of each part of normal's data")
        parser.add_argument("--parts", type=int, default=2, help="parts of normal's data")
        parser.add_argument("--members", type=int, default=3,
                            help="networks fitted to normal's data, seeds --seed onwards")
        parser.add_argument("--base-games", type=int, default=2500,
                            help="games of the first network's own player, for one more "
                            "network fitted to all the data (0: none)")
        parser.add_argument("--work", type=Path, required=True,
                            help="folder of the data and the members (kept: a stopped run "
                            "goes on from the files it finds)")
        parser.add_argument("--out", type=Path, required=True,
                            help="the model file written (its card beside it, .md)")
    else:
        # (required, but checked by main: as required options here, they would be asked
        # for before a step's name too)
        parser.add_argument("--games", type=int,
                            help="self-play games of each part (required)")
        parser.add_argument("--rounds", type=int, default=1,
                            help="rounds of policy iteration (each plays on the last model)")
        parser.add_argument("--parts", type=int, default=1,
                            help="parts of --games games each, per round")
        parser.add_argument("--out", type=Path,
                            help="the model file written (required), its card beside it (.md)")


def fit_options(step: str, parser: argparse.ArgumentParser) -> None:
    """The options of the fit, for the steps that fit networks."""
    parser.add_argument("--hidden", default="256,128",
                        help="sizes of the hidden layers, comma-separated (default 256,128)")
    parser.add_argument("--epochs", type=int, default=20,
                        help="most passes over the data (the fit stops earlier when "
                        "held-out games stop improving)")
    parser.add_argument("--alpha", type=float, default=1e-3, help="L2 penalty")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    if step != "ensemble":
        parser.add_argument("--members", type=int, default=1,
                            help="networks fitted with seeds --seed, --seed + 1, ... and "
                            "averaged as one")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = "python -m tools.train " + " ".join(argv)  # (kept in the model's card)
    whole = parser()
    args = whole.parse_args(argv)
    step = args.step or "all"
    if args.step is not None and argv[0] != args.step:
        # (a step's parser would take its own defaults over the options before its name)
        whole.error(f"options go after the step: python -m tools.train {args.step} ...")
    missing = [f"--{name}" for name in ("games", "out")
               if step == "all" and getattr(args, name) is None]
    if missing:
        whole.error(f"the following arguments are required: {', '.join(missing)}")
    log = not args.quiet
    if step == "data":
        base = load_model(args.base) if args.base else None
        start = time.perf_counter()
        data = generate(str(args.seed), args.games, args.players, base, args.jobs,
                        first_game=args.first_game, wide=args.wide)
        save_data(data, args.out)
        print(f"{len(data)} rows from {args.games} games in {time.perf_counter() - start:.0f} s "
              f"-> {args.out}", flush=True)
        return 0
    if step == "merge":
        merge([load_model(p) for p in args.models], args.out, command)
        return 0
    hidden = [int(h) for h in args.hidden.split(",") if h]
    if step == "ensemble":
        recipe(Recipe(args.seed, args.games, args.parts, args.members, args.base_games,
                      args.players, args.jobs, hidden, args.alpha, args.rate),
               args.work, args.out, command, log)
        return 0
    if step == "fit":
        _, figures = build([load_data(p) for p in args.data], args.players, args.seed, hidden,
                           args.epochs, args.out, command, log, args.alpha, args.rate,
                           args.members)
        print(json.dumps(figures, indent=1))
        return 0
    datasets: list[Data] = []
    learned: Evaluator | None = None
    for r in range(args.rounds):
        for k in range(args.parts):
            i = r * args.parts + k
            datasets.append(generate(str(args.seed + i), args.games, args.players, learned,
                                     args.jobs, first_game=PART_GAMES * i))
        learned, figures = build(list(datasets), args.players, args.seed, hidden, args.epochs,
                                 args.out, command, log, args.alpha, args.rate,
                                 args.members)
        print(f"round {r}: " + json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
