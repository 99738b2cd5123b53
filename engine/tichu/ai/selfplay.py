"""Play games between computer players, with no Discord: for tests, benchmarks, the arena.

As at the bot's table, every seat is asked for its action from its own view
only, and while a trick is open the seats other than the one on turn are asked
first whether they want to bomb out of turn (a player answers None to wait).
(The easy player, which reads no more than its hand, the trick's top and the
wish, is handed those in phase play rather than a whole view: see :func:`play_deal`.)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.cards import Card
from engine.tichu.actions import Action
from engine.tichu.ai.base import Player
from engine.tichu.ai.easy import EasyPlayer
from engine.tichu.combos import Combo, beats
from engine.tichu.game import TichuGame
from engine.tichu.legal import bombs_in, may_hold_bomb
from engine.tichu.view import Phase

Observer = Callable[[TichuGame, int, Action, float], None]
"""Called after each applied action: (game, seat, action, seconds the decision took)."""


_PLAY = Phase.PLAY
_GIFT = Phase.GIFT
_OVER = (Phase.DEAL_OVER, Phase.GAME_OVER)


_NONE_HELD: tuple[int, list[Combo]] = (0, [])
"""What :class:`_Bombs` knows of a seat that is never asked out of turn (read only)."""


class _Bombs:
    """The bombs of each seat's hand, for the out-of-turn question.

    Once play has started hands only shrink: a seat's bombs hold until its hand
    loses a card, and a hand without a bomb never gets one. So each hand is
    searched once, then again only while it still held a bomb; once no seat may
    hold one, nobody is asked out of turn for the rest of the deal.
    """

    __slots__ = ("by_seat", "open")

    def __init__(self, never: Sequence[bool]) -> None:
        self.by_seat: list[tuple[int, list[Combo]] | None] = [
            _NONE_HELD if waits else None for waits in never]
        """Per seat: (hand size, its bombs) when last searched, or None before.
        A seat whose player ``never`` bombs out of turn counts as holding none."""
        self.open = len(never) - sum(never)
        """Seats that may still hold a bomb (not searched, or holding one)."""

    def of(self, seat: int, hand: list[Card]) -> list[Combo]:
        known = self.by_seat[seat]
        if known is not None and (not known[1] or known[0] == len(hand)):
            return known[1]
        found = bombs_in(hand) if may_hold_bomb(hand) else []
        self.by_seat[seat] = (len(hand), found)
        if not found:
            self.open -= 1
        return found


def _as_easy(player: Player) -> EasyPlayer | None:
    """``player`` if it is an :class:`EasyPlayer` deciding as that class does (its
    ``act`` not replaced), else None. Such a player waits out of its turn in
    phase play, and on its turn reads only what :meth:`EasyPlayer.play_turn` is given."""
    if isinstance(player, EasyPlayer) and type(player).act is EasyPlayer.act and \
            "act" not in getattr(player, "__dict__", {}):
        return player
    return None


def _out_of_turn(game: TichuGame, players: Sequence[Player], rng: random.Random,
                 observe: Observer | None, bombs: _Bombs) -> bool:
    """Ask each other seat that holds a bomb beating the trick whether it plays it;
    apply the first bomb. (Like the bot, the table offers the choice only to seats
    that have one; the player itself still sees only its view.)"""
    if not bombs.open:
        return False
    turn = game.turn
    assert turn is not None
    top = game.trick[-1].combo
    hands = game.hands
    n = len(hands)
    for step in range(1, n):
        seat = (turn + step) % n
        held = bombs.of(seat, hands[seat])
        if held and any(beats(b, top) for b in held) and _ask(game, players, seat, rng, observe):
            return True
    return False


def _ask(game: TichuGame, players: Sequence[Player], seat: int, rng: random.Random,
         observe: Observer | None) -> bool:
    """Ask ``seat`` for its action from its view; apply it, if any."""
    if observe is None:
        action = players[seat].act(game.view(seat), rng)
        if action is None:
            return False
        game.apply(action)
        return True
    clock = time_now()
    action = players[seat].act(game.view(seat), rng)
    spent = time_now() - clock
    if action is None:
        return False
    game.apply(action)
    observe(game, seat, action, spent)
    return True


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
    """The clock used to time decisions (only when an observer is given)."""
    return time.perf_counter()


def play_deal(game: TichuGame, players: Sequence[Player], rng: random.Random,
              observe: Observer | None = None) -> None:
    """Play the current deal to its end, each seat asked from its own view only.

    (An easy player is asked in phase play from the game itself: it reads only
    its hand, the combination to beat and the wish, and the view would be built
    for nothing. Nor is it asked out of turn, where it always waits. Its
    decisions are the same.)"""
    easy = [_as_easy(p) for p in players]
    bombs = _Bombs([p is not None for p in easy])
    while True:
        phase = game.phase
        if phase in _OVER:
            return
        if phase is _PLAY or phase is _GIFT:
            # (the common case of _pending: the seat on turn)
            if phase is _PLAY and game.trick and bombs.open and \
                    _out_of_turn(game, players, rng, observe, bombs):
                continue
            turn = game.turn
            if turn is not None:
                player = easy[turn]
                if player is not None and phase is _PLAY and observe is None:
                    # (EasyPlayer.act on its turn, without the view: see above)
                    trick = game.trick
                    game.apply(player.play_turn(turn, game.hands[turn],
                                                trick[-1].combo if trick else None, game.wish,
                                                game, rng))
                    continue
                if observe is None:
                    # (_ask written out, unobserved: this runs for every action)
                    action = players[turn].act(game.view(turn), rng)
                    if action is not None:
                        game.apply(action)
                        continue
                elif _ask(game, players, turn, rng, observe):
                    continue
        elif any(_ask(game, players, seat, rng, observe) for seat in _pending(game)):
            continue
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
