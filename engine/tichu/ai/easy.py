"""The ``easy`` level: a uniformly random legal action."""

from __future__ import annotations

import random

from engine.tichu.actions import (
    Action,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DOG, MAHJONG
from engine.tichu.legal import dog_targets, gift_targets, play_options
from engine.tichu.view import Phase, TichuView


class EasyPlayer:
    """Random legal play; calls Grand Tichu now and then, never Tichu."""

    grand_rate = 0.02

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None:
            return None
        if view.phase is Phase.GRAND and not view.grand_decided[seat]:
            return GrandTichu(seat) if rng.random() < self.grand_rate else DeclineGrand(seat)
        if view.phase is Phase.EXCHANGE and not view.exchanged[seat]:
            targets = sorted(view.exchange_targets(seat))
            cards = rng.sample(list(view.hand), len(targets))
            return Exchange(seat, tuple(zip(targets, cards, strict=True)))
        if view.phase is Phase.GIFT:
            opponents = gift_targets(view)
            return Gift(seat, rng.choice(opponents)) if opponents else None
        if view.phase is not Phase.PLAY or view.turn != seat:
            return None
        plays, may_pass = play_options(view)
        if may_pass and (not plays or rng.random() < 0.4):
            return Pass(seat)
        play = rng.choice(plays)
        wish = rng.choice([None, *range(2, 15)]) if MAHJONG in play.cards else None
        to = None
        if play.cards == (DOG,):
            partners = dog_targets(view)
            to = rng.choice(partners) if len(partners) > 1 else None
        return Play(seat, play.cards, wish, to=to)
