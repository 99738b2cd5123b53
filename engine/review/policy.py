"""The review's rollout policy: the search's lean policy, plus the table rules of calls.

:class:`~engine.tichu.ai.search.RolloutPolicy` plays its plan and little else. Played
out that way, a Tichu call is made far less often than the ``hard`` player makes it
(about 56 in 100 calls against 73; see ``docs/review.md``): a partner goes out
before the caller and breaks the call, or lets the opponents run their hands. A
call decides 200 to 400 points, so whatever makes or breaks calls (the Dragon most
of all) was worth too little in the review. :class:`ReviewPolicy` adds the
``hard`` player's rules for calls (:mod:`~engine.tichu.ai.tactics`), each cheap:

- **Not out before a calling partner**: while a partner's call stands (nobody
  out), a seat does not play its last cards if it may pass or lead something else.
- **Fight for a calling partner**: while a partner's call stands, a trick held by
  an opponent is beaten whenever the seat can without a bomb (its lowest plan part
  of the right shape, else the play leaving the cheapest plan), as the lean policy
  already does against a calling opponent.
- **The Dragon's trick** goes to the opponent more likely to finish last: more
  cards, a caller counting four fewer, one already out never
  (``tactics.choose_gift``).

All of it reads only the made-up game's public table and the seat's own hand, as
the lean policy does.
"""

from __future__ import annotations

from engine.tichu.actions import PASSES, Action, Gift, new_play
from engine.tichu.ai.search import RolloutPolicy, _position, dog_target
from engine.tichu.cards import MAHJONG
from engine.tichu.combos import Combo
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase

_GIFT = Phase.GIFT


class ReviewPolicy(RolloutPolicy):
    """The lean rollout policy with the table rules of calls (see the module's notes)."""

    def decide(self, game: TichuGame, seat: int) -> Action | None:
        if game.phase is _GIFT:
            return Gift(seat, _gift_to(game, seat))
        if game.out or not _partner_called(game, seat):
            return super().decide(game, seat)
        if game.turn != seat:
            return self._bomb(game, seat, game.hands[seat],
                              game.trick[-1].combo if game.trick else None)
        # A partner's call stands.
        hand = game.hands[seat]
        top = game.trick[-1].combo if game.trick else None
        position = _position(tuple(hand), top, game.wish)
        plays = position.plays
        if not plays:
            return PASSES[seat]
        whole = position.whole
        choice: Combo | None
        if top is None:
            choice = self._lead(position, game, seat)
            if whole is not None and len(choice.cards) == len(hand):
                others = [p for p in plays if len(p.cards) < len(hand) and not p.is_bomb]
                if others:
                    choice = min(others, key=lambda p: (p.rank, -len(p.cards)))
        elif game.trick[-1].seat % 2 == seat % 2 and position.may_pass:
            return PASSES[seat]
        else:
            choice = position.follow(top.length, True)
            if choice is None:
                choice = position.cheapest
            if position.may_pass and (choice.is_bomb or len(choice.cards) == len(hand)):
                choice = None  # bombs out of turn are the lean policy's
        if choice is None:
            return PASSES[seat]
        return new_play(seat, choice.cards, 14 if MAHJONG in choice.cards else None,
                        choice.phoenix, dog_target(game, seat, choice))


def _partner_called(game: TichuGame, seat: int) -> bool:
    return any(game.calls[s] is not None and game.hands[s]
               for s in range(seat % 2, game.n_seats, 2) if s != seat)


def _gift_to(game: TichuGame, seat: int) -> int:
    """The opponent more likely to finish last (``tactics.choose_gift``)."""
    open_calls = not game.out
    opponents = [s for s in range(game.n_seats) if s % 2 != seat % 2]

    def last_chance(s: int) -> tuple[bool, float]:
        caller = open_calls and game.calls[s] is not None
        held = len(game.hands[s])
        return (held > 0, held - 4.0 * caller)

    return max(opponents, key=last_chance)
