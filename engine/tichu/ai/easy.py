"""The ``easy`` level: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.cards import Card
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
from engine.tichu.combos import Combo
from engine.tichu.legal import analysis, gift_targets
from engine.tichu.view import Phase, TichuView

_GRAND = Phase.GRAND
_EXCHANGE = Phase.EXCHANGE
_GIFT = Phase.GIFT
_PLAY = Phase.PLAY
# (module constants: an enum member looked up on its class is slow under Python 3.11)
_WISHES = (None, *range(2, 15))
"""A Mahjong's wish: none, or a rank 2..A."""
_DOG_ONLY = (DOG,)


class Table(Protocol):
    """Who a seat's Dog may hand the lead to: asked of a seat's
    :class:`~engine.tichu.view.TichuView` or of the
    :class:`~engine.tichu.game.TichuGame` itself, which answer alike."""

    def dog_targets(self, seat: int) -> tuple[int, ...]: ...


class EasyPlayer:
    """Random legal play; calls Grand Tichu now and then, never Tichu.

    In phase play it waits out of its turn (None, drawing nothing from ``rng``)
    and on its turn reads only its hand, the combination to beat and the wish
    (:meth:`play_turn`): :func:`~engine.tichu.ai.selfplay.play_deal` asks it
    there from the game, with no view built.
    """

    grand_rate = 0.02

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        seat = view.seat
        if seat is None:
            return None
        phase = view.phase
        if phase is _PLAY:  # (the phases exclude each other: the usual one first)
            if view.turn != seat:
                return None
            trick = view.trick
            return self.play_turn(seat, view.hand, trick[-1].combo if trick else None,
                                  view.wish, view, rng)
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

    def play_turn(self, seat: int, hand: Sequence[Card], top: Combo | None, wish: int | None,
                  table: Table, rng: random.Random) -> Action:
        """The play (or pass) of ``seat`` on its turn in phase play: ``hand`` its
        cards, ``top`` the combination to beat (None on a lead), ``wish`` the open
        wish, ``table`` asked where a Dog may send the lead."""
        # (legal.play_options on the seat's turn, its shared answer read without a copy)
        plays, may_pass, _ = analysis(hand, top, True, wish, True)
        if may_pass and (not plays or rng.random() < 0.4):
            return PASSES[seat]
        play = rng.choice(plays)
        cards = play.cards
        wished = rng.choice(_WISHES) if MAHJONG in cards else None
        to = None
        if cards == _DOG_ONLY:
            partners = table.dog_targets(seat)
            to = rng.choice(partners) if len(partners) > 1 else None
        return new_play(seat, cards, wished, None, to)
