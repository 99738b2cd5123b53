"""Duplicate Tichu (issue 24): events, each board's computer field, people's results
per board (one attempt per person per board, decided by the database), the channel
of the daily standings and unrated games; on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from bot.store import (
    BoardPlayer,
    BoardResult,
    CorruptRowError,
    EventRecord,
    FieldResult,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    Repository,
    ShardLostError,
    StoreError,
    TableStatus,
)
from bot.store.migrate import load_migrations

from .conftest import Backend, new_table

ANN, BOB, CAT, DAN, EVE = 100, 200, 300, 400, 500
DAY = "daily:2026-11-27"
T0 = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)


def daily(code: str = DAY) -> EventRecord:
    return EventRecord(code=code, kind="daily", seed=f"seed-{code}", boards=3,
                       guild_id=None, host_id=None)


def claim(table_id: int, board: str, direction: int, *people: tuple[int, str],
          event: str = DAY, guild_id: int = 1, minute: int | None = None) -> BoardResult:
    return BoardResult(
        board=board, event=event, table_id=table_id, direction=direction, guild_id=guild_id,
        players=[BoardPlayer(user, name) for user, name in people], diff=None, replay=None,
        created_at=None if minute is None else T0 + timedelta(minutes=minute))


def summary(results: list[BoardResult]) -> list[tuple[Any, ...]]:
    return [(r.board, r.table_id, r.direction, r.guild_id, r.diff,
             [p.user_id for p in r.players]) for r in results]


async def code_of(call: Awaitable[object]) -> str:
    """The code of the StoreError that ``call`` raises."""
    with pytest.raises(StoreError) as caught:
        await call
    return caught.value.code


# -- events ---------------------------------------------------------------------------

async def test_an_event_is_created_once(repo: Repository) -> None:
    event = EventRecord(code="K7Q2XM", kind="event", seed="s-1", boards=8,
                        guild_id=1_150_000_000_004_194_304, host_id=ANN,
                        created_at=T0)
    assert await repo.get_event("K7Q2XM") is None
    assert await repo.create_event(event)
    assert await repo.get_event("K7Q2XM") == event
    other = EventRecord(code="K7Q2XM", kind="daily", seed="s-2", boards=1, guild_id=None,
                        host_id=None)
    assert not await repo.create_event(other)  # the code exists: nothing changed
    assert await repo.get_event("K7Q2XM") == event
    assert await repo.create_event(daily())
    stored = await repo.get_event(DAY)
    assert stored is not None and stored.kind == "daily" and stored.guild_id is None
    assert stored.created_at is not None and stored.created_at.tzinfo is UTC


@pytest.mark.parametrize("bad", [
    {"kind": "weekly"}, {"code": ""}, {"boards": 0}, {"boards": True}, {"host_id": -1},
    {"guild_id": "1"}])
async def test_a_bad_event_is_refused(repo: Repository, bad: dict[str, Any]) -> None:
    fields: dict[str, Any] = {"code": "X", "kind": "event", "seed": "s", "boards": 2,
                              "guild_id": 1, "host_id": 2, **bad}
    assert await code_of(repo.create_event(EventRecord(**fields))) == "invalid_event"


# -- claiming and finishing boards ----------------------------------------------------

async def test_a_pair_is_claimed_at_once_and_finished(repo: Repository) -> None:
    await repo.create_event(daily())
    table = await new_table(repo)
    board = f"{DAY}/1"
    await repo.claim_board(claim(table.id, board, 0, (BOB, "Bob"), (ANN, "Ann"), minute=1))
    await repo.claim_board(claim(table.id, board, 1, (CAT, "Cat"), minute=2))
    assert await repo.board_results(board) == []  # nothing finished yet
    opened = await repo.board_results(board, finished=False)
    assert summary(opened) == [(board, table.id, 0, 1, None, [BOB, ANN]),  # order kept
                               (board, table.id, 1, 1, None, [CAT])]
    assert opened[0].players[0] == BoardPlayer(BOB, "Bob")
    assert opened[0].created_at == T0 + timedelta(minutes=1)
    assert opened[0].replay is None and opened[0].finished_at is None

    replay = {"deal": [1, 2], "actions": [{"type": "pass", "seat": 1}]}
    await repo.finish_board(table.id, board, 0, 150, replay)
    await repo.finish_board(table.id, board, 0, 150, {"other": True})  # idempotent
    [done] = await repo.board_results(board)
    assert (done.diff, done.replay, done.event) == (150, replay, DAY)
    assert done.finished_at is not None and done.finished_at.tzinfo is UTC
    assert await code_of(repo.finish_board(table.id, board, 0, -20, replay)) == (
        "board_finished")
    assert await code_of(repo.finish_board(table.id + 1, board, 0, 0, replay)) == (
        "unknown_result")
    assert await code_of(repo.finish_board(table.id, f"{DAY}/2", 0, 0, replay)) == (
        "unknown_result")
    [done_again] = await repo.board_results(board)
    assert done_again == done


async def test_a_taken_board_stores_nothing(repo: Repository) -> None:
    await repo.create_event(daily())
    first = await new_table(repo, channel_id=1)
    second = await new_table(repo, channel_id=2)
    board = f"{DAY}/2"
    await repo.claim_board(claim(first.id, board, 0, (ANN, "Ann"), (BOB, "Bob")))
    # Ann has it already (not finished): the pair is refused whole, Cat included.
    with pytest.raises(StoreError) as caught:
        await repo.claim_board(claim(second.id, board, 1, (CAT, "Cat"), (ANN, "Ann")))
    assert caught.value.code == "board_taken"
    assert f"user {ANN}" in str(caught.value)
    # The same table-direction claiming again is refused too, with other people.
    assert await code_of(repo.claim_board(claim(first.id, board, 0, (DAN, "Dan")))) == (
        "board_taken")
    await repo.finish_board(first.id, board, 0, 0, {})
    assert await code_of(repo.claim_board(claim(second.id, board, 0, (BOB, "B")))) == (
        "board_taken")  # finished or not
    assert summary(await repo.board_results(board, finished=False)) == [
        (board, first.id, 0, 1, 0, [ANN, BOB])]
    assert await repo.user_results(CAT, DAY) == []
    # Cat can still take it, and the other boards are free for Ann.
    await repo.claim_board(claim(second.id, board, 1, (CAT, "Cat")))
    await repo.claim_board(claim(second.id, f"{DAY}/3", 1, (ANN, "Ann")))


async def test_several_claims_are_stored_all_or_nothing(repo: Repository) -> None:
    """A table of several boards claims each board for both its directions at once."""
    await repo.create_event(daily())
    first = await new_table(repo, channel_id=1)
    second = await new_table(repo, channel_id=2)
    await repo.claim_board(claim(first.id, f"{DAY}/3", 1, (DAN, "Dan")))
    # Dan played board 3 already: nothing of the second table's claims is stored.
    whole = [claim(second.id, f"{DAY}/{n}", d, *people) for n in (1, 2, 3)
             for d, people in ((0, ((ANN, "Ann"), (BOB, "Bob"))), (1, ((DAN, "Dan"),)))]
    assert await code_of(repo.claim_boards(whole)) == "board_taken"
    assert await repo.user_results(ANN, DAY) == []
    assert summary(await repo.user_results(DAN, DAY)) == [
        (f"{DAY}/3", first.id, 1, 1, None, [DAN])]
    await repo.claim_boards([c for c in whole if DAN not in [p.user_id for p in c.players]])
    assert [r.board for r in await repo.user_results(BOB, DAY)] == [
        f"{DAY}/1", f"{DAY}/2", f"{DAY}/3"]


async def test_claims_are_checked(repo: Repository) -> None:
    await repo.create_event(daily())
    table = await new_table(repo)
    board = f"{DAY}/1"
    assert await code_of(repo.claim_board(claim(9_999, board, 0, (ANN, "Ann")))) == (
        "unknown_table")
    assert await code_of(repo.claim_board(
        claim(table.id, board, 0, (ANN, "Ann"), event="nope"))) == "unknown_event"
    bad = [claim(table.id, board, 2, (ANN, "Ann")),
           claim(table.id, board, 0),
           claim(table.id, board, 0, (ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")),
           claim(table.id, board, 0, (ANN, "Ann"), (ANN, "Ann again")),
           claim(table.id, "", 0, (ANN, "Ann"))]
    finished = claim(table.id, board, 0, (ANN, "Ann"))
    finished.diff = 10
    for result in [*bad, finished]:
        assert await code_of(repo.claim_board(result)) in ("invalid_result",
                                                                 "invalid_argument")
    assert await repo.board_results(board, finished=False) == []
    await repo.claim_board(claim(table.id, board, 0, (ANN, "Ann")))
    for diff, replay in ((1.5, {}), (True, {}), (1, [1])):
        assert await code_of(repo.finish_board(
            table.id, board, 0, diff, replay)) == "invalid_result"  # type: ignore[arg-type]


async def test_two_processes_claim_a_board_for_one_person_at_once(
        repo: Repository, backend: Backend) -> None:
    """Two repositories stand for two bot processes; over many boards, every race is
    won by exactly one claim and the loser stores nothing."""
    await repo.create_event(daily())
    tables = [(await new_table(repo, channel_id=n)).id for n in (1, 2)]
    async with backend.repository() as other:
        for n in range(12):
            board = f"{DAY}/{n + 1}"
            outcomes = await asyncio.gather(
                repo.claim_board(claim(tables[0], board, n % 2, (ANN, "Ann"), (BOB, "Bob"))),
                other.claim_board(claim(tables[1], board, 0, (CAT, "Cat"), (ANN, "Ann"))),
                return_exceptions=True)
            errors = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(errors) == 1, outcomes
            assert isinstance(errors[0], StoreError) and errors[0].code == "board_taken"
            [result] = await other.board_results(board, finished=False)
            winner = tables[outcomes.index(None)]
            assert result.table_id == winner
            assert len(result.players) == 2
        assert len(await repo.user_results(ANN, DAY)) == 12


async def test_results_by_guild_and_event(repo: Repository) -> None:
    await repo.create_event(daily())
    await repo.create_event(EventRecord("K7Q2XM", "event", "s", 2, 1, ANN))
    here = await new_table(repo, guild_id=1, channel_id=1)
    there = await new_table(repo, guild_id=2, channel_id=2)
    direct = await new_table(repo, guild_id=0, channel_id=3)
    b1, b2 = f"{DAY}/1", f"{DAY}/2"
    await repo.claim_board(claim(there.id, b1, 0, (DAN, "Dan"), guild_id=2, minute=1))
    await repo.claim_board(claim(here.id, b1, 0, (ANN, "Ann"), (BOB, "Bob"), minute=2))
    await repo.claim_board(claim(direct.id, b1, 1, (EVE, "Eve"), guild_id=0, minute=3))
    await repo.claim_board(claim(here.id, b2, 1, (ANN, "Ann"), minute=4))
    await repo.claim_board(claim(here.id, b1, 1, (CAT, "Cat"), minute=5))  # not finished
    await repo.claim_board(claim(here.id, "ev:K7Q2XM/1", 0, (ANN, "Ann"), event="K7Q2XM",
                                 minute=6))
    await repo.finish_board(here.id, b2, 1, -40, {"n": 4})  # finished first, claimed later
    await repo.finish_board(direct.id, b1, 1, 30, {"n": 3})
    await repo.finish_board(here.id, b1, 0, 20, {"n": 2})
    await repo.finish_board(there.id, b1, 0, 10, {"n": 1})
    await repo.finish_board(here.id, "ev:K7Q2XM/1", 0, 5, {"n": 6})

    assert [r.diff for r in await repo.board_results(b1)] == [10, 20, 30]  # oldest claim first
    assert [r.diff for r in await repo.board_results(b1, guild_id=1)] == [20]
    assert [r.diff for r in await repo.board_results(b1, guild_id=0)] == [30]
    assert [r.diff for r in await repo.board_results(b1, guild_id=1, finished=False)] == [
        20, None]
    assert [r.diff for r in await repo.board_results(b1, finished=False)] == [10, 20, 30, None]
    assert await repo.board_results(f"{DAY}/3") == []
    assert [(r.board, r.diff) for r in await repo.event_results(DAY)] == [
        (b1, 10), (b1, 20), (b1, 30), (b2, -40)]
    assert [(r.board, r.diff) for r in await repo.event_results(DAY, guild_id=1)] == [
        (b1, 20), (b2, -40)]
    assert await repo.event_results(DAY, guild_id=3) == []
    assert [r.diff for r in await repo.event_results("K7Q2XM")] == [5]
    mine = await repo.user_results(ANN, DAY)
    assert [(r.board, r.direction, r.diff) for r in mine] == [(b1, 0, 20), (b2, 1, -40)]
    assert [p.name for p in mine[0].players] == ["Ann", "Bob"]  # the whole pair
    assert [(r.board, r.diff) for r in await repo.user_results(CAT, DAY)] == [(b1, None)]
    assert await repo.user_results(CAT, "K7Q2XM") == []


async def test_the_days_of_a_daily_streak(repo: Repository) -> None:
    table = await new_table(repo)
    days = ["daily:2026-11-25", "daily:2026-11-27", "daily:2026-11-26", "daily:2026-11-28"]
    for day in reversed(days):  # created in another order than the days
        await repo.create_event(daily(day))
    await repo.create_event(EventRecord("K7Q2XM", "event", "s", 2, 1, ANN))
    for n, day in enumerate(days):
        await repo.claim_board(claim(table.id, f"{day}/1", 0, (ANN, "Ann"), event=day))
        await repo.claim_board(claim(table.id, f"{day}/2", 0, (ANN, "Ann"), event=day))
        if n < 3:  # the last day opened, not finished
            await repo.finish_board(table.id, f"{day}/2", 0, 0, {})
    await repo.claim_board(claim(table.id, "ev:K7Q2XM/1", 0, (ANN, "Ann"), event="K7Q2XM"))
    await repo.finish_board(table.id, "ev:K7Q2XM/1", 0, 0, {})
    assert await repo.user_daily_days(ANN) == [
        "daily:2026-11-27", "daily:2026-11-26", "daily:2026-11-25"]
    assert await repo.user_daily_days(ANN, limit=2) == ["daily:2026-11-27", "daily:2026-11-26"]
    assert await repo.user_daily_days(BOB) == []
    assert await code_of(repo.user_daily_days(ANN, limit=-1)) == "invalid_argument"


# -- fields ----------------------------------------------------------------------------

def field_of(board: str, diffs: list[int], tag: str) -> list[FieldResult]:
    return [FieldResult(board, index, diff, {"tag": tag, "table": index})
            for index, diff in enumerate(diffs)]


async def test_a_field_is_saved_once_the_first_wins(repo: Repository, backend: Backend) -> None:
    board = f"{DAY}/1"
    assert await repo.field(board) == []
    first = field_of(board, [10, -20, 0, 350, -50, 20, 40, 60], "first")
    await repo.save_field(board, list(reversed(first)))  # stored by index
    assert await repo.field(board) == first
    await repo.save_field(board, field_of(board, [1, 2], "second"))  # kept as it is
    assert await repo.field(board) == first

    # Two processes computing the same board's field at once: one field, whole.
    async with backend.repository() as other:
        for n in range(2, 8):
            race = f"{DAY}/{n}"
            mine, theirs = field_of(race, [n] * 8, "mine"), field_of(race, [-n] * 8, "theirs")
            await asyncio.gather(repo.save_field(race, mine), other.save_field(race, theirs))
            assert await repo.field(race) in (mine, theirs)


@pytest.mark.parametrize("indexes", [[], [1, 2], [0, 0], [0, 2]])
async def test_a_field_must_be_numbered_from_zero(repo: Repository, indexes: list[int]) -> None:
    results = [FieldResult("b/1", index, 0, {}) for index in indexes]
    assert await code_of(repo.save_field("b/1", results)) == "invalid_field"
    assert await code_of(repo.save_field("b/2", [FieldResult("b/1", 0, 0, {})])) == (
        "invalid_field")
    assert await repo.field("b/1") == []


# -- the daily channel and unrated games ----------------------------------------------

async def test_the_daily_channel_is_a_guild_setting(repo: Repository) -> None:
    chosen = GuildSettings(locale="fr", daily_channel_id=1_150_000_000_004_194_305)
    await repo.save_guild_settings(7, chosen)
    assert await repo.guild_settings(7) == chosen
    await repo.save_guild_settings(7, GuildSettings(turn_timer=30))
    assert (await repo.guild_settings(7)).daily_channel_id is None
    for bad in (0, -5, "123", 2**63):
        assert await code_of(repo.save_guild_settings(
            7, GuildSettings(daily_channel_id=bad))) == "invalid_settings"  # type: ignore[arg-type]


def game(table_id: int, game: str, *, rated: bool, winner: int = 0,
         day: int = 0) -> GameResult:
    people = [ANN, BOB, CAT, DAN]
    return GameResult(
        table_id=table_id, guild_id=1, game=game, scores=[300, -100] if winner == 0 else [0, 100],
        winner=winner,
        players=[GamePlayerResult(seat, user, None, f"P{user}", seat % 2, seat % 2 == winner,
                                  {"tichu_called": 1})
                 for seat, user in enumerate(people)],
        replay={"board": f"{DAY}/1", "day": day}, rated=rated,
        finished_at=T0 + timedelta(hours=day))


async def test_an_unrated_game_is_kept_but_rates_and_counts_nothing(repo: Repository) -> None:
    rated_table = await new_table(repo, channel_id=1)
    await repo.record_game(game(rated_table.id, "tichu", rated=True, day=1))
    before = (await repo.ratings(1, "tichu"), await repo.leaderboard(1, "tichu"),
              await repo.rating_history(1, "tichu", ANN))

    ids = []
    for n, name in enumerate(("tichu_dup", "tichu")):  # under its own name, or not
        table = await new_table(repo, channel_id=10 + n)
        ids.append(await repo.record_game(game(table.id, name, rated=False, winner=1,
                                               day=2 + n)))
        loaded = await repo.load_table(table.id)
        assert loaded is not None and loaded.status is TableStatus.FINISHED
    stored = await repo.load_game(1, ids[0])
    assert stored is not None and not stored.rated and stored.game == "tichu_dup"
    assert stored.replay == {"board": f"{DAY}/1", "day": 2}
    assert [g.id for g in await repo.recent_games(1, "tichu_dup")] == [ids[0]]
    recent = await repo.recent_games(1, "tichu", user_id=ANN)
    assert [(g.id, g.rated) for g in recent] == [(ids[1], False), (ids[1] - 2, True)]

    assert await repo.ratings(1, "tichu_dup") == []
    assert await repo.rating_history(1, "tichu_dup", ANN) == []
    assert await repo.leaderboard(1, "tichu_dup") == []
    assert await repo.leaderboard_size(1, "tichu_dup") == 0
    assert await repo.player_stats(1, "tichu_dup", ANN) is None
    assert await repo.partners(1, "tichu_dup", ANN) == []
    after = (await repo.ratings(1, "tichu"), await repo.leaderboard(1, "tichu"),
             await repo.rating_history(1, "tichu", ANN))
    assert after == before
    stats = await repo.player_stats(1, "tichu", ANN)
    assert stats is not None and (stats.games, stats.wins) == (1, 1)
    assert await repo.leaderboard_size(1, "tichu") == 4

    assert await repo.rebuild_ratings() == 1  # the rated game only
    assert (await repo.ratings(1, "tichu"), await repo.rating_history(1, "tichu", ANN)) == (
        before[0], before[2])
    assert await repo.ratings(1, "tichu_dup") == []


async def test_rated_must_be_a_bool(repo: Repository) -> None:
    table = await new_table(repo)
    result = game(table.id, "tichu", rated=False)
    result.rated = 0  # type: ignore[assignment]
    assert await code_of(repo.record_game(result)) == "invalid_game"


# -- damaged rows ---------------------------------------------------------------------

async def tamper(backend: Backend, sql: str) -> None:
    """Write behind the repository's back (the duplicate tables' CHECKs out of the way)."""
    await backend.tamper(sql, drop=("dup_results.dup_results_replay",
                                    "dup_results.dup_results_finished",
                                    "dup_fields.dup_fields_replay"))


BOARD = f"{DAY}/1"
DAMAGE = [
    ("kind", "UPDATE dup_events SET kind = 'weekly'", "event",
     f"event '{DAY}': unknown kind 'weekly'"),
    ("replay", "UPDATE dup_results SET replay = '[1]' WHERE direction = 0", "board",
     f"board '{BOARD}', table {{table}} direction 0 replay: expected a JSON object, "
     "found list"),
    ("half", "UPDATE dup_results SET replay = NULL WHERE direction = 0", "board",
     f"board '{BOARD}', table {{table}} direction 0: half finished (diff, replay and "
     "finished_at are set together)"),
    ("players", "DELETE FROM dup_players WHERE user_id = 300", "open",
     f"board '{BOARD}', table {{table}} direction 1: 0 players stored (1 or 2 expected)"),
    ("field", "UPDATE dup_fields SET replay = '\"x\"' WHERE idx = 1", "field",
     f"field of board '{BOARD}', table 1 replay: expected a JSON object, found str"),
    ("field gap", "DELETE FROM dup_fields WHERE idx = 1", "field",
     f"field of board '{BOARD}': table 1 is missing"),
    ("settings", "UPDATE guild_settings SET daily_channel_id = 'general'", "settings",
     "guild 1 settings daily_channel_id: expected an integer, found 'general'"),
    ("rated", "UPDATE games SET rated = 2", "games", "game {game} rated: expected 0 or 1, "
     "found 2"),
]


@pytest.mark.parametrize(("damage", "reader", "expected"),
                         [case[1:] for case in DAMAGE], ids=[case[0] for case in DAMAGE])
async def test_a_damaged_row_is_a_corrupt_row_error(
        backend: Backend, repo: Repository, damage: str, reader: str, expected: str) -> None:
    if backend.name == "postgresql" and reader in ("settings", "games"):
        pytest.skip("PostgreSQL's column types refuse these values")
    await repo.create_event(daily())
    await repo.save_guild_settings(1, GuildSettings(daily_channel_id=55))
    table = await new_table(repo)
    await repo.claim_board(claim(table.id, BOARD, 0, (ANN, "Ann"), (BOB, "Bob")))
    await repo.claim_board(claim(table.id, BOARD, 1, (CAT, "Cat")))
    await repo.finish_board(table.id, BOARD, 0, 70, {"n": 1})
    await repo.save_field(BOARD, field_of(BOARD, [1, 2, 3], "f"))
    other = await new_table(repo, channel_id=9)
    game_id = await repo.record_game(game(other.id, "tichu_dup", rated=False))

    await tamper(backend, damage)

    readers = {
        "event": lambda: repo.get_event(DAY),
        "board": lambda: repo.board_results(BOARD),
        "open": lambda: repo.board_results(BOARD, finished=False),
        "field": lambda: repo.field(BOARD),
        "settings": lambda: repo.guild_settings(1),
        "games": lambda: repo.recent_games(1, "tichu_dup"),
    }
    with pytest.raises(CorruptRowError) as caught:
        await readers[reader]()
    assert caught.value.code == "corrupt_row"
    assert str(caught.value) == expected.format(table=table.id, game=game_id)


# -- PostgreSQL: the primary key decides a claim against one in progress ---------------

@pytest.mark.parametrize("first_commits", [True, False])
async def test_a_claim_waits_for_a_claim_in_progress(pg_backend: Backend,
                                                     first_commits: bool) -> None:
    """Another process's claim of Ann's board is under way (not committed): this claim
    waits for it, then is refused if it committed, stored if it rolled back."""
    async with pg_backend.repository() as repo:
        await repo.create_event(daily())
        first = await new_table(repo, channel_id=1)
        second = await new_table(repo, channel_id=2)
        conn = await asyncpg.connect(pg_backend.url)
        watch = await asyncpg.connect(pg_backend.url)
        try:
            tx = conn.transaction()
            await tx.start()
            await conn.execute(
                "INSERT INTO dup_results (table_id, board, direction, event, guild_id, "
                "created_at) VALUES ($1, $2, 0, $3, 1, now())", first.id, BOARD, DAY)
            await conn.execute(
                "INSERT INTO dup_players (board, user_id, table_id, direction, position, "
                "name) VALUES ($1, $2, $3, 0, 0, 'Ann')", BOARD, ANN, first.id)
            task = asyncio.create_task(repo.claim_board(
                claim(second.id, BOARD, 1, (BOB, "Bob"), (ANN, "Ann"))))
            for _ in range(1000):
                if await watch.fetchval(
                        "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type "
                        "= 'Lock' AND query LIKE 'INSERT INTO dup_players%')"):
                    break
                assert not task.done(), task
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the claim never waited for the one in progress")
            await (tx.commit() if first_commits else tx.rollback())
            if first_commits:
                with pytest.raises(StoreError) as caught:
                    await task
                assert caught.value.code == "board_taken"
                expected = [(first.id, [ANN])]
            else:
                await task
                expected = [(second.id, [ANN, BOB])]
        finally:
            await conn.close()
            await watch.close()
        results = await repo.board_results(BOARD, finished=False)
        assert [(r.table_id, sorted(p.user_id for p in r.players)) for r in results] == expected


# -- migration 0005 on a database with rows -------------------------------------------

STAMP = "2024-01-01T00:00:00.000000+00:00"
# Rows as version 4 wrote them, in SQL both backends read alike.
VERSION_4_ROWS = [
    f"INSERT INTO guilds VALUES (1, 'de', '{STAMP}', '{STAMP}')",
    "INSERT INTO guild_settings (guild_id, locale, turn_timer, target, tables_per_channel, "
    f"updated_at) VALUES (1, 'fr', 60, NULL, NULL, '{STAMP}')",
    "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, created_at, "
    f"updated_at) VALUES (1, 2, 100, 'tichu', 'finished', 's', '{STAMP}', '{STAMP}')",
    "INSERT INTO games (table_id, guild_id, game, scores, winner, replay, finished_at) "
    f"VALUES (1, 1, 'tichu', '[300,-100]', 0, '{{}}', '{STAMP}')",
    "INSERT INTO game_players VALUES (1, 0, 100, NULL, 'Ann', 0, '1'), "
    "(1, 1, 200, NULL, 'Bob', 1, '0')",
]


async def test_a_version_4_database_upgrades_in_place(backend: Backend) -> None:
    """Games stored before 0005 are rated ones; settings have no daily channel; the
    new tables work beside the old rows."""
    postgres = backend.name == "postgresql"
    await backend.at_version(4, VERSION_4_ROWS)

    async with backend.repository() as repo:
        assert await repo.schema_version() == len(load_migrations(postgres=postgres)) >= 5
        assert await repo.guild_settings(1) == GuildSettings(locale="fr", turn_timer=60)
        [stored] = await repo.recent_games(1, "tichu")
        assert stored.rated and stored.scores == [300, -100]
        assert [r.player for r in await repo.ratings(1, "tichu")] == ["u:100", "u:200"]
        assert await repo.rebuild_ratings() == 1
        await repo.save_guild_settings(1, GuildSettings(locale="fr", daily_channel_id=77))
        assert (await repo.guild_settings(1)).daily_channel_id == 77
        assert await repo.create_event(daily())
        await repo.claim_board(claim(1, BOARD, 0, (ANN, "Ann")))
        await repo.finish_board(1, BOARD, 0, 40, {})
        assert [r.diff for r in await repo.event_results(DAY, guild_id=1)] == [40]


# -- PostgreSQL: claims and finishes are fenced like the other writes to a table ------

def guild_on(shard: int, shard_count: int) -> int:
    return (shard << 22) | 12345


async def test_claims_and_finishes_are_fenced(pg_backend: Backend) -> None:
    async with pg_backend.repository() as repo:
        await repo.create_event(daily())
        assert await repo.lock_shards([1], shard_count=2)
        mine = await new_table(repo, guild_id=guild_on(1, 2), channel_id=1)
        elsewhere = await new_table(repo, guild_id=guild_on(0, 2), channel_id=2)
        await repo.claim_board(claim(mine.id, BOARD, 0, (ANN, "Ann")))
        with pytest.raises(ShardLostError):  # a shard never held
            await repo.claim_board(claim(elsewhere.id, BOARD, 1, (BOB, "Bob")))
        assert await code_of(repo.claim_board(claim(9_999, BOARD, 1, (BOB, "Bob")))) == (
            "unknown_table")

        conn = await asyncpg.connect(pg_backend.url)
        try:  # another process took shard 1
            await conn.execute("UPDATE shard_epochs SET epoch = epoch + 1, owner = 'another' "
                               "WHERE shard = 1")
        finally:
            await conn.close()
        for write in (repo.claim_board(claim(mine.id, f"{DAY}/2", 0, (BOB, "Bob"))),
                      repo.finish_board(mine.id, BOARD, 0, 10, {})):
            with pytest.raises(ShardLostError):
                await write
        assert repo.held_shards() == frozenset()
        assert summary(await repo.event_results(DAY)) == []
        assert summary(await repo.user_results(ANN, DAY)) == [
            (BOARD, mine.id, 0, 1, None, [ANN])]  # the claim's guild id
        assert await repo.user_results(BOB, DAY) == []
        # Global writes are not fenced.
        await repo.save_field(BOARD, field_of(BOARD, [0], "f"))
        assert await repo.create_event(daily("daily:2026-11-28"))
