"""The hard Tichu player's deals of the hidden hands (the shared sampler, Tichu's constraints)."""

from __future__ import annotations

import random

from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.sampling import MISSED, hand_sampler, sample_hands
from engine.tichu.cards import DOG
from tests.engine.tichu.ai.tables import cards, view_of


def test_cards_played_unseen_are_left_out_the_dog_first() -> None:
    # Everyone else has 10 cards but 53 cards are unseen: 23 were played while we did not look.
    view = view_of("3c 4d 9h", counts=(3, 10, 10, 10), given={1: "2s"})
    know = knowledge_of(view)
    sampler = hand_sampler(view, know)
    assert sampler.seats == (MISSED, 1, 2, 3)
    rng = random.Random(2)
    for _ in range(50):
        hands = sample_hands(view, know, rng)
        assert [len(h) for h in hands] == [3, 10, 10, 10]
        assert DOG not in {c for h in hands for c in h}
        assert int(cards("2s")[0]) in hands[1]


def test_a_gift_against_a_wish_inference_keeps_the_gift() -> None:
    # Seat 2 passed on the 6 with a 9 wished, so it should hold no 9, yet we gave it the
    # 9 of diamonds: the facts disagree (not in a real game: a view made up here), and the
    # gift wins.
    view = view_of("3c 4d 5h", trick=[(3, "MAHJONG"), (0, "6h")], wish=9, turn=1,
                   passed=(False, False, True, False), counts=(3, 7, 6, 5), given={2: "9d"},
                   wish_voids={0: {9}, 2: {9}})
    know = knowledge_of(view)
    assert 9 in know.voids[2]
    assert hand_sampler(view, know).relaxed == ("barred",)
    rng = random.Random(1)
    for _ in range(20):
        hands = sample_hands(view, know, rng)
        assert int(cards("9d")[0]) in hands[2]
        assert [len(h) for h in hands] == [3, 7, 6, 5]


def test_the_same_seed_deals_the_same() -> None:
    view = view_of("3c 4d 5h", trick=[(3, "MAHJONG"), (0, "6h")], wish=9, turn=1,
                   passed=(False, False, True, False), counts=(3, 7, 6, 5),
                   given={1: "2s", 2: "Ad", 3: "Ks"})
    know = knowledge_of(view)
    first = [sample_hands(view, know, random.Random(5)) for _ in range(2)]
    assert first[0] == first[1]
    assert sample_hands(view, knowledge_of(view), random.Random(5)) == first[0]
