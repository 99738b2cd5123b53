"""Computer players' decisions as a plain function, so they can run in a worker process."""

from __future__ import annotations

import importlib
import random
from functools import cache
from typing import Any


@cache
def player(game: str, level: str) -> Any:
    """One player object per game, level and process (players keep only caches)."""
    module = importlib.import_module(f"engine.{game}.ai")
    return module.make_player(level)


def computer_move(game: str, level: str, view: Any, seed: str) -> Any:
    """What a computer player of ``game`` at ``level`` does from ``view`` (None: nothing).

    Deterministic for a seed, so a table replays the same way after a restart.
    """
    return player(game, level).act(view, random.Random(seed))
