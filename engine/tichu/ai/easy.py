"""The ``easy`` level: a uniformly random legal action."""

from __future__ import annotations

import random

from engine.tichu.actions import (
    PASSES,
    Action,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    new_play,
)
from engine.tichu.cards import DOG, MAHJONG
from engine.tichu.legal import analysis, dog_targets, gift_targets
from engine.tichu.view import Phase, TichuView

_GRAND = Phase.GRAND
_EXCHANGE = Phase.EXCHANGE
_GIFT = Phase.GIFT
_PLAY = Phase.PLAY
# (module constants: an enum member looked up on its class is slow under Python 3.11)
_WISHES = (None, *range(2, 15))
"""A Mahjong's wish: none, or a rank 2..A."""
_DOG_ONLY = (DOG,)


class EasyPlayer:
    """Random legal play; calls Grand Tichu now and then, never Tichu."""

    grand_rate = 0.02

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None:
            return None
        phase = view.phase
        if phase is _PLAY:  # (the phases exclude each other: the usual one first)
            if view.turn != seat:
                return None
            # (legal.play_options on the seat's turn, its shared answer read without a copy)
            trick = view.trick
            plays, may_pass, _ = analysis(view.hand, trick[-1].combo if trick else None, True,
                                          view.wish, True)
            if may_pass and (not plays or rng.random() < 0.4):
                return PASSES[seat]
            play = rng.choice(plays)
            cards = play.cards
            wish = rng.choice(_WISHES) if MAHJONG in cards else None
            to = None
            if cards == _DOG_ONLY:
                partners = dog_targets(view)
                to = rng.choice(partners) if len(partners) > 1 else None
            return new_play(seat, cards, wish, None, to)
        if phase is _GRAND and not view.grand_decided[seat]:
            return GrandTichu(seat) if rng.random() < self.grand_rate else DeclineGrand(seat)
        if phase is _EXCHANGE and not view.exchanged[seat]:
            targets = sorted(view.exchange_targets(seat))
            given = rng.sample(list(view.hand), len(targets))
            return Exchange(seat, tuple(zip(targets, given, strict=True)))
        if phase is _GIFT:
            opponents = gift_targets(view)
            return Gift(seat, rng.choice(opponents)) if opponents else None
        return None
