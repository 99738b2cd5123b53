"""Small neural networks in numpy alone, and their model files, checked.

The learned players of every game (Tichu's evaluator, Chinois's and Tysiacha's
values) are multilayer perceptrons: ReLU hidden layers, linear outputs. This
module is what they share: the forward pass (:class:`Network`, deterministic: the
same rows give the same numbers), and the model file, a NumPy ``.npz`` archive
without pickles holding the matrices ``w0, b0, w1, b1, ...`` and ``meta``, a JSON
text that names the file's format, the digest of the feature layout it was built
for, its input width and a SHA-256 of the weights.

:func:`to_bytes` writes such a file; :func:`unpack`, :func:`check_features` and
:func:`checked_layers` read one back and raise :class:`ModelError`, one sentence
naming the file, for anything missing, truncated, corrupt or built for other
features. A :class:`Shelf` is where one game keeps its model files: each read once
(a missing file is a :class:`ModelError` too) and checked, from the game's own folder or
from the one folder a program chose for every game (:func:`use_directory`, the bot's
``MODEL_DIR``): the players never play on silently without their model.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]
K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class ModelError(Exception):
    """The model file cannot be used (the message is one sentence naming it)."""


def weights_digest(layers: Layers) -> str:
    """SHA-256 of the weights, in order, as little-endian float32."""
    h = hashlib.sha256()
    for w, b in layers:
        h.update(np.ascontiguousarray(w, dtype="<f4").tobytes())
        h.update(np.ascontiguousarray(b, dtype="<f4").tobytes())
    return h.hexdigest()


class Network:
    """A loaded multilayer perceptron; ``members`` > 1 when it is an ensemble of that
    many networks averaged as one (its hidden layers block-diagonal after the first)."""

    def __init__(self, layers: Layers, members: int = 1) -> None:
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                       for w, b in layers]
        self.blocks = self._blocks(members)
        """Per hidden layer after the first, its diagonal blocks stacked (members, in, out)
        when the network is an ensemble, else None: the layer is multiplied block by block."""

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


def to_bytes(layers: Layers, meta: dict[str, Any], *, format: str, features: str,
             inputs: int) -> bytes:
    """The model file's bytes: ``meta`` gets the format, the feature layout's digest, the
    input width and the weights' digest."""
    full = dict(meta, format=format, features=features, inputs=inputs,
                digest=weights_digest(layers))
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(full, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype="<f4")
        arrays[f"b{i}"] = np.asarray(b, dtype="<f4")
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def read_file(path: Path) -> bytes:
    """The bytes of the model file at ``path``, or a :class:`ModelError` naming it."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ModelError(f"The model file {path} cannot be read ({exc.strerror or exc}).") \
            from None


def unpack(data: bytes, name: str, format: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and the description of a model file's ``data`` in ``format``."""
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
    if not isinstance(meta, dict) or meta.get("format") != format:
        raise ModelError(f"The model file {name} is not a {format} model.")
    return arrays, meta


def check_features(meta: dict[str, Any], name: str, features: str, inputs: int) -> None:
    """Refuse a file built for another feature layout than ``features`` (its digest)."""
    if meta.get("features") != features or meta.get("inputs") != inputs:
        raise ModelError(f"The model file {name} was built for other features "
                         f"({meta.get('features')}, not {features}).")


def checked_layers(arrays: dict[str, np.ndarray], meta: dict[str, Any], name: str,
                   inputs: int, outputs: int) -> Layers:
    """The layers of a model file, which must read ``inputs`` numbers and give at least
    ``outputs``, match the file's checksum and hold only finite numbers."""
    layers: Layers = []
    i = 0
    while f"w{i}" in arrays:
        if f"b{i}" not in arrays:
            raise ModelError(f"The model file {name} lacks the biases of layer {i}.")
        layers.append((arrays[f"w{i}"], arrays[f"b{i}"]))
        i += 1
    if not layers:
        raise ModelError(f"The model file {name} holds no layers.")
    width = inputs
    for w, b in layers:
        if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0] or \
                w.dtype != np.float32:
            raise ModelError(f"The model file {name} has layers of the wrong shape.")
        width = w.shape[1]
    if width < outputs:
        raise ModelError(f"The model file {name} has too few outputs.")
    if meta.get("digest") != weights_digest(layers):
        raise ModelError(f"The model file {name} does not match its own checksum.")
    if not all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in layers):
        raise ModelError(f"The model file {name} holds numbers that are not finite.")
    return layers


def members_of(meta: dict[str, Any], name: str) -> int:
    """How many networks the file averages as one (1 unless it says more)."""
    members = meta.get("members", 1)
    if not isinstance(members, int) or isinstance(members, bool) or members < 1:
        raise ModelError(f"The model file {name} names no count of members.")
    return members


_chosen: Path | None = None
"""The folder every game reads its model files from, when a program chose one."""
_shelves: list[Shelf[Any, Any]] = []


class Shelf(Generic[K, T]):
    """Where one game's model files are: ``file_name(key)`` in its ``shipped`` folder (or
    the folder chosen for every game), each read once by ``load(key, data, name)``,
    which checks it and raises :class:`ModelError` naming the file."""

    def __init__(self, shipped: Path, file_name: Callable[[K], str],
                 load: Callable[[K, bytes, str], T]) -> None:
        self.shipped = shipped
        self.directory = _chosen or shipped
        self._file_name = file_name
        self._load = load
        self._read: dict[K, T] = {}
        _shelves.append(self)

    def use_directory(self, directory: Path | str) -> None:
        """Read this game's files from ``directory`` from now on (forgets those read)."""
        self.directory = Path(directory)
        self._read.clear()

    def path_of(self, key: K) -> Path:
        return self.directory / self._file_name(key)

    def get(self, key: K) -> T:
        """The checked model of ``key`` (read at its first use)."""
        found = self._read.get(key)
        if found is None:
            path = self.path_of(key)
            found = self._read[key] = self._load(key, read_file(path), str(path))
        return found


def use_directory(directory: Path | str | None) -> None:
    """Every game reads its model files from ``directory`` from now on (None: each from
    its own shipped folder again)."""
    global _chosen
    _chosen = None if directory is None else Path(directory)
    for shelf in _shelves:
        shelf.use_directory(_chosen or shelf.shipped)


def chosen_directory() -> Path | None:
    """The folder chosen by :func:`use_directory`, or None (each game's own)."""
    return _chosen
