"""Rulings 7 and 8 of the Tysiacha section: play, the duty to follow and to trump, and
marriages; with the error codes of the play."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.tysiacha.actions import Play
from engine.tysiacha.cards import HEARTS, SPADES
from engine.tysiacha.legal import legal_cards, marriage_leads
from engine.tysiacha.view import Phase
from tests.engine.tysiacha.helpers import play_position, refused, run
from tests.engine.tysiacha.positions import DEFENCE, DEFENCE_TRICKS, SWEEP, SWEEP_TRICKS


def flat(tricks: list[list[str]]) -> list[str]:
    return [line for trick in tricks for line in trick]


def test_soloist_leads_the_first_trick_and_the_winner_the_next() -> None:
    game = play_position(DEFENCE)
    assert game.turn == 0 and game.soloist == 0
    run(game, *DEFENCE_TRICKS[0])
    assert game.turn == 2 and game.tricks_taken == [0, 0, 1]


@pytest.mark.parametrize(
    ("tricks", "bad", "code"),
    [
        (0, "1 play 9c", "not_your_turn"),
        (0, "0 play As", "card_not_in_hand"),
        (0, "0 play Kc marriage", "marriage_before_trick"),  # not yet won a trick
        (4, "0 play Kc marriage", "not_a_marriage"),  # the Queen is with seat 2
        (4, "0 play Ac marriage", "not_a_marriage"),
        (1, "2 play Qc marriage", "not_a_marriage"),  # the King is elsewhere
        (2, "1 play Js marriage", "not_a_marriage"),  # a Jack is no spouse
        (5, "0 play Kc", "not_your_turn"),
    ],
)
def test_play_refusals(tricks: int, bad: str, code: str) -> None:
    game = run(play_position(DEFENCE), *flat(DEFENCE_TRICKS[:tricks]))
    assert refused(game, bad) == code


def test_marriage_only_with_a_lead() -> None:
    game = run(play_position(DEFENCE), *flat(DEFENCE_TRICKS[:2]), "1 play Kh")
    # Seat 1 has won a trick and holds Ks Qs, but the trick is open: no marriage now.
    assert refused(game, "2 play Jh marriage") == "marriage_not_on_lead"


def test_must_follow_suit_then_must_trump() -> None:
    game = run(play_position(DEFENCE), *flat(DEFENCE_TRICKS[:3]))
    assert game.trump == SPADES
    run(game, "1 play Kh")
    assert refused(game, "2 play Qc") == "must_follow_suit"
    run(game, "2 play Jh", "0 play Ah", *DEFENCE_TRICKS[4], "2 play Jc", "0 play Kc")
    # Seat 1 has no club and holds trumps (Ks Js): it must trump, but need not beat.
    assert refused(game, "1 play Th") == "must_trump"
    assert set(map(str, legal_cards(game.view(1)))) == {"Ks", "Js"}


def test_void_without_trump_plays_anything_and_no_duty_to_beat() -> None:
    game = play_position(DEFENCE)
    run(game, "0 play 9d")
    # Seat 1 holds Qd and Td: either may follow; beating is not required.
    assert game.can(Play(1, parse_card("Td"))) and game.can(Play(1, parse_card("Qd")))
    run(game, "1 play Td", "2 play Ad", "2 play Ts")
    # Seat 0 has no spade and no trump is set: any card.
    assert set(legal_cards(game.view(0))) == set(game.hands[0])


def test_marriage_sets_trump_at_once_and_scores_for_the_declarer() -> None:
    game = run(play_position(DEFENCE), *flat(DEFENCE_TRICKS[:2]))
    assert game.trump is None
    assert set(marriage_leads(game.view(1))) == {parse_card("Ks"), parse_card("Qs")}
    run(game, "1 play Qs marriage")
    # This very trick is played with spades as trump.
    assert game.trump == SPADES and game.view(None).trump == SPADES
    assert game.marriages == [(1, SPADES)] and game.marriage_points(1) == 40
    assert marriage_leads(game.view(2)) == ()


def test_a_later_marriage_replaces_the_trump() -> None:
    hands = ["Ah Th Kh Qh Ks Qs 9d 9s", "Jh 9h Ac Tc Kc Qc Jc 9c", "As Ts Js Ad Td Kd Qd Jd"]
    game = run(play_position(hands), "0 play Ah", "1 play 9h", "2 play Jd",
               "0 play Qs marriage", "1 play Jc", "2 play Js")
    assert game.trump == SPADES and game.turn == 0
    run(game, "0 play Qh marriage")
    assert game.trump == HEARTS
    assert game.marriages == [(0, SPADES), (0, HEARTS)] and game.marriage_points(0) == 140
    run(game, "1 play Jh", "2 play Ts")
    assert game.tricks_taken[0] == 3
    # Spades are no trump any more: seat 1, void in spades, need not (cannot) trump them.
    run(game, "0 play Ks")
    assert set(legal_cards(game.view(1))) == set(game.hands[1])


def test_the_sweep_deal_plays_out() -> None:
    game = run(play_position(SWEEP), *flat(SWEEP_TRICKS))
    assert game.phase is Phase.DEAL_OVER and game.tricks_taken == [8, 0, 0]
    assert refused(game, "0 play As") == "deal_over"
