"""Views show each seat its own hand only, and the public view none."""

from __future__ import annotations

from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase


def test_public_view_has_no_hand_and_seat_views_only_their_own() -> None:
    game = play_game([EasyPlayer()] * 4, seed=11, max_deals=1)
    game.next_deal()
    public = game.view(None)
    assert public.hand == () and public.given == {} and public.received == {}
    for seat in range(4):
        view = game.view(seat)
        assert set(view.hand) <= set(game.dealt[seat])
        others = {c for s in range(4) if s != seat for c in game.hands[s]}
        assert not set(view.hand) & others


def test_grand_phase_hides_the_last_six_cards() -> None:
    game = TichuGame(seed=4)
    assert game.view(0).hand == game.dealt[0][:8]
    assert game.view(None).hand_counts == (8, 8, 8, 8)
    assert game.phase is Phase.GRAND


def test_six_player_views_show_only_their_own_hand() -> None:
    game = play_game([EasyPlayer()] * 6, seed=11, max_deals=1)
    game.next_deal()
    public = game.view(None)
    assert public.n_seats == 6 and public.hand == () and public.dealer == game.dealer
    assert public.hand_counts == (6,) * 6 and public.grand_packet == 6
    for seat in range(6):
        view = game.view(seat)
        assert view.hand == game.dealt[seat][:6]
        others = {c for s in range(6) if s != seat for c in game.hands[s]}
        assert not set(view.hand) & others
