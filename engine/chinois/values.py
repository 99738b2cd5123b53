"""The learned values of Chinois's ``hard`` player: the model files, read once and checked.

Two small networks (:class:`engine.mlp.Network`), each in its model file of
:mod:`engine.mlp`'s format in ``engine/chinois/models/`` with its model card (``.md``):

* ``chinois-bid.npz`` reads a row of :func:`engine.chinois.features.bid_rows` (the
  hand, the turned card, the seat's place, the round size, the earlier bids, one
  candidate bid) and gives the deal's expected score of that bid for the seat and the
  mean of the other seats' scores;
* ``chinois-play.npz`` reads a row of :func:`engine.chinois.features.play_rows` (the
  state once a card is played) and gives the same two numbers.

The outputs are trained in tens of points (``meta["scale"]``). This is the engine's one
read of a file, at first use (or at start, by :func:`check`); a program may point it at
another folder first (:func:`use_directory`), as the bot's ``MODEL_DIR`` does. A
missing, truncated or corrupt file, or one built for other features, raises
:class:`~engine.mlp.ModelError`, one sentence naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from engine import mlp
from engine.chinois import features
from engine.mlp import Layers, ModelError, Network, Shelf

FORMAT = "chinois-values/1"
KINDS = ("bid", "play")
OUTPUTS = 2
"""The seat's deal score, the mean of the other seats' (in units of ``scale`` points)."""
SHIPPED = Path(__file__).parent / "models"


class Values(Network):
    """A loaded, checked value network of one kind (``bid`` or ``play``)."""

    def __init__(self, layers: Layers, meta: dict[str, Any], name: str = "the model") -> None:
        super().__init__(layers, mlp.members_of(meta, name))
        self.meta = meta
        self.name = name
        self.kind = str(meta["kind"])
        self.scale = float(meta["scale"])
        self.others_weight = float(meta.get("others_weight", 0.0))

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Per row: the seat's expected deal score and the others' mean, in points."""
        return (self.raw(x)[:, :OUTPUTS] * self.scale).astype(np.float64)

    def values(self, x: np.ndarray) -> np.ndarray:
        """Per row, what the player maximises: its own expected score less
        ``others_weight`` times the others' mean."""
        s = self.scores(x)
        return s[:, 0] - self.others_weight * s[:, 1]


def to_bytes(layers: Layers, meta: dict[str, Any]) -> bytes:
    """The model file's bytes (``meta`` names its ``kind``; it gets the format, the
    layout's digest and the weights' digest)."""
    kind = str(meta["kind"])
    return mlp.to_bytes(layers, meta, format=FORMAT, features=features.layout_digest(kind),
                        inputs=features.width(kind))


def from_bytes(data: bytes, name: str, kind: str) -> Values:
    """The ``kind`` network in a model file's ``data``, checked."""
    arrays, meta = mlp.unpack(data, name, FORMAT)
    if meta.get("kind") != kind:
        raise ModelError(f"The model file {name} is not the {kind} values of Chinois.")
    mlp.check_features(meta, name, features.layout_digest(kind), features.width(kind))
    layers = mlp.checked_layers(arrays, meta, name, features.width(kind), OUTPUTS)
    try:
        float(meta["scale"])
        float(meta.get("others_weight", 0.0))
    except (KeyError, TypeError, ValueError):
        raise ModelError(f"The model file {name} has no score scale.") from None
    return Values(layers, meta, name)


def file_name(kind: str) -> str:
    return f"chinois-{kind}.npz"


_shelf = Shelf(SHIPPED, file_name, lambda kind, data, name: from_bytes(data, name, kind))
use_directory = _shelf.use_directory
path_of = _shelf.path_of


def network(kind: str) -> Values:
    """The checked ``kind`` network (read once)."""
    if kind not in KINDS:
        raise ValueError(f"no Chinois values of kind {kind!r}")
    return _shelf.get(kind)


USED = ("bid",)
"""The networks ``hard`` plays with (read at start by :func:`check`): the play network is
kept for the arenas (``HardPlayer(learned_play=True)``), not used by ``hard``."""


def check() -> None:
    """Read and check every model ``hard`` uses now: raises ModelError for the first bad one."""
    for kind in USED:
        network(kind)


__all__ = ["FORMAT", "KINDS", "ModelError", "Values", "check", "from_bytes", "network",
           "path_of", "to_bytes", "use_directory"]
