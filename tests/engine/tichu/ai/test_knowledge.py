"""What a seat remembers, and the hidden hands the hard player deals from it."""

from __future__ import annotations

import random

import pytest

from engine.tichu.actions import Action, Play
from engine.tichu.ai.knowledge import Memories
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.sampling import sample_hands
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView
from tests.engine.tichu.ai.tables import cards, view_of


def test_one_view_knows_the_tricks_that_are_gone_from_it() -> None:
    # A fresh memory (another process, a restart) shown a single later view.
    later = view_of("3c 4d 9h", counts=(3, 9, 9, 10), played={1: "Kc", 2: "Ac"})
    know = Memories().see(later)
    assert not set(cards("Kc Ac")) & know.unseen
    assert set(cards("Kd")) <= know.unseen
    assert know.played_by[1] == frozenset(cards("Kc"))


def test_a_seat_that_ignores_the_wish_has_none_of_it() -> None:
    view = view_of("3c 4d", trick=[(3, "MAHJONG"), (0, "4h")], wish=9, turn=1,
                   passed=(False, False, True, False), counts=(2, 10, 10, 10))
    know = Memories().see(view)
    # Seat 0 followed the Mahjong with a 4 instead of a 9; seat 2 passed on the 4 while the wish for 9 was open: no 9 there either.
    assert 9 in know.voids[0] and 9 in know.voids[2]
    assert 1 not in know.voids and 3 not in know.voids


def test_samples_respect_counts_gifts_and_voids() -> None:
    view = view_of("3c 4d 5h", trick=[(3, "MAHJONG"), (0, "6h")], wish=9, turn=1,
                   passed=(False, False, True, False), counts=(3, 7, 6, 5),
                   given={1: "2s", 2: "Ad", 3: "Ks"})
    know = Memories().see(view)
    rng = random.Random(4)
    for _ in range(30):
        hands = sample_hands(view, know, rng)
        assert [len(h) for h in hands] == [3, 7, 6, 5]
        assert set(cards("2s")) <= set(hands[1]) and set(cards("Ad")) <= set(hands[2])
        assert not any(c < 52 and c // 4 + 2 == 9 for c in hands[2])
        seen = [c for h in hands for c in h]
        assert len(seen) == len(set(seen))
        assert not set(cards("MAHJONG 6h")) & set(seen)


def test_one_player_object_at_two_tables_keeps_two_memories() -> None:
    memories = Memories()
    table_a = view_of("3c 4d 9h", trick=[(1, "Kc")], given={1: "2s", 2: "Ad", 3: "Ks"})
    table_b = view_of("3c 4d 9h", given={1: "2h", 2: "Ah", 3: "Kh"})
    memories.see(table_a)
    know_b = memories.see(table_b)
    assert set(cards("Kc")) <= know_b.unseen  # played at table A only


class _Watching:
    """Normal players that check, each time a seat is asked, that it misses no card
    played: what it has not seen is exactly what the other seats hold, and it knows
    who played what. With ``fresh``, every decision starts from an empty memory, as
    one does in another worker process, after a restart or on a takeover."""

    def __init__(self, game: TichuGame, *, fresh: bool) -> None:
        self.game = game
        self.fresh = fresh
        self.normal = NormalPlayer()
        self.memories = Memories()
        self.checked = 0

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        seat = view.seat
        assert seat is not None
        memories = Memories() if self.fresh else self.memories
        know = memories.see(view)
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
            self.checked += 1
        return self.normal.act(view, rng)


@pytest.mark.parametrize("fresh", [False, True], ids=["one-memory", "fresh-each-time"])
@pytest.mark.parametrize("players", [4, 6])
def test_a_seat_asked_only_on_its_turns_misses_no_card_played(players: int, fresh: bool) -> None:
    # A seat that takes a trick with its own play is next asked to lead on an empty
    # table, and the Dog's trick is gone once the next seat leads: the view's record
    # of the deal's plays keeps them all.
    for deal in range(3):
        game = TichuGame(seed=f"memory-{players}-{deal}", players=players)
        watching = _Watching(game, fresh=fresh)
        play_deal(game, [watching] * players, random.Random(deal))
        assert watching.checked > 20
