"""Stop the bot mid-deal; a new instance on the same database goes on where it was."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from bot.store.models import TableStatus
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, running, settle, table_message


async def test_restart_mid_deal_goes_on_from_the_same_database(world: World,
                                                                tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    emu = world.emu
    people = {0: Person(emu, world.users[0], random.Random(5)),
              2: Person(emu, world.users[1], random.Random(6))}
    async with running(emu, db) as bot:
        # To 100: one deal, which the restored table plays out to the game's end.
        lobby, table = await open_lobby(world, bot, target=100)
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "normal", 3: "easy"})
        for _ in range(30):  # grand, exchange and well into the play
            due = await settle(bot, table)
            await people[due[0]].act(table_message(emu, table))
            async with table.lock:
                stored = sqlite3.connect(db).execute(
                    "select count(*) from actions where table_id = ?", (table.id,)).fetchone()[0]
                assert stored == table.seq  # everything acknowledged is already stored
        await settle(bot, table)
        before = {s: table.game.view(s) for s in (None, 0, 1, 2, 3)}
        seq, table_id, message_id = table.seq, table.id, table.record.message_id
        assert table.game.phase is Phase.PLAY
    # A new process: nothing in memory, the same database, the same Discord messages.
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert table.seq == seq and table.record.message_id == message_id
        assert {s: table.game.view(s) for s in (None, 0, 1, 2, 3)} == before
        # The old table message's buttons work again.
        due = await settle(bot, table)
        hand = await people[due[0]].open_hand(emu.messages[message_id])
        assert component(hand, "refresh") is not None
        for _ in range(5000):
            due = await settle(bot, table)
            if not due:
                break
            await people[due[0]].act(table_message(emu, table))
        assert table.status is TableStatus.FINISHED
    emu.assert_clean()


async def test_a_computer_only_table_resumes_by_itself(world: World, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with running(world.emu, db, ai_delay=0.02) as bot:
        lobby, table = await open_lobby(world, bot, target=100)
        leave = component(lobby, "leave")
        await (await world.emu.click(world.users[0], lobby, leave.custom_id)).response()
        await seat_and_start(world, lobby, [None] * 4,
                             {0: "easy", 1: "easy", 2: "easy", 3: "easy"})
        table_id = table.id
        while table.seq < 20:
            await bot.presenter.idle.wait()
            await asyncio.sleep(0.01)
    async with running(world.emu, db, ai_delay=0.0) as bot:
        table = await bot.service.core.get(table_id)
        assert table.seq >= 20

        for _ in range(3000):
            if table.status is TableStatus.FINISHED:
                break
            await asyncio.sleep(0.01)
        assert table.status is TableStatus.FINISHED
        await bot.presenter.idle.wait()
    world.emu.assert_clean()
