"""Computer players for Tichu. Each sees only its own seat's view."""

from engine.tichu.ai.base import Player, decide, pending_seats
from engine.tichu.ai.easy import EasyPlayer

__all__ = ["EasyPlayer", "Player", "decide", "pending_seats"]
