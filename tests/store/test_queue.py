"""The queue of "Play now" (issue 53) on both backends: entries (one per person, a
partner pair as one), ready checks, blocks, the games people left early, the matchmaker's
lease, a person's export and erase; every refusal writes nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from bot.store import (
    Answer,
    CheckStatus,
    GamePlayerResult,
    GameResult,
    Pool,
    QueueEntry,
    QueueRefusedError,
    ReadyMessage,
    Repository,
    StoreError,
    TableStatus,
)
from bot.store.models import MATCHMAKER_LEASE

from .conftest import Backend, new_table

T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
TICHU = Pool("tichu", 4)
ANN, BOB, CAT, DAN, EVE, FAY = 101, 202, 303, 404, 505, 606
QUEUE_TABLES = ("queue_entries", "queue_people", "ready_checks", "ready_members", "blocks",
                "departures", "leases")


def entry(user: int, *, pool: Pool = TICHU, locale: str = "en", rating: float = 10.0,
          partner: int | None = None, at: int = 0, **more: Any) -> QueueEntry:
    """``user``'s entry, joined ``at`` seconds after T0."""
    return QueueEntry(user_id=user, pool=pool, locale=locale, rating=rating,
                      partner_id=partner, partner_rating=None if partner is None else 12.5,
                      joined_at=T0 + timedelta(seconds=at), **more)


async def rows(backend: Backend) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the queue's tables, read from the database itself."""
    if backend.name == "sqlite":
        with closing(sqlite3.connect(backend.url)) as conn:
            return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall())
                    for t in QUEUE_TABLES}
    conn = await asyncpg.connect(backend.url)
    try:
        return {t: sorted(tuple(r) for r in await conn.fetch(f"SELECT * FROM {t}"))
                for t in QUEUE_TABLES}
    finally:
        await conn.close()


async def refused(backend: Backend, attempt: Any, code: str) -> None:
    """``attempt`` (a coroutine) is refused with ``code``, and nothing is written."""
    before = await rows(backend)
    with pytest.raises(QueueRefusedError) as caught:
        await attempt
    assert caught.value.code == code, caught.value
    assert await rows(backend) == before


# -- entries -------------------------------------------------------------------------


async def test_a_person_queues_and_leaves(repo: Repository) -> None:
    stored = await repo.queue_join(entry(ANN, locale="fr", rating=7.5, fill_after=120,
                                         guild_id=42))
    assert stored.id is not None and stored.check_id is None and stored.waves == 0
    assert (stored.user_id, stored.locale, stored.rating, stored.fill_after,
            stored.guild_id, stored.joined_at) == (ANN, "fr", 7.5, 120, 42, T0)
    assert await repo.queue_entry(ANN) == stored
    assert await repo.queue_entries(TICHU) == [stored]
    assert await repo.queue_entries(Pool("tichu", 4, rated=False)) == []
    assert await repo.queue_leave(ANN) == stored
    assert await repo.queue_leave(ANN) is None
    assert await repo.queue_entry(ANN) is None and await repo.queue_counts() == []


async def test_a_partner_pair_is_one_entry(repo: Repository) -> None:
    pair = await repo.queue_join(entry(ANN, partner=BOB, rating=9.0))
    assert pair.people == (ANN, BOB) and pair.ratings == (9.0, 12.5)
    assert await repo.queue_entry(BOB) == pair  # found through either of them
    assert await repo.queue_leave(BOB) == pair  # and either takes the pair out
    assert await repo.queue_entry(ANN) is None


async def test_the_entry_is_stamped_now_when_no_time_is_given(repo: Repository) -> None:
    before = datetime.now(UTC)
    stored = await repo.queue_join(QueueEntry(ANN, TICHU, "en", 0.0))
    assert stored.joined_at is not None and before <= stored.joined_at <= datetime.now(UTC)


@pytest.mark.parametrize(("bad", "code"), [
    (entry(ANN, pool=Pool("poker", 4)), "unknown_game"),
    (entry(ANN, pool=Pool("tichu", 5)), "bad_seats"),
    (entry(ANN, pool=Pool("chinois", 3)), "bad_seats"),
    (entry(ANN, pool=Pool("tysiacha", 6)), "bad_seats"),
    (entry(ANN, fill_after=90), "bad_fill"),
    (entry(ANN, fill_after=0), "bad_fill"),
    (entry(ANN, partner=ANN), "self_partner"),
    (entry(ANN, partner=BOB, pool=Pool("chinois", 4)), "partner_no_teams"),
    (entry(ANN, partner=BOB, pool=Pool("tysiacha", 4)), "partner_no_teams"),
    (entry(ANN, locale=""), "bad_locale"),
    (entry(ANN, locale="en\n"), "bad_locale"),
    (entry(ANN, rating=float("nan")), "bad_rating"),
    (entry(ANN, rating=float("inf")), "bad_rating"),
    (entry(0), "not_a_person"),
    (entry(ANN, partner=-5), "not_a_person"),
    (entry(2**64), "not_a_person"),
    (QueueEntry(ANN, TICHU, "en", 1.0, partner_id=BOB), "bad_rating"),  # no partner rating
    (entry(ANN, waves=3), "bad_entry"),
    (entry(ANN, guild_id=0), "bad_entry"),
])
async def test_bad_entries_are_refused_and_nothing_is_written(
        repo: Repository, backend: Backend, bad: QueueEntry, code: str) -> None:
    await repo.queue_join(entry(CAT))  # something already stored
    await refused(backend, repo.queue_join(bad), code)


async def test_queueing_twice_or_with_someone_queued_is_refused(
        repo: Repository, backend: Backend) -> None:
    await repo.queue_join(entry(ANN, partner=BOB))
    await repo.queue_join(entry(CAT))
    await refused(backend, repo.queue_join(entry(ANN)), "already_queued")
    await refused(backend, repo.queue_join(entry(BOB)), "already_queued")  # as a partner
    await refused(backend, repo.queue_join(entry(ANN, pool=Pool("chinois", 4))),
                  "already_queued")  # one pool at a time
    await refused(backend, repo.queue_join(entry(DAN, partner=CAT)), "partner_queued")
    await refused(backend, repo.queue_join(entry(DAN, partner=ANN)), "partner_queued")


async def test_partners_who_blocked_each_other_cannot_queue_together(
        repo: Repository, backend: Backend) -> None:
    await repo.block(BOB, ANN)
    await refused(backend, repo.queue_join(entry(ANN, partner=BOB)), "partner_blocked")
    await refused(backend, repo.queue_join(entry(BOB, partner=ANN)), "partner_blocked")
    await repo.unblock(BOB, ANN)
    assert (await repo.queue_join(entry(ANN, partner=BOB))).people == (ANN, BOB)


async def test_two_processes_queueing_one_person_at_once(repo: Repository,
                                                         backend: Backend) -> None:
    """The person is the key of their place: of two joins at once, one is refused."""
    other = backend.repository()
    await other.open()
    try:
        results = await asyncio.gather(
            *(r.queue_join(entry(ANN, partner=partner))
              for r, partner in ((repo, None), (other, BOB)) for _ in range(3)),
            return_exceptions=True)
    finally:
        await other.close()
    stored = [r for r in results if isinstance(r, QueueEntry)]
    assert len(stored) == 1, results
    assert all(isinstance(r, QueueRefusedError) and r.code == "already_queued"
               for r in results if r not in stored)
    assert await repo.queue_entry(ANN) == stored[0]


async def test_pools_list_their_waiting_entries_first_come_first(repo: Repository) -> None:
    late = await repo.queue_join(entry(ANN, at=30))
    early = await repo.queue_join(entry(BOB, partner=CAT, at=10))
    unrated = await repo.queue_join(entry(DAN, pool=Pool("tichu", 4, rated=False)))
    six = await repo.queue_join(entry(EVE, pool=Pool("tichu", 6), at=5))
    chinois = await repo.queue_join(entry(FAY, pool=Pool("chinois", 4)))
    assert await repo.queue_entries(TICHU) == [early, late]
    assert await repo.queue_entries(Pool("tichu", 6)) == [six]
    counts = {(c.pool.game, c.pool.seats, c.pool.rated): (c.entries, c.people, c.waiting)
              for c in await repo.queue_counts()}
    assert counts == {("chinois", 4, True): (1, 1, 1), ("tichu", 4, False): (1, 1, 1),
                      ("tichu", 4, True): (2, 3, 3), ("tichu", 6, True): (1, 1, 1)}
    assert [u.user_id for u in await repo.queue_entries(Pool("tichu", 4, False))] == [DAN]
    assert chinois.pool == Pool("chinois", 4) and unrated.pool.rated is False
    # A missed wave counts for those still waiting only.
    check = await repo.open_ready_check(Pool("chinois", 4), [FAY, None, None, None],
                                        filled=True, now=T0)
    assert check.seats == (FAY, None, None, None)
    assert await repo.miss_wave([early.id or 0, late.id or 0, chinois.id or 0, 999]) == 2
    assert await repo.miss_wave([early.id or 0]) == 1
    assert [e.waves for e in await repo.queue_entries(TICHU)] == [2, 1]
    assert await repo.miss_wave([]) == 0
    counts = {(c.pool.game, c.pool.seats): (c.people, c.waiting)
              for c in await repo.queue_counts()}
    assert counts["chinois", 4] == (1, 0)  # in a ready check: still in the pool


async def test_the_queue_survives_a_restart(repo: Repository, backend: Backend) -> None:
    stored = await repo.queue_join(entry(ANN, partner=BOB, fill_after=60))
    await repo.queue_join(entry(CAT))
    await repo.queue_join(entry(DAN))
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    await repo.answer_ready_check(check.id, CAT, True, now=T0)
    kept = ReadyMessage(channel_id=7001, message_id=7002, locale="fr")
    assert await repo.note_ready_message(check.id, CAT, kept)
    await repo.close()
    again = backend.repository()
    await again.open()
    try:
        assert await again.queue_entry(ANN) == stored.__class__(
            **{**{f: getattr(stored, f) for f in stored.__dataclass_fields__},
               "check_id": check.id})
        assert await again.ready_check(check.id) == await again.ready_check(check.id)
        reread = await again.ready_check(check.id)
        assert reread is not None and reread.member(CAT) is not None
        assert reread.member(CAT).answer is Answer.ACCEPT  # type: ignore[union-attr]
        # The ready check's DM to each: kept for the news to edit it after a restart.
        assert [m.message for m in reread.members] == [None, kept, None, None]
        assert await again.due_ready_checks(T0 + timedelta(seconds=31)) == [check.id]
    finally:
        await again.close()
        await repo.open()


# -- ready checks --------------------------------------------------------------------


async def four_queued(repo: Repository) -> None:
    """Ann and Bob as partners, Cat and Dan alone (Dan the latest)."""
    await repo.queue_join(entry(ANN, partner=BOB, at=0))
    await repo.queue_join(entry(CAT, at=5, fill_after=60))
    await repo.queue_join(entry(DAN, at=9))


async def test_a_ready_check_where_everyone_accepts_seats_them(repo: Repository) -> None:
    await four_queued(repo)
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    assert check.status is CheckStatus.OPEN and check.rated and not check.filled
    assert (check.created_at, check.expires_at) == (T0, T0 + timedelta(seconds=30))
    assert check.seats == (ANN, CAT, BOB, DAN)
    assert all(m.answer is None for m in check.members)
    assert await repo.queue_entries(TICHU) == []  # out of the waiting list meanwhile
    assert (await repo.queue_entry(ANN) or entry(0)).check_id == check.id
    for user in (ANN, BOB, CAT):
        check = await repo.answer_ready_check(check.id, user, True,
                                              now=T0 + timedelta(seconds=3))
        assert await repo.due_ready_checks(T0 + timedelta(seconds=4)) == []
    await refused_close(repo, check.id, "check_open", T0 + timedelta(seconds=4))
    await repo.answer_ready_check(check.id, DAN, True, now=T0 + timedelta(seconds=5))
    assert await repo.due_ready_checks(T0 + timedelta(seconds=5)) == [check.id]
    outcome = await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=6))
    assert outcome.seated and outcome.returned == () and outcome.removed == ()
    # Seating: the check holds their entries (not waiting) while their table is made.
    assert outcome.check.status is CheckStatus.SEATING
    assert outcome.check.closed_at == T0 + timedelta(seconds=6)
    assert outcome.check.seats == (ANN, CAT, BOB, DAN)
    assert await repo.seating_ready_checks() == [check.id]
    assert await repo.queue_entries(TICHU) == []
    assert (await repo.queue_entry(DAN) or entry(0)).check_id == check.id
    assert await repo.due_ready_checks(T0 + timedelta(hours=1)) == []
    # The table started: they leave the queue.
    assert await repo.seat_ready_check(check.id) == 3
    assert (await repo.ready_check(check.id) or check).status is CheckStatus.SEATED
    assert await repo.queue_counts() == []  # they go to their table
    assert await repo.seating_ready_checks() == []


@pytest.mark.parametrize("requeue", [True, False])
async def test_a_seating_check_whose_table_was_not_made(repo: Repository, backend: Backend,
                                                        requeue: bool) -> None:
    await four_queued(repo)
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    await refused(backend, repo.seat_ready_check(check.id), "not_seating")
    await refused(backend, repo.unseat_ready_check(check.id, requeue=True), "not_seating")
    for user in (ANN, BOB, CAT, DAN):
        await repo.answer_ready_check(check.id, user, True, now=T0 + timedelta(seconds=1))
    await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=2))
    await refused(backend, repo.unseat_ready_check(check.id + 99, requeue=True), "no_check")
    # Left seating for hours (no matchmaker ran): the sweep keeps it, and their places.
    assert await repo.sweep_queue(T0 + timedelta(hours=3)) == 0
    assert await repo.seating_ready_checks() == [check.id]
    outcome = await repo.unseat_ready_check(check.id, requeue=requeue)
    assert not outcome.seated and outcome.check.status is CheckStatus.FAILED
    assert await repo.seating_ready_checks() == []
    if requeue:  # back at the head, in their places
        assert sorted(outcome.returned) == [ANN, BOB, CAT, DAN] and outcome.removed == ()
        assert [e.people for e in await repo.queue_entries(TICHU)] == \
            [(ANN, BOB), (CAT,), (DAN,)]
    else:
        assert sorted(outcome.removed) == [ANN, BOB, CAT, DAN] and outcome.returned == ()
        assert await repo.queue_counts() == []
    await refused(backend, repo.seat_ready_check(check.id), "not_seating")


async def refused_close(repo: Repository, check_id: int, code: str, now: datetime) -> None:
    with pytest.raises(QueueRefusedError) as caught:
        await repo.close_ready_check(check_id, now=now)
    assert caught.value.code == code


async def test_a_decline_takes_the_pair_out_and_the_others_back_to_the_head(
        repo: Repository) -> None:
    await four_queued(repo)
    await repo.miss_wave([e.id or 0 for e in await repo.queue_entries(TICHU)])
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    await repo.answer_ready_check(check.id, CAT, True, now=T0 + timedelta(seconds=1))
    await repo.answer_ready_check(check.id, BOB, False, now=T0 + timedelta(seconds=2))
    assert await repo.due_ready_checks(T0 + timedelta(seconds=2)) == [check.id]
    newcomer = await repo.queue_join(entry(EVE, at=20))
    outcome = await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=3))
    assert not outcome.seated and outcome.check.status is CheckStatus.FAILED
    assert sorted(outcome.removed) == [ANN, BOB]  # Bob declined: the pair goes
    assert sorted(outcome.returned) == [CAT, DAN]  # Dan had not answered yet: not his fault
    assert outcome.check.member(DAN).answer is None  # type: ignore[union-attr]
    waiting = await repo.queue_entries(TICHU)
    # Back at the head: their places (joined_at) and their missed waves are kept.
    assert [(e.user_id, e.joined_at, e.waves) for e in waiting] == [
        (CAT, T0 + timedelta(seconds=5), 1), (DAN, T0 + timedelta(seconds=9), 1),
        (EVE, newcomer.joined_at, 0)]
    assert await repo.queue_entry(ANN) is None and await repo.queue_entry(BOB) is None
    assert await repo.recent_declines(BOB, T0) == [T0 + timedelta(seconds=2)]
    assert await repo.recent_declines(CAT, T0) == []
    await refused_close(repo, check.id, "check_closed", T0 + timedelta(seconds=4))


async def test_a_timeout_takes_out_who_did_not_answer(repo: Repository,
                                                      backend: Backend) -> None:
    await four_queued(repo)
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0, seconds=30)
    for user in (ANN, BOB, DAN):
        await repo.answer_ready_check(check.id, user, True, now=T0 + timedelta(seconds=10))
    assert await repo.due_ready_checks(T0 + timedelta(seconds=29)) == []
    late = T0 + timedelta(seconds=30)
    await refused(backend, repo.answer_ready_check(check.id, CAT, True, now=late),
                  "check_expired")
    outcome = await repo.close_ready_check(check.id, now=late)
    assert outcome.removed == (CAT,) and sorted(outcome.returned) == [ANN, BOB, DAN]
    assert outcome.check.member(CAT).answer is Answer.TIMEOUT  # type: ignore[union-attr]
    assert await repo.recent_declines(CAT, T0) == [late]
    assert await repo.recent_declines(CAT, late + timedelta(seconds=1)) == []
    assert [e.people for e in await repo.queue_entries(TICHU)] == [(ANN, BOB), (DAN,)]


async def test_a_ready_check_message_is_kept_for_its_member_only(
        repo: Repository, backend: Backend) -> None:
    await four_queued(repo)
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    first, second = ReadyMessage(11, 12, "de"), ReadyMessage(11, 13, "de")
    assert await repo.note_ready_message(check.id, DAN, first)
    assert await repo.note_ready_message(check.id, DAN, second)  # the latest one counts
    before = await rows(backend)
    assert not await repo.note_ready_message(check.id, EVE, first)  # not in the check
    assert not await repo.note_ready_message(check.id + 1, DAN, first)  # no such check
    for bad in (ReadyMessage(0, 12, "de"), ReadyMessage(11, 12, ""), (11, 12, "de")):
        with pytest.raises(StoreError):
            await repo.note_ready_message(check.id, DAN, bad)  # type: ignore[arg-type]
    assert await rows(backend) == before
    await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=31))
    closed = await repo.ready_check(check.id)
    assert closed is not None and closed.member(DAN).message == second  # type: ignore[union-attr]


async def test_checks_from_before_migration_12_have_no_message(backend: Backend) -> None:
    """A check opened before 0012: its members' messages are unknown (the news then
    comes as a new DM), and a message can be kept from then on."""
    await backend.at_version(11, [
        "INSERT INTO ready_checks (id, game, seats, rated, filled, status, created_at, "
        "expires_at) VALUES (5, 'tichu', 4, 1, 0, 'open', '2026-11-30T18:00:00.000000+00:00', "
        "'2026-11-30T18:00:30.000000+00:00')"
        if backend.name == "sqlite" else
        "INSERT INTO ready_checks (id, game, seats, rated, filled, status, created_at, "
        "expires_at) VALUES (5, 'tichu', 4, true, false, 'open', '2026-11-30T18:00:00Z', "
        "'2026-11-30T18:00:30Z')",
        *(f"INSERT INTO ready_members (check_id, user_id, entry_id, seat) VALUES "
          f"(5, {user}, {seat + 1}, {seat})" for seat, user in enumerate((ANN, BOB, CAT, DAN))),
    ])
    async with backend.repository() as repo:
        check = await repo.ready_check(5)
        assert check is not None and [m.message for m in check.members] == [None] * 4
        assert await repo.note_ready_message(5, BOB, ReadyMessage(21, 22, "el"))
        check = await repo.ready_check(5)
        assert check is not None and check.member(BOB).message == \
            ReadyMessage(21, 22, "el")  # type: ignore[union-attr]


async def test_answers_that_cannot_count_are_refused(repo: Repository,
                                                     backend: Backend) -> None:
    await four_queued(repo)
    await repo.queue_join(entry(EVE))
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    soon = T0 + timedelta(seconds=1)
    await refused(backend, repo.answer_ready_check(404, ANN, True, now=soon), "no_check")
    await refused(backend, repo.answer_ready_check(check.id, EVE, True, now=soon),
                  "not_in_check")
    await repo.answer_ready_check(check.id, ANN, False, now=soon)
    await refused(backend, repo.answer_ready_check(check.id, ANN, True, now=soon),
                  "already_answered")
    await repo.close_ready_check(check.id, now=soon)
    await refused(backend, repo.answer_ready_check(check.id, CAT, True, now=soon),
                  "check_closed")
    await refused(backend, repo.close_ready_check(404, now=soon), "no_check")


async def test_a_ready_check_that_cannot_be_is_refused(repo: Repository,
                                                       backend: Backend) -> None:
    await four_queued(repo)
    await repo.queue_join(entry(EVE, pool=Pool("tichu", 4, rated=False)))
    attempts = [
        (repo.open_ready_check(TICHU, [ANN, CAT, BOB]), "bad_check"),  # three seats
        (repo.open_ready_check(TICHU, [ANN, CAT, BOB, ANN]), "bad_check"),  # Ann twice
        (repo.open_ready_check(TICHU, [None, None, None, None], filled=True), "bad_check"),
        (repo.open_ready_check(TICHU, [ANN, CAT, BOB, None]), "bad_check"),  # a computer,
        (repo.open_ready_check(TICHU, [ANN, CAT, DAN, FAY]), "entry_gone"),  # unrated
        (repo.open_ready_check(TICHU, [ANN, CAT, DAN, None], filled=True), "partner_missing"),
        (repo.open_ready_check(TICHU, [ANN, CAT, BOB, EVE]), "entry_gone"),  # another pool
        (repo.open_ready_check(Pool("tichu", 5), [ANN, CAT, BOB, DAN, None]), "bad_seats"),
    ]
    for attempt, code in attempts:
        await refused(backend, attempt, code)
    await repo.open_ready_check(TICHU, [CAT, DAN, None, None], filled=True)
    # Cat is in that check now: no second one.
    await refused(backend, repo.open_ready_check(TICHU, [ANN, CAT, BOB, None], filled=True),
                  "entry_gone")


async def test_two_matchmakers_proposing_one_person_at_once(repo: Repository,
                                                           backend: Backend) -> None:
    """A lost lease (two matchmakers for a moment) never puts a person in two checks."""
    await four_queued(repo)
    await repo.queue_join(entry(EVE))
    other = backend.repository()
    await other.open()
    try:
        results = await asyncio.gather(
            repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN]),
            other.open_ready_check(TICHU, [ANN, EVE, BOB, DAN]),
            return_exceptions=True)
    finally:
        await other.close()
    opened = [r for r in results if not isinstance(r, BaseException)]
    assert len(opened) == 1, results
    failed = [r for r in results if isinstance(r, BaseException)]
    assert isinstance(failed[0], QueueRefusedError) and failed[0].code == "entry_gone"
    assert [e.people for e in await repo.queue_entries(TICHU)] == \
        [(CAT,) if opened[0].member(EVE) else (EVE,)]


async def test_leaving_during_a_ready_check_is_a_decline(repo: Repository) -> None:
    await four_queued(repo)
    check = await repo.open_ready_check(TICHU, [ANN, CAT, BOB, DAN], now=T0)
    for user in (ANN, BOB, CAT, DAN):
        await repo.answer_ready_check(check.id, user, True, now=T0)
    left = await repo.queue_leave(DAN)
    assert left is not None and left.check_id == check.id
    assert await repo.due_ready_checks(T0) == [check.id]
    outcome = await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=1))
    assert not outcome.seated and outcome.removed == (DAN,)
    assert sorted(outcome.returned) == [ANN, BOB, CAT]
    assert len(await repo.recent_declines(DAN, datetime(2000, 1, 1, tzinfo=UTC))) == 1


async def test_a_table_filled_with_computers_is_unrated(repo: Repository) -> None:
    await repo.queue_join(entry(ANN, fill_after=60))
    check = await repo.open_ready_check(TICHU, [None, ANN, None, None], filled=True, now=T0)
    assert check.filled and not check.rated and check.seats == (None, ANN, None, None)
    await repo.answer_ready_check(check.id, ANN, True, now=T0)
    assert (await repo.close_ready_check(check.id, now=T0)).seated


# -- blocks ----------------------------------------------------------------------------


async def test_blocks(repo: Repository, backend: Backend,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert await repo.block(ANN, BOB, now=T0) is True
    assert await repo.block(ANN, BOB) is False  # once
    assert await repo.block(ANN, CAT) is True
    assert await repo.block(DAN, ANN) is True
    assert await repo.blocks_of(ANN) == [BOB, CAT]
    assert await repo.blocks_of(BOB) == []
    assert await repo.blocks_among([ANN, BOB, DAN, EVE]) == {(ANN, BOB), (DAN, ANN)}
    assert await repo.blocks_among([BOB, CAT]) == set()
    assert await repo.blocks_among([]) == set()
    await refused(backend, repo.block(ANN, ANN), "block_self")
    await refused(backend, repo.block(ANN, 0), "not_a_person")
    monkeypatch.setattr("bot.store.queue.MAX_BLOCKS", 2)
    await refused(backend, repo.block(ANN, EVE), "too_many_blocks")
    assert await repo.block(ANN, BOB) is False  # a block already made is no new one
    assert await repo.unblock(ANN, BOB) is True
    assert await repo.unblock(ANN, BOB) is False
    assert await repo.blocks_of(ANN) == [CAT]


async def test_blocks_among_many_people(repo: Repository) -> None:
    people = list(range(1, 1201))
    for blocker, blocked in ((3, 1100), (1199, 2), (600, 601)):
        await repo.block(blocker, blocked)
    await repo.block(5, 5000)  # someone not asked about
    assert await repo.blocks_among(people) == {(3, 1100), (1199, 2), (600, 601)}


# -- games left early ----------------------------------------------------------------


async def test_games_left_early_are_counted_per_person(repo: Repository,
                                                       backend: Backend) -> None:
    first, second = await new_table(repo, channel_id=1), await new_table(repo, channel_id=2)
    assert await repo.record_departure(ANN, first.id, when=T0 - timedelta(days=40))
    assert await repo.record_departure(ANN, second.id, reason="away", when=T0)
    assert not await repo.record_departure(ANN, second.id, when=T0)  # once per table
    assert await repo.record_departure(BOB, second.id, when=T0)
    assert await repo.left_early([ANN, BOB, CAT], since=T0 - timedelta(days=30)) == \
        {ANN: 1, BOB: 1}
    assert await repo.left_early([ANN], since=T0 - timedelta(days=60)) == {ANN: 2}
    assert await repo.left_early([], since=T0) == {}
    await refused(backend, repo.record_departure(ANN, first.id, reason="bored"), "bad_reason")
    await refused(backend, repo.record_departure(0, first.id), "not_a_person")
    before = await rows(backend)
    with pytest.raises(StoreError) as caught:
        await repo.record_departure(ANN, 404)
    assert caught.value.code == "unknown_table" and await rows(backend) == before
    # The sweep forgets them after 30 days, and closed ready checks after an hour.
    await repo.queue_join(entry(CAT))
    check = await repo.open_ready_check(TICHU, [CAT, None, None, None], filled=True, now=T0)
    await repo.close_ready_check(check.id, now=T0 + timedelta(seconds=31))
    assert await repo.sweep_queue(T0 + timedelta(minutes=30)) == 1  # Ann's oldest
    assert await repo.sweep_queue(T0 + timedelta(minutes=61)) == 1  # the check
    assert await repo.ready_check(check.id) is None
    assert await repo.left_early([ANN, BOB], since=T0 - timedelta(days=90)) == \
        {ANN: 1, BOB: 1}


# -- ratings ---------------------------------------------------------------------------


async def rated_game(repo: Repository, guild_id: int, winner: int, n: int) -> None:
    table = await new_table(repo, guild_id=guild_id, channel_id=700 + n)
    players = [GamePlayerResult(seat=s, user_id=u, bot_level=None, name=str(u), team=s % 2,
                                won=s % 2 == winner)
               for s, u in enumerate((ANN, BOB, CAT, DAN))]
    await repo.record_game(GameResult(table_id=table.id, guild_id=guild_id, game="tichu",
                                      scores=[1000, 500] if winner == 0 else [500, 1000],
                                      winner=winner, players=players, replay={}))


async def test_the_rating_a_person_queues_with(repo: Repository) -> None:
    """The global rating (issue 53), whichever server or direct messages she queues from:
    her games in every guild and in direct messages (guild 0) count."""
    for n in range(3):
        await rated_game(repo, 1, 0, n)  # Ann wins three times in guild 1
    await rated_game(repo, 2, 1, 9)  # loses once in guild 2
    await rated_game(repo, 0, 0, 10)  # and wins once at a table in her DMs
    overall = {r.player: r for r in await repo.ratings(None, "tichu")}
    assert overall["u:101"].games == 5
    assert await repo.queue_rating(ANN, "tichu") == overall["u:101"].ordinal
    assert overall["u:101"].ordinal not in {r.ordinal for guild in (0, 1, 2)
                                            for r in await repo.ratings(guild, "tichu")}
    assert await repo.queue_rating(EVE, "tichu") is None
    assert await repo.queue_rating(ANN, "chinois") is None


# -- the matchmaker's lease ----------------------------------------------------------


async def test_the_lease_has_one_holder_at_a_time(repo: Repository, backend: Backend) -> None:
    first = await repo.take_lease(MATCHMAKER_LEASE, "process-a", 30)
    assert first is not None
    assert await repo.take_lease(MATCHMAKER_LEASE, "process-b", 30) is None
    assert await repo.take_lease(MATCHMAKER_LEASE, "process-a", 30) == first  # renewed
    assert await repo.take_lease("another", "process-b", 30) == 1
    assert not await repo.release_lease(MATCHMAKER_LEASE, "process-b")
    assert await repo.release_lease(MATCHMAKER_LEASE, "process-a")
    second = await repo.take_lease(MATCHMAKER_LEASE, "process-b", 0.3)
    assert second == first + 1  # another holder: the next epoch
    assert await repo.take_lease(MATCHMAKER_LEASE, "process-a", 30) is None
    await asyncio.sleep(0.5)  # b stops renewing: its lease runs out
    assert await repo.take_lease(MATCHMAKER_LEASE, "process-a", 30) == second + 1
    for bad in (0, -1, float("nan")):
        with pytest.raises(StoreError):
            await repo.take_lease(MATCHMAKER_LEASE, "process-a", bad)
    with pytest.raises(StoreError):
        await repo.take_lease("", "process-a", 1)


async def test_many_processes_race_for_the_lease(repo: Repository, backend: Backend) -> None:
    others = [backend.repository() for _ in range(3)]
    for other in others:
        await other.open()
    try:
        results = await asyncio.gather(*(
            r.take_lease(MATCHMAKER_LEASE, f"process-{i}", 30)
            for _ in range(3) for i, r in enumerate([repo, *others])))
    finally:
        for other in others:
            await other.close()
    held = [r for r in results if r is not None]
    assert held and set(held) == {1}  # one holder took it (and renewed it); nobody else
    holders = [i for i, r in enumerate(results) if r is not None]
    assert len({i % 4 for i in holders}) == 1


# -- a person's data -------------------------------------------------------------------


async def test_a_person_s_queue_is_in_their_export_and_erase(repo: Repository) -> None:
    table = await new_table(repo, host_id=CAT)
    await repo.update_table(table.id, status=TableStatus.ABANDONED)
    await repo.queue_join(entry(ANN, partner=DAN, fill_after=300, guild_id=77, locale="de"))
    await repo.queue_join(entry(EVE))
    await repo.queue_join(entry(FAY))
    await repo.block(ANN, FAY, now=T0)
    await repo.block(BOB, ANN, now=T0)  # Bob's: not Ann's to see or erase
    await repo.record_departure(ANN, table.id, when=T0)
    check = await repo.open_ready_check(TICHU, [ANN, EVE, DAN, FAY], now=T0)
    await repo.answer_ready_check(check.id, ANN, True, now=T0)

    counts = await repo.person_counts(ANN)
    assert (counts.blocks, counts.queue, counts.ready_checks, counts.left_games) == (1, 1, 1, 1)
    document = await repo.export_person(ANN, now=T0)
    assert document["blocks"] == [{"user_id": str(FAY), "created_at": T0.isoformat(
        timespec="microseconds")}]
    [queued] = document["queue"]
    assert (queued["game"], queued["seats"], queued["rated"], queued["locale"],
            queued["fill_after"], queued["guild_id"], queued["partner_id"],
            queued["queued_by_partner"]) == ("tichu", 4, True, "de", 300, "77", str(DAN),
                                             False)
    assert [(c["id"], c["seat"], c["answer"]) for c in document["ready_checks"]] == \
        [(check.id, 0, "accept")]
    assert [(g["table_id"], g["reason"]) for g in document["left_games"]] == \
        [(table.id, "left")]
    assert f'"{BOB}"' not in json.dumps(document)  # who blocked her is not hers to know
    partner = await repo.export_person(DAN, now=T0)
    assert partner["queue"][0]["queued_by_partner"] is True
    assert partner["queue"][0]["partner_id"] == str(ANN)

    erased = await repo.erase_person(ANN)
    assert erased.counts.queue == 1
    assert (await repo.person_counts(ANN)).empty
    assert await repo.queue_entry(DAN) is None  # the pair's place went with her
    assert await repo.blocks_of(ANN) == [] and await repo.blocks_of(BOB) == [ANN]
    assert await repo.left_early([ANN], since=T0 - timedelta(days=1)) == {}
    # Her open ready check failed: the others wait again, at the head of the queue.
    closed = await repo.ready_check(check.id)
    assert closed is not None and closed.status is CheckStatus.FAILED
    assert closed.member(ANN) is None
    assert [e.people for e in await repo.queue_entries(TICHU)] == [(EVE,), (FAY,)]
    assert await repo.due_ready_checks(T0 + timedelta(hours=1)) == []
