"""The table service without Discord: lobby rules, timers, takeovers, refusals."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games.registry import all_specs
from bot.store import SQLiteRepository
from bot.store.models import TableStatus
from bot.tables import SeatKind, TableError, TableService
from engine.errors import EngineError
from engine.tichu.actions import DeclineGrand, Pass, Play
from engine.tichu.ai import pending_seats

HOST, GUEST = 11, 22
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await repo.open()
    svc = TableService(repo, all_specs(), ai_delay=0.0, lobby_timeout=60)
    yield svc
    await svc.close()
    await repo.close()


async def lobby(service: TableService, **options: object) -> int:
    table = await service.lobby.open_lobby(game="tichu", guild_id=1, channel_id=2, host_id=HOST,
                                           host_name="host", locale="en",
                                           options={"target": 1000, **options})
    return table.id


async def wait_for(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not reached"
        await asyncio.sleep(0.005)


async def test_lobby_rules(service: TableService) -> None:
    tid = await lobby(service)
    await service.lobby.join(tid, GUEST, "guest", 1)
    with pytest.raises(TableError, match="seat_taken"):
        await service.lobby.join(tid, 33, "third", 1)
    await service.lobby.join(tid, GUEST, "guest", 2)  # switching seat frees the old one
    table = await service.core.get(tid)
    assert table.kind(1) is SeatKind.EMPTY and table.seat_of(GUEST) == 2
    with pytest.raises(TableError, match="not_host"):
        await service.lobby.set_computer(tid, GUEST, 1, "hard")
    with pytest.raises(TableError, match="seat_taken"):
        await service.lobby.set_computer(tid, HOST, 2, "hard")
    with pytest.raises(TableError, match="bad_level"):
        await service.lobby.set_computer(tid, HOST, 1, "godlike")
    with pytest.raises(TableError, match="seats_empty"):
        await service.lobby.start(tid, HOST)
    await service.lobby.set_computer(tid, HOST, 1, "hard")
    await service.lobby.set_computer(tid, HOST, 3, "easy")
    with pytest.raises(TableError, match="not_host"):
        await service.lobby.start(tid, GUEST)
    await service.lobby.start(tid, HOST)
    with pytest.raises(TableError, match="not_lobby"):
        await service.lobby.join(tid, 44, "late", 1)


async def test_refused_actions_change_nothing(service: TableService) -> None:
    tid = await lobby(service)
    for seat in (1, 2, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    table = await service.core.get(tid)
    await wait_for(lambda: not table.lock.locked() and 0 in pending_seats(table.game.view(None)))
    seq = table.seq
    with pytest.raises(TableError, match="not_seated"):
        await service.clicks.act(tid, 999, seq, Pass)
    with pytest.raises(TableError, match="stale"):
        await service.clicks.act(tid, HOST, seq - 1, Pass)
    with pytest.raises(EngineError) as info:
        await service.clicks.act(tid, HOST, seq, lambda s: Play(s, (table.game.hands[1][0],)))
    assert info.value.code in ("wrong_phase", "card_not_in_hand", "not_your_turn")
    assert table.seq == seq and len((await service.repo.load_table(tid)).actions) == seq


async def test_turn_timer_plays_for_an_idle_seat(service: TableService) -> None:
    tid = await lobby(service, turn_timer=1)
    table = await service.core.get(tid)
    table.record.options["turn_timer"] = 0.05  # seconds, for the test
    for seat in (1, 2, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    # Three decisions timed out in a row: a computer keeps the seat until the person is back.
    await wait_for(lambda: table.seats[0].away, timeout=20)
    stored = await service.repo.load_table(tid)
    by_timer = [a for a in stored.actions if a.payload.get("by") == "timer"]
    assert len(by_timer) == 3 and all(a.payload["seat"] == 0 for a in by_timer)
    assert stored.seats[0].away and stored.seats[0].user_id == HOST
    assert table.kind(0) is SeatKind.COMPUTER
    await service.seats.come_back(tid, HOST)
    assert not table.seats[0].away and table.kind(0) is SeatKind.HUMAN
    assert not (await service.repo.load_table(tid)).seats[0].away
    with pytest.raises(TableError) as info:
        await service.seats.come_back(tid, HOST)
    assert info.value.code == "not_away"


async def test_takeover_hands_a_seat_to_a_computer_for_good(service: TableService) -> None:
    tid = await lobby(service, turn_timer=0)
    await service.lobby.join(tid, GUEST, "guest", 2)
    for seat in (1, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    with pytest.raises(TableError, match="not_host"):
        await service.seats.takeover(tid, GUEST, 0)
    with pytest.raises(TableError, match="not_human_seat"):
        await service.seats.takeover(tid, HOST, 1)
    # Without a turn timer nobody misses a turn: a person's seat is theirs.
    with pytest.raises(TableError) as refused:
        await service.seats.takeover(tid, HOST, 2)
    assert refused.value.code == "seat_active" and refused.value.values == {"seat": 3}
    table = await service.core.get(tid)
    assert table.kind(2) is SeatKind.HUMAN
    assert (await service.repo.load_table(tid)).seats[2].user_id == GUEST


async def test_takeover_of_a_seat_whose_time_ran_out(service: TableService) -> None:
    tid = await lobby(service, turn_timer=1)
    table = await service.core.get(tid)
    table.record.options["turn_timer"] = 0.05  # seconds, for the test
    await service.lobby.join(tid, GUEST, "guest", 2)
    for seat in (1, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    await wait_for(lambda: table.idle(2))  # the timer decided for the guest
    await service.seats.takeover(tid, HOST, 2)
    assert table.kind(2) is SeatKind.COMPUTER and table.seats[2].name == "guest"
    assert table.seats[2].user_id is None
    await wait_for(lambda: table.idle(0))
    await service.seats.takeover(tid, HOST, 0)
    await wait_for(lambda: table.status is TableStatus.FINISHED, timeout=60)
    # The guest's seat was handed over while the host played on: a game left early (for
    # the queue of "Play now"); the host's, with nobody left, is not.
    assert await service.repo.left_early([HOST, GUEST], since=EPOCH) == {GUEST: 1}


async def test_a_person_who_leaves_while_others_play_on_has_left_early(
        service: TableService) -> None:
    tid = await lobby(service)
    await service.lobby.join(tid, GUEST, "guest", 2)
    for seat in (1, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    await service.seats.leave_game(tid, GUEST)
    assert await service.repo.left_early([HOST, GUEST], since=EPOCH) == {GUEST: 1}
    await service.seats.leave_game(tid, HOST)  # the last person: the table closes
    table = await service.core.get(tid)
    assert table.status is TableStatus.ABANDONED
    assert await service.repo.left_early([HOST, GUEST], since=EPOCH) == {GUEST: 1}


async def test_idle_lobby_expires_and_abandon_rights(service: TableService) -> None:
    tid = await lobby(service)
    table = await service.core.get(tid)
    assert await service.lobby.expire_idle_lobbies(now=table.last_activity + 30) == []
    expired = await service.lobby.expire_idle_lobbies(now=table.last_activity + 61)
    assert [t.id for t in expired] == [tid] and table.status is TableStatus.EXPIRED
    tid = await lobby(service)
    with pytest.raises(TableError, match="not_host"):
        await service.lobby.abandon(tid, GUEST, can_manage=False)
    await service.lobby.abandon(tid, GUEST, can_manage=True)
    closed = await service.core.get(tid)
    assert closed.status is TableStatus.ABANDONED
    assert service.core.evict_closed(now=closed.last_activity + 60) == []
    assert tid in service.core.evict_closed(now=closed.last_activity + 601)
    assert tid not in service.core.tables
    assert (await service.core.get(tid)).status is TableStatus.ABANDONED  # back from the store


async def test_a_game_nobody_plays_for_a_day_is_closed(service: TableService) -> None:
    tid = await lobby(service, turn_timer=0)
    for seat in (1, 2, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    table = await service.core.get(tid)
    last = table.last_human
    assert await service.results.close_idle_tables(now=last + 86399) == []
    closed = await service.results.close_idle_tables(now=last + 86401)
    assert [t.id for t in closed] == [tid] and table.status is TableStatus.ABANDONED
    assert (await service.repo.load_table(tid)).status is TableStatus.ABANDONED
    # A person's action counts as play: the clock starts again from it.
    tid = await lobby(service, turn_timer=0)
    await service.lobby.join(tid, GUEST, "guest", 1)
    for seat in (2, 3):
        await service.lobby.set_computer(tid, HOST, seat, "easy")
    await service.lobby.start(tid, HOST)
    table = await service.core.get(tid)
    seat = next(s for s in pending_seats(table.game.view(None)) if table.kind(s) is SeatKind.HUMAN)
    user = HOST if seat == 0 else GUEST
    await service.clicks.act(tid, user, None, lambda s: DeclineGrand(s))
    assert table.last_human > last
    assert await service.results.close_idle_tables(now=table.last_human + 3600) == []



def test_the_service_is_its_parts() -> None:
    """TableService only builds the parts and stops them: every other call goes to the
    part that answers for it, and no part knows the root."""
    own = {name for name, value in vars(TableService).items()
           if callable(value) and not name.startswith("__")}
    assert own == {"close"}
    tables = Path(__file__).resolve().parents[2] / "bot" / "tables"
    knowing = sorted(p.name for p in tables.glob("*.py")
                     if p.name not in ("service.py", "__init__.py")
                     and "bot.tables.service" in p.read_text(encoding="utf-8"))
    assert knowing == []
