"""Computer players for Tichu. Each sees only its own seat's view.

Levels: ``easy`` (random legal play), ``normal`` (heuristics) and ``hard`` (the
heuristics' candidates, chosen by a learned evaluator: :mod:`~engine.tichu.ai.hard`).
``search`` (heuristics plus a determinized Monte Carlo search, ``hard`` before the
evaluator) is kept for the arenas. Build one with :func:`make_player`.
"""

from engine.tichu.ai.base import Player, pending_seats
from engine.tichu.ai.easy import EasyPlayer
from engine.tichu.ai.levels import LEVELS, make_player
from engine.tichu.ai.normal import NormalPlayer

__all__ = ["LEVELS", "EasyPlayer", "NormalPlayer", "Player", "make_player",
           "pending_seats"]
