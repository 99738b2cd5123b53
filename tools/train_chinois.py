"""Train Chinois's learned values from nothing: self-play deals, two fits, model files.

``python -m tools.train_chinois --seed 1 --deals 60000 --jobs 2 --out engine/chinois/models``
plays ``--deals`` single deals of ``normal`` with exploration, fits the bid network and
the play network (:mod:`engine.chinois.values`; scikit-learn's ``MLPRegressor``) to the
seats' deal scores, measures them on held-out deals and writes ``chinois-bid.npz`` and
``chinois-play.npz`` with their cards (``.md``) into ``--out``.

The self-play: deal ``k`` is round ``1 + k mod 28`` (so 1 to 13 cards, the 13-card rounds
four times in 28 as in a game) dealt from ``seed:k`` by the schedule's dealer. Every seat
bids ``normal``'s bid, or with chance :data:`EXPLORE_BID` a bid drawn evenly from the
legal bids within ``ai.BID_SPREAD`` of ``normal``'s estimate (``ai.near_bids``) (so every bid near the
hand's worth is tried, the dealer's under "tout sauf" too), and plays ``normal``'s card,
or with chance :data:`EXPLORE_PLAY` a legal card at random. Recorded: every bid (its row of
:func:`engine.chinois.features.bid_rows`) and one in :data:`PLAY_SHARE` of the cards
played (their after-state rows), each with the seat's deal score and the mean of the
others'. Seeded: the same command makes the same files, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.chinois import features, values
from engine.chinois.actions import Bid, Play
from engine.chinois.ai import NormalPlayer, estimate_tricks, near_bids, shown_voids
from engine.chinois.deal import seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_cards
from engine.chinois.rules import N_SEATS, ROUNDS
from engine.chinois.view import Phase
from engine.mlp import Layers
from tools.train import best_pass, held_out, write_whole

EXPLORE_BID = 0.5
EXPLORE_PLAY = 0.05
PLAY_SHARE = 0.15
SCALE = 10.0
"""The networks' outputs are trained in tens of points."""


@dataclass
class Rows:
    """Recorded decisions of one kind: feature rows, the two scores, the deal of each."""

    x: np.ndarray
    y: np.ndarray
    deal: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    def take(self, rows: np.ndarray) -> Rows:
        return Rows(self.x[rows], self.y[rows], self.deal[rows])

    @staticmethod
    def join(parts: Sequence[Rows]) -> Rows:
        return Rows(np.concatenate([p.x for p in parts]), np.concatenate([p.y for p in parts]),
                    np.concatenate([p.deal for p in parts]))


def play_deal(seed: str, k: int) -> tuple[list[np.ndarray], list[np.ndarray], list[int]]:
    """Deal ``k`` of ``seed`` played out: its bid rows, its play rows (each with the
    seat that chose it) and the seats' deal scores."""
    rng = random.Random(f"{seed}:{k}:explore")
    game = ChinoisGame(deal=seeded_deal(f"{seed}:{k}", 1 + k % ROUNDS))
    normal = NormalPlayer()
    bid_rows: list[tuple[int, np.ndarray]] = []
    play_rows: list[tuple[int, np.ndarray]] = []
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if game.phase is Phase.BID:
            estimate = estimate_tricks(view.hand, view.trump_card, view.cards_per_seat)
            bid = normal.bid(view)
            if rng.random() < EXPLORE_BID:
                bid = rng.choice(near_bids(view, estimate))
            bid_rows.append((seat, features.bid_rows(view, [bid], estimate)[0]))
            game.apply(Bid(seat, bid))
            continue
        legal = legal_cards(view)
        card = normal.card(view)
        if len(legal) > 1 and rng.random() < EXPLORE_PLAY:
            card = rng.choice(legal)
        if len(legal) > 1 and rng.random() < PLAY_SHARE:
            play_rows.append((seat, features.play_rows(view, [card], shown_voids(view))[0]))
        game.apply(Play(seat, card))
    scores = list(game.history[-1].scores)

    def targets(seat: int) -> np.ndarray:
        others = (sum(scores) - scores[seat]) / (N_SEATS - 1)
        return np.array([scores[seat] / SCALE, others / SCALE], dtype=np.float32)

    return ([np.concatenate([r, targets(s)]) for s, r in bid_rows],
            [np.concatenate([r, targets(s)]) for s, r in play_rows], scores)


def _chunk(task: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    seed, first, count = task
    bids: list[np.ndarray] = []
    plays: list[np.ndarray] = []
    bid_deal: list[int] = []
    play_deal_ids: list[int] = []
    for k in range(first, first + count):
        b, p, _ = play_deal(seed, k)
        bids += b
        plays += p
        bid_deal += [k] * len(b)
        play_deal_ids += [k] * len(p)
    wide_b, wide_p = features.width("bid") + 2, features.width("play") + 2
    return (np.array(bids, dtype=np.float16).reshape(-1, wide_b),
            np.array(bid_deal, dtype=np.int64),
            np.array(plays, dtype=np.float16).reshape(-1, wide_p),
            np.array(play_deal_ids, dtype=np.int64))


CHUNK_DEALS = 500


def generate(seed: str, deals: int, jobs: int = 1, log: bool = True) -> dict[str, Rows]:
    """The recorded decisions of ``deals`` self-play deals, by kind (``bid``, ``play``)."""
    tasks = [(seed, first, min(CHUNK_DEALS, deals - first))
             for first in range(0, deals, CHUNK_DEALS)]
    start = time.perf_counter()
    parts = []
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for i, part in enumerate(pool.imap(_chunk, tasks)):
                parts.append(part)
                if log and i % 10 == 9:
                    print(f"{(i + 1) * CHUNK_DEALS} deals in {time.perf_counter() - start:.0f} s",
                          file=sys.stderr, flush=True)
    else:
        parts = [_chunk(t) for t in tasks]
    out = {}
    for kind, (xi, di) in (("bid", (0, 1)), ("play", (2, 3))):
        xy = np.concatenate([p[xi] for p in parts])
        out[kind] = Rows(xy[:, :-2], xy[:, -2:].astype(np.float32),
                         np.concatenate([p[di] for p in parts]))
    return out


def split(rows: Rows, seed: int) -> tuple[Rows, Rows]:
    """Training and held-out rows, by whole deals (:func:`tools.train.held_out`)."""
    fit_rows, held_rows = held_out(rows.deal, seed)
    return rows.take(fit_rows), rows.take(held_rows)


def fit(train: Rows, seed: int, hidden: Sequence[int], epochs: int, log: bool = True,
        alpha: float = 1e-4, rate: float = 1e-3) -> Layers:
    """A network fitted to ``train``; the weights of the pass with the best squared error
    on deals the fit never sees (:func:`tools.train.best_pass`)."""
    from sklearn.neural_network import MLPRegressor

    fit_rows, stop_rows = split(train, seed + 1)
    x = fit_rows.x.astype(np.float32)
    x_stop = stop_rows.x.astype(np.float32)
    model = MLPRegressor(hidden_layer_sizes=tuple(hidden), activation="relu", solver="adam",
                         alpha=alpha, batch_size=256, learning_rate_init=rate,
                         random_state=seed, shuffle=True)
    return best_pass(model, lambda: model.partial_fit(x, fit_rows.y),
                     lambda: float(((model.predict(x_stop) - stop_rows.y) ** 2).mean()),
                     epochs, log)


def measure(network: values.Values, held: Rows) -> dict[str, float]:
    """Figures on held-out rows: the error of the seat's score (points), against always
    guessing the mean."""
    predicted = network.scores(held.x.astype(np.float32))[:, 0]
    truth = held.y[:, 0].astype(np.float64) * SCALE
    err = predicted - truth
    return {"rows": float(len(held)), "score_mae": float(np.abs(err).mean()),
            "score_rmse": float(np.sqrt((err ** 2).mean())),
            "score_rmse_constant": float(truth.std())}


def card(kind: str, path: Path, meta: dict[str, object], figures: dict[str, float]) -> str:
    what = {"bid": "the value of each legal bid (the hand, the turned card, the seat's "
                   "place, the round size, the earlier bids and the candidate bid)",
            "play": "the value of each legal card (the state once it is played, the "
                    "seat's bid and tricks, the other seats' needs and shown voids)"}[kind]
    lines = [f"# Model card: {path.name}", "",
             f"Chinois's learned {kind} values (`engine/chinois/values.py`): {what}, as "
             "the seat's expected deal score and the mean of the others'.", "",
             "## Data", "", str(meta.get("data", "")), "",
             "## Features", "",
             f"`engine/chinois/features.py` ({kind} layout), digest "
             f"`{meta.get('features', '')}`, {meta.get('inputs', '')} inputs.", "",
             "## Network", "",
             f"Hidden layers {meta.get('hidden')}, ReLU; two linear outputs in tens of "
             "points: the seat's deal score and the others' mean.", "",
             "## Training", "", f"`{meta.get('command', '')}`", "",
             f"Time: {float(str(meta.get('train_seconds', 0))):.0f} s of wall time for the "
             "fit.", "", "## Figures on held-out deals", ""]
    lines += [f"- {k}: {v:.4f}" for k, v in figures.items()]
    lines += ["", "How `hard` uses it and what it gains as a player: docs/learned.md (Chinois) "
              "and docs/developers/computer-players.md (issue 54)."]
    return "\n".join(lines) + "\n"


def build(kind: str, rows: Rows, seed: int, hidden: Sequence[int], epochs: int, out: Path,
          command: str, described: str, log: bool = True) -> values.Values:
    """Fit the ``kind`` network, measure it on held-out deals, write it and its card."""
    start = time.perf_counter()
    train, held = split(rows, seed)
    if log:
        print(f"{kind}: fit on {len(train)} rows, held out {len(held)}", file=sys.stderr,
              flush=True)
    layers = fit(train, seed, hidden, epochs, log)
    meta: dict[str, object] = {"kind": kind, "scale": SCALE, "others_weight": 0.0,
                               "hidden": list(hidden), "seed": seed, "command": command,
                               "data": described,
                               "train_seconds": round(time.perf_counter() - start, 1)}
    path = out / values.file_name(kind)
    network = values.from_bytes(values.to_bytes(layers, meta), str(path), kind)
    figures = measure(network, held)
    meta["figures"] = figures
    write_whole(path, values.to_bytes(layers, meta))
    made = values.from_bytes(path.read_bytes(), str(path), kind)
    write_whole(path.with_suffix(".md"), card(kind, path, made.meta, figures).encode())
    return made


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.train_chinois",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and the fits")
    p.add_argument("--deals", type=int, required=True, help="self-play deals")
    p.add_argument("--jobs", type=int, default=1, help="processes playing the deals")
    p.add_argument("--kinds", default="bid,play", help="networks fitted (bid, play)")
    p.add_argument("--hidden", default="128", help="hidden layer sizes, comma-separated")
    p.add_argument("--epochs", type=int, default=30, help="most passes over the data")
    p.add_argument("--out", type=Path, required=True, help="folder of the model files")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    command = "python -m tools.train_chinois " + " ".join(argv)
    log = not args.quiet
    start = time.perf_counter()
    data = generate(str(args.seed), args.deals, args.jobs, log)
    seconds = time.perf_counter() - start
    hidden = [int(h) for h in args.hidden.split(",") if h]
    for kind in [k for k in args.kinds.split(",") if k]:
        if kind not in values.KINDS:
            parser().error(f"unknown kind {kind!r} (known: {', '.join(values.KINDS)})")
        rows = data[kind]
        described = (f"{args.deals} self-play deals of `normal` with exploration (seed "
                     f"{args.seed}, played in {seconds:.0f} s wall with {args.jobs} job(s)), "
                     f"{len(rows)} {kind} decisions.")
        network = build(kind, rows, args.seed, hidden, args.epochs, args.out, command,
                        described, log)
        print(f"{kind}: {network.meta['figures']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
