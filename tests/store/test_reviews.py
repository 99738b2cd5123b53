"""Reviews (issue 25): each person's review of their decisions in each deal of a
table's game, saved once (the first saved wins) and read back by deal and seat or by
person; on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.store import CorruptRowError, Repository, ReviewRecord, StoreError

from .conftest import Backend, new_table

ANN, BOB = 100, 200
T0 = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)


def review_of(table_id: int, deal: int, seat: int, user_id: int, tag: str = "first", *,
              minute: int | None = 0) -> ReviewRecord:
    decisions = [{"deal": deal, "index": i, "seat": seat, "kind": "play", "cost": 12.5 * i,
                  "chosen": {"seat": seat, "do": "pass"}, "best": {"seat": seat, "do": "play",
                                                                  "cards": ["S2", "é"]}}
                 for i in range(3)]
    return ReviewRecord(table_id=table_id, deal=deal, seat=seat, user_id=user_id,
                        review={"decisions": decisions, "error": None, "tag": tag},
                        created_at=None if minute is None else T0 + timedelta(minutes=minute))


async def code_of(call: Awaitable[object]) -> str:
    """The code of the StoreError that ``call`` raises."""
    with pytest.raises(StoreError) as caught:
        await call
    return caught.value.code


async def test_a_review_is_saved_once_and_read_back(repo: Repository) -> None:
    table = await new_table(repo)
    other = await new_table(repo, channel_id=11)
    assert await repo.review(table.id, 0, 0) is None
    assert await repo.user_reviews(table.id, ANN) == []

    first = review_of(table.id, 0, 0, ANN)
    await repo.save_review(first)
    assert await repo.review(table.id, 0, 0) == first
    # The same table, deal and seat again: the first saved is kept, no error.
    await repo.save_review(review_of(table.id, 0, 0, BOB, "second", minute=5))
    assert await repo.review(table.id, 0, 0) == first

    # Ann's reviews by deal then seat, whatever the order they were saved in; Bob's,
    # the other table's and other seats' are not hers.
    for deal, seat, user in ((2, 0, ANN), (1, 2, ANN), (1, 0, ANN), (1, 1, BOB)):
        await repo.save_review(review_of(table.id, deal, seat, user, minute=deal))
    await repo.save_review(review_of(other.id, 0, 0, ANN))
    mine = await repo.user_reviews(table.id, ANN)
    assert [(r.deal, r.seat) for r in mine] == [(0, 0), (1, 0), (1, 2), (2, 0)]
    assert all(r.table_id == table.id and r.user_id == ANN for r in mine)
    assert mine[0] == first
    assert [(r.deal, r.seat) for r in await repo.user_reviews(table.id, BOB)] == [(1, 1)]
    assert [r.table_id for r in await repo.user_reviews(other.id, ANN)] == [other.id]
    assert await repo.user_reviews(table.id, 999) == []
    assert await repo.review(table.id, 1, 3) is None
    assert await repo.review(table.id, 3, 0) is None
    assert await repo.review(9_999, 0, 0) is None


async def test_the_store_dates_a_review_given_no_date(repo: Repository) -> None:
    table = await new_table(repo)
    before = datetime.now(UTC)
    await repo.save_review(review_of(table.id, 4, 1, BOB, minute=None))
    stored = await repo.review(table.id, 4, 1)
    assert stored is not None and stored.created_at is not None
    assert stored.created_at.tzinfo is not None
    assert before - timedelta(seconds=1) <= stored.created_at <= datetime.now(UTC)
    assert stored.review == review_of(table.id, 4, 1, BOB).review
    # A review of nothing to say is still a review (an empty object, kept as is).
    empty = ReviewRecord(table.id, 5, 1, BOB, {}, T0)
    await repo.save_review(empty)
    assert await repo.review(table.id, 5, 1) == empty


async def test_two_processes_save_one_review_at_once(repo: Repository,
                                                     backend: Backend) -> None:
    """Two processes computing the same review: one of them is kept, whole."""
    table = await new_table(repo)
    async with backend.repository() as other:
        for deal in range(3):
            mine = review_of(table.id, deal, 0, ANN, "mine")
            theirs = review_of(table.id, deal, 0, ANN, "theirs", minute=1)
            await asyncio.gather(repo.save_review(mine), other.save_review(theirs))
            assert await repo.review(table.id, deal, 0) in (mine, theirs)
            assert await other.review(table.id, deal, 0) == await repo.review(table.id, deal, 0)
    assert len(await repo.user_reviews(table.id, ANN)) == 3


@pytest.mark.parametrize(("change", "code"), [
    ({"deal": -1}, "invalid_review"),
    ({"seat": -1}, "invalid_review"),
    ({"deal": 1.0}, "invalid_review"),
    ({"deal": True}, "invalid_review"),
    ({"deal": 2**31}, "invalid_review"),
    ({"table_id": 0}, "invalid_review"),
    ({"user_id": None}, "invalid_review"),
    ({"user_id": 2**63}, "invalid_review"),
    ({"review": [1, 2]}, "invalid_review"),
    ({"review": '{"decisions": []}'}, "invalid_review"),
    ({"review": None}, "invalid_review"),
    ({"created_at": "2026-11-28"}, "invalid_review"),
    ({"review": {"cost": float("nan")}}, "not_json"),
    ({"review": {"cards": {"S2"}}}, "not_json"),
    ({"table_id": 9_999}, "unknown_table"),
], ids=lambda value: str(value))
async def test_a_bad_review_is_refused(repo: Repository, change: dict[str, Any],
                                       code: str) -> None:
    table = await new_table(repo)
    fields: dict[str, Any] = {"table_id": table.id, "deal": 0, "seat": 0, "user_id": ANN,
                              "review": {"decisions": []}, "created_at": T0, **change}
    assert await code_of(repo.save_review(ReviewRecord(**fields))) == code
    assert await repo.user_reviews(table.id, ANN) == []
    assert await code_of(repo.save_review("a review")) == "invalid_review"  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [(1, -1, 0), (1, 0, -2), (-1, 0, 0), (1, "0", 0),
                                 (1, 0, None), (2**63, 0, 0)])
async def test_a_bad_review_key_is_refused(repo: Repository, key: tuple[Any, Any, Any]) -> None:
    assert await code_of(repo.review(*key)) == "invalid_argument"


@pytest.mark.parametrize("key", [(-1, ANN), (1, -1), ("1", ANN), (1, None)])
async def test_a_bad_person_is_refused(repo: Repository, key: tuple[Any, Any]) -> None:
    assert await code_of(repo.user_reviews(*key)) == "invalid_argument"


# -- damaged rows ---------------------------------------------------------------------

async def tamper(backend: Backend, sql: str) -> None:
    """Write behind the repository's back (the review's CHECKs out of the way)."""
    await backend.tamper(sql, drop=("reviews.reviews_review", "reviews.reviews_deal_check"))


WHERE = "review of table {table}, deal 1, seat 2"
# (what, SQL, the start of the error expected, whether PostgreSQL's types refuse it)
DAMAGE = [
    ("not json", "UPDATE reviews SET review = '{\"decisions\": [' WHERE deal = 1",
     WHERE + " review: invalid JSON (Expecting value", True),
    ("nan", "UPDATE reviews SET review = 'NaN' WHERE deal = 1",
     WHERE + " review: invalid JSON (NaN is not JSON)", True),
    ("blob", "UPDATE reviews SET review = X'7b7d' WHERE deal = 1",
     WHERE + " review: expected JSON text, found bytes", True),
    ("string", "UPDATE reviews SET review = '\"x\"' WHERE deal = 1",
     WHERE + " review: expected a JSON object, found str", False),
    ("list", "UPDATE reviews SET review = '[1, 2]' WHERE deal = 1",
     WHERE + " review: expected a JSON object, found list", False),
    ("deal", "UPDATE reviews SET deal = -1 WHERE deal = 1",
     "review of table {table}, deal -1, seat 2: the deal and the seat must be >= 0", False),
    ("date", "UPDATE reviews SET created_at = 'yesterday' WHERE deal = 1",
     WHERE + " created_at: bad timestamp 'yesterday'", True),
    ("user", "UPDATE reviews SET user_id = 'ann' WHERE deal = 1",
     WHERE + " user_id: expected an integer, found 'ann'", True),
]


@pytest.mark.parametrize(("damage", "expected", "only_sqlite"), [case[1:] for case in DAMAGE],
                         ids=[case[0] for case in DAMAGE])
async def test_a_damaged_review_is_a_corrupt_row_error(
        backend: Backend, repo: Repository, damage: str, expected: str,
        only_sqlite: bool) -> None:
    if backend.name == "postgresql" and only_sqlite:
        pytest.skip("PostgreSQL's column types refuse this value")
    table = await new_table(repo)
    healthy = review_of(table.id, 0, 2, ANN)
    await repo.save_review(healthy)
    await repo.save_review(review_of(table.id, 1, 2, ANN))

    await tamper(backend, damage)

    reads: list[Callable[[], Awaitable[object]]] = []
    if "user_id" not in expected:  # (a person's reviews are found by their user id)
        reads.append(lambda: repo.user_reviews(table.id, ANN))
    if "deal -1" not in expected:  # (a negative deal cannot be asked for)
        reads.append(lambda: repo.review(table.id, 1, 2))
    for read in reads:
        with pytest.raises(CorruptRowError) as caught:
            await read()
        assert caught.value.code == "corrupt_row"
        assert str(caught.value).startswith(expected.format(table=table.id)), caught.value
    assert await repo.review(table.id, 0, 2) == healthy  # the others still read


# -- migration 0006 on a database with rows -------------------------------------------

STAMP = "2024-01-01T00:00:00.000000+00:00"
# Rows as version 5 wrote them, in SQL both backends read alike.
VERSION_5_ROWS = [
    f"INSERT INTO guilds VALUES (1, 'de', '{STAMP}', '{STAMP}')",
    "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, created_at, "
    f"updated_at) VALUES (1, 2, 100, 'tichu', 'finished', 's', '{STAMP}', '{STAMP}')",
    "INSERT INTO games (table_id, guild_id, game, scores, winner, replay, finished_at, rated) "
    f"VALUES (1, 1, 'tichu', '[300,-100]', 0, '{{}}', '{STAMP}', '0')",
    "INSERT INTO game_players VALUES (1, 0, 100, NULL, 'Ann', 0, '1'), "
    "(1, 1, 200, NULL, 'Bob', 1, '0')",
    "INSERT INTO dup_fields VALUES ('b/1', 0, 20, '{\"t\": 0}')",
]


async def test_a_version_5_database_upgrades_in_place(backend: Backend) -> None:
    """The rows of version 5 are kept; the reviews of its tables can be stored."""
    await backend.at_version(5, VERSION_5_ROWS)

    async with backend.repository() as repo:
        assert await repo.schema_version() >= 6  # and every migration since
        [stored] = await repo.recent_games(1, "tichu")
        assert not stored.rated and stored.scores == [300, -100]
        assert [(f.index, f.diff, f.replay) for f in await repo.field("b/1")] == [
            (0, 20, {"t": 0})]
        table = await repo.load_table(1)
        assert table is not None and table.seed == "s"
        assert await repo.user_reviews(1, ANN) == []
        await repo.save_review(review_of(1, 0, 0, ANN))
        assert await repo.user_reviews(1, ANN) == [review_of(1, 0, 0, ANN)]
