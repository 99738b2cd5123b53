"""The computer levels by name."""

from __future__ import annotations

from engine.tichu.ai.base import Player
from engine.tichu.ai.easy import EasyPlayer
from engine.tichu.ai.normal import NormalPlayer

LEVELS = ("easy", "normal", "hard")
"""The levels a table offers."""
MEASURED = (*LEVELS, "search")
"""Also playable by the arenas: ``search``, the determinized Monte Carlo search that
was ``hard`` before the learned evaluator (:class:`~engine.tichu.ai.searcher.SearchPlayer`)."""


def make_player(level: str) -> Player:
    """A fresh player of ``level`` ("easy", "normal" or "hard").

    One player object may serve several seats; it keeps a separate memory per seat.
    """
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        from engine.tichu.ai.hard import HardPlayer

        return HardPlayer()
    if level == "search":
        from engine.tichu.ai.searcher import SearchPlayer

        return SearchPlayer()
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
