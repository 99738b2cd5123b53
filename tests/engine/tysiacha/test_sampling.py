"""The hard Tysiacha player's deals of the hidden hands keep what the play has shown."""

from __future__ import annotations

import random

from engine.tysiacha.ai import (
    _knowledge,
    _needs_marriage,
    hidden_hands,
)
from engine.tysiacha.cards import DECK, marriages_in
from engine.tysiacha.view import Phase
from tests.engine.tysiacha.helpers import play_position, played_deal


def test_voids_and_held_cards_are_true_at_every_card_of_a_deal() -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        for game, seat, view, _ in played_deal(f"shown:{seed}", rng):
            if view.phase is not Phase.PLAY or view.turn != seat:
                continue
            voids, held, _ = _knowledge(view)
            for s, suits in voids.items():
                assert not [c for c in game.hands[s] if c & 3 in suits]
                checked += len(suits)
            for s, cards in held.items():
                assert cards <= set(game.hands[s])
                checked += len(cards)
            hands = hidden_hands(view)(rng)
            for s, h in hands.items():
                assert len(h) == len(game.hands[s])
                assert not [c for c in h if c & 3 in voids[s]]
                assert held.get(s, set()) <= set(h)
    assert checked > 20


def test_a_contract_above_120_leaves_the_soloist_a_marriage() -> None:
    game = play_position(["Kc Qc Ac Tc Ad Td Ah 9h", "", ""], raise_to=160)
    view = game.view(1)
    accept = _needs_marriage(view)
    assert accept is not None
    assert _needs_marriage(game.view(0)) is None  # the soloist knows its own hand
    rng = random.Random(8)
    deal = hidden_hands(view)
    for _ in range(100):
        hands = deal(rng)
        assert marriages_in(hands[0])
        assert len(hands[0]) == 8 and len(hands[2]) == 8
        assert sorted({*hands[0], *hands[2], *view.hand}) == sorted(DECK)
    # Without the test, many deals would leave it none.
    from engine.sampling import DealSampler
    bare = DealSampler([c for c in DECK if c not in view.hand], {0: 8, 2: 8})
    assert sum(not marriages_in(bare.deal(rng)[0]) for _ in range(100)) > 20
