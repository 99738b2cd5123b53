"""legal_plays against known counts (perft-style fixtures) and against brute force."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.tichu.cards import DECK, PHOENIX
from engine.tichu.combos import readings
from engine.tichu.legal import plays_for_hand
from tests.engine.tichu.brute import brute_force_plays

CASES = json.loads((Path(__file__).parents[2] / "fixtures" / "tichu_legal_counts.json").read_text())
TOPS = [None, "6c 6d", "7h", "PHOENIX", "2c 3d 4h 5s 6c", "5c 5d 5h 8c 8d", "4c 4d 5c 5d",
        "Tc Td Th", "6c 6d 6h 6s", "3h 4h 5h 6h 7h", "DRAGON", "MAHJONG", "Ac"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{' '.join(c['hand'][:3])}-{c['top']}")
def test_legal_play_counts(case: dict) -> None:  # type: ignore[type-arg]
    hand = parse_cards(case["hand"])
    top = readings(parse_cards(case["top"]))[0] if case["top"] else None
    plays, _ = plays_for_hand(hand, top)
    assert len(plays) == case["count"]
    assert len({frozenset(p.cards) for p in plays}) == len(plays)  # each set once
    assert dict(Counter(p.kind.value for p in plays)) == case["by_kind"]


hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True)
phoenix_hands = st.lists(st.sampled_from([c for c in DECK if c != PHOENIX]), min_size=4,
                         max_size=13, unique=True).map(lambda h: [*h, DECK[PHOENIX]])


@settings(max_examples=40, deadline=None)
@given(hand=st.one_of(hands, phoenix_hands), top=st.sampled_from(TOPS),
       wish=st.sampled_from([None, 2, 7, 14]))
def test_generator_matches_brute_force(hand: list, top: str | None, wish: int | None) -> None:  # type: ignore[type-arg]
    under = readings(parse_cards(top.split()))[0] if top else None
    plays, can_pass = plays_for_hand(hand, under, wish=wish)
    expected = brute_force_plays(hand, under, wish)
    got = {frozenset(p.cards): p for p in plays}
    assert set(got) == set(expected)
    for cards, combo in got.items():
        want = expected[cards]
        assert (combo.kind, combo.rank, combo.length) == (want.kind, want.rank, want.length)
    bound = wish is not None and any(
        any(c < 52 and c // 4 + 2 == wish for c in k) for k in expected
    ) and any(c < 52 and c // 4 + 2 == wish for c in hand)
    assert can_pass == (under is not None and not bound)


def test_mahjong_wish_ranks_are_all_offered_in_straights() -> None:
    hand = parse_cards(["MAHJONG", "2c", "3d", "4h", "5s", "PHOENIX"])
    plays, _ = plays_for_hand(hand, None)
    straights = {p.rank for p in plays if p.kind.value == "straight"}
    assert straights == {5, 6}


# The speed-ups (suit bitmasks, prebuilt pairs and triples, skipped windows) are
# guarded on many more random hands here: leads, where every kind is generated,
# and tops of every kind, with and without the Phoenix. Hands stay at 10 cards or
# fewer so that the brute force (every subset) stays quick.
small_hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=10, unique=True)
small_phoenix_hands = st.lists(st.sampled_from([c for c in DECK if c != PHOENIX]), min_size=3,
                               max_size=9, unique=True).map(lambda h: [*h, DECK[PHOENIX]])
# Long runs and many pairs: where straights, stairs and full houses come from.
run_hands = st.builds(
    lambda lo, length, extra: sorted({*(DECK[(r - 2) * 4 + s] for r in range(lo, lo + length)
                                        for s in (0, 1)), *extra})[:10],
    st.integers(2, 9), st.integers(3, 6), st.lists(st.sampled_from(DECK), max_size=3))


@settings(max_examples=300, deadline=None)
@given(hand=st.one_of(small_hands, small_phoenix_hands, run_hands), top=st.sampled_from(TOPS),
       wish=st.sampled_from([None, None, 3, 8, 14]))
def test_generator_matches_brute_force_on_many_hands(hand: list, top: str | None,  # type: ignore[type-arg]
                                                     wish: int | None) -> None:
    under = readings(parse_cards(top.split()))[0] if top else None
    plays, _ = plays_for_hand(hand, under, wish=wish)
    expected = brute_force_plays(hand, under, wish)
    got = {frozenset(p.cards): p for p in plays}
    assert len(got) == len(plays)
    assert set(got) == set(expected)
    for cards, combo in got.items():
        want = expected[cards]
        assert (combo.kind, combo.rank, combo.length) == (want.kind, want.rank, want.length)


def test_same_position_twice_gives_equal_fresh_lists() -> None:
    """The last position is remembered; callers still get their own list."""
    hand = parse_cards(["2c", "2d", "3c", "3d", "4h", "5s", "6c", "PHOENIX"])
    first, _ = plays_for_hand(hand, None)
    first.clear()
    again, _ = plays_for_hand(hand, None)
    assert again and again == plays_for_hand(list(hand), None)[0]


def test_play_options_agree_with_legal_plays_and_can_pass() -> None:
    import random

    from engine.tichu.ai import EasyPlayer
    from engine.tichu.ai.selfplay import play_deal
    from engine.tichu.game import TichuGame
    from engine.tichu.legal import can_pass, legal_plays, play_options

    checked = 0

    def observe(game: TichuGame, seat: int, action: object, spent: float) -> None:
        nonlocal checked
        for s in range(game.n_seats):
            view = game.view(s)
            assert play_options(view) == (legal_plays(view), can_pass(view))
            checked += 1

    for players in (4, 6):
        game = TichuGame(seed=21, players=players)
        play_deal(game, [EasyPlayer()] * players, random.Random(3), observe)
    assert checked > 500


def test_hands_asked_again_after_others_give_the_same_plays() -> None:
    """Hands are kept between questions (a seat's hand is asked about on every
    trick); a hand asked again, before or after the cache starts afresh, with
    other tops, as a list or a tuple, gives what it gave the first time, and
    emptying a returned list changes nothing kept."""
    import random

    from engine.tichu.legal import HANDS_KEPT, analyse_hand

    rng = random.Random(5)
    tops = [None, *(readings(parse_cards(t.split()))[0] for t in TOPS if t)]
    hands = [[DECK[c] for c in rng.sample(range(56), rng.randrange(4, 10))]
             for _ in range(3 * HANDS_KEPT)]
    first = {}
    for round_ in range(3):
        for i, hand in enumerate(hands):
            for j, top in enumerate(tops):
                for on_turn in (True, False):
                    asked = hand if round_ % 2 else tuple(hand)
                    plays, may_pass, bound = analyse_hand(asked, top, on_turn=on_turn, wish=7)
                    got = (list(plays), may_pass, bound)
                    plays.clear()
                    key = (i, j, on_turn)
                    if key in first:
                        assert got == first[key]
                    else:
                        first[key] = got
                        expected = brute_force_plays(hand, top, 7)
                        if on_turn:
                            assert {frozenset(p.cards) for p in got[0]} == set(expected)
                        else:
                            assert {frozenset(p.cards) for p in got[0]} == {
                                k for k, v in expected.items() if v.is_bomb}
