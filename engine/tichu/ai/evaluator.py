"""The learned evaluator: what a seat's information state is worth, in numpy alone.

A small multilayer perceptron (ReLU hidden layers, linear outputs) maps the
vector of :mod:`~engine.tichu.ai.features` to the deal's expected outcome for
the seat's team: the score difference (ours minus theirs, in points) and, for
every seat counted from the viewing one, the chance that it goes out first.

The model file is a NumPy ``.npz`` archive (no pickles): the weight matrices
``w0, b0, w1, b1, ...`` and ``meta``, a JSON text naming the format, the seat
count, the feature layout's digest, the outputs, the scale of the score output
and a SHA-256 of the weights. :func:`from_bytes` checks all of it and raises
:class:`ModelError`, one sentence naming the file, for anything missing,
truncated, corrupt or built for other features. Inference is deterministic:
the same vector gives the same numbers.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.tichu.ai import features

FORMAT = "tichu-evaluator/1"


class ModelError(Exception):
    """The model file cannot be used (the message is one sentence naming it)."""


@dataclass(frozen=True)
class Prediction:
    """The evaluator's answer for one or more states (one row each)."""

    diff: np.ndarray
    """Expected deal score of the seat's team minus the other's, in points."""
    first: np.ndarray
    """Per row, per seat counted from the viewing seat: the chance it goes out first."""


def weights_digest(layers: list[tuple[np.ndarray, np.ndarray]]) -> str:
    """SHA-256 of the weights, in order, as little-endian float32."""
    h = hashlib.sha256()
    for w, b in layers:
        h.update(np.ascontiguousarray(w, dtype="<f4").tobytes())
        h.update(np.ascontiguousarray(b, dtype="<f4").tobytes())
    return h.hexdigest()


class Evaluator:
    """A loaded, checked model for tables of ``n_seats``."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any],
                 name: str = "the model") -> None:
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                       for w, b in layers]
        self.meta = meta
        self.name = name
        self.n_seats = int(meta["n_seats"])
        self.diff_scale = float(meta["diff_scale"])
        self.first_weight = float(meta.get("first_weight", 1.0))
        self.blocks = self._blocks(int(meta.get("members", 1)))
        """Per hidden layer after the first, its diagonal blocks stacked (members, in, out)
        when the network is an ensemble of ``members`` networks averaged as one (its hidden
        layers block-diagonal), else None: the layer is multiplied block by block."""

    def _blocks(self, members: int) -> list[np.ndarray | None]:
        found: list[np.ndarray | None] = [None] * len(self.layers)
        if members < 2:
            return found
        for i in range(1, len(self.layers) - 1):
            w = self.layers[i][0]
            rows, cols = w.shape[0] // members, w.shape[1] // members
            if rows * members != w.shape[0] or cols * members != w.shape[1]:
                continue
            stacked = np.stack([w[k * rows:(k + 1) * rows, k * cols:(k + 1) * cols]
                                for k in range(members)])
            dense = np.zeros_like(w)
            for k in range(members):
                dense[k * rows:(k + 1) * rows, k * cols:(k + 1) * cols] = stacked[k]
            if np.array_equal(dense, w):
                found[i] = stacked
        return found

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The network's outputs for the rows of ``x`` (scaled as trained)."""
        h = np.asarray(x, dtype=np.float32)
        if h.ndim == 1:
            h = h[None, :]
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            blocks = self.blocks[i]
            if blocks is None:
                h = h @ w + b
            else:
                members, rows, _ = blocks.shape
                parts = np.matmul(h.reshape(len(h), members, rows).transpose(1, 0, 2), blocks)
                h = parts.transpose(1, 0, 2).reshape(len(h), -1) + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

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
    full = dict(meta, format=FORMAT, features=features.layout_digest(n_seats),
                inputs=features.width(n_seats), digest=weights_digest(layers))
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(full, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype="<f4")
        arrays[f"b{i}"] = np.asarray(b, dtype="<f4")
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def from_bytes(data: bytes, name: str) -> Evaluator:
    """The evaluator in a model file's ``data``, checked; ``name`` names the file in
    the :class:`ModelError` raised for anything wrong with it."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise ModelError(f"The model file {name} is truncated or corrupt ({exc}).") from None
    if "meta" not in arrays:
        raise ModelError(f"The model file {name} has no description (meta): it is not a model.")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError:
        raise ModelError(f"The model file {name} has an unreadable description.") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelError(f"The model file {name} is not a {FORMAT} model.")
    n_seats = meta.get("n_seats")
    if n_seats not in (4, 6):
        raise ModelError(f"The model file {name} names no table size (4 or 6 seats).")
    if meta.get("features") != features.layout_digest(n_seats) or \
            meta.get("inputs") != features.width(n_seats):
        raise ModelError(f"The model file {name} was built for other features "
                         f"({meta.get('features')}, not {features.layout_digest(n_seats)}).")
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    i = 0
    while f"w{i}" in arrays:
        if f"b{i}" not in arrays:
            raise ModelError(f"The model file {name} lacks the biases of layer {i}.")
        layers.append((arrays[f"w{i}"], arrays[f"b{i}"]))
        i += 1
    if not layers:
        raise ModelError(f"The model file {name} holds no layers.")
    width = features.width(n_seats)
    for w, b in layers:
        if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0] or \
                w.dtype != np.float32:
            raise ModelError(f"The model file {name} has layers of the wrong shape.")
        width = w.shape[1]
    if width < 1 + n_seats:
        raise ModelError(f"The model file {name} has too few outputs.")
    if meta.get("digest") != weights_digest(layers):
        raise ModelError(f"The model file {name} does not match its own checksum.")
    if not all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in layers):
        raise ModelError(f"The model file {name} holds numbers that are not finite.")
    try:
        float(meta["diff_scale"])
    except (KeyError, TypeError, ValueError):
        raise ModelError(f"The model file {name} has no score scale.") from None
    members = meta.get("members", 1)
    if not isinstance(members, int) or isinstance(members, bool) or members < 1:
        raise ModelError(f"The model file {name} names no count of members.")
    return Evaluator(layers, meta, name)
