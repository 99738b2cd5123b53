"""The shared trick-taking core: following suit, trump duty, and who takes a trick."""

from __future__ import annotations

import pytest

from engine.cards import parse_card, parse_cards
from engine.errors import EngineError
from engine.trick import (
    ACE_TEN_ORDER,
    NATURAL_ORDER,
    Trick,
    TrickPlay,
    beats,
    by_suit,
    check_follow,
    legal_cards,
    rank_order,
    winning_play,
)

SUIT = {"c": 0, "d": 1, "h": 2, "s": 3, None: None}


def cards(text: str) -> list[str]:
    return sorted(text.split())


@pytest.mark.parametrize(
    ("hand", "led", "trump", "must_trump", "legal"),
    [
        ("Ah 2c 9s", None, "h", True, "Ah 2c 9s"),  # on the lead anything goes
        ("Ah 2h 9s", "h", None, False, "Ah 2h"),  # follow suit
        ("Ah 2h 9s", "h", "s", True, "Ah 2h"),  # following beats trumping
        ("Ac 2d 9s", "h", "s", False, "Ac 2d 9s"),  # Chinois: void, trump not compulsory
        ("Ac 2d 9s", "h", "s", True, "9s"),  # Tysiacha: void, must trump
        ("Ac 2d 9s Ts", "h", "s", True, "9s Ts"),
        ("Ac 2d 9c", "h", "s", True, "Ac 2d 9c"),  # void, no trump held: anything
        ("Ac 2d 9c", "h", None, True, "Ac 2d 9c"),  # no trump set: anything
    ],
)
def test_legal_cards(hand: str, led: str | None, trump: str | None, must_trump: bool,
                     legal: str) -> None:
    got = legal_cards(parse_cards(hand.split()), SUIT[led], SUIT[trump], must_trump=must_trump)
    assert sorted(str(c) for c in got) == cards(legal)


@pytest.mark.parametrize(
    ("card", "hand", "led", "trump", "must_trump", "code"),
    [
        ("9s", "Ah 9s", "h", None, False, "must_follow_suit"),
        ("9s", "Ah 9s", "h", "s", True, "must_follow_suit"),
        ("Ac", "Ac 9s", "h", "s", True, "must_trump"),
        ("Ac", "Ac 9s", "h", "s", False, None),
        ("Ac", "Ac 9d", "h", "s", True, None),
        ("Ah", "Ah 9s", "h", "s", True, None),
        ("Ah", "Ah 9s", None, "s", True, None),
    ],
)
def test_check_follow(card: str, hand: str, led: str | None, trump: str | None,
                      must_trump: bool, code: str | None) -> None:
    try:
        check_follow(parse_card(card), parse_cards(hand.split()), SUIT[led], SUIT[trump],
                     must_trump=must_trump)
    except EngineError as exc:
        assert exc.code == code
    else:
        assert code is None


@pytest.mark.parametrize(
    ("plays", "trump", "order", "winner"),
    [
        ("Kh Ah 2h", None, "natural", 1),
        ("Kh Ac 2h", None, "natural", 0),  # a discard never wins
        ("Kh Ah 2s", "s", "natural", 2),  # a trump beats the led suit
        ("Kh 3s 2s", "s", "natural", 1),  # the highest trump
        ("2s Ah 3s", "s", "natural", 2),  # trump led: the highest trump
        ("Kh Th Qh", None, "ace_ten", 1),  # Tysiacha: the ten beats the King
        ("Th Ah Kh", None, "ace_ten", 1),
        ("Ah 9s Th", "s", "ace_ten", 1),
        ("Jc 9c Qd", "d", "ace_ten", 2),
    ],
)
def test_trick_winner(plays: str, trump: str | None, order: str, winner: int) -> None:
    ranks = NATURAL_ORDER if order == "natural" else ACE_TEN_ORDER
    trick = Trick()
    for seat, c in enumerate(parse_cards(plays.split())):
        trick = trick.add(seat, c)
    assert trick.winning(ranks, SUIT[trump]).seat == winner
    assert winning_play(trick.plays, ranks, SUIT[trump]) == trick.plays[winner]


def test_trick_record() -> None:
    trick = Trick().add(2, parse_card("Qd")).add(0, parse_card("As"))
    assert trick.leader == 2 and trick.led_suit == 1 and len(trick) == 2
    assert trick.cards == (parse_card("Qd"), parse_card("As"))
    assert trick.plays[1] == TrickPlay(0, parse_card("As"))
    assert Trick().leader is None and Trick().led_suit is None
    with pytest.raises(ValueError):
        winning_play((), NATURAL_ORDER, None)


def test_orders() -> None:
    assert rank_order((14, 10, 13))[14] == 3 and rank_order((14, 10, 13))[2] == 0
    assert [r for r in range(15) if ACE_TEN_ORDER[r]] == [9, 10, 11, 12, 13, 14]
    assert sorted(range(2, 15), key=lambda r: NATURAL_ORDER[r]) == list(range(2, 15))
    assert sorted((9, 10, 11, 12, 13, 14), key=lambda r: -ACE_TEN_ORDER[r]) == [14, 10, 13, 12, 11, 9]
    assert not beats(parse_card("Kh"), parse_card("Th"), led_suit=2, trump=None, order=ACE_TEN_ORDER)
    assert beats(parse_card("Kh"), parse_card("Th"), led_suit=2, trump=None, order=NATURAL_ORDER)
    assert [str(c) for c in sorted(parse_cards(["2h", "Ac", "Kc", "9s"]), key=by_suit)] == \
        ["Ac", "Kc", "2h", "9s"]
