"""bot.ratings on known results: who gains how much, and rebuild == incremental."""

from __future__ import annotations

import pytest

from bot.ratings import RatedGame, Rating, Seat, places, player_key, rate_game, rebuild


def tichu(a: list[str], b: list[str], a_won: bool) -> list[Seat]:
    return [Seat(a[0], 0, a_won, 0), Seat(b[0], 1, not a_won, 0),
            Seat(a[1], 0, a_won, 0), Seat(b[1], 1, not a_won, 0)]


def test_ordinal_is_mu_minus_three_sigma() -> None:
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)
    assert Rating().ordinal == pytest.approx(0.0)


def test_player_keys() -> None:
    assert player_key(42, None) == "u:42"
    assert player_key(None, "hard") == "cpu:hard"
    assert player_key(None, None) is None


def test_a_team_that_beats_a_stronger_team_gains_more() -> None:
    seats = tichu(["u:1", "u:2"], ["u:3", "u:4"], a_won=True)
    weak = {"u:3": Rating(20.0, 3.0), "u:4": Rating(20.0, 3.0)}
    strong = {"u:3": Rating(35.0, 3.0), "u:4": Rating(35.0, 3.0)}
    after_weak = rate_game("tichu", seats, weak)
    after_strong = rate_game("tichu", seats, strong)
    gain_weak = after_weak["u:1"].mu - 25.0
    gain_strong = after_strong["u:1"].mu - 25.0
    assert 0 < gain_weak < gain_strong
    assert after_weak["u:1"] == after_weak["u:2"]  # teammates move together
    assert after_weak["u:3"].mu < 20.0


def test_beating_hard_gains_more_than_beating_easy() -> None:
    ratings = {"cpu:hard": Rating(32.0, 2.0), "cpu:easy": Rating(15.0, 2.0)}
    def ffa(other: str) -> dict[str, Rating]:
        return rate_game("chinois", [Seat("u:1", 0, True, 300), Seat(other, 1, False, 100),
                                     Seat(other, 2, False, 90), Seat(other, 3, False, 80)],
                         ratings)
    assert ffa("cpu:hard")["u:1"].mu > ffa("cpu:easy")["u:1"].mu > 25.0


def test_free_for_all_ranks_by_win_then_score_with_ties() -> None:
    seats = [Seat("u:1", 0, False, 500), Seat("u:2", 1, True, 1000),
             Seat("u:3", 2, False, 500), Seat("u:4", 3, False, -20)]
    assert [rank for _, rank in places("tysiacha", seats)] == [1, 0, 1, 2]
    new = rate_game("tysiacha", seats, {})
    assert new["u:1"] == new["u:3"]  # a shared place moves alike
    assert new["u:2"].mu > new["u:1"].mu > new["u:4"].mu


def test_a_draw_in_tichu_moves_nobody_much() -> None:
    seats = [Seat("u:1", 0, False, 1000), Seat("u:2", 1, False, 1000),
             Seat("u:3", 0, False, 1000), Seat("u:4", 1, False, 1000)]
    new = rate_game("tichu", seats, {})
    assert new["u:1"].mu == pytest.approx(25.0)
    assert new["u:1"].sigma < Rating().sigma


def test_one_key_alone_is_not_rated() -> None:
    assert rate_game("chinois", [Seat("cpu:easy", s, s == 0, 10 - s) for s in range(4)], {}) == {}


def test_rebuild_equals_incremental_updates() -> None:
    games = [
        RatedGame(1, "tichu", tuple(tichu(["u:1", "u:2"], ["u:3", "cpu:hard"], True))),
        RatedGame(2, "chinois", (Seat("u:1", 0, False, 40), Seat("u:2", 1, True, 90),
                                 Seat("cpu:easy", 2, False, 10), Seat("cpu:easy", 3, False, 5))),
        RatedGame(3, "tichu", tuple(tichu(["u:3", "cpu:hard"], ["u:1", "u:4"], True))),
        RatedGame(4, "tysiacha", (Seat("u:4", 0, True, 1000), Seat("u:1", 1, False, 400),
                                  Seat("cpu:hard", 2, False, 700))),
    ]
    incremental: dict[tuple[str, str], Rating] = {}
    for played in games:
        known = {s.key: incremental[played.game, s.key] for s in played.seats
                 if (played.game, s.key) in incremental}
        for key, rating in rate_game(played.game, played.seats, known).items():
            incremental[played.game, key] = rating
    final, after = rebuild(games)
    assert final == incremental
    assert set(after) == {1, 2, 3, 4}
    assert final["tichu", "u:1"] == after[3]["u:1"]
    assert ("tichu", "u:4") in final and ("chinois", "u:4") not in final
