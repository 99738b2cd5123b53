"""The table message is drawn only when it is about to be written: changes that come
in while its edit waits for its turn fold into one picture of the latest state."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameSpec
from engine.tichu.ai import pending_seats
from engine.tichu.view import Phase
from tests.bot.conftest import World, until_bob_plays
from tests.bot.driver import running, settle, table_message


async def test_changes_while_the_table_edit_waits_make_one_drawing(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table, _alice, bob = await until_bob_plays(world, bot)
        spec: GameSpec = table.spec  # type: ignore[assignment]
        draw = spec.table_message
        drawings: list[Phase] = []

        async def counted(*args: Any, **options: Any) -> Any:
            drawings.append(table.game.phase)
            return await draw(*args, **options)

        monkeypatch.setattr(spec, "table_message", counted)
        changed = bot.presenter.table_changed
        alice_due = asyncio.Event()

        async def noted(changed_table: Any) -> None:
            seen_alice = 0 in pending_seats(changed_table.game.view(None))
            await changed(changed_table)  # (returns at once while a pass runs)
            if seen_alice:
                alice_due.set()

        monkeypatch.setattr(bot.presenter, "table_changed", noted)
        release = asyncio.Event()
        pace = bot.pacer.wait

        async def held() -> None:  # every globally limited write waits for the test
            await release.wait()
            await pace()

        monkeypatch.setattr(bot.pacer, "wait", held)
        try:
            await bob.act(table_message(emu, table))
            # Bob's play and the computers' after it, up to Alice's turn: the presenter
            # heard of each while the table edit of the first waited for its turn.
            await asyncio.wait_for(alice_due.wait(), 30)
            assert drawings == []
        finally:
            release.set()
        assert await settle(bot, table) == (0,)
        assert len(drawings) == 1
        shown = table_message(emu, table)
        latest = await bot.presenter.thread.table_message(table)
        assert shown.content == latest.content
    emu.assert_clean()


async def test_a_person_put_on_turn_sees_it_while_the_table_edit_waits(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand panels are redrawn at each change even while the table's pass waits for a
    globally limited write (with many tables, the pace makes that wait long)."""
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table, alice, bob = await until_bob_plays(world, bot)
        release = asyncio.Event()
        held: list[None] = []
        pace = bot.pacer.wait

        async def hold() -> None:  # every globally limited write waits for the test
            held.append(None)
            await release.wait()
            await pace()

        monkeypatch.setattr(bot.pacer, "wait", hold)
        compute = bot.service.drivers._computer_action

        async def once_held(changed: Any) -> Any:  # the computers move once a write waits
            while not held:
                await asyncio.sleep(0.005)
            return await compute(changed)

        monkeypatch.setattr(bot.service.drivers, "_computer_action", once_held)
        spec: GameSpec = table.spec  # type: ignore[assignment]
        try:
            before = alice.panel.content
            await bob.act(table_message(emu, table))
            while 0 not in pending_seats(table.game.view(None)) or table.lock.locked():
                await asyncio.sleep(0.005)  # the computers' moves
            expected = await spec.hand_message(table, 0, bot.panels.locales[alice.user.id])

            async def redrawn() -> None:
                while alice.panel.content != expected.content:
                    await asyncio.sleep(0.005)

            await asyncio.wait_for(redrawn(), 10)
            assert held and not release.is_set()  # the table's edit still waits
            assert expected.content != before
        finally:
            release.set()
        assert await settle(bot, table) == (0,)
    emu.assert_clean()
