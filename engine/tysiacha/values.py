"""The learned values of Tysiacha: what a soloist's cards, its gifts and a deal in play are
worth, read once and checked.

Three small networks (:class:`engine.mlp.Network`, each file in ``engine/tysiacha/models``
with its card beside it as ``.md``, built by ``python -m tools.train_tysiacha``) give the
same outputs: the chance that the soloist's card points and marriages reach each of
:data:`~engine.tysiacha.features.THRESHOLDS`, and each defender's expected points.

- ``values`` (``tysiacha.npz``) reads a soloist's ten cards after the prikup
  (:func:`engine.tysiacha.features.encode`); ``hard`` bids from it when told to
  (``learned_bids``).
- ``gifts`` (``tysiacha-gifts.npz``) reads the eight cards kept and the two given
  (:func:`~engine.tysiacha.features.encode_gifts`); ``hard`` chooses its gifts from it
  when told to (``learned_gifts``).
- ``play`` (``tysiacha-play.npz``) reads a deal in play between two tricks, every hand
  seen (:func:`~engine.tysiacha.features.encode_play`), as ``hard`` players go on to
  play it; ``hard`` values its cards from it (``learned_play``).

These are the engine's reads of a file for Tysiacha, at first use (or at start, by
:func:`check`); a program may point them at another folder first
(:func:`use_directory`). A missing, truncated or corrupt file, or one built for other
features, raises :class:`~engine.mlp.ModelError`, one sentence naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

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
PLAY_FORMAT = "tysiacha-play-values-1"
PLAY_FILE_NAME = "tysiacha-play.npz"
"""The play values: the same outputs, read from a deal in play between two tricks with
every hand seen (:func:`engine.tysiacha.features.encode_play`), as ``hard`` players go on
to play it; ``hard`` values its cards from them (``learned_play``)."""

Kind = Literal["values", "gifts", "play"]
KINDS: tuple[Kind, ...] = ("values", "gifts", "play")
"""The three models: a soloist's ten cards, its gifts, a deal in play."""
FILES: dict[Kind, tuple[str, str, str, int]] = {
    "values": (FILE_NAME, FORMAT, features.DIGEST, features.INPUTS),
    "gifts": (GIFT_FILE_NAME, GIFT_FORMAT, features.GIFT_DIGEST, features.GIFT_INPUTS),
    "play": (PLAY_FILE_NAME, PLAY_FORMAT, features.PLAY_DIGEST, features.PLAY_INPUTS),
}
"""Each kind's file, format, feature layout digest and inputs."""


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

    def play_outlooks(self, rows: np.ndarray) -> list[Outlook]:
        """With the play model: one :class:`Outlook` per row of
        :func:`engine.tysiacha.features.encode_play` (a deal between two tricks)."""
        if not len(rows):
            return []
        return self._outlooks(rows)

    def _outlooks(self, x: np.ndarray) -> list[Outlook]:
        raw = self.network.raw(x)
        n = len(THRESHOLDS)
        # The chances as trained (squared error on 0/1) may stray a little outside
        # 0..1 or rise with the threshold: clipped, then made non-increasing.
        reach = np.minimum.accumulate(np.clip(raw[:, :n], 0.0, 1.0), axis=1)
        defenders = np.maximum(raw[:, n:n + 2], 0.0) * DEFENDER_SCALE
        return [Outlook(reach[i], (float(defenders[i, 0]), float(defenders[i, 1])))
                for i in range(len(raw))]


def from_bytes(data: bytes, name: str, kind: Kind = "values") -> Values:
    """The values of a model file's ``data`` of ``kind`` (``name`` is the file, for the
    messages)."""
    _, fmt, digest, inputs = FILES[kind]
    arrays, meta = unpack(data, name, fmt)
    check_features(meta, name, digest, inputs)
    layers = checked_layers(arrays, meta, name, inputs, features.OUTPUTS)
    return Values(Network(layers, members_of(meta, name)), meta)


def file_name(kind: Kind) -> str:
    """The model file of ``kind``."""
    return FILES[kind][0]


_shelf: Shelf[Kind, Values] = Shelf(SHIPPED, file_name, lambda kind, data, name:
                                    from_bytes(data, name, kind))
use_directory = _shelf.use_directory
"""Read the models from this folder from now on (forgets those read)."""


def path(kind: Kind = "values") -> Path:
    return _shelf.path_of(kind)


def values() -> Values:
    """The checked model of ten cards (read once)."""
    return _shelf.get("values")


def gift_values() -> Values:
    """The checked gift model (read once)."""
    return _shelf.get("gifts")


def play_values() -> Values:
    """The checked play model (read once)."""
    return _shelf.get("play")


def check() -> None:
    """Read and check the three models now (at start): ``hard`` may be told to use any of
    them (the measures do). Raises ModelError for the first bad one."""
    for kind in KINDS:
        _shelf.get(kind)


__all__ = ["FILES", "FILE_NAME", "FORMAT", "GIFT_FILE_NAME", "GIFT_FORMAT", "KINDS",
           "PLAY_FILE_NAME", "PLAY_FORMAT", "SHIPPED", "Kind", "ModelError", "Outlook",
           "Values", "check", "file_name", "from_bytes", "gift_values", "path", "play_values",
           "use_directory", "values"]
