"""The hard Chinois player's deals of the hidden hands keep what the tricks have shown."""

from __future__ import annotations

import random

from engine.chinois.ai import NormalPlayer, _sample_hands, shown_voids
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase
from tests.engine.chinois.helpers import bids, position, run

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def _voids_shown() -> ChinoisGame:
    # Round 5, dealt by seat 3: seat 0 leads. Spades are trumps.
    game = position(5, ["Ah Kh 2c 3c 4c", "2d 3d 4d 5d 6d", "Qh 2s 3s 4s 5s",
                        "7d 8d 9d Td 5c"], trump_card="Js")
    bids(game, 1, 1, 1, 1)
    # Seats 1 and 3 cannot follow hearts; then seats 1 and 2 cannot follow clubs
    # (seat 2 trumps, which shows nothing of its trumps: nobody has to trump).
    return run(game, "0 play Ah", "1 play 2d", "2 play Qh", "3 play 7d",
               "0 play 2c", "1 play 3d", "2 play 2s")


def test_the_voids_are_read_from_finished_and_open_tricks() -> None:
    view = _voids_shown().view(3)
    assert shown_voids(view) == {0: set(), 1: {HEARTS, CLUBS}, 2: {CLUBS}, 3: {HEARTS}}


def test_a_seat_that_showed_a_void_is_never_dealt_that_suit() -> None:
    view = _voids_shown().view(3)
    rng = random.Random(11)
    for _ in range(300):
        hands = _sample_hands(view, rng)
        assert [len(h) for h in hands] == list(view.hand_counts)
        assert hands[3] == list(view.hand)
        assert not [c for c in hands[1] if c & 3 in (HEARTS, CLUBS)]
        assert not [c for c in hands[2] if c & 3 == CLUBS]
        dealt = [c for h in hands for c in h]
        assert len(dealt) == len(set(dealt))
        gone = {*view.played, *view.trick.cards, view.trump_card}
        assert not gone & set(dealt)


def test_the_voids_read_are_true_at_every_card_of_a_game() -> None:
    normal = NormalPlayer()
    checked = 0
    game = ChinoisGame(seed="voids")
    rng = random.Random(0)
    for _ in range(12):
        while game.phase in (Phase.BID, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.PLAY:
                for s, suits in shown_voids(view).items():
                    assert not [c for c in game.hands[s] if c & 3 in suits]
                    checked += len(suits)
            action = normal.act(view, rng)
            assert action is not None
            game.apply(action)
        game.next_deal()
    assert checked > 50
