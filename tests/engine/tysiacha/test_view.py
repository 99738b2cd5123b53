"""Views show each seat its own hand only, the prikup after the bidding, gifts to the two
seats concerned; legal choices read from them agree with the game."""

from __future__ import annotations

from engine.tysiacha.actions import Give, Play, Raise
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import can_concede, can_redeal, legal_cards, legal_gifts, legal_raises
from engine.tysiacha.view import Phase
from tests.engine.tysiacha.helpers import play_position, run
from tests.engine.tysiacha.positions import DEFENCE, DEFENCE_TRICKS


def test_public_view_has_no_hand_and_seat_views_only_their_own() -> None:
    game = TysiachaGame(seed=11)
    public = game.view(None)
    assert public.hand == () and public.prikup == () and public.hand_counts == (7, 7, 7)
    for seat in range(3):
        assert game.view(seat).hand == tuple(game.hands[seat])
        assert not set(game.view(seat).hand) & set(game.deal.prikup)


def test_legal_choices_agree_with_the_game() -> None:
    game = play_position(DEFENCE)
    run(game, *DEFENCE_TRICKS[0], *DEFENCE_TRICKS[1])
    for seat in range(3):
        legal = legal_cards(game.view(seat))
        for c in game.hands[seat]:
            assert game.can(Play(seat, c)) == (c in legal)
    assert not can_redeal(game.view(1)) and legal_raises(game.view(0)) == ()


def test_prikup_phase_choices_are_the_soloists() -> None:
    game = run(TysiachaGame(seed=2), "0 bid 100", "1 pass", "2 pass")
    assert game.phase is Phase.PRIKUP
    assert can_concede(game.view(0)) and not can_concede(game.view(1))
    assert all(game.can(Give(0, g)) for g in legal_gifts(game.view(0)))
    assert all(game.can(Raise(0, b)) for b in legal_raises(game.view(0)))
    assert not any(game.can(Raise(1, b)) for b in legal_raises(game.view(0)))
    assert game.view(1).prikup == game.deal.prikup
