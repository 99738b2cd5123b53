"""Train Tysiacha's learned values from nothing: self-play deals, a fit, figures, a model file.

``python -m tools.train_tysiacha --seed 1 --deals 60000 --jobs 2 --out engine/tysiacha/models/tysiacha.npz``
deals ``--deals`` seeded deals; in each, every playing seat in turn takes the
prikup as soloist: it gives its two least useful cards (the richer to the seat
after it, as ``hard`` values its bids), leads, and the deal is played out by the
``normal`` play of every seat (the playouts of :mod:`engine.tysiacha.ai`). Each of
the three records is the soloist's ten cards
(:func:`engine.tysiacha.features.encode`) and what came of them: whether its card
points and marriages reached each of :data:`~engine.tysiacha.features.THRESHOLDS`,
and each defender's points. A small network (scikit-learn's ``MLPRegressor``, one
hidden layer) is fitted to them, held-out deals stopping the fit; the figures on
those deals, the model file and its card (the same path, ``.md``) are written.
Everything is seeded: the same command rebuilds the same file.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine import mlp
from engine.tysiacha import features
from engine.tysiacha.actions import Action, Bid, Pass
from engine.tysiacha.ai import (
    ENDGAME_CARDS,
    LEARNED_PLAY_SHARE,
    HardPlayer,
    _cheap_gifts,
    _Deal,
    _finish,
    _next_seats,
    _solo_deal,
    gift_pairs,
)
from engine.tysiacha.cards import DECK, MARRIAGE_VALUES, POINTS
from engine.tysiacha.deal import FIRST_DEALER, HAND_SIZE, seeded_deal
from engine.tysiacha.features import DEFENDER_SCALE, THRESHOLDS
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.scoring import BID_STEP, MIN_BID, round_points
from engine.tysiacha.selfplay import play_deal
from engine.tysiacha.values import FILES, Kind, file_name, from_bytes
from engine.tysiacha.view import DealKind, Phase, TysiachaView
from tools.train import fit_passes, write_whole

HELD_OUT = 0.1
"""Share of the deals kept out of the fit, to stop it and to measure it."""
HARD_SAMPLES = 32
"""The samples of each decision of the hard players in the hard records (no time limit)."""


def deal_records(seed: str, k: int, gifts: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The three records of deal ``k`` of ``seed``: rows and targets. With ``gifts``, the
    soloist gives a pair drawn at random (seeded) among those ``hard`` weighs
    (:func:`engine.tysiacha.ai.gift_pairs`), and the rows are
    :func:`engine.tysiacha.features.encode_gifts` of what it keeps and gives."""
    deal = seeded_deal(f"train:{seed}", k, FIRST_DEALER, 3)
    view = TysiachaGame(players=3, deal=deal).view(None)
    nxt = _next_seats(view)
    rng = random.Random(f"gifts:{seed}:{k}")
    rows, targets = [], []
    for soloist in view.active:
        ten = [*deal.hands[soloist], *deal.prikup]
        after = nxt[soloist]
        other = nxt[after]
        if gifts:
            (_, high), (_, low) = rng.choice(gift_pairs(ten, after, other))
            kept = [c for c in ten if c not in (high, low)]
            given = {after: high, other: low}
            rows.append(features.encode_gifts(kept, high, low))
        else:
            kept, given = _cheap_gifts(view, soloist, ten)
            rows.append(features.encode(ten))
        d = _solo_deal(view, soloist, kept, {s: [*deal.hands[s], given[s]]
                                              for s in (after, other)}, nxt)
        _finish(d)
        total = d.points[soloist] + d.marr[soloist]
        defenders = [round_points(d.points[s]) + d.marr[s] for s in (after, other)]
        targets.append([*(float(total >= t) for t in THRESHOLDS),
                        *(p / DEFENDER_SCALE for p in defenders)])
    return np.stack(rows), np.asarray(targets, dtype=np.float32)


class _NeverConcedes(HardPlayer):
    """``hard``, but a soloist that plays its best gifts and contract whatever they are
    worth: the hard records measure what ten cards make in ``hard`` hands."""

    def _prikup(self, view: TysiachaView) -> Action:
        assert view.seat is not None
        key = (view.deal_number, frozenset(view.hand))
        if self._plan is None or self._plan[0] != key:
            ordered, contract, _ = self.prikup_plan(view)
            self._plan = (key, contract, ordered)
        return super()._prikup(view)


def _scripted(name: str) -> tuple[TysiachaGame, int]:
    """A fresh game seeded ``name`` whose soloist (each playing seat in turn, by the
    number ending ``name``) holds the contract at the lowest bid the rules let it."""
    k = int(name.rsplit(":", 1)[1])
    game = TysiachaGame(players=3, seed=name)
    first, second, third = game.active
    soloist = game.active[k % 3]
    script: list[Action] = [Bid(first, MIN_BID)]
    if soloist == first:
        script += [Pass(second), Pass(third)]
    elif soloist == second:
        script += [Bid(second, MIN_BID + BID_STEP), Pass(third), Pass(first)]
    else:
        script += [Pass(second), Bid(third, MIN_BID + BID_STEP), Pass(first)]
    for action in script:
        game.apply(action)
    return game, soloist


def hard_record(seed: str, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The record of hard deal ``k`` of ``seed``: the soloist (each playing seat in turn,
    by ``k``) takes the contract at the lowest bid the rules let it and the deal is
    played by ``hard`` players without a time limit (32 samples, deterministic); None if
    it ends in a redeal."""
    game, soloist = _scripted(f"hard:{seed}:{k}")
    ten = list(game.hands[soloist])
    players = [_NeverConcedes(samples=HARD_SAMPLES, budget_ms=None) for _ in range(3)]
    play_deal(game, players, random.Random(f"hard:{seed}:{k}"))
    result = game.history[-1]
    if result.kind is not DealKind.PLAYED:
        return None
    after = game.after(soloist)
    total = result.points[soloist] + result.marriages[soloist]
    defenders = [round_points(result.points[s]) + result.marriages[s]
                 for s in (after, game.after(after))]
    return features.encode(ten)[None, :], np.asarray(
        [[*(float(total >= t) for t in THRESHOLDS), *(p / DEFENDER_SCALE for p in defenders)]],
        dtype=np.float32)


PLAY_CARDS = range(ENDGAME_CARDS + 1, HAND_SIZE + 2)
"""The cards a seat holds at the tricks whose start the play records describe (from the
first lead; the last tricks are searched exactly, not valued)."""


def play_records(seed: str, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The play records of hard deal ``k`` of ``seed`` (the deal as :func:`hard_record`
    plays it, seeded apart): the deal at the start of each trick while the seats hold
    :data:`PLAY_CARDS` cards (:func:`engine.tysiacha.features.encode_play`, every hand
    seen), and the deal's end (the soloist's total against each threshold, each
    defender's points)."""
    game, soloist = _scripted(f"play:{seed}:{k}")
    after = game.after(soloist)
    roles = (soloist, after, game.after(after))
    rows: list[np.ndarray] = []

    def observe(g: TysiachaGame, seat: int, action: Action, seconds: float) -> None:
        if g.phase is Phase.PLAY and not g.trick.plays and \
                len(g.hands[soloist]) in PLAY_CARDS:
            marr = {s: 0 for s in roles}
            for who, suit in g.marriages:
                marr[who] += MARRIAGE_VALUES[suit]
            assert g.turn is not None
            rows.append(features.encode_play(
                [g.hands[s] for s in roles], g.trump, roles.index(g.turn),
                [sum(POINTS[c] for c in g.won[s]) for s in roles], [marr[s] for s in roles],
                [g.tricks_taken[s] > 0 for s in roles]))

    players = [_NeverConcedes(samples=HARD_SAMPLES, budget_ms=None) for _ in range(3)]
    play_deal(game, players, random.Random(f"play:{seed}:{k}"), observe)
    result = game.history[-1]
    if result.kind is not DealKind.PLAYED or not rows:
        return (np.zeros((0, features.PLAY_INPUTS), np.float32),
                np.zeros((0, features.OUTPUTS), np.float32))
    total = result.points[soloist] + result.marriages[soloist]
    defenders = [round_points(result.points[s]) + result.marriages[s] for s in roles[1:]]
    target = [*(float(total >= t) for t in THRESHOLDS), *(p / DEFENDER_SCALE for p in defenders)]
    return np.stack(rows), np.tile(np.asarray(target, np.float32), (len(rows), 1))


KINDS = ("values", "hard", "gifts", "play")
"""The records :func:`generate` makes: :func:`deal_records` (of ten cards, or with the
gifts), :func:`hard_record`, :func:`play_records`."""


def _records(kind: str, seed: str, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    if kind == "hard":
        return hard_record(seed, k)
    if kind == "play":
        return play_records(seed, k)
    return deal_records(seed, k, gifts=kind == "gifts")


def _chunk(task: tuple[str, str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    kind, seed, start, stop = task
    parts = [p for k in range(start, stop) if (p := _records(kind, seed, k)) is not None]
    if not parts:
        inputs = {"gifts": features.GIFT_INPUTS, "play": features.PLAY_INPUTS}
        return (np.zeros((0, inputs.get(kind, features.INPUTS)), np.float32),
                np.zeros((0, features.OUTPUTS), np.float32))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def generate(seed: str, deals: int, jobs: int = 1, kind: str = "values"
             ) -> tuple[np.ndarray, np.ndarray]:
    """The records of deals 0 .. ``deals`` - 1 of ``kind`` (:data:`KINDS`), in order: the
    same for any job count."""
    step = 10 if kind in ("hard", "play") else 500
    tasks = [(kind, seed, a, min(deals, a + step)) for a in range(0, deals, step)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_chunk, tasks, chunksize=1)
    else:
        parts = [_chunk(t) for t in tasks]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def calibrate(layers: mlp.Layers, x: np.ndarray, y: np.ndarray) -> mlp.Layers:
    """The network with its outputs recalibrated to the hard records ``x``, ``y``: the
    chances, then the defenders' points, each by one least-squares line (a scale and a
    shift, pooled over their outputs), folded into the last layer."""
    raw = mlp.Network(layers).raw(x)
    w, b = (a.copy() for a in layers[-1])
    n = len(THRESHOLDS)
    for cols in (slice(0, n), slice(n, n + 2)):
        pred, want = raw[:, cols].ravel(), y[:, cols].ravel()
        scale, shift = np.polyfit(pred.astype(np.float64), want.astype(np.float64), 1)
        w[:, cols] *= np.float32(scale)
        b[cols] = b[cols] * np.float32(scale) + np.float32(shift)
    return [*layers[:-1], (w.astype(np.float32), b.astype(np.float32))]


def fit(x: np.ndarray, y: np.ndarray, x_stop: np.ndarray, y_stop: np.ndarray, seed: int,
        hidden: int, epochs: int, log: bool = True) -> mlp.Layers:
    """A network fitted to ``x``, ``y``, stopped by the rows ``x_stop``, ``y_stop``
    (:func:`tools.train.fit_passes`, a pass all the rows at once)."""
    from sklearn.neural_network import MLPRegressor

    model = MLPRegressor(hidden_layer_sizes=(hidden,), activation="relu", solver="adam",
                         alpha=1e-4, batch_size=256, learning_rate_init=1e-3,
                         random_state=seed, shuffle=True)
    return fit_passes(model, x, y, x_stop, y_stop, seed, epochs, log, chunk_rows=len(x))


def measure(layers: mlp.Layers, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Figures on held-out records: the Brier score of the chances (mean over the
    thresholds) against the base rates', at 100 and 120 alone, and the defenders'
    mean absolute error in points."""
    raw = mlp.Network(layers).raw(x)
    n = len(THRESHOLDS)
    chances = np.clip(raw[:, :n], 0.0, 1.0)
    base = y[:, :n].mean(axis=0)
    figures = {"records": float(len(x)),
               "brier": float(((chances - y[:, :n]) ** 2).mean()),
               "brier_base_rates": float(((base - y[:, :n]) ** 2).mean())}
    for t in (100, 120):
        i = THRESHOLDS.index(t)
        figures[f"brier_{t}"] = float(((chances[:, i] - y[:, i]) ** 2).mean())
        figures[f"reached_{t}"] = float(y[:, i].mean())
    figures["defender_mae_points"] = float(
        np.abs(np.maximum(raw[:, n:n + 2], 0) - y[:, n:n + 2]).mean() * DEFENDER_SCALE)
    return figures


_TOTALS = (f"each total from {THRESHOLDS[0]} to {THRESHOLDS[-1]} in steps of "
           f"{THRESHOLDS[1] - THRESHOLDS[0]}")
"""The thresholds, as the model cards name them."""


def card(out: Path, meta: dict[str, object], figures: dict[str, float],
         hard_figures: dict[str, float]) -> str:
    lines = [f"# Model card: {out.name}", "",
             "Tysiacha's learned values (`engine/tysiacha/values.py`): for a soloist's ten "
             "cards after the prikup, the chance that its card points and marriages reach "
             f"{_TOTALS}, and each defender's points. With `learned_bids`, the `hard` player "
             "bids from it.", "",
             "## Data", "",
             f"{meta['deals']} seeded deals (seed `{meta['seed']}`), three records each: every "
             "playing seat takes the prikup as soloist in turn, gives its two least useful "
             "cards (the richer to the seat after it), leads, and the deal is played out "
             "by the `normal` play of every seat (the playouts of `engine/tysiacha/ai.py`). "
             f"{HELD_OUT:.0%} of the deals are held out, to stop the fit and to measure it.", "",
             *([f"Then {meta['hard_deals']} deals played by `hard` players (no time limit, "
                f"{HARD_SAMPLES} samples a decision), one soloist a deal (each playing seat in "
                "turn) holding the contract at the lowest bid and never conceding: what ten "
                "cards make in `hard` hands. On the first half, the chances and the "
                "defenders' points are each recalibrated by one least-squares line (scale and "
                "shift) folded into the last layer; the second half measures it.", ""]
               if meta.get("hard_deals") else []),
             "## Features", "",
             f"`engine/tysiacha/features.py`, layout digest `{features.DIGEST}`, "
             f"{features.INPUTS} inputs: the ten cards, the suit lengths, the marriages, "
             "Aces, Tens, card and marriage points.", "",
             "## Network", "",
             f"One hidden layer of {meta['hidden']}, ReLU; {features.OUTPUTS} linear outputs "
             f"(the {len(THRESHOLDS)} chances, fitted by squared error to 0/1, then the two "
             f"defenders' points in hundreds).", "",
             "## Training", "",
             f"`{meta['command']}` (the first line of `make model`): "
             f"{float(str(meta['data_seconds'])):.0f} s to deal and play, "
             f"{float(str(meta['fit_seconds'])):.0f} s to fit, wall time.", "",
             "## Figures on the held-out deals", ""]
    lines += [f"- {k}: {v:.4f}" for k, v in figures.items()]
    if hard_figures:
        lines += ["", "## Figures on the held-out hard deals (after the calibration)", ""]
        lines += [f"- {k}: {v:.4f}" for k, v in hard_figures.items()]
    return "\n".join(lines) + "\n"


def gift_card(out: Path, meta: dict[str, object], figures: dict[str, float]) -> str:
    lines = [f"# Model card: {out.name}", "",
             "Tysiacha's learned gift values (`engine/tysiacha/values.py`, `gift_values`): "
             "for the eight cards a soloist keeps after the prikup and the two it gives (one "
             "to the seat after it, one to the other), the chance that its card points and "
             f"marriages reach {_TOTALS}, and each defender's points. With `learned_gifts`, "
             "the `hard` player chooses its gifts from it.", "",
             "## Data", "",
             f"{meta['deals']} seeded deals (seed `{meta['seed']}`), three records each: every "
             "playing seat takes the prikup as soloist in turn, gives a pair of cards drawn at "
             "random (seeded) among the six `hard` weighs (each two of its four least useful "
             "cards, the richer to the seat after it: `engine.tysiacha.ai.gift_pairs`), leads, "
             "and the deal is played out by the `normal` play of every seat. "
             f"{HELD_OUT:.0%} of the deals are held out, to stop the fit and to measure it. "
             "No calibration to `hard` deals.", "",
             "## Features", "",
             f"`engine/tysiacha/features.py` (`encode_gifts`), layout digest "
             f"`{features.GIFT_DIGEST}`, {features.GIFT_INPUTS} inputs: the eight cards kept "
             "(as the ten-card layout reads them), the card given to the seat after the "
             "soloist, the card given to the other seat, and their points.", "",
             *_network_and_training(meta), "## Figures on the held-out deals", ""]
    lines += [f"- {k}: {v:.4f}" for k, v in figures.items()]
    return "\n".join(lines) + "\n"


def _deal_of(row: np.ndarray) -> _Deal:
    """The deal a play record describes (:func:`engine.tysiacha.features.encode_play`), the
    soloist in seat 0, the seat after it 1, the other 2."""
    at = features.PLAY_LAYOUT.index
    n = len(DECK)
    hands = [[c for i, c in enumerate(DECK) if row[r * n + i] > 0.5] for r in range(3)]
    trumps = [s for s in range(4) if row[at(f"trump:{s}")] > 0.5]
    roles = features.ROLES
    return _Deal(hands, [1, 2, 0], int(np.argmax([row[at(f"leads:{r}")] for r in roles])), [],
                 trumps[0] if trumps else None,
                 [round(float(row[at(f"points:{r}")]) * 120) for r in roles],
                 [int(row[at(f"took_trick:{r}")] > 0.5) for r in roles],
                 [round(float(row[at(f"marriages:{r}")]) * 100) for r in roles], 0)


def play_figures(layers: mlp.Layers, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """On held-out play records, against what ``hard`` players made of them: the Brier
    score of the network's chances, of the playout's (``normal`` for every seat, from the
    true deal: 0 or 1), and of the mix ``hard`` uses (:data:`engine.tysiacha.ai.
    LEARNED_PLAY_SHARE`), in all and by the cards each seat holds."""
    n = len(THRESHOLDS)
    net = np.clip(mlp.Network(layers).raw(x)[:, :n], 0.0, 1.0)
    playout = np.zeros_like(net)
    for i, row in enumerate(x):
        d = _deal_of(row)
        _finish(d)
        playout[i] = [d.points[0] + d.marr[0] >= t for t in THRESHOLDS]
    held = np.rint(x[:, :3 * len(DECK)].sum(axis=1) / 3).astype(int)
    share = np.asarray([LEARNED_PLAY_SHARE.get(int(k), 0.0) for k in held],
                       np.float32)[:, None]
    mixed = share * net + (1 - share) * playout
    figures: dict[str, float] = {}
    for name, rows in [("", held > 0), *((f"_{k}_cards", held == k) for k in PLAY_CARDS)]:
        if rows.any():
            for what, p in (("network", net), ("playout", playout), ("mixed", mixed)):
                figures[f"brier_{what}{name}"] = float(((p[rows] - y[rows, :n]) ** 2).mean())
    return figures


def play_card(out: Path, meta: dict[str, object], figures: dict[str, float]) -> str:
    lines = [f"# Model card: {out.name}", "",
             "Tysiacha's learned play values (`engine/tysiacha/values.py`, `play_values`): for "
             "a deal in play between two tricks, every hand seen, the chance that the "
             f"soloist's card points and marriages reach {_TOTALS} when `hard` players play it "
             "on, and each defender's points. With "
             "`learned_play`, the `hard` player values each card it may play, on each "
             "sampled deal, by them at the end of the trick mixed with the playout "
             "(`engine.tysiacha.ai.LEARNED_PLAY_SHARE`), and its prikup's choices at the "
             "first lead.", "",
             "## Data", "",
             f"{meta['deals']} seeded deals (seed `{meta['seed']}`) played by `hard` players "
             f"(no time limit, {HARD_SAMPLES} samples a decision), one soloist a deal (each "
             "playing seat in turn) holding the contract at the lowest bid and never "
             "conceding; one record at the start of each trick while the seats hold "
             f"{PLAY_CARDS.start} to {PLAY_CARDS.stop - 1} cards, all a deal's records with its "
             f"end. The last {HELD_OUT:.0%} of the records (the last deals) are held out, to "
             "stop the fit and to measure it.", "",
             "## Features", "",
             f"`engine/tysiacha/features.py` (`encode_play`), layout digest "
             f"`{features.PLAY_DIGEST}`, {features.PLAY_INPUTS} inputs: the cards of the "
             "soloist, of the seat after it and of the other defender, the trump, who leads, "
             "each seat's card and marriage points so far and whether it has taken a trick, "
             "the cards left.", "",
             *_network_and_training(meta), "## Figures on the held-out records", ""]
    lines += [f"- {k}: {v:.4f}" for k, v in figures.items()]
    return "\n".join(lines) + "\n"


def _network_and_training(meta: dict[str, object]) -> list[str]:
    return ["## Network", "",
            f"One hidden layer of {meta['hidden']}, ReLU; {features.OUTPUTS} linear outputs "
            f"(the {len(THRESHOLDS)} chances, fitted by squared error to 0/1, then the two "
            "defenders' points in hundreds).", "",
            "## Training", "",
            f"`{meta['command']}`: {float(str(meta['data_seconds'])):.0f} s to deal and play, "
            f"{float(str(meta['fit_seconds'])):.0f} s to fit, wall time.", ""]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.train_tysiacha",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--deals", type=int, default=60000)
    p.add_argument("--hidden", type=int, default=96)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--hard-deals", type=int, default=0,
                   help="deals played by hard players to calibrate the network to (0: none)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--gifts", action="store_true",
                   help="the gift values: the soloist gives a random pair among those hard "
                        "weighs; rows are the eight cards kept and the two given "
                        "(default --out engine/tysiacha/models/tysiacha-gifts.npz)")
    p.add_argument("--play", action="store_true",
                   help="the play values: deals played by hard players, a record at the start "
                        "of each trick with every hand seen "
                        "(default --out engine/tysiacha/models/tysiacha-play.npz)")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.gifts and args.play:
        p.error("--gifts and --play are two models: one at a time")
    kind: Kind = "gifts" if args.gifts else "play" if args.play else "values"
    if args.out is None:
        args.out = Path("engine/tysiacha/models") / file_name(kind)
    if kind != "values" and args.hard_deals:
        p.error("--hard-deals calibrates the values of ten cards only")
    command = "python -m tools.train_tysiacha " + " ".join(
        sys.argv[1:] if argv is None else argv)
    began = time.perf_counter()
    x, y = generate(str(args.seed), args.deals, args.jobs, kind)
    data_seconds = time.perf_counter() - began
    # The last deals are held out: their three records together (the play records, a
    # deal's from one to five, by their share).
    held = max(2, round(len(x) * HELD_OUT)) if kind == "play" else \
        max(2, round(args.deals * HELD_OUT)) * 3
    stop = held // 2
    x_fit, y_fit = x[:-held], y[:-held]
    x_stop, y_stop = x[-held:-held + stop], y[-held:-held + stop]
    x_held, y_held = x[-held + stop:], y[-held + stop:]
    began = time.perf_counter()
    layers = fit(x_fit, y_fit, x_stop, y_stop, args.seed, args.hidden, args.epochs,
                 log=not args.quiet)
    fit_seconds = time.perf_counter() - began
    figures = measure(layers, x_held, y_held)
    if kind == "play":
        figures.update(play_figures(layers, x_held, y_held))
    hard_figures: dict[str, float] = {}
    if args.hard_deals:
        began = time.perf_counter()
        x_hard, y_hard = generate(str(args.seed), args.hard_deals, args.jobs, "hard")
        data_seconds += time.perf_counter() - began
        # The first half fits the calibration, the second measures it.
        half = len(x_hard) // 2
        calibrated = calibrate(layers, x_hard[:half], y_hard[:half])
        before = measure(layers, x_hard[half:], y_hard[half:])
        after = measure(calibrated, x_hard[half:], y_hard[half:])
        hard_figures = {"records": after["records"], "brier_uncalibrated": before["brier"],
                        **{k: v for k, v in after.items() if k != "records"},
                        "defender_mae_points_uncalibrated": before["defender_mae_points"]}
        layers = calibrated
    meta: dict[str, object] = {"seed": args.seed, "deals": args.deals, "hidden": args.hidden,
                               "hard_deals": args.hard_deals,
                               "command": command, "data_seconds": round(data_seconds, 1),
                               "fit_seconds": round(fit_seconds, 1), "figures": figures,
                               "hard_figures": hard_figures}
    if kind != "values":
        meta[kind] = True
    _, fmt, digest, inputs = FILES[kind]
    data = mlp.to_bytes(layers, meta, format=fmt, features=digest, inputs=inputs)
    # (the file reads back, checked, before it is written)
    from_bytes(data, str(args.out), kind)
    write_whole(args.out, data)
    text = gift_card(args.out, meta, figures) if kind == "gifts" else \
        play_card(args.out, meta, figures) if kind == "play" else \
        card(args.out, meta, figures, hard_figures)
    write_whole(args.out.with_suffix(".md"), text.encode())
    for k, v in figures.items():
        print(f"{k}: {v:.4f}")
    for k, v in hard_figures.items():
        print(f"hard {k}: {v:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
