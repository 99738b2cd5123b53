"""Play games between computer players, with no Discord: for tests, benchmarks, the arena.

As at the bot's table, every seat is asked for its action from its own view
only, and while a trick is open the seats other than the one on turn are asked
first whether they want to bomb out of turn (a player answers None to wait).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.tichu.actions import Action
from engine.tichu.ai.base import Player
from engine.tichu.game import TichuGame
from engine.tichu.legal import analyse_hand, may_hold_bomb
from engine.tichu.view import Phase

Observer = Callable[[TichuGame, int, Action, float], None]
"""Called after each applied action: (game, seat, action, seconds the decision took)."""


def _out_of_turn(game: TichuGame, players: Sequence[Player], rng: random.Random,
                 observe: Observer | None, bombless: list[bool]) -> bool:
    """Ask each other seat that holds a bomb beating the trick whether it plays it;
    apply the first bomb. (Like the bot, the table offers the choice only to seats
    that have one; the player itself still sees only its view.)

    ``bombless[seat]`` marks seats found with no bomb at all in this deal's play:
    hands only shrink once play starts, so they are not asked again.
    """
    turn = game.turn
    assert turn is not None
    top = game.top
    n = game.n_seats
    for step in range(1, n):
        seat = (turn + step) % n
        if bombless[seat]:
            continue
        hand = game.hands[seat]
        if not hand or not may_hold_bomb(hand):
            bombless[seat] = True
            continue
        if not analyse_hand(hand, top, on_turn=False)[0]:
            continue
        clock = time_now()
        action = players[seat].act(game.view(seat), rng)
        spent = time_now() - clock
        if action is not None:
            game.apply(action)
            if observe is not None:
                observe(game, seat, action, spent)
            return True
    return False


def _pending(game: TichuGame) -> tuple[int, ...] | list[int]:
    """:func:`pending_seats` of the public view, read from the game itself."""
    phase = game.phase
    if phase is Phase.PLAY or phase is Phase.GIFT:
        return () if game.turn is None else (game.turn,)
    if phase is Phase.GRAND:
        return [s for s, done in enumerate(game.grand_decided) if not done]
    if phase is Phase.EXCHANGE:
        return [s for s, g in enumerate(game.gives) if g is None]
    return ()


def time_now() -> float:
    """The clock used to time decisions."""
    return time.perf_counter()


def play_deal(game: TichuGame, players: Sequence[Player], rng: random.Random,
              observe: Observer | None = None) -> None:
    """Play the current deal to its end, each seat asked from its own view only."""
    bombless = [False] * game.n_seats
    over = (Phase.DEAL_OVER, Phase.GAME_OVER)
    while game.phase not in over:
        if game.phase is Phase.PLAY and game.trick and \
                _out_of_turn(game, players, rng, observe, bombless):
            continue
        acted = False
        for seat in _pending(game):
            clock = time_now()
            action = players[seat].act(game.view(seat), rng)
            spent = time_now() - clock
            if action is not None:
                game.apply(action)
                if observe is not None:
                    observe(game, seat, action, spent)
                acted = True
                break
        if not acted:
            raise RuntimeError("no computer player would act")


def play_game(players: Sequence[Player], *, seed: int | str, target: int = 1000,
              max_deals: int | None = None, observe: Observer | None = None) -> TichuGame:
    """Play a whole game (or ``max_deals`` deals) from ``seed``: four players, or six
    when ``players`` holds six."""
    rng = random.Random(f"players:{seed}")
    game = TichuGame(seed=seed, target=target, players=len(players))
    deals = 0
    while True:
        play_deal(game, players, rng, observe)
        deals += 1
        if game.phase is Phase.GAME_OVER or (max_deals is not None and deals >= max_deals):
            return game
        game.next_deal()
