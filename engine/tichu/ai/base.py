"""What a computer player must decide, and who has something to decide now."""

from __future__ import annotations

import random
from typing import Protocol

from engine.tichu.actions import Action
from engine.tichu.view import Phase, TichuView


class Player(Protocol):
    """A computer player: one decision at a time, from its own view only."""

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        """The seat's next action, or None if it has nothing to do (or chooses to wait)."""
        ...


def pending_seats(view: TichuView) -> tuple[int, ...]:
    """Seats that must act before the game can go on (from the public view)."""
    phase = view.phase
    if phase is Phase.GRAND:
        return tuple(s for s in range(view.n_seats) if not view.grand_decided[s])
    if phase is Phase.EXCHANGE:
        return tuple(s for s in range(view.n_seats) if not view.exchanged[s])
    if phase in (Phase.PLAY, Phase.GIFT) and view.turn is not None:
        return (view.turn,)
    return ()
