"""Finished games, the leaderboard, player totals and recent games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.store import (
    GamePlayerResult,
    GameResult,
    LeaderboardRow,
    Repository,
    StoreError,
    TableStatus,
)

from .conftest import new_table

ANN, BOB, CAT, DAN, EVE = 100, 200, 300, 400, 500
DAY = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)

Seat = tuple[int | None, str, dict[str, int]]


def players(seats: list[Seat], winning_team: int) -> list[GamePlayerResult]:
    """Four seats in order; seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return [
        GamePlayerResult(seat=seat, user_id=user, bot_level=None if user else "hard",
                         name=name, team=seat % 2, won=seat % 2 == winning_team, stats=stats)
        for seat, (user, name, stats) in enumerate(seats)
    ]


async def record(repo: Repository, seats: list[Seat], winner: int, day: int, *,
                 guild_id: int = 1, game: str = "tichu") -> GameResult:
    table = await new_table(repo, guild_id=guild_id, game=game, channel_id=1000 + day)
    result = GameResult(
        table_id=table.id, guild_id=guild_id, game=game,
        scores=[1000, 600] if winner == 0 else [400, 1010], winner=winner,
        players=players(seats, winner), replay={"seed": f"day-{day}", "actions": [day]},
        finished_at=DAY + timedelta(days=day))
    result.id = await repo.record_game(result)
    return result


@pytest.fixture
async def season(repo: Repository) -> list[GameResult]:
    """Four games of guild 1 (and two that must not count): see the expected totals."""
    robot: Seat = (None, "Robot", {"tichu_called": 1, "tichu_won": 1})
    games = [
        await record(repo, [(ANN, "Ann", {"tichu_called": 1, "tichu_won": 1}),
                            (BOB, "Bob", {"grand_tichu_called": 1}),
                            (CAT, "Cat", {}), robot], winner=0, day=1),
        await record(repo, [(ANN, "Ann", {"tichu_called": 1}),
                            (BOB, "Bob", {"tichu_called": 1, "tichu_won": 1}),
                            (DAN, "Dan", {"bombs": 2}), robot], winner=1, day=2),
        await record(repo, [(ANN, "Ann B.", {"tichu_called": 1, "tichu_won": 1, "bombs": 1}),
                            (CAT, "Cat", {"tichu_called": 1}),
                            (BOB, "Bob", {}), (DAN, "Dan", {})], winner=0, day=3),
        await record(repo, [(EVE, "Eve", {"grand_tichu_called": 1, "grand_tichu_won": 1}),
                            (BOB, "Bob", {}), robot, (DAN, "Dan", {})], winner=0, day=4),
    ]
    # Another guild, and another game in this guild: neither counts below.
    await record(repo, [(ANN, "Ann", {"tichu_called": 5}), (BOB, "Bob", {}),
                        (CAT, "Cat", {}), (DAN, "Dan", {})], winner=0, day=5, guild_id=2)
    await record(repo, [(DAN, "Dan", {}), (ANN, "Ann", {}), (BOB, "Bob", {}),
                        (CAT, "Cat", {})], winner=0, day=6, game="chinois")
    return games


def rated(rating: float, rank: int) -> dict[str, Any]:
    """The rating fields of a row: the ordinal of bot/ratings.py after the season."""
    return {"rating": pytest.approx(rating, abs=1e-6), "rank": rank}


# By rating (mu - 3 sigma of the openskill model): Eve's one win over the strong side of
# day 4 puts her above Bob, who has more wins over more games.
EXPECTED = [
    LeaderboardRow(ANN, "Ann B.", games=3, wins=2,
                   stats={"bombs": 1, "tichu_called": 3, "tichu_won": 2},
                   **rated(2.918005323, 1)),
    LeaderboardRow(EVE, "Eve", games=1, wins=1,
                   stats={"grand_tichu_called": 1, "grand_tichu_won": 1},
                   **rated(2.376883638, 2)),
    LeaderboardRow(BOB, "Bob", games=4, wins=2,
                   stats={"grand_tichu_called": 1, "tichu_called": 1, "tichu_won": 1},
                   **rated(2.180857025, 3)),
    LeaderboardRow(CAT, "Cat", games=2, wins=1, stats={"tichu_called": 1},
                   **rated(0.977062489, 4)),
    LeaderboardRow(DAN, "Dan", games=3, wins=0, stats={"bombs": 2},
                   **rated(-4.621883863, 5)),
]


async def test_the_leaderboard_ranks_humans_by_rating(
        repo: Repository, season: list[GameResult]) -> None:
    board = await repo.leaderboard(1, "tichu")
    assert board == EXPECTED
    assert [row.rating for row in board] == sorted((row.rating for row in board), reverse=True)
    assert [round(row.win_rate, 3) for row in board] == [0.667, 1.0, 0.5, 0.5, 0.0]
    assert all(row.user_id is not None for row in board)  # the robots are not listed
    assert await repo.leaderboard_size(1, "tichu") == 5
    assert await repo.leaderboard_size(3, "tichu") == 0


async def test_the_computer_level_is_rated_like_a_player(
        repo: Repository, season: list[GameResult]) -> None:
    ratings = {row.player: row for row in await repo.ratings(1, "tichu")}
    assert set(ratings) == {"u:100", "u:200", "u:300", "u:400", "u:500", "cpu:hard"}
    assert ratings["cpu:hard"].user_id is None and ratings["cpu:hard"].games == 3
    assert ratings["u:200"].games == 4


async def test_rebuilding_the_ratings_gives_the_same_numbers(
        repo: Repository, season: list[GameResult]) -> None:
    before = {guild: await repo.ratings(guild, game)
              for guild, game in ((1, "tichu"), (2, "tichu"), (1, "chinois"))}
    history = await repo.rating_history(1, "tichu", BOB)
    assert [point.game_id for point in history] == [g.id for g in season]
    assert history[-1].ordinal == pytest.approx(EXPECTED[2].rating)
    assert await repo.rebuild_ratings() == 6
    after = {guild: await repo.ratings(guild, game)
             for guild, game in ((1, "tichu"), (2, "tichu"), (1, "chinois"))}
    assert after == before
    assert await repo.rating_history(1, "tichu", BOB) == history


async def test_partners_are_teammates_by_shared_wins(
        repo: Repository, season: list[GameResult]) -> None:
    partners = await repo.partners(1, "tichu", ANN)
    assert [(p.player, p.games, p.wins) for p in partners] == [
        ("u:200", 1, 1), ("u:300", 1, 1), ("u:400", 1, 0)]
    assert (await repo.partners(1, "tichu", BOB))[0].player == "cpu:hard"


async def test_load_game_is_per_guild(repo: Repository,
                                      season: list[GameResult]) -> None:
    first = season[0]
    assert first.id is not None
    assert await repo.load_game(1, first.id) == first
    assert await repo.load_game(2, first.id) is None


async def test_the_leaderboard_pages(repo: Repository, season: list[GameResult]) -> None:
    assert await repo.leaderboard(1, "tichu", limit=2) == EXPECTED[:2]
    assert await repo.leaderboard(1, "tichu", limit=2, offset=2) == EXPECTED[2:4]
    assert await repo.leaderboard(1, "tichu", limit=2, offset=4) == EXPECTED[4:]
    assert await repo.leaderboard(1, "tichu", limit=2, offset=5) == []
    assert await repo.leaderboard(1, "tichu", limit=0) == []
    with pytest.raises(StoreError) as caught:
        await repo.leaderboard(1, "tichu", limit=-1)
    assert caught.value.code == "invalid_argument"


async def test_other_guilds_and_games_are_separate(repo: Repository,
                                                   season: list[GameResult]) -> None:
    other_guild = await repo.leaderboard(2, "tichu")
    assert [(r.user_id, r.games, r.wins) for r in other_guild] == [
        (ANN, 1, 1), (CAT, 1, 1), (BOB, 1, 0), (DAN, 1, 0)]
    assert other_guild[0].stats == {"tichu_called": 5}
    assert [r.user_id for r in await repo.leaderboard(1, "chinois")][:2] == [BOB, DAN]
    assert await repo.leaderboard(3, "tichu") == []


async def test_player_stats(repo: Repository, season: list[GameResult]) -> None:
    for expected in EXPECTED:
        assert await repo.player_stats(1, "tichu", expected.user_id) == expected
    assert await repo.player_stats(1, "tichu", 999) is None
    assert await repo.player_stats(3, "tichu", ANN) is None
    in_other_guild = await repo.player_stats(2, "tichu", ANN)
    assert in_other_guild == LeaderboardRow(ANN, "Ann", 1, 1, {"tichu_called": 5},
                                            **rated(2.430406809, 1))


async def test_recent_games_newest_first(repo: Repository,
                                         season: list[GameResult]) -> None:
    first, second, third, fourth = season
    assert await repo.recent_games(1, "tichu") == [fourth, third, second, first]
    assert await repo.recent_games(1, "tichu", limit=2) == [fourth, third]
    assert await repo.recent_games(1, "tichu", user_id=CAT) == [third, first]
    assert await repo.recent_games(1, "tichu", user_id=EVE) == [fourth]
    assert await repo.recent_games(1, "tichu", user_id=999) == []
    assert await repo.recent_games(1, "tichu", limit=0) == []
    newest = (await repo.recent_games(1, "tichu", limit=1))[0]
    assert newest.finished_at is not None and newest.finished_at.tzinfo is not None
    assert newest.players[2].bot_level == "hard" and newest.players[2].user_id is None


async def test_record_game_finishes_the_table(repo: Repository) -> None:
    table = await new_table(repo)
    await new_table(repo, channel_id=99)
    assert table.id in await repo.active_table_ids()
    game_id = await repo.record_game(GameResult(
        table_id=table.id, guild_id=1, game="tichu", scores=[500, 500], winner=None,
        players=players([(ANN, "Ann", {}), (BOB, "Bob", {}), (CAT, "Cat", {}),
                         (DAN, "Dan", {})], winning_team=-1),
        replay={"actions": []}))
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.status is TableStatus.FINISHED
    assert table.id not in await repo.active_table_ids()
    assert await repo.find_active_table(10) is None
    [game] = await repo.recent_games(1, "tichu")
    assert (game.id, game.winner, game.scores) == (game_id, None, [500, 500])
    assert game.finished_at is not None  # stamped by the store


async def test_record_game_is_all_or_nothing(repo: Repository) -> None:
    table = await new_table(repo)
    bad_team: Any = None
    broken = GameResult(
        table_id=table.id, guild_id=1, game="tichu", scores=[1, 0], winner=0, replay={},
        players=[GamePlayerResult(0, ANN, None, "Ann", 0, True, {"tichu_called": 1}),
                 GamePlayerResult(1, BOB, None, "Bob", bad_team, False)])
    with pytest.raises(StoreError) as caught:
        await repo.record_game(broken)  # fails on the second player, inside the transaction
    assert caught.value.code == "constraint_failed"
    assert await repo.recent_games(1, "tichu") == []
    assert await repo.player_stats(1, "tichu", ANN) is None
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.status is TableStatus.LOBBY

    broken.players[1].team = 1
    await repo.record_game(broken)
    with pytest.raises(StoreError) as again:
        await repo.record_game(broken)
    assert again.value.code == "game_already_recorded"
    assert len(await repo.recent_games(1, "tichu")) == 1


@pytest.mark.parametrize(("change", "code"), [
    ({"table_id": 404}, "unknown_table"),
    ({"scores": [1, "x"]}, "invalid_game"),
    ({"replay": {"when": object()}}, "not_json"),
    ({"players": [GamePlayerResult(0, ANN, None, "Ann", 0, True),
                  GamePlayerResult(0, BOB, None, "Bob", 1, False)]}, "invalid_game"),
    ({"players": [GamePlayerResult(0, ANN, None, "Ann", 0, True, {"tichu": True})]},
     "invalid_stats"),
    ({"players": [GamePlayerResult(0, ANN, None, "Ann", 0, True, {"": 1})]}, "invalid_stats"),
])
async def test_record_game_refuses_bad_results(repo: Repository, change: dict[str, Any],
                                               code: str) -> None:
    table = await new_table(repo)
    fields: dict[str, Any] = {
        "table_id": table.id, "guild_id": 1, "game": "tichu", "scores": [1, 0], "winner": 0,
        "players": [GamePlayerResult(0, ANN, None, "Ann", 0, True)], "replay": {}}
    fields.update(change)
    with pytest.raises(StoreError) as caught:
        await repo.record_game(GameResult(**fields))
    assert caught.value.code == code
    assert await repo.recent_games(1, "tichu") == []


async def test_a_user_in_two_seats_counts_one_game(repo: Repository) -> None:
    """A test table where one person plays both seats of a team."""
    await record(repo, [(ANN, "Ann", {"tichu_called": 1}), (None, "Robot", {}),
                        (ANN, "Ann", {"tichu_called": 1, "tichu_won": 1}), (None, "Robot", {})],
                 winner=0, day=1, guild_id=7)
    assert await repo.leaderboard(7, "tichu") == [
        LeaderboardRow(ANN, "Ann", games=1, wins=1, stats={"tichu_called": 2, "tichu_won": 1},
                       **rated(2.430406809, 1))]
