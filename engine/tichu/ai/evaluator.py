"""The learned evaluator: what a seat's information state is worth, in numpy alone.

A small multilayer perceptron (ReLU hidden layers, linear outputs) maps the
vector of :mod:`~engine.tichu.ai.features` to the deal's expected outcome for
the seat's team: the score difference (ours minus theirs, in points) and, for
every seat counted from the viewing one, the chance that it goes out first.

The model file is a NumPy ``.npz`` archive (no pickles): the weight matrices
``w0, b0, w1, b1, ...`` and ``meta``, a JSON text naming the format, the seat
count, the feature layout's digest, the outputs, the scale of the score output
and a SHA-256 of the weights (the file of :mod:`engine.mlp`, shared by every learned
player). :func:`from_bytes` checks all of it and raises
:class:`ModelError`, one sentence naming the file, for anything missing,
truncated, corrupt or built for other features. Inference is deterministic:
the same vector gives the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine import mlp
from engine.mlp import ModelError, Network, weights_digest
from engine.tichu.ai import features

FORMAT = "tichu-evaluator/1"


@dataclass(frozen=True)
class Prediction:
    """The evaluator's answer for one or more states (one row each)."""

    diff: np.ndarray
    """Expected deal score of the seat's team minus the other's, in points."""
    first: np.ndarray
    """Per row, per seat counted from the viewing seat: the chance it goes out first."""


class Evaluator(Network):
    """A loaded, checked model for tables of ``n_seats``."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any],
                 name: str = "the model") -> None:
        super().__init__(layers, int(meta.get("members", 1)))
        self.meta = meta
        self.name = name
        self.n_seats = int(meta["n_seats"])
        self.diff_scale = float(meta["diff_scale"])
        self.first_weight = float(meta.get("first_weight", 1.0))

    def predict(self, x: np.ndarray) -> Prediction:
        out = self.raw(x)
        diff = out[:, 0] * self.diff_scale
        first = np.clip(out[:, 1:1 + self.n_seats] / self.first_weight, 0.0, 1.0)
        total = first.sum(axis=1, keepdims=True)
        first = np.where(total > 0, first / np.maximum(total, 1e-9), 1.0 / self.n_seats)
        return Prediction(diff.astype(np.float64), first.astype(np.float64))

    def values(self, x: np.ndarray) -> np.ndarray:
        """Only the expected score differences, in points (the player's measure)."""
        out = self.raw(x)
        return (out[:, 0] * self.diff_scale).astype(np.float64)


def to_bytes(layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> bytes:
    """The model file's bytes (``meta`` gets the format, the layout and the digest)."""
    n_seats = int(meta["n_seats"])
    return mlp.to_bytes(layers, meta, format=FORMAT, features=features.layout_digest(n_seats),
                        inputs=features.width(n_seats))


def from_bytes(data: bytes, name: str) -> Evaluator:
    """The evaluator in a model file's ``data``, checked; ``name`` names the file in
    the :class:`ModelError` raised for anything wrong with it."""
    arrays, meta = mlp.unpack(data, name, FORMAT)
    n_seats = meta.get("n_seats")
    if n_seats not in (4, 6):
        raise ModelError(f"The model file {name} names no table size (4 or 6 seats).")
    mlp.check_features(meta, name, features.layout_digest(n_seats), features.width(n_seats))
    layers = mlp.checked_layers(arrays, meta, name, features.width(n_seats), 1 + n_seats)
    try:
        float(meta["diff_scale"])
    except (KeyError, TypeError, ValueError):
        raise ModelError(f"The model file {name} has no score scale.") from None
    mlp.members_of(meta, name)
    return Evaluator(layers, meta, name)


__all__ = ["FORMAT", "Evaluator", "ModelError", "Prediction", "from_bytes", "to_bytes",
           "weights_digest"]
