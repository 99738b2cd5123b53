"""The shipped evaluator models: where they are, read once and checked.

The models are package data: ``engine/tichu/ai/models/tichu4.npz`` for four
seats and ``tichu6.npz`` for six, each with its model card (``.md``). This is the
engine's one read of a file, at first use (or at start, by :func:`check`); a
program may point it at another folder first (:func:`use_directory`; every game's at
once: :func:`engine.mlp.use_directory`, as the bot's ``MODEL_DIR`` setting does).

A missing, truncated or corrupt file, or one built for other features, raises
:class:`~engine.tichu.ai.evaluator.ModelError`: the players never play on
silently without their model.
"""

from __future__ import annotations

from pathlib import Path

from engine.mlp import ModelError, Shelf
from engine.tichu.ai.evaluator import Evaluator, from_bytes

SHIPPED = Path(__file__).parent / "models"
SEAT_COUNTS = (4, 6)


def file_name(n_seats: int) -> str:
    return f"tichu{n_seats}.npz"


def _load(n_seats: int, data: bytes, name: str) -> Evaluator:
    found = from_bytes(data, name)
    if found.n_seats != n_seats:
        raise ModelError(f"The model file {name} is for {found.n_seats} seats, not {n_seats}.")
    return found


_shelf = Shelf(SHIPPED, file_name, _load)
use_directory = _shelf.use_directory
path_of = _shelf.path_of


def directory() -> Path:
    return _shelf.directory


def evaluator(n_seats: int) -> Evaluator:
    """The checked model for tables of ``n_seats`` (read once)."""
    if n_seats not in SEAT_COUNTS:
        raise ValueError(f"no model for {n_seats} seats")
    return _shelf.get(n_seats)


def check() -> None:
    """Read and check every model now (at start): raises ModelError for the first bad one."""
    for n in SEAT_COUNTS:
        evaluator(n)


__all__ = ["SEAT_COUNTS", "SHIPPED", "ModelError", "check", "directory", "evaluator",
           "path_of", "use_directory"]
