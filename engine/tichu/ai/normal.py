"""The ``normal`` level: strong heuristics, no search.

The player reads only the seat's view, the cards played in the deal and the
wish's inferences included (:func:`~engine.tichu.ai.knowledge.knowledge_of`). What it does in each phase:

* grand: Grand Tichu on a hand of top cards (:func:`~engine.tichu.ai.bidding.wants_grand`);
* exchange: calls Tichu first on a very strong hand, then passes low singles to
  the opponents and a good card to the partner, keeping bombs whole;
* play, on its turn: calls Tichu before its first card on a strong hand, then
  plays by :mod:`~engine.tichu.ai.tactics`;
* play, out of turn: bombs when it stops an opponent or wins the deal;
* gift: the Dragon trick to the opponent most likely to finish last.
"""

from __future__ import annotations

import random

from engine.tichu.actions import Action, CallTichu, DeclineGrand, GrandTichu
from engine.tichu.ai import bidding, tactics
from engine.tichu.ai.knowledge import Knowledge, knowledge_of
from engine.tichu.legal import can_call_tichu
from engine.tichu.view import Phase, TichuView

_GRAND = Phase.GRAND
_EXCHANGE = Phase.EXCHANGE
_GIFT = Phase.GIFT
_PLAY = Phase.PLAY
# (module constants: an enum member looked up on its class is slow under Python 3.11)


class NormalPlayer:
    """Heuristic play from the seat's own view and memory."""

    def __init__(self, *, grand_threshold: float = bidding.GRAND_THRESHOLD,
                 tichu_threshold: float = bidding.TICHU_THRESHOLD) -> None:
        self.grand_threshold = grand_threshold
        self.tichu_threshold = tichu_threshold

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        if view.seat is None:
            return None
        return self.decide(view, knowledge_of(view), rng)

    def decide(self, view: TichuView, know: Knowledge, rng: random.Random) -> Action | None:
        """The decision proper, from the view and what the seat remembers."""
        seat = view.seat
        assert seat is not None
        phase = view.phase
        if phase is _GRAND:
            if view.grand_decided[seat]:
                return None
            if bidding.wants_grand(view, self.grand_threshold):
                return GrandTichu(seat)
            return DeclineGrand(seat)
        if phase is _EXCHANGE:
            if view.exchanged[seat]:
                return None
            early = self.tichu_threshold + bidding.EARLY_TICHU_MARGIN
            if can_call_tichu(view) and bidding.wants_tichu(view, early):
                return CallTichu(seat)
            return bidding.choose_exchange(view, bidding.means_to_call(view, self.tichu_threshold))
        if phase is _GIFT:
            return tactics.choose_gift(view) if view.turn == seat else None
        if phase is not _PLAY or not view.hand:
            return None
        if view.turn != seat:
            return tactics.choose_out_of_turn(view, know) if view.trick else None
        if can_call_tichu(view) and self.wants_tichu(view, know, rng):
            return CallTichu(seat)
        return self.play(view, know, rng)

    def wants_tichu(self, view: TichuView, know: Knowledge, rng: random.Random) -> bool:
        """Call Tichu before the first card? (The ``hard`` level checks by search.)"""
        return bidding.wants_tichu(view, self.tichu_threshold)

    def play(self, view: TichuView, know: Knowledge, rng: random.Random) -> Action:
        """The card play on the seat's turn (the ``hard`` level overrides this)."""
        return tactics.choose_play(view, know)
