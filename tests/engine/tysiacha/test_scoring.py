"""Rulings 9-12 of the Tysiacha section: rounding, the contract, the barrel, misses and
the end of the game; case tables for each rule, then whole deals scored by the engine."""

from __future__ import annotations

import pytest

from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.scoring import (
    Rounding,
    Settled,
    concession_cost,
    contract_made,
    miss_cost,
    round_points,
    settle,
)
from engine.tysiacha.view import Phase
from tests.engine.tysiacha.helpers import play_position, refused, run
from tests.engine.tysiacha.positions import (
    DEFENCE,
    DEFENCE_POINTS,
    DEFENCE_TRICKS,
    SWEEP,
    SWEEP_TRICKS,
)


def play_all(game: TysiachaGame, tricks: list[list[str]]) -> TysiachaGame:
    return run(game, *(line for trick in tricks for line in trick))


# ------------------------------------------------------------ 9. rounding
@pytest.mark.parametrize(
    ("points", "ten", "five"),
    [
        (36, 40, 35), (31, 30, 30), (35, 40, 35), (34, 30, 35), (33, 30, 35), (32, 30, 30),
        (38, 40, 40), (0, 0, 0), (4, 0, 5), (5, 10, 5), (120, 120, 120), (73, 70, 75),
        (117, 120, 115), (118, 120, 120),
    ],
)
def test_rounding(points: int, ten: int, five: int) -> None:
    assert round_points(points) == ten == round_points(points, Rounding.TEN)
    assert round_points(points, Rounding.FIVE) == five


@pytest.mark.parametrize(
    ("points", "marriages", "contract", "made"),
    [(100, 0, 100, True), (98, 0, 100, False), (60, 40, 100, True), (59, 40, 100, False),
     (0, 100, 100, True), (117, 0, 120, False)],
)
def test_contract_counts_unrounded_points_plus_marriages(points: int, marriages: int,
                                                        contract: int, made: bool) -> None:
    assert contract_made(points, marriages, contract) is made


# --------------------------------------------------- 4 and 11. penalties
@pytest.mark.parametrize(("count", "cost"), [(1, 0), (2, 0), (3, -120), (4, -120), (9, -120)])
def test_third_and_later_concessions_and_misses_cost_120(count: int, cost: int) -> None:
    assert concession_cost(count) == cost
    assert miss_cost(count) == cost


# -------------------------------------------------------------- 10. barrel
@pytest.mark.parametrize(
    ("total", "earned", "barrel", "took_part", "settled"),
    [
        (800, 79, None, True, Settled(879, None)),
        (800, 80, None, True, Settled(880, 3)),  # lands on 880: on the barrel
        (850, 149, None, True, Settled(880, 3)),  # 999 is set to 880
        (850, 150, None, True, Settled(1000, None)),  # straight past the barrel
        (880, 0, 3, True, Settled(880, 2)),  # a deal on the barrel uses one of three
        (880, 0, 2, True, Settled(880, 1)),
        (880, 0, 1, True, Settled(760, None, fell=True)),  # the third: -120, off it
        (880, 0, 2, False, Settled(880, 2)),  # sitting a deal out (4 players) uses none
        (880, 100, 2, True, Settled(880, 1)),  # a won contract short of 1000: still there
        (880, 120, 1, True, Settled(1000, None)),  # reaches 1000
        (880, -100, 3, True, Settled(780, None)),  # a lost contract takes it off, no more
        (880, -120, 2, True, Settled(760, None)),  # a penalty too
        (-50, 60, None, True, Settled(10, None)),
    ],
)
def test_barrel(total: int, earned: int, barrel: int | None, took_part: bool,
                settled: Settled) -> None:
    assert settle(total, earned, barrel, took_part=took_part) == settled


# ----------------------------------------------------- whole deals scored
def test_sweep_soloist_makes_and_defenders_miss() -> None:
    game = play_all(play_position(SWEEP), SWEEP_TRICKS)
    result = game.history[-1]
    assert result.points == (120, 0, 0) and result.marriages == (40, 0, 0)
    assert result.made and game.scores == [100, 0, 0]
    assert result.missed == (1, 2) and game.misses == [0, 1, 1]


def test_sweep_with_a_raised_contract() -> None:
    game = play_position(SWEEP, raise_to=160)
    assert refused(game, "0 play Qs marriage") == "marriage_before_trick"
    play_all(game, SWEEP_TRICKS)
    assert game.scores == [160, 0, 0]


def test_third_miss_costs_120() -> None:
    game = play_position(SWEEP)
    game.misses[1], game.misses[2] = 2, 1
    play_all(game, SWEEP_TRICKS)
    assert game.misses == [0, 3, 2] and game.scores == [100, -120, 0]


@pytest.mark.parametrize(
    ("rounding", "scores"),
    [(Rounding.TEN, [-100, 70 + 40, 30]), (Rounding.FIVE, [-100, 75 + 40, 30])],
)
def test_defence_deal_scored_with_each_rounding(rounding: Rounding, scores: list[int]) -> None:
    game = play_all(play_position(DEFENCE, rounding=rounding), DEFENCE_TRICKS)
    result = game.history[-1]
    assert result.points == DEFENCE_POINTS and sum(result.points) == 120
    assert result.marriages == (0, 40, 0) and result.made is False
    assert game.scores == scores and result.missed == ()


def test_on_the_barrel_defender_points_do_not_count() -> None:
    game = play_position(DEFENCE)
    game.scores[1], game.barrel[1] = 880, 3
    game.scores[2], game.barrel[2] = 880, 1
    play_all(game, DEFENCE_TRICKS)
    assert game.scores == [-100, 880, 760] and game.barrel == [None, 2, None]
    assert game.history[-1].fell == (2,) and game.history[-1].scores == (-100, 0, -120)


def test_landing_on_the_barrel() -> None:
    game = play_position(DEFENCE)
    game.scores[1] = 800
    play_all(game, DEFENCE_TRICKS)
    assert game.scores[1] == 880 and game.barrel[1] == 3
    assert game.history[-1].earned[1] == 110 and game.history[-1].scores[1] == 80


def test_soloist_on_the_barrel_reaches_1000_and_wins() -> None:
    game = play_position(SWEEP, raise_to=120)
    game.scores[0], game.barrel[0] = 880, 1
    play_all(game, SWEEP_TRICKS)
    assert game.scores[0] == 1000 and game.winner == 0 and game.phase is Phase.GAME_OVER
    assert refused(game, "0 bid 100") == "game_over"


def test_conceding_on_the_barrel_pays_its_defenders_nothing() -> None:
    game = run(TysiachaGame(seed=4), "0 bid 100", "1 pass", "2 pass")
    game.scores[1], game.barrel[1] = 880, 2
    run(game, "0 concede")
    assert game.scores == [0, 880, 60] and game.barrel == [None, 1, None]


def test_a_deal_sat_out_uses_no_barrel_deal() -> None:
    game = TysiachaGame(players=4, seed=3)
    game.scores[2], game.barrel[2] = 880, 1  # seat 2 deals and sits out
    game.scores[0], game.barrel[0] = 880, 1
    run(game, "3 bid 100", "0 pass", "1 pass", "3 concede")
    assert game.barrel == [None, None, 1, None] and game.scores == [760, 60, 880, 0]
    assert game.history[-1].fell == (0,)


@pytest.mark.parametrize(
    ("before", "winner"),
    [
        ([0, 895, 975], 1),  # both defenders reach 1005: the seat nearer the dealer's left
        ([0, 895, 980], 2),  # the higher total
        ([0, 850, 800], None),
    ],
)
def test_first_to_1000_wins(before: list[int], winner: int | None) -> None:
    # Totals such as 895 cannot arise in play (they would be set to 880); they are set
    # here only to make two seats cross 1000 in the same deal.
    game = play_position(DEFENCE)
    game.scores[:] = before
    play_all(game, DEFENCE_TRICKS)
    assert game.winner == winner
    assert game.phase is (Phase.DEAL_OVER if winner is None else Phase.GAME_OVER)


def test_soloist_first_when_it_and_a_defender_cross_together() -> None:
    game = play_position(SWEEP, raise_to=120)
    game.scores[:] = [880, 1000, 0]  # white-box: a defender already past the target
    game.barrel[0] = 2
    play_all(game, SWEEP_TRICKS)
    assert game.winner == 0
