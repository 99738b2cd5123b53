"""What a seat remembers, and the hidden hands the hard player deals from it."""

from __future__ import annotations

import random

import pytest

from engine.tichu.actions import Action, Play
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.sampling import sample_hands
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.cards import RANK
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView
from tests.engine.tichu.ai.tables import cards, view_of
from tests.engine.tichu.helpers import position, run


def test_one_view_knows_the_tricks_that_are_gone_from_it() -> None:
    # A computer asked once (another process, a restart) is shown a single later view.
    later = view_of("3c 4d 9h", counts=(3, 9, 9, 10), played={1: "Kc", 2: "Ac"})
    know = knowledge_of(later)
    assert not set(cards("Kc Ac")) & know.unseen
    assert set(cards("Kd")) <= know.unseen
    assert know.played_by[1] == frozenset(cards("Kc"))


def test_a_seat_that_ignores_the_wish_has_none_of_it() -> None:
    game = run(position(["MAHJONG 4h", "6d", "", "9s 9h 9d 9c"]),
               "0 play MAHJONG wish=9", "1 play 6d", "2 pass", "3 play 9s", "0 pass")
    # Seat 1 followed the Mahjong with a 6 instead of a 9, seat 2 passed on the 6 while
    # the wish for 9 was open: no 9 there. Seat 3 fulfilled it; the trick went on after.
    know = knowledge_of(game.view(0))
    assert know.voids == {1: frozenset({9}), 2: frozenset({9})}
    assert knowledge_of(game.view(3)).voids == know.voids  # public: every seat knows it


def test_samples_respect_counts_gifts_and_voids() -> None:
    view = view_of("3c 4d 5h", trick=[(3, "MAHJONG"), (0, "6h")], wish=9, turn=1,
                   passed=(False, False, True, False), counts=(3, 7, 6, 5),
                   given={1: "2s", 2: "Ad", 3: "Ks"}, wish_voids={0: {9}, 2: {9}})
    know = knowledge_of(view)
    rng = random.Random(4)
    for _ in range(30):
        hands = sample_hands(view, know, rng)
        assert [len(h) for h in hands] == [3, 7, 6, 5]
        assert set(cards("2s")) <= set(hands[1]) and set(cards("Ad")) <= set(hands[2])
        assert not any(c < 52 and c // 4 + 2 == 9 for c in hands[2])
        seen = [c for h in hands for c in h]
        assert len(seen) == len(set(seen))
        assert not set(cards("MAHJONG 6h")) & set(seen)


class _Watching:
    """Normal players that check, each time a seat is asked, that what it knows is
    right and whole: what it has not seen is exactly what the other seats hold, it
    knows who played what, and a seat it believes holds no card of a rank holds none.
    Each decision reads one view alone, as in another worker process, after a restart
    or on a takeover."""

    def __init__(self, game: TichuGame) -> None:
        self.game = game
        self.normal = NormalPlayer()
        self.checked = 0
        self.voids = 0

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        seat = view.seat
        assert seat is not None
        know = knowledge_of(view)
        if view.phase is Phase.PLAY:
            held = {int(c) for s, hand in enumerate(self.game.hands) if s != seat
                    for c in hand}
            where = (seat, len(self.game.deal_log[-1][1]))
            assert know.unseen == held, where
            played: dict[int, set[int]] = {}
            for action in self.game.deal_log[-1][1]:
                if isinstance(action, Play):
                    played.setdefault(action.seat, set()).update(int(c) for c in action.cards)
            assert {s: set(cs) for s, cs in know.played_by.items() if cs} == played, where
            for s, ranks in know.voids.items():
                assert not any(c < 52 and RANK[c] in ranks for c in self.game.hands[s]), where
                self.voids += len(ranks)
            self.checked += 1
        return self.normal.act(view, rng)


@pytest.mark.parametrize("players", [4, 6])
def test_a_seat_asked_only_on_its_turns_misses_no_card_played(players: int) -> None:
    # A seat that takes a trick with its own play is next asked to lead on an empty
    # table, and the Dog's trick is gone once the next seat leads: the view's record
    # of the deal's plays keeps them all, and of the wish's inferences.
    voids = 0
    for deal in range(4):
        game = TichuGame(seed=f"memory-{players}-{deal}", players=players)
        watching = _Watching(game)
        play_deal(game, [watching] * players, random.Random(deal))
        assert watching.checked > 20
        voids += watching.voids
    assert voids > 0
