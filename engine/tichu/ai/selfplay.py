"""Play games between computer players, with no Discord: for tests, benchmarks, the arena."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.tichu.ai.base import Player, pending_seats
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase


def play_deal(game: TichuGame, players: Sequence[Player], rng: random.Random) -> None:
    """Play the current deal to its end, each seat asked from its own view only."""
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        acted = False
        for seat in pending_seats(game.view(None)):
            action = players[seat].act(game.view(seat), rng)
            if action is not None:
                game.apply(action)
                acted = True
                break
        if not acted:
            raise RuntimeError("no computer player would act")


def play_game(players: Sequence[Player], *, seed: int | str, target: int = 1000,
              max_deals: int | None = None) -> TichuGame:
    """Play a whole game (or ``max_deals`` deals) from ``seed``."""
    rng = random.Random(f"players:{seed}")
    game = TichuGame(seed=seed, target=target)
    deals = 0
    while True:
        play_deal(game, players, rng)
        deals += 1
        if game.phase is Phase.GAME_OVER or (max_deals is not None and deals >= max_deals):
            return game
        game.next_deal()
