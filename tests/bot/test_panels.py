"""Hand panel redraws: one that waits while the person opens a new panel goes to the
new one; and they never wait for the pacer of the bot's globally limited writes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameSpec
from engine.tichu.ai import pending_seats
from tests.bot.conftest import World, until_bob_plays
from tests.bot.driver import component, running, settle, table_message


async def test_a_redraw_waiting_for_the_panel_goes_to_the_newly_opened_one(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table, alice, bob = await until_bob_plays(world, bot)
        old_panel = alice.panel
        spec: GameSpec = table.spec  # type: ignore[assignment]
        draw = spec.hand_message
        drawing, go, pushing = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def slow_draw(table: Any, seat: int, locale: str, **options: Any) -> Any:
            message = await draw(table, seat, locale, **options)
            if seat == 0 and not go.is_set():  # Alice's new panel, drawn as things stand
                drawing.set()
                await go.wait()
            return message

        push_one = bot.panels._push_one

        async def push_one_noted(table: Any, seat: int, panel: Any) -> None:
            if seat == 0:
                pushing.set()  # a redraw of Alice's panel, about to wait for it
            await push_one(table, seat, panel)

        monkeypatch.setattr(spec, "hand_message", slow_draw)
        monkeypatch.setattr(bot.panels, "_push_one", push_one_noted)
        # Alice opens a new panel; while it is being drawn, Bob plays and the computers
        # go on until it is Alice's turn: a redraw of her panel waits meanwhile.
        reply = await emu.click(alice.user, table_message(emu, table),
                                component(table_message(emu, table), "hand").custom_id)
        await asyncio.wait_for(drawing.wait(), 10)
        await bob.act(table_message(emu, table))
        await asyncio.wait_for(pushing.wait(), 10)
        while 0 not in pending_seats(table.game.view(None)):  # the computers' moves
            await asyncio.sleep(0.005)
        go.set()
        new_panel = await reply.response()
        assert new_panel.id != old_panel.id
        assert await settle(bot, table) == (0,)
        # The new panel shows Alice's turn; the old one was left alone.
        expected = await draw(table, 0, bot.panels.locales[alice.user.id])
        assert new_panel.content == expected.content and new_panel.history
        assert {c.custom_id for c in (*new_panel.buttons, *new_panel.selects)} == {
            c.custom_id for c in expected.view.children}  # type: ignore[attr-defined]
        assert table.record.panels[alice.user.id].message_id == new_panel.id
    emu.assert_clean()


async def test_panel_redraws_do_not_wait_for_the_pacer_of_channel_writes(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord does not bind the interaction webhook to the global limit: a redraw
    goes out even while every globally limited write is held."""
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table, alice, bob = await until_bob_plays(world, bot)
        noticed: list[Any] = []

        async def table_changed(changed: Any) -> None:  # the presenter left out
            noticed.append(changed)

        monkeypatch.setattr(bot.presenter, "table_changed", table_changed)
        release = asyncio.Event()
        held: list[None] = []

        async def hold() -> None:
            held.append(None)
            await release.wait()

        monkeypatch.setattr(bot.pacer, "wait", hold)
        try:
            await bob.act(table_message(emu, table))
            while 0 not in pending_seats(table.game.view(None)) or table.lock.locked():
                await asyncio.sleep(0.005)  # the computers' moves
            before = alice.panel.content
            await asyncio.wait_for(bot.panels.push(table), 10)
        finally:
            release.set()
        assert noticed and not held
        spec: GameSpec = table.spec  # type: ignore[assignment]
        expected = await spec.hand_message(table, 0, bot.panels.locales[alice.user.id])
        assert alice.panel.content == expected.content != before
    emu.assert_clean()
