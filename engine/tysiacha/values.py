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
GIFT_FORMAT = "tysiacha-gift-values-1"
GIFT_FILE_NAME = "tysiacha-gifts.npz"
"""The gift values: the same outputs, read from the eight cards a soloist keeps and the
two it gives (:func:`engine.tysiacha.features.encode_gifts`); ``hard`` chooses its gifts
from them when told to (``learned_gifts``)."""


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
        return self._outlooks(features.encode_many(holdings))

    def gift_outlooks(self, gifts: Sequence[tuple[Iterable[Card], Card, Card]]) -> list[Outlook]:
        """With the gift model: one :class:`Outlook` per (the eight cards kept, the card
        given to the seat after the soloist, the card given to the other seat)."""
        if not gifts:
            return []
        return self._outlooks(np.stack([features.encode_gifts(kept, after, other)
                                        for kept, after, other in gifts]))

    def _outlooks(self, x: np.ndarray) -> list[Outlook]:
        raw = self.network.raw(x)
        n = len(THRESHOLDS)
        # The chances as trained (squared error on 0/1) may stray a little outside
        # 0..1 or rise with the threshold: clipped, then made non-increasing.
        reach = np.minimum.accumulate(np.clip(raw[:, :n], 0.0, 1.0), axis=1)
        defenders = np.maximum(raw[:, n:n + 2], 0.0) * DEFENDER_SCALE
        return [Outlook(reach[i], (float(defenders[i, 0]), float(defenders[i, 1])))
                for i in range(len(raw))]


def from_bytes(data: bytes, name: str, gifts: bool = False) -> Values:
    """The values of a model file's ``data`` (``name`` is the file, for the messages);
    with ``gifts``, of a gift model file."""
    fmt, digest, inputs = (GIFT_FORMAT, features.GIFT_DIGEST, features.GIFT_INPUTS) if gifts \
        else (FORMAT, features.DIGEST, features.INPUTS)
    arrays, meta = unpack(data, name, fmt)
    check_features(meta, name, digest, inputs)
    layers = checked_layers(arrays, meta, name, inputs, features.OUTPUTS)
    return Values(Network(layers, members_of(meta, name)), meta)


def file_name(gifts: bool) -> str:
    """The model file of the gift values (``gifts``) or of the ten cards' values."""
    return GIFT_FILE_NAME if gifts else FILE_NAME


_shelf: Shelf[bool, Values] = Shelf(SHIPPED, file_name,
                                   lambda gifts, data, name: from_bytes(data, name, gifts))
use_directory = _shelf.use_directory
"""Read both models from this folder from now on (forgets those read)."""


def path() -> Path:
    return _shelf.path_of(False)


def values() -> Values:
    """The checked model (read once)."""
    return _shelf.get(False)


def gift_values() -> Values:
    """The checked gift model (read once)."""
    return _shelf.get(True)


def check() -> None:
    """Read and check the model now (at start): raises ModelError if it cannot be used."""
    values()


__all__ = ["FILE_NAME", "FORMAT", "GIFT_FILE_NAME", "GIFT_FORMAT", "SHIPPED", "ModelError",
           "Outlook", "Values", "check", "file_name", "from_bytes", "gift_values", "path",
           "use_directory", "values"]
