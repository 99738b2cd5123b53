"""Views show each seat its own hand only; legal choices are read from them."""

from __future__ import annotations

from engine.chinois.actions import Bid, Play
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_bids, legal_cards
from tests.engine.chinois.helpers import bids, position, run


def test_public_view_has_no_hand_and_seat_views_only_their_own() -> None:
    game = ChinoisGame(seed=11)
    public = game.view(None)
    assert public.hand == () and public.hand_counts == (1, 1, 1, 1)
    for seat in range(4):
        assert game.view(seat).hand == tuple(game.hands[seat])
    assert public.trump_card == game.deal.trump_card and public.trump == game.trump


def test_legal_bids_only_for_the_seat_to_bid() -> None:
    game = position(4, ["", "", "", ""])
    first = game.turn
    assert first is not None
    assert legal_bids(game.view(first)) == (0, 1, 2, 3, 4)
    assert all(legal_bids(game.view(s)) == () for s in range(4) if s != first)
    assert legal_bids(game.view(None)) == () and legal_cards(game.view(first)) == ()
    bids(game, 1, 1, 1)
    assert game.view(None).forbidden_bid == 1
    assert legal_bids(game.view(game.dealer)) == (0, 2, 3, 4)


def test_legal_cards_follow_suit_and_agree_with_the_game() -> None:
    game = bids(position(3, ["Ad 2h 3c", "Kh 5c 6d", "Qs 2s 3s", "7h 8h 9h"], trump_card="Td"),
                0, 0, 0, 0)
    assert set(map(str, legal_cards(game.view(2)))) == {"Qs", "2s", "3s"}
    run(game, "2 play Qs")
    assert set(map(str, legal_cards(game.view(3)))) == {"7h", "8h", "9h"}
    for seat in range(4):
        for c in game.hands[seat]:
            assert game.can(Play(seat, c)) == (c in legal_cards(game.view(seat)))
    assert not game.can(Bid(3, 0))
