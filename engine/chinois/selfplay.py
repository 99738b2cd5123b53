"""Play Chinois games between computer players, with no Discord: for tests and the arena."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.chinois.actions import Action
from engine.chinois.ai import Player
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase

Observer = Callable[[ChinoisGame, int, Action, float], None]
"""Told each action applied: the game after it, the seat, the action and the seconds
the seat took to decide it (wall time)."""


def play_round(game: ChinoisGame, players: Sequence[Player], rng: random.Random,
               observe: Observer | None = None) -> None:
    """Play the current round to its end, each seat asked from its own view only."""
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        began = time.perf_counter()
        action = players[seat].act(game.view(seat), rng)
        if action is None:
            raise RuntimeError(f"the computer player of seat {seat} would not act")
        seconds = time.perf_counter() - began
        game.apply(action)
        if observe is not None:
            observe(game, seat, action, seconds)


def play_game(players: Sequence[Player], *, seed: int | str,
              max_rounds: int | None = None) -> ChinoisGame:
    """Play a whole game of 28 rounds (or its first ``max_rounds``) from ``seed``."""
    rng = random.Random(f"players:{seed}")
    game = ChinoisGame(seed=seed)
    rounds = 0
    while True:
        play_round(game, players, rng)
        rounds += 1
        if game.phase is Phase.GAME_OVER or (max_rounds is not None and rounds >= max_rounds):
            return game
        game.next_deal()
