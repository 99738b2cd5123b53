"""Legal choices of the viewing seat, read from its view only.

The bot's menus, the computer players and the replay trace all use these. They
apply the same rules as :meth:`TysiachaGame.check` (the bid limits come from
:mod:`engine.tysiacha.cards`, the duties of play from :mod:`engine.trick`).
"""

from __future__ import annotations

from itertools import permutations

from engine.cards import Card
from engine.trick import legal_cards as follow_rules
from engine.tysiacha.cards import NINES, bid_limit, marriage_partner
from engine.tysiacha.scoring import BID_STEP, MIN_BID
from engine.tysiacha.view import Phase, TysiachaView


def _on_turn(view: TysiachaView, phase: Phase) -> bool:
    return view.phase is phase and view.seat is not None and view.turn == view.seat


def legal_bids(view: TysiachaView) -> tuple[int, ...]:
    """The bids the viewing seat may make now (empty unless it is its turn to bid)."""
    if not _on_turn(view, Phase.BIDDING):
        return ()
    floor = MIN_BID if view.high_bid is None else view.high_bid + BID_STEP
    return tuple(range(floor, bid_limit(view.hand) + 1, BID_STEP))


def can_pass(view: TysiachaView) -> bool:
    """Whether the viewing seat may pass now (never before the bidding is opened)."""
    return _on_turn(view, Phase.BIDDING) and view.high_bid is not None


def legal_raises(view: TysiachaView) -> tuple[int, ...]:
    """The contracts the soloist may raise to, holding the prikup."""
    if not _on_turn(view, Phase.PRIKUP) or view.contract is None:
        return ()
    return tuple(range(view.contract + BID_STEP, bid_limit(view.hand) + 1, BID_STEP))


def can_concede(view: TysiachaView) -> bool:
    """Whether the viewing seat is the soloist deciding on the prikup."""
    return _on_turn(view, Phase.PRIKUP)


def legal_gifts(view: TysiachaView) -> tuple[tuple[tuple[int, Card], tuple[int, Card]], ...]:
    """Every way the soloist may give one card to each opponent: ((seat, card), (seat, card))
    with the lower seat first; 90 of them from a 10-card hand."""
    if not _on_turn(view, Phase.PRIKUP):
        return ()
    first, second = sorted(view.opponents)
    return tuple(((first, a), (second, b)) for a, b in permutations(view.hand, 2))


def can_redeal(view: TysiachaView) -> bool:
    """Whether the viewing seat holds the four 9s after the giving, before the first card."""
    return (view.phase is Phase.PLAY and view.seat is not None and view.seat in view.active
            and not view.started and set(view.hand) >= NINES)


def legal_cards(view: TysiachaView) -> tuple[Card, ...]:
    """The cards the viewing seat may play now (empty unless it is its turn to play)."""
    if not _on_turn(view, Phase.PLAY):
        return ()
    return follow_rules(view.hand, view.trick.led_suit, view.trump, must_trump=True)


def marriage_leads(view: TysiachaView) -> tuple[Card, ...]:
    """The Kings and Queens the viewing seat may lead declaring a marriage now."""
    if not _on_turn(view, Phase.PLAY) or view.trick.plays or view.seat is None or \
            not view.tricks_taken[view.seat]:
        return ()
    hand = set(view.hand)
    return tuple(c for c in view.hand if (p := marriage_partner(c)) is not None and p in hand)
