"""The computer levels by name."""

from __future__ import annotations

from engine.tichu.ai.base import Player
from engine.tichu.ai.easy import EasyPlayer
from engine.tichu.ai.normal import NormalPlayer

LEVELS = ("easy", "normal", "hard")


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
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
