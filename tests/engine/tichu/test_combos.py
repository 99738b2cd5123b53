"""Combinations, their readings and comparisons (rulings 4, 5 and 6)."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.tichu.combos import Combo, Kind, beats, best_reading, readings


def read(text: str, top: Combo | None = None) -> list[tuple[str, float, int]]:
    return [(c.kind.value, c.rank, c.length) for c in readings(parse_cards(text.split()), top)]


def combo(text: str) -> Combo:
    found = readings(parse_cards(text.split()))
    assert found, text
    return found[0]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7h", [("single", 7, 1)]),
        ("MAHJONG", [("single", 1, 1)]),
        ("DRAGON", [("single", 16, 1)]),
        ("DOG", [("dog", 0, 1)]),
        ("PHOENIX", [("single", 1.5, 1)]),
        ("8c 8d", [("pair", 8, 2)]),
        ("8c 9d", []),
        ("9c 9d 9h", [("triple", 9, 3)]),
        ("4c 4d 5c 5d", [("stairs", 5, 4)]),
        ("4c 4d 6c 6d", []),
        ("4c 4d 5c 5d 6h 6s", [("stairs", 6, 6)]),
        ("4c 4d 4h 5c 5d", [("full_house", 4, 5)]),
        ("Ac Ad 2h 2c 2d", [("full_house", 2, 5)]),
        ("3c 4d 5h 6s 7c", [("straight", 7, 5)]),
        ("MAHJONG 2c 3d 4h 5s", [("straight", 5, 5)]),
        ("Tc Jd Qh Ks Ac", [("straight", 14, 5)]),
        ("Jd Qh Ks Ac 2c", []),  # the Ace is high only
        ("3c 4d 5h 6s", []),  # straights need five cards
        ("6c 6d 6h 6s", [("four_bomb", 6, 4)]),
        ("3h 4h 5h 6h 7h", [("straight_flush", 7, 5)]),
        ("MAHJONG 2h 3h 4h 5h", [("straight", 5, 5)]),  # the Mahjong is in no bomb
        ("DRAGON 2c", []),
        ("DOG 2c", []),
        ("MAHJONG 2c", []),
        ("MAHJONG PHOENIX", []),
        ("7c 7d 7h 7s 8c", []),
        ("5c 5d 5h 6c 6d 6h", []),  # two triples are no combination
        ("2c 2d 3c 3d 5c 5d", []),
    ],
)
def test_combinations(cards: str, expected: list[tuple[str, float, int]]) -> None:
    assert read(cards) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # Phoenix as a joker, readings highest first (ruling 5).
        ("8c PHOENIX", [("pair", 8, 2)]),
        ("8c 8d PHOENIX", [("triple", 8, 3)]),
        ("4c 4d 5c PHOENIX", [("stairs", 5, 4)]),
        ("7c 7d 8h 8s PHOENIX", [("full_house", 8, 5), ("full_house", 7, 5)]),
        ("7c 7d 7h 8s PHOENIX", [("full_house", 7, 5)]),
        ("5c 6d 7h 8s PHOENIX", [("straight", 9, 5), ("straight", 8, 5)]),
        ("5c 6d 8h 9s PHOENIX", [("straight", 9, 5)]),
        ("Jc Qd Kh As PHOENIX", [("straight", 14, 5)]),
        ("MAHJONG 2c 3d 4h PHOENIX", [("straight", 5, 5)]),
        ("MAHJONG 3d 4h 5s PHOENIX", [("straight", 5, 5)]),
        ("2c 3d 4h 5s PHOENIX", [("straight", 6, 5)]),  # never a 1
        ("3h 4h 5h 6h PHOENIX", [("straight", 7, 5), ("straight", 6, 5)]),  # never a bomb
        ("6c 6d 6h 6s PHOENIX", []),  # four of a kind plus the Phoenix
        ("PHOENIX DRAGON", []),
        ("PHOENIX DOG", []),
    ],
)
def test_phoenix_readings(cards: str, expected: list[tuple[str, float, int]]) -> None:
    assert read(cards) == expected


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        (None, 1.5),
        ("MAHJONG", 1.5),
        ("8c", 8.5),
        ("Ac", 14.5),
    ],
)
def test_phoenix_single_is_half_above(top: str | None, expected: float) -> None:
    under = combo(top) if top else None
    found = best_reading(parse_cards(["PHOENIX"]), under)
    assert found is not None and found.rank == expected


def test_phoenix_not_on_dragon() -> None:
    assert best_reading(parse_cards(["PHOENIX"]), combo("DRAGON")) is None


@pytest.mark.parametrize(
    ("new", "top", "expected"),
    [
        ("9c", "8c", True),
        ("8d", "8c", False),
        ("7c", "8c", False),
        ("DRAGON", "Ac", True),
        ("Ac", "MAHJONG", True),
        ("2c", "MAHJONG", True),
        ("9c 9d", "8c 8d", True),
        ("9c 9d", "8c", False),  # same type only
        ("5c 5d 6c 6d", "3c 3d 4c 4d", True),
        ("5c 5d 6c 6d", "3c 3d 4c 4d 5h 5s", False),  # same length only
        ("4c 5d 6h 7s 8c 9d", "3c 4d 5h 6s 7c", False),
        ("4c 5d 6h 7s 8c", "3c 4d 5h 6s 7c", True),
        ("3c 3d 3h 2c 2d", "2h 2s 2c 3s 3h", True),
        ("2h 2s 2c 3s 3h", "3c 3d 3h 2c 2d", False),
        ("Kc Kd Kh 2c 2d", "Qh Qs Qc Ah As", True),  # ranked by the triple
        ("2c 2d 2h 2s", "DRAGON", True),  # a bomb beats anything
        ("2c 2d 2h 2s", "Ac Kd Qh Js Tc", True),
        ("3c 3d 3h 3s", "2c 2d 2h 2s", True),
        ("2c 2d 2h 2s", "3c 3d 3h 3s", False),
        ("2h 3h 4h 5h 6h", "Ac Ad Ah As", True),  # a straight flush beats any four
        ("Ac Ad Ah As", "2h 3h 4h 5h 6h", False),
        ("3h 4h 5h 6h 7h", "2s 3s 4s 5s 6s", True),
        ("2h 3h 4h 5h 6h 7h", "9s Ts Js Qs Ks", True),  # longer beats shorter
        ("9s Ts Js Qs Ks", "2h 3h 4h 5h 6h 7h", False),
        ("DOG", "2c", False),
        ("9c", "DOG", False),
    ],
)
def test_comparisons(new: str, top: str, expected: bool) -> None:
    assert beats(combo(new), combo(top)) is expected


def test_highest_legal_reading_is_taken() -> None:
    # 5 6 7 8 P on 4-8: only the 5-9 reading beats.
    top = combo("4c 5d 6h 7s 8c")
    found = best_reading(parse_cards(["5c", "6d", "7h", "8s", "PHOENIX"]), top)
    assert found is not None and (found.rank, found.phoenix) == (9, 9)
    # 7 7 8 8 P on a full house of 7s: only the 8s reading beats.
    top = combo("7h 7s 7c 3c 3d")
    found = best_reading(parse_cards(["7c", "7d", "8h", "8s", "PHOENIX"]), combo("6h 6s 6c 3c 3d"))
    assert found is not None and found.rank == 8


def test_named_phoenix_rank_selects_reading() -> None:
    cards = parse_cards(["5c", "6d", "7h", "8s", "PHOENIX"])
    low = best_reading(cards, None, phoenix=4)
    assert low is not None and low.rank == 8
    assert best_reading(cards, None, phoenix=7) is None


def test_bomb_kinds() -> None:
    assert combo("6c 6d 6h 6s").kind is Kind.FOUR_BOMB
    assert combo("6c 6d 6h 6s").is_bomb
    assert not combo("6c 7d 8h 9s Tc").is_bomb
