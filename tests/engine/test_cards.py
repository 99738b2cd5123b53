"""Card notation shared by every game."""

from __future__ import annotations

import pytest

from engine.cards import card, format_cards, french_deck, parse_card, rank_from_token, shuffled
from engine.errors import EngineError
from engine.tichu.cards import DECK, POINTS, card_points


@pytest.mark.parametrize(
    ("token", "text"),
    [("Ah", "Ah"), ("ah", "Ah"), ("Tc", "Tc"), ("10c", "Tc"), ("tC", "Tc"), ("2s", "2s"),
     ("mahjong", "MAHJONG"), ("Dog", "DOG"), ("PHOENIX", "PHOENIX"), ("dragon", "DRAGON")],
)
def test_tokens_round_trip(token: str, text: str) -> None:
    assert str(parse_card(token)) == text


@pytest.mark.parametrize("token", ["", "1c", "Ax", "11h", "A", "KING", "Joker"])
def test_bad_tokens(token: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_card(token)
    assert info.value.code == "bad_card"


def test_ranks_and_suits() -> None:
    assert card(14, 2) == parse_card("Ah")
    assert parse_card("Qs").rank == 12 and parse_card("Qs").suit == 3
    assert rank_from_token("10") == rank_from_token("T") == 10
    assert parse_card("DRAGON").suit is None


def test_decks() -> None:
    assert len(DECK) == 56 and len(set(DECK)) == 56
    assert len(french_deck()) == 52 and len(french_deck(9)) == 24
    assert card_points(DECK) == 100
    assert sum(1 for c in DECK if POINTS[c]) == 14
    assert format_cards(shuffled(DECK, 1)) == format_cards(shuffled(DECK, 1))
    assert format_cards(shuffled(DECK, 1)) != format_cards(shuffled(DECK, 2))
