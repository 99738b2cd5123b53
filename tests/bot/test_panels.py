"""Hand panel redraws: one that waits while the person opens a new panel goes to the
new one; they never wait for the pacer of the bot's globally limited writes; and a game's
end reaches every open panel by itself, whoever or whatever ends it (a daily board's
panel, the only view its person has, shows the board's result)."""

from __future__ import annotations

import asyncio
import random
import secrets
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameSpec
from bot.games.tichu import duplicate as duplicate_module
from bot.games.tichu.duplicate import Duplicate
from bot.i18n import t
from bot.store.models import TableStatus
from bot.tables import SeatKind, Table
from engine.duplicate.boards import Board, daily_boards
from engine.tichu.ai import pending_seats
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start, until_bob_plays
from tests.bot.driver import (
    Person,
    component,
    control_ids,
    pace_computers,
    running,
    settle,
    table_message,
)
from tests.bot.test_daily import home, open_board, play_out


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
            # Alice's panel as it was before bob's move (her own redraw after the computers'
            # moves may already be on its way when they are done: the push must not wait).
            before = alice.panel.content
            await bob.act(table_message(emu, table))
            while 0 not in pending_seats(table.game.view(None)) or table.lock.locked():
                await asyncio.sleep(0.005)  # the computers' moves
            await asyncio.wait_for(bot.panels.push(table), 10)
        finally:
            release.set()
        assert noticed and not held
        spec: GameSpec = table.spec  # type: ignore[assignment]
        expected = await spec.hand_message(table, 0, bot.panels.locales[alice.user.id])
        assert alice.panel.content == expected.content != before
    emu.assert_clean()


# ------------------------------------------------------------------ a game's end
ALONE = {"daily_boards": 1, "field_tables": 0, "daily_level": "normal"}
"""A day of one board, and no computer field (nothing here compares results)."""
BOARD_DAY = date(2026, 1, 3)
"""The day whose first board the daily tests below play, whatever day it is: with its
cards, a seeded person and computers that decide from the board and its actions alone,
each test plays the same board the same way every time."""
COMPUTER_ENDS = 2
"""Alice's seed on that board with which a computer makes its last move (seat 1 goes out
with the Dog, the 85th action). This one and :data:`SHE_ENDS` were found by playing the
board with seeds 0 to 3 and noting whose the last action was (the day's end needs none:
the computers finish the board for her)."""
SHE_ENDS = 0
"""Alice's seed on that board with which her own play ends it (the nine of spades, the
88th action)."""
DAY_ENDS_AFTER = 12
"""Alice's decisions before her day ends in the middle of the board."""


@pytest.fixture
def board_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today's boards are those of :data:`BOARD_DAY` dealt from its date, and the
    computers decide with no key, as they did when the seeds above were found."""
    async def pinned(self: Duplicate, day: date) -> list[Board]:
        return daily_boards(BOARD_DAY, self.boards, seed=BOARD_DAY.isoformat())

    monkeypatch.setattr(Duplicate, "day_boards", pinned)
    monkeypatch.setattr(duplicate_module, "decision_key", lambda event: "")


async def assert_shows_the_end(panel: Any, table: Table, seat: int, user: Any) -> None:
    """The live panel shows the game's end: what the bot draws for the seat now (at a
    daily board: the board's result line, Result and Review)."""
    assert table.status is TableStatus.FINISHED and table.game.phase is Phase.GAME_OVER
    spec: GameSpec = table.spec  # type: ignore[assignment]
    expected = await spec.hand_message(table, seat, user.locale)
    assert panel.content == expected.content
    assert control_ids(panel) == \
        {c.custom_id for c in expected.view.children}  # type: ignore[attr-defined]
    if table.private:
        assert panel.content.startswith("Board 1 is over: your side ")
        assert component(panel, "dresult") is not None
        assert component(panel, "review", arg="0") is not None
        # Nobody is away from a finished board: no "a computer plays your seat" line.
        assert t(user.locale, "hand.away") not in panel.content
        assert component(panel, "back") is None


@pytest.mark.parametrize(("seed", "by"), [(COMPUTER_ENDS, "ai"), (SHE_ENDS, "human")])
async def test_a_daily_board_shows_its_end_in_the_open_panel_whoever_ends_it(
        world: World, tmp_path: Path, board_day: None, seed: int, by: str) -> None:
    """A computer's last move (the redraw found the table finished, before the fix) or
    the person's (the answer to her last click shows it; the redraws find it shown)."""
    emu, alice = world.emu, world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", **ALONE) as bot:
        pace_computers(bot)  # each computer moves once the move before it is shown
        panel, table = await open_board(world, bot, alice, await home(world, alice))
        person = Person(emu, alice, random.Random(seed), panel=panel, table=table)
        await play_out(bot, person, table)
        assert table.record.actions[-1].payload["by"] == by
        # Alice only watches her panel: it shows the end by itself.
        await assert_shows_the_end(panel, table, 0, alice)
    emu.assert_clean()


async def test_a_daily_board_its_day_ends_shows_its_end_in_the_open_panel(
        world: World, tmp_path: Path, board_day: None) -> None:
    emu, alice = world.emu, world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", **ALONE) as bot:
        pace_computers(bot)
        panel, table = await open_board(world, bot, alice, await home(world, alice))
        person = Person(emu, alice, random.Random(COMPUTER_ENDS), panel=panel, table=table)
        for _ in range(DAY_ENDS_AFTER):
            assert await settle(bot, table) == (0,)
            await person.act()
        assert await settle(bot, table) == (0,)
        # Her day ends with the board half played: the bot's sweep, at that moment, hands
        # her seat to a computer, and the computers finish the board.
        assert table.finish_at is not None
        await bot.service.results.close_idle_tables(now=table.finish_at)
        assert table.seats[0].away and table.kind(0) is SeatKind.COMPUTER
        assert await settle(bot, table) == ()
        await assert_shows_the_end(panel, table, 0, alice)
    emu.assert_clean()


TABLE_SEED = "panel-end-1"
"""The deals of the table below: the second reaches its target of 50, and a computer
(seat 1) makes the game's last move."""


async def test_every_open_panel_shows_the_end_of_a_game(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table of two people and two computers, both people's open panels show the end
    of the game, which a computer's move made: no click of theirs redrew them."""
    emu = world.emu
    monkeypatch.setattr(secrets, "token_hex", lambda nbytes=None: TABLE_SEED)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        pace_computers(bot)
        lobby, table = await open_lobby(world, bot, target=50)
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "normal", 3: "normal"})
        people = {0: Person(emu, world.users[0], random.Random(1), table=table),
                  2: Person(emu, world.users[1], random.Random(2), table=table)}
        for _ in range(400):
            due = await settle(bot, table)
            if not due:
                break
            await people[due[0]].act(table_message(emu, table))
        assert table.game.phase is Phase.GAME_OVER
        assert table.record.actions[-1].payload["by"] == "ai"
        for seat, person in people.items():
            assert person.opened == 1
            await assert_shows_the_end(person.panel, table, seat, person.user)
    emu.assert_clean()
