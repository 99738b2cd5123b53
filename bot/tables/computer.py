"""Computer players' decisions as a plain function, so they can run in a worker process."""

from __future__ import annotations

import random
from functools import cache

from engine.tichu.actions import Action
from engine.tichu.ai import Player, make_player
from engine.tichu.view import TichuView


@cache
def player(level: str) -> Player:
    """One player object per level and process (players keep only caches)."""
    return make_player(level)


def computer_move(level: str, view: TichuView, seed: str) -> Action | None:
    """What a computer player of ``level`` does from ``view`` (deterministic for a seed)."""
    return player(level).act(view, random.Random(seed))
