"""Away at a table in DMs (issue 53): the turn timer hands the seat to a computer, any
click on the person's DM panel takes it back (the click counting for what it is), and a
person gone for :data:`MISSES_BEFORE_OUT` of their decisions in a row loses the seat for
good: told in their DM, noted as leaving, their later clicks refused, the others told in
their log, and the game rated with them as their seat's player (docs/players/ratings.md).

The turn timer is driven as people's time running out would drive it: the seat's
decision became due a turn timer ago (:func:`miss`), never by waiting.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.store.models import TableStatus
from bot.tables import Table
from bot.tables.drivers import MISSES_BEFORE_OUT
from engine.tichu.view import Phase
from tests.bot.driver import component, running, settle
from tests.bot.test_direct_tables import (
    DirectPerson,
    dm_messages,
    panel_of,
    people_of,
    seats_of,
    shown,
)
from tests.emulator.server import DiscordEmulator


async def until(what: Any, text: str, rounds: int = 4000) -> None:
    for _ in range(rounds):
        if what():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {text}")


async def miss(bot: Any, table: Table, seat: int) -> None:
    """``seat``, due, lets its time run out: its decision became due a turn timer ago."""
    seq = table.seq
    table.due_since[seat] = time.time() - 2 * (table.turn_timer or 0)
    bot.service.drivers.reset_timer(table)
    await until(lambda: table.seq > seq, "the timer's move")


def people(emu: DiscordEmulator, bot: Any, table: Table, users: list[Any],
           seats: Iterable[int] = (1, 2, 3)) -> dict[int, Any]:
    found = {s: DirectPerson(emu, users[s], random.Random(40 + s),
                             panel=panel_of(emu, table, s), table=table) for s in seats}
    for person in found.values():
        person.bot = bot
    return found


async def open_table(bot: Any, users: list[Any]) -> Table:
    table = await bot.service.lobby.open_direct(
        game="tichu", seats=seats_of(users), options={"target": 200, "turn_timer": 60})
    await shown(bot, table)
    return table


async def away_after_grand(bot: Any, emu: DiscordEmulator, table: Table,
                           others: dict[int, Any]) -> None:
    """The others decide their Grand Tichu; seat 0's time runs out on its own."""
    for seat in (1, 2, 3):
        await others[seat].act()
    assert await shown(bot, table) == (0,)
    await miss(bot, table, 0)
    await shown(bot, table)


def by_of(table: Table, seat: int) -> list[str]:
    return [a.payload.get("by", "human") for a in table.record.actions
            if a.payload.get("seat") == seat]


async def test_the_timer_hands_the_seat_to_a_computer_and_any_click_takes_it_back(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    users = people_of(emu)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await open_table(bot, users)
        others = people(emu, bot, table, users)
        await away_after_grand(bot, emu, table, others)
        # The timer decided the Grand Tichu, and the seat is the computer's until ana
        # clicks: it made her exchange at once, while the others still choose theirs.
        await until(lambda: len(by_of(table, 0)) == 2, "the computer's exchange for ana")
        await shown(bot, table)
        assert table.seats[0].away and table.seats[0].user_id == users[0].id
        assert by_of(table, 0) == ["timer", "away"] and table.misses[0] == 2
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and stored.seats[0].away
        panel = panel_of(emu, table, 0)
        assert panel.content.startswith(t("en-US", "hand.away_direct"))
        # The others read it in their log (bruno in French).
        said = t("fr", "log.away_direct", name=t("fr", "seat.away", name="ana"))
        assert said in panel_of(emu, table, 1).content
        # Any control of the panel takes the seat back, and counts for what it is: the
        # Tichu call, asked and confirmed, is hers.
        ask = component(panel, "ask", arg="tichu")
        assert ask is not None
        reply = await (await emu.click(users[0], panel, ask.custom_id)).response()
        assert reply.id == panel.id
        assert not table.seats[0].away and table.misses[0] == 0
        assert table.record.options["back"] == {"0": table.seq}
        await shown(bot, table)
        confirm = component(panel_of(emu, table, 0), "tichu")
        assert confirm is not None
        seq = table.seq
        reply = await (await emu.click(users[0], panel, confirm.custom_id)).response()
        assert reply.id == panel.id and table.seq == seq + 1
        assert by_of(table, 0)[-1] == "human"
        assert table.record.actions[-1].payload["seat"] == 0
        await shown(bot, table)
        assert t("en-US", "hand.away_direct") not in panel_of(emu, table, 0).content
        assert t("fr", "log.back", name="ana") in panel_of(emu, table, 1).content
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and not stored.seats[0].away
    emu.assert_clean()


async def test_a_click_from_before_the_computers_move_takes_the_seat_back_and_says_so(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    users = people_of(emu)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await open_table(bot, users)
        everyone = people(emu, bot, table, users, seats=range(4))
        # Everyone plays until ana is on turn in the play.
        while True:
            due = await shown(bot, table)
            if table.game.phase is Phase.PLAY and due == (0,):
                break
            await everyone[due[0]].act()
        panel = panel_of(emu, table, 0)
        passing, play = component(panel, "pass"), component(panel, "play", "s")
        assert passing is not None or play is not None
        # Her panel's redraw is late (her DM does not take the bot's edit), and her time
        # runs out: the computer plays for her and keeps her seat.
        surface = bot.presenter.direct
        surface.closed.add((table.id, users[0].id))
        await miss(bot, table, 0)
        await shown(bot, table)
        assert table.seats[0].away and table.moves[0] == 1
        # Her control from before that move: she is back, and told the computer played
        # meanwhile; nothing else is done.
        seq = table.seq
        if passing is not None:
            reply = await (await emu.click(users[0], panel, passing.custom_id)).response()
        else:
            reply = await (await emu.select(users[0], panel, play.custom_id,
                                            [play.options[0].value])).response()
        assert reply.ephemeral and reply.content == t("en-US", "error.back_stale")
        assert not table.seats[0].away and table.misses[0] == 0 and table.seq == seq
        # Her DM takes the bot's edits again; her Refresh draws her panel as it stands.
        surface.closed.discard((table.id, users[0].id))
        refresh = component(panel, "refresh")
        assert refresh is not None
        reply = await (await emu.click(users[0], panel, refresh.custom_id)).response()
        assert reply.id == panel.id
        await shown(bot, table)
        assert t("en-US", "hand.away_direct") not in panel_of(emu, table, 0).content
        assert component(panel_of(emu, table, 0), "refresh") is not None
    emu.assert_clean()


async def test_gone_too_long_is_out_through_a_restart_and_the_game_is_rated_with_them(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    db = tmp_path / "db.sqlite3"
    users = people_of(emu)
    since = datetime.now(UTC) - timedelta(minutes=1)
    async with running(emu, db) as bot:
        table = await open_table(bot, users)
        others = people(emu, bot, table, users)
        await away_after_grand(bot, emu, table, others)
        await until(lambda: len(by_of(table, 0)) == 2, "the computer's exchange for ana")
        await shown(bot, table)
        table_id = table.id
        assert table.misses[0] == 2
    # A restart: the count is the stored actions' (the timer's, then the away seat's).
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert table.seats[0].away and table.misses[0] == 2
        others = people(emu, bot, table, users)
        kept = panel_of(emu, table, 0)
        while 0 not in table.out:
            due = await shown(bot, table)
            assert due, "the game ended before ana was out"
            await asyncio.gather(*(others[s].act() for s in due))
        await shown(bot, table)
        # Out at exactly the count: the computer's decisions for her, none of hers between.
        assert by_of(table, 0)[:MISSES_BEFORE_OUT] == ["timer"] + ["away"] * (
            MISSES_BEFORE_OUT - 1)
        assert "human" not in by_of(table, 0)
        assert table.out == {0: (users[0].id, "ana")}
        assert table.seats[0].user_id is None and table.seats[0].bot_level == "normal"
        assert table.status is TableStatus.PLAYING
        stored = await bot.service.repo.load_table(table_id)
        assert stored is not None and stored.seats[0].user_id is None
        assert stored.options["out"] == {"0": [users[0].id, "ana"]}
        # Recorded as leaving: the queue pairs her with others who left games early.
        assert await bot.service.repo.left_early([users[0].id], since=since) == \
            {users[0].id: 1}
        # Told in one DM sentence, under her panel; the others in their log.
        assert dm_messages(emu, users[0])[-1].content == t("en-US", "hand.away_gone")
        for seat, locale in ((1, "fr"), (2, "en-GB"), (3, "fr")):
            assert t(locale, "log.away_out", name="ana") in panel_of(emu, table, seat).content
        # A later click of hers: one sentence, nothing changed.
        seq = table.seq
        button = next(b for b in kept.buttons)
        reply = await (await emu.click(users[0], kept, button.custom_id)).response()
        assert reply.ephemeral and reply.content == t("en-US", "error.seat_lost")
        assert table.seq == seq and table.out == {0: (users[0].id, "ana")}
        # The others play the game to its end: it is rated, ana as her seat's player.
        while True:
            due = await shown(bot, table)
            if not due:
                break
            await asyncio.gather(*(others[s].act() for s in due))
        await settle(bot, table)
        assert table.status is TableStatus.FINISHED
        ratings = {r.player: r for r in await bot.service.repo.ratings(0, "tichu")}
        assert set(ratings) == {f"u:{u.id}" for u in users}
        won = table.game.winner == 0
        assert (ratings[f"u:{users[0].id}"].mu > ratings[f"u:{users[1].id}"].mu) == won
        assert ratings[f"u:{users[0].id}"].mu == ratings[f"u:{users[2].id}"].mu
    emu.assert_clean()
