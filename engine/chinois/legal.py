"""Legal choices of the viewing seat, read from its view only.

The bot's menus, the computer players and the replay trace all use these, and
they agree with :meth:`ChinoisGame.check` by construction: the same rules
functions decide both.
"""

from __future__ import annotations

from engine.cards import Card
from engine.chinois.view import ChinoisView, Phase
from engine.trick import legal_cards as follow_suit


def legal_bids(view: ChinoisView) -> tuple[int, ...]:
    """The bids the viewing seat may make now (empty unless it is its turn to bid)."""
    if view.phase is not Phase.BID or view.seat is None or view.turn != view.seat:
        return ()
    forbidden = view.forbidden_bid if view.seat == view.dealer else None
    return tuple(b for b in range(view.cards_per_seat + 1) if b != forbidden)


def legal_cards(view: ChinoisView) -> tuple[Card, ...]:
    """The cards the viewing seat may play now (empty unless it is its turn to play)."""
    if view.phase is not Phase.PLAY or view.seat is None or view.turn != view.seat:
        return ()
    return follow_suit(view.hand, view.trick.led_suit, view.trump, must_trump=False)
