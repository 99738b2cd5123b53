"""Play Tysiacha games between computer players, with no Discord: for tests and the arena."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.tysiacha.actions import Action
from engine.tysiacha.ai import Player, pending_seats
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.scoring import Rounding
from engine.tysiacha.view import Phase

Observer = Callable[[TysiachaGame, int, Action, float], None]
"""Told each action applied: the game after it, the seat, the action and the seconds
the seat took to decide it (wall time)."""


def play_deal(game: TysiachaGame, players: Sequence[Player], rng: random.Random,
              observe: Observer | None = None) -> None:
    """Play the current deal to its end, each seat asked from its own view only."""
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        for seat in pending_seats(game.view(None)):
            began = time.perf_counter()
            action = players[seat].act(game.view(seat), rng)
            if action is not None:
                seconds = time.perf_counter() - began
                game.apply(action)
                if observe is not None:
                    observe(game, seat, action, seconds)
                break
        else:
            raise RuntimeError("no computer player would act")


def play_game(players: Sequence[Player], *, seed: int | str, n_players: int = 3,
              rounding: Rounding = Rounding.TEN, max_deals: int | None = None) -> TysiachaGame:
    """Play a game to 1000 (or ``max_deals`` deals) from ``seed``."""
    rng = random.Random(f"players:{seed}")
    game = TysiachaGame(players=n_players, rounding=rounding, seed=seed)
    deals = 0
    while True:
        play_deal(game, players, rng)
        deals += 1
        if game.phase is Phase.GAME_OVER or (max_deals is not None and deals >= max_deals):
            return game
        game.next_deal()
