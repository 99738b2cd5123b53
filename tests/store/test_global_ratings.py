"""The global rating of each game (issue 53), on both backends: kept by ``record_game``
over every rated game anywhere (every guild and direct messages, guild 0) beside each
guild's own, equal to a rebuild from the stored games, rated on open for the games stored
before it existed; and its board, which names only those who chose to appear."""

from __future__ import annotations

from bot.ratings import RatedGame, Seat, rebuild
from bot.store import GamePlayerResult, GameResult, Repository
from bot.store.models import BoardSize

from .conftest import Backend, new_table

ANN, BOB, CAT, DAN, EVE = 101, 202, 303, 404, 505


async def rated(repo: Repository, guild_id: int, people: tuple[int | None, ...], winner: int,
                n: int, *, game: str = "tichu", counted: bool = True) -> int:
    """A Tichu game of ``guild_id`` (0: direct messages): seats 0 and 2 against 1 and 3,
    None a computer at "hard"; ``winner`` the team that won."""
    table = await new_table(repo, guild_id=guild_id, channel_id=500 + n)
    players = [GamePlayerResult(seat=s, user_id=u, bot_level=None if u else "hard",
                                name=f"P{u}", team=s % 2, won=s % 2 == winner,
                                stats={"bombs": 1} if u else {})
               for s, u in enumerate(people)]
    return await repo.record_game(GameResult(
        table_id=table.id, guild_id=guild_id, game=game,
        scores=[1000, 500] if winner == 0 else [500, 1000], winner=winner, players=players,
        replay={}, rated=counted))


def expected(games: list[tuple[int, tuple[int | None, ...], int]]) -> dict[str, tuple[float,
                                                                                     float]]:
    """The ratings bot.ratings gives for ``games`` (id, seats, winner) in that order."""
    played = [RatedGame(game_id, "tichu", tuple(
        Seat(f"u:{u}" if u else "cpu:hard", s % 2, s % 2 == winner,
             1000 if s % 2 == winner else 500) for s, u in enumerate(people)))
        for game_id, people, winner in games]
    final, _ = rebuild(played)
    return {key: (r.mu, r.sigma) for (_, key), r in final.items()}


async def test_every_guild_and_direct_messages_move_one_global_rating(
        repo: Repository) -> None:
    plan = [(1, (ANN, BOB, CAT, DAN), 0), (2, (ANN, CAT, BOB, None), 1),
            (0, (ANN, BOB, CAT, DAN), 0), (1, (BOB, ANN, DAN, CAT), 1)]
    ids = [await rated(repo, guild, people, winner, n)
           for n, (guild, people, winner) in enumerate(plan)]
    await rated(repo, 1, (ANN, BOB, CAT, DAN), 1, 9, counted=False)  # unrated: no change
    overall = {r.player: r for r in await repo.ratings(None, "tichu")}
    want = expected([(i, people, winner) for i, (_, people, winner) in zip(ids, plan,
                                                                               strict=True)])
    assert {key: (r.mu, r.sigma) for key, r in overall.items()} == want
    assert overall[f"u:{ANN}"].games == 4 and overall[f"u:{DAN}"].games == 3
    assert overall["cpu:hard"].games == 1 and overall["cpu:hard"].user_id is None
    # Each guild keeps its own beside it: Ann's three guilds, one game or two each.
    assert [next(r.games for r in await repo.ratings(g, "tichu") if r.player == f"u:{ANN}")
            for g in (0, 1, 2)] == [1, 2, 1]
    # Ann's global history: one point per rated game, anywhere, the last one her rating
    # now; her history in guild 1 only that guild's two games.
    points = await repo.rating_history(None, "tichu", ANN)
    assert [p.game_id for p in points] == ids
    assert (points[-1].mu, points[-1].sigma) == want[f"u:{ANN}"]
    assert [p.game_id for p in await repo.rating_history(1, "tichu", ANN)] == [ids[0], ids[3]]
    assert await repo.rating_history(None, "tichu", EVE) == []
    # A rebuild from the stored games gives the same numbers.
    before = await repo.ratings(None, "tichu")
    assert await repo.rebuild_ratings() == 4
    assert await repo.ratings(None, "tichu") == before
    assert await repo.ratings(None, "chinois") == []


async def test_games_stored_before_the_global_rating_are_rated_on_open(
        repo: Repository, backend: Backend) -> None:
    """As the games before migration 0002 were: a database whose games have no global
    rating yet (as 0011 leaves it) gets them all, once, when it opens."""
    await rated(repo, 1, (ANN, BOB, CAT, DAN), 0, 1)
    await rated(repo, 0, (ANN, CAT, BOB, None), 1, 2)
    before = await repo.ratings(None, "tichu")
    guild = await repo.ratings(1, "tichu")
    assert before
    await repo.close()
    await backend.tamper("DELETE FROM global_rating_history")
    await backend.tamper("DELETE FROM global_ratings")
    async with backend.repository() as reopened:
        assert await reopened.ratings(None, "tichu") == before
        assert await reopened.ratings(1, "tichu") == guild


async def test_the_global_board_names_only_those_who_chose_to_appear(
        repo: Repository) -> None:
    await rated(repo, 1, (ANN, BOB, CAT, DAN), 0, 1)
    await rated(repo, 2, (ANN, EVE, CAT, None), 0, 2)
    await rated(repo, 0, (ANN, BOB, CAT, EVE), 0, 3)
    await repo.set_standings(ANN, True)
    await repo.set_standings(BOB, True)
    await repo.set_standings(DAN, False)  # said no: not listed, as those who never said
    ranked = [int(r.player[2:]) for r in await repo.ratings(None, "tichu")
              if r.user_id is not None]
    assert ranked[0] == ANN and set(ranked) == {ANN, BOB, CAT, DAN, EVE}

    board = await repo.leaderboard(None, "tichu")
    # Their places among everyone rated (the hidden ones count, unnamed).
    assert [(r.user_id, r.rank) for r in board] == [
        (u, ranked.index(u) + 1) for u in (ANN, BOB)]
    ann = board[0]
    assert (ann.games, ann.wins, ann.stats["bombs"]) == (3, 3, 3)  # every guild's games
    assert await repo.global_board_size("tichu") == BoardSize(shown=2, hidden=3)
    # Pages go through those shown only.
    assert [r.user_id for r in await repo.leaderboard(None, "tichu", limit=1, offset=1)] == [BOB]
    # A hidden person finds their own place (their own data).
    eve = await repo.player_stats(None, "tichu", EVE)
    assert eve is not None and eve.rank == ranked.index(EVE) + 1 and eve.games == 2
    assert await repo.player_stats(None, "tichu", 999) is None
    # A guild's board is as before: everyone who played there, whatever they chose.
    assert {r.user_id for r in await repo.leaderboard(2, "tichu")} == {ANN, EVE, CAT}
    assert await repo.global_board_size("chinois") == BoardSize(shown=0, hidden=0)
