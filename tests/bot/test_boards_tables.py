"""Tables that play duplicate boards, private tables and a game's finishing time, through
the table service (no Discord)."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from bot.games.registry import all_specs
from bot.games.tichu.boards import DECIDE_KEY, RECORD_NAME, board_move
from bot.i18n import t
from bot.render import render_hand
from bot.render.position import STRIP_H
from bot.render.table import SIZE
from bot.store import SQLiteRepository
from bot.store.models import TableStatus
from bot.tables import SeatKind, Table, TableError, TableService
from engine.duplicate.boards import make_boards
from engine.duplicate.play import BoardsGame, decide
from tests.bot.test_service import wait_for

HOST = 11
BOARDS = make_boards("service", 2)


@pytest_asyncio.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SQLiteRepository]:
    store = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await store.open()
    yield store
    await store.close()


@pytest_asyncio.fixture
async def service(repo: SQLiteRepository) -> AsyncIterator[TableService]:
    svc = TableService(repo, all_specs(), ai_delay=0.0, lobby_timeout=60)
    yield svc
    await svc.close()


async def boards_table(service: TableService, levels: tuple[str | None, ...],
                       **options: object) -> Table:
    table = await service.lobby.open_lobby(
        game="tichu", guild_id=1, channel_id=2, host_id=HOST, host_name="host", locale="en",
        options={"boards": [b.to_json() for b in BOARDS], "turn_timer": 0, **options})
    for seat, level in enumerate(levels):
        if level is not None:
            await service.lobby.set_computer(table.id, HOST, seat, level)
    return await service.lobby.start(table.id, HOST)


async def test_a_table_plays_its_boards_in_turn_and_tells_each_deal_that_ends(
        service: TableService, repo: SQLiteRepository, tmp_path: Path) -> None:
    ended: list[tuple[int, int]] = []

    async def listener(table: Table) -> None:
        ended.append((table.id, len(table.game.history)))

    service.results.deal_listeners.append(listener)
    table = await service.lobby.open_lobby(
        game="tichu", guild_id=1, channel_id=2, host_id=HOST, host_name="host", locale="en",
        options={"boards": [b.to_json() for b in BOARDS], "turn_timer": 0})
    await service.lobby.leave(table.id, HOST)  # the host watches: four computers play
    for seat in range(4):
        await service.lobby.set_computer(table.id, HOST, seat, "easy")
    await service.lobby.start(table.id, HOST)
    await wait_for(lambda: table.status is TableStatus.FINISHED, 60)
    game = table.game
    assert isinstance(game, BoardsGame)
    assert ended == [(table.id, 1), (table.id, 2)]
    assert [tuple(h) for h in game.deal_log[1][0]] == [tuple(h) for h in BOARDS[1].hands]
    stored = await repo.recent_games(1, RECORD_NAME)
    assert [g.table_id for g in stored] == [table.id]
    # Rebuilt from the store, the table is the same game.
    again = TableService(repo, all_specs(), ai_delay=0.0)
    try:
        rebuilt = await again.core.get(table.id)
        assert rebuilt.game.history == game.history and rebuilt.game.actions == game.actions
    finally:
        await again.close()


async def test_computers_on_boards_decide_from_the_board_and_its_actions_alone(
        service: TableService) -> None:
    table = await boards_table(service, (None, "easy", "easy", "easy"))
    game = table.game
    assert isinstance(game, BoardsGame)
    task, args = table.spec.computer_task(table, 1, "hard", "ai")
    assert task is board_move and args[0] == BOARDS[0].to_json()
    assert args[2:] == (1, "hard", "")  # a table of no event: no key
    assert board_move(*args) == decide(BOARDS[0], list(game.actions), 1, "hard")
    # A table of an event decides with the key its options hold (from the board secret).
    table.record.options[DECIDE_KEY] = "k" * 64
    task, args = table.spec.computer_task(table, 1, "hard", "ai")
    assert args[2:] == (1, "hard", "k" * 64)
    assert board_move(*args) == decide(BOARDS[0], list(game.actions), 1, "hard",
                                       key=b"k" * 64)


async def test_a_private_table_is_not_the_table_of_its_channel(service: TableService) -> None:
    await boards_table(service, (None, "easy", "easy", "easy"), private=True)
    with pytest.raises(TableError, match="no_table_here"):
        await service.core.active_in(2, "tichu")


async def test_once_its_time_is_over_computers_finish_a_game_for_its_people(
        service: TableService) -> None:
    table = await boards_table(service, (None, "easy", "easy", "easy"),
                               finish_at=time.time() - 1)
    assert await service.results.close_idle_tables(now=time.time() + 90_000) == []  # never closed
    assert table.status is TableStatus.PLAYING and table.kind(0) is SeatKind.COMPUTER
    assert table.seats[0].away and table.seats[0].user_id == HOST
    with pytest.raises(TableError, match="time_over"):
        await service.seats.come_back(table.id, HOST)
    await wait_for(lambda: table.status is TableStatus.FINISHED, 120)


async def test_a_private_panel_shows_the_table_and_each_board_s_result(
        service: TableService) -> None:
    table = await boards_table(service, (None, "easy", "easy", "easy"), private=True,
                               finish_at=time.time() - 1)
    spec = all_specs()["tichu"]
    first = await spec.hand_message(table, 0, "en")
    game = table.game
    assert isinstance(game, BoardsGame) and first.image is not None
    # One picture, the table with the hand under it: two would be cropped into a mosaic.
    assert [f.filename for f in first.files()] == ["hand.jpg"]  # a live panel: JPEG
    with Image.open(io.BytesIO(first.image)) as picture:  # the computers move meanwhile
        assert picture.size == (SIZE[0], SIZE[1] + STRIP_H)
    await service.results.close_idle_tables()  # computers finish it
    await wait_for(lambda: table.status is TableStatus.FINISHED, 120)
    game = table.game
    assert isinstance(game, BoardsGame)
    last = await spec.hand_message(table, 0, "fr")
    diff = game.diffs(0)[-1]
    shown = f"+{diff}" if diff > 0 else str(diff).replace("-", "−")
    assert last.content.startswith(f"La donne 2 est finie : votre camp {shown}.")
    public_table = await boards_table(service, (None, "easy", "easy", "easy"))
    public = await spec.hand_message(public_table, 0, "en")
    assert public.image == render_hand(public_table.game.view(0), locale="en")


async def test_an_event_table_s_claims_are_made_once(service: TableService,
                                                     repo: SQLiteRepository) -> None:
    """A start that claimed the boards but stopped before the game began (the bot died
    in between) claims nothing again: the next start goes through."""
    from bot.games.tichu.duplicate import Duplicate
    from bot.jobs import local_jobs

    duplicate = Duplicate(service, local_jobs(repo), field_tables=0)
    options = await duplicate.table_options({"duplicate": 2, "turn_timer": 0}, guild_id=1,
                                            host_id=HOST)
    table = await service.lobby.open_lobby(game="tichu", guild_id=1, channel_id=2, host_id=HOST,
                                           host_name="host", locale="en", options=options)
    for seat in (1, 2, 3):
        await service.lobby.set_computer(table.id, HOST, seat, "easy")
    await duplicate.claim_table(table)  # as the start did before it stopped
    await service.lobby.start(table.id, HOST)
    assert table.status is TableStatus.PLAYING
    claimed = await repo.user_results(HOST, options["event"])
    assert [(r.board, r.direction) for r in claimed] == [
        (b["id"], 0) for b in options["boards"]]
    with pytest.raises(TableError, match="event_unknown"):
        await duplicate.table_options({"event": "QQQQQQ"}, guild_id=1, host_id=HOST)


async def test_a_board_whose_time_is_over_says_so_on_its_panel(service: TableService) -> None:
    """The day's end hands the seat to a computer for good: the panel says the computers
    finish the board, and offers no way back (a click on it would be refused)."""
    spec = all_specs()["tichu"]
    for finish_at, said, back in ((time.time() - 1, "hand.time_over", False),
                                  (time.time() + 3600, "hand.away", True)):
        table = await boards_table(service, (None, "easy", "easy", "easy"), private=True,
                                   finish_at=finish_at)
        table.seats[0].away = True  # as the day's end (or three timeouts) leaves it
        message = await spec.hand_message(table, 0, "en")
        assert t("en", said) in message.content
        ids = [str(getattr(item, "custom_id", "")) for item in message.view.children]
        assert any(i.endswith(":back") for i in ids) is back, ids


async def test_a_seat_computers_take_while_the_driver_thinks_is_played(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await boards_table(service, (None, "easy", "easy", "easy"), finish_at=time.time() - 1)
    drivers = service.drivers

    def idle() -> bool:  # the person's turn, and the computers have stopped
        task = drivers._drivers.get(table.id)
        return (task is None or task.done()) and table.kind(0) is SeatKind.HUMAN and \
            0 in table.spec.due_seats(table.game)

    await wait_for(idle, 60)
    thinking, go = asyncio.Event(), asyncio.Event()
    think = drivers._computer_action

    async def slow_thought(t: Table) -> object:
        action = await think(t)  # nothing to do: the seat due is the person's
        if not go.is_set():
            thinking.set()
            await go.wait()
        return action

    monkeypatch.setattr(drivers, "_computer_action", slow_thought)
    drivers.kick_driver(table)
    await thinking.wait()
    await service.results.finish_for_people(table)  # a computer takes the seat meanwhile
    go.set()
    await wait_for(lambda: table.status is TableStatus.FINISHED, 60)
