"""Views show each seat its own hand only, and the public view none."""

from __future__ import annotations

from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase
from tests.engine.tichu.helpers import position, run


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


def test_views_are_shared_until_the_next_action() -> None:
    from engine.tichu.actions import DeclineGrand

    game = TichuGame(seed=4)
    first = game.view(0)
    assert game.view(0) is first  # built once between two actions
    game.apply(DeclineGrand(0))
    after = game.view(0)
    assert after is not first and after.grand_decided[0] and not first.grand_decided[0]
    assert len(after.hand) == 14 and len(first.hand) == 8


def test_touch_drops_views_after_direct_edits() -> None:
    game = TichuGame(seed=4)
    before = game.view(None)
    game.scores = [100, 40]
    assert game.view(None) is before  # not seen until touched
    game.touch()
    assert game.view(None).scores == (100, 40)


def test_views_compare_and_replace_like_dataclasses() -> None:
    import dataclasses

    import pytest

    game = TichuGame(seed=4)
    view = game.view(1)
    game.touch()
    rebuilt = game.view(1)
    assert rebuilt == view and rebuilt is not view
    moved = dataclasses.replace(view, turn=2)
    assert moved.turn == 2 and moved.hand == view.hand
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 3  # type: ignore[misc]


def test_views_kept_across_passes_match_views_built_afresh() -> None:
    """A pass keeps the hands, the trick and the points taken of the views before
    it; after every action of many random deals (four and six seats) the views
    equal the ones built from scratch."""
    import random

    from engine.tichu.actions import Action
    from engine.tichu.ai.selfplay import play_deal

    checked = 0

    def compare(game: TichuGame, seat: int, action: Action, spent: float) -> None:
        nonlocal checked
        seats: list[int | None] = [None, *range(game.n_seats)]
        kept = [game.view(s) for s in seats]
        game.touch()
        assert [game.view(s) for s in seats] == kept
        checked += 1

    for n in (4, 6):
        for seed in range(25):
            game = TichuGame(seed=seed, players=n)
            play_deal(game, [EasyPlayer()] * n, random.Random(seed), compare)
    assert checked > 5000


def test_the_wish_voids_are_public_and_only_what_the_wish_proves() -> None:
    game = run(position(["MAHJONG 4h 5s 9c", "7s 7h 7d 7c 6d", "", "9s 9h 9d"]),
               "0 play MAHJONG wish=9", "1 play 7s 7h 7d 7c", "2 pass", "3 pass")
    # A bomb need not fulfil the wish, and no 9 could be played on a bomb: nothing known.
    assert game.view(None).wish_voids == (frozenset(),) * 4
    run(game, "0 pass", "1 play 6d")  # seat 1 leads (it took the trick) without a 9
    assert game.view(None).wish_voids == (frozenset(), frozenset({9}), frozenset(), frozenset())
    assert game.view(2).wish_voids == game.view(None).wish_voids
    run(game, "2 pass", "3 play 9s")  # fulfilled: what was shown stays known
    assert game.view(0).wish_voids[1:3] == (frozenset({9}), frozenset({9}))
