"""The learned values of Tysiacha: what a soloist's ten cards are worth, read once and checked.

The model (``engine/tysiacha/models/tysiacha.npz``, its card beside it as ``.md``,
built by ``python -m tools.train_tysiacha``) is a small network
(:class:`engine.mlp.Network`) reading :func:`engine.tysiacha.features.encode` of a
soloist's ten cards after the prikup. It gives the chance that the soloist's card
points and marriages reach each of :data:`~engine.tysiacha.features.THRESHOLDS`
(gifts and play as the self-play made them), and each defender's expected points.
The ``hard`` player bids from it when told to (``learned_bids``,
:class:`engine.tysiacha.ai.HardPlayer`).

This is the engine's one read of a file for Tysiacha, at first use (or at start,
by :func:`check`); a program may point it at another folder first
(:func:`use_directory`). A missing, truncated or corrupt file, or one built for
other features, raises :class:`~engine.mlp.ModelError`, one sentence naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.cards import Card
from engine.mlp import (
    ModelError,
    Network,
    Shelf,
    check_features,
    checked_layers,
    members_of,
    unpack,
)
from engine.tysiacha import features
from engine.tysiacha.features import DEFENDER_SCALE, THRESHOLDS

FORMAT = "tysiacha-values-1"
SHIPPED = Path(__file__).parent / "models"
FILE_NAME = "tysiacha.npz"


@dataclass(frozen=True)
class Outlook:
    """What the network expects of one holding of ten cards."""

    reach: np.ndarray
    """The chance of reaching each threshold (non-increasing, within 0..1)."""
    defenders: tuple[float, float]
    """The points of the seat after the soloist, then of the other defender."""

    def chance(self, contract: int) -> float:
        """The chance that the soloist's total reaches ``contract``."""
        if contract <= THRESHOLDS[0]:
            return float(self.reach[0])
        if contract > THRESHOLDS[-1]:
            return 0.0
        i = (contract - THRESHOLDS[0]) // (THRESHOLDS[1] - THRESHOLDS[0])
        return float(self.reach[min(i, len(THRESHOLDS) - 1)])


class Values:
    """The checked network and what it says of holdings."""

    def __init__(self, network: Network, meta: dict[str, object]) -> None:
        self.network = network
        self.meta = meta

    def outlooks(self, holdings: Sequence[Iterable[Card]]) -> list[Outlook]:
        """One :class:`Outlook` per holding of ten cards (one pass of the network)."""
        if not holdings:
            return []
        raw = self.network.raw(features.encode_many(holdings))
        n = len(THRESHOLDS)
        # The chances as trained (squared error on 0/1) may stray a little outside
        # 0..1 or rise with the threshold: clipped, then made non-increasing.
        reach = np.minimum.accumulate(np.clip(raw[:, :n], 0.0, 1.0), axis=1)
        defenders = np.maximum(raw[:, n:n + 2], 0.0) * DEFENDER_SCALE
        return [Outlook(reach[i], (float(defenders[i, 0]), float(defenders[i, 1])))
                for i in range(len(raw))]


def from_bytes(data: bytes, name: str) -> Values:
    """The values of a model file's ``data`` (``name`` is the file, for the messages)."""
    arrays, meta = unpack(data, name, FORMAT)
    check_features(meta, name, features.DIGEST, features.INPUTS)
    layers = checked_layers(arrays, meta, name, features.INPUTS, features.OUTPUTS)
    return Values(Network(layers, members_of(meta, name)), meta)


_shelf: Shelf[None, Values] = Shelf(SHIPPED, lambda _: FILE_NAME,
                                   lambda _, data, name: from_bytes(data, name))
use_directory = _shelf.use_directory


def path() -> Path:
    return _shelf.path_of(None)


def values() -> Values:
    """The checked model (read once)."""
    return _shelf.get(None)


def check() -> None:
    """Read and check the model now (at start): raises ModelError if it cannot be used."""
    values()


__all__ = ["FILE_NAME", "FORMAT", "SHIPPED", "ModelError", "Outlook", "Values", "check",
           "from_bytes", "path", "use_directory", "values"]
