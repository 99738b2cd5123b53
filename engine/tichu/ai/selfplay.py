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
from engine.tichu.combos import Combo, beats
from engine.tichu.game import TichuGame
from engine.tichu.legal import bombs_in, may_hold_bomb
from engine.tichu.view import Phase

Observer = Callable[[TichuGame, int, Action, float], None]
"""Called after each applied action: (game, seat, action, seconds the decision took)."""


def _out_of_turn(game: TichuGame, players: Sequence[Player], rng: random.Random,
                 observe: Observer | None, bombs: list[tuple[int, list[Combo]] | None]) -> bool:
    """Ask each other seat that holds a bomb beating the trick whether it plays it;
    apply the first bomb. (Like the bot, the table offers the choice only to seats
    that have one; the player itself still sees only its view.)

    ``bombs[seat]`` remembers the bombs of a seat's hand and the hand's size: once
    play has started hands only shrink, so the list holds until the size changes.
    """
    turn = game.turn
    assert turn is not None
    top = game.top
    n = game.n_seats
    for step in range(1, n):
        seat = (turn + step) % n
        hand = game.hands[seat]
        known = bombs[seat]
        if known is None or known[0] != len(hand):
            known = bombs[seat] = (len(hand), bombs_in(hand) if may_hold_bomb(hand) else [])
        if not known[1] or not any(beats(b, top) for b in known[1]):
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
    bombs: list[tuple[int, list[Combo]] | None] = [None] * game.n_seats
    over = (Phase.DEAL_OVER, Phase.GAME_OVER)
    while game.phase not in over:
        if game.phase is Phase.PLAY and game.trick and \
                _out_of_turn(game, players, rng, observe, bombs):
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
