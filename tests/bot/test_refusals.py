"""Every refusal: an ephemeral sentence in the clicker's language, and nothing changes."""

from __future__ import annotations

import asyncio
import random
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.store.models import GuildSettings
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, running, settle, table_message


async def refusal(handle: Any) -> str:
    message = await handle.response()
    assert message.ephemeral
    return str(message.content)


async def to_first_lead(world: World, bot: Any, table: Any) -> None:
    people = {s: Person(world.emu, world.users[s], random.Random(s)) for s in range(4)}
    while table.game.phase is not Phase.PLAY:
        due = await settle(bot, table)
        await people[due[0]].act(table_message(world.emu, table))
    await settle(bot, table)


async def test_lobby_refusals(world: World, tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot)
        start = component(lobby, "start").custom_id
        text = await refusal(await emu.click(world.stranger, lobby, start))
        assert text == t("en", "error.not_host")
        bob = world.users[1]  # French
        await (await emu.click(bob, lobby, component(lobby, "join", arg="1").custom_id)).response()
        text = await refusal(await emu.click(bob, lobby, start))
        assert text == t("fr", "error.not_host")
        text = await refusal(await emu.click(world.users[0], lobby, start))
        assert text == t("en", "error.seats_empty")
        cpu = component(lobby, "cpu", "s").custom_id
        text = await refusal(await emu.select(bob, lobby, cpu, ["2.hard"]))
        assert text == t("fr", "error.not_host")
        # A second /tichu new in the same channel opens another table, in its own thread,
        # up to the server's limit of tables per channel.
        again = await emu.slash(world.users[2], world.channel, "tichu new")
        await again.response()
        assert await bot.service.repo.count_active_tables(world.channel.id) == 2
        await bot.service.repo.save_guild_settings(world.guild.id,
                                                   GuildSettings(tables_per_channel=2))
        third = await emu.slash(world.users[3], world.channel, "tichu new")
        assert (await third.response()).content == t("fr", "error.too_many_tables", limit=2)
        assert [s.user_id for s in table.seats] == [world.users[0].id, bob.id, None, None]
    emu.assert_clean()


# The deal of test_play_refusals: its first leader holds a play with neither the
# Mahjong nor the Phoenix (which would ask a second question).
PLAY_REFUSALS_SEED = "5eed0001"


async def test_play_refusals(world: World, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    seeded = secrets.token_hex  # tables draw token_hex(8); gateway session ids stay distinct
    monkeypatch.setattr(secrets, "token_hex",
                        lambda nbytes=None: PLAY_REFUSALS_SEED if nbytes == 8 else seeded(nbytes))
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot)
        assert table.record.seed == PLAY_REFUSALS_SEED  # the chosen deal
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await to_first_lead(world, bot, table)
        message = table_message(emu, table)

        # A stranger presses My hand.
        text = await refusal(await emu.click(world.stranger, message,
                                             component(message, "hand").custom_id))
        assert text == t("en", "error.not_seated")

        # Another seat's action never makes a panel out of date: the leader holds the
        # panel, someone else calls Tichu (confirmed), the leader's play still applies.
        leader = table.game.turn
        locale = world.users[leader].locale
        person = Person(emu, world.users[leader])
        hand = await person.open_hand(message)
        other = next(s for s in range(4) if s != leader and not table.game.has_played[s])
        caller = Person(emu, world.users[other])
        other_hand = await caller.open_hand(message)
        await caller.click(other_hand, component(other_hand, "ask", arg="tichu").custom_id)
        assert component(other_hand, "tichu") is not None  # asked once more
        await caller.click(other_hand, component(other_hand, "tichu").custom_id)
        assert caller.refusals == [] and table.game.calls[other] is not None

        # A double click: two selections from one menu before the first answer.
        seq = table.seq
        play = component(hand, "play", "s")
        # A play that needs no second step (no Mahjong wish, no Phoenix reading).
        plain = [o.value for o in play.options if not {"52", "54"} & set(o.value.split("."))]
        assert plain, f"seed {PLAY_REFUSALS_SEED} gives the leader no plain play"
        control, value = play.custom_id, plain[0]
        first, second = await asyncio.gather(
            emu.select(world.users[leader], hand, control, [value]),
            emu.select(world.users[leader], hand, control, [value]))
        answers = [await first.response(), await second.response()]
        assert table.seq == seq + 1  # played once
        assert sum(a.content == t(locale, "error.stale") for a in answers) == 1
        assert person.refusals == []

        # Forged custom IDs: unknown grammar, and ours but not on that message.
        for forged in ("hack:me", f"tichu:b:{table.id}:-:hand:99", "tichu:b:999:-:hand"):
            text = await refusal(await emu.forged_click(world.stranger, message, forged))
            assert text == t("en", "error.forged")
        assert table.seq == seq + 1
    emu.assert_clean()


async def test_table_that_no_longer_exists_and_corrupt_rows(world: World,
                                                            tmp_path: Path) -> None:
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    async with running(emu, db) as bot:
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        message = table_message(emu, table)
        table_id = table.id
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("UPDATE actions SET payload = '{broken' WHERE table_id = ?", (table_id,))
        if not conn.execute("SELECT count(*) FROM actions WHERE table_id = ?",
                            (table_id,)).fetchone()[0]:
            conn.execute("UPDATE tables SET options = '{broken' WHERE id = ?", (table_id,))
    async with running(emu, db) as bot:  # the corrupt table does not stop the bot
        hand = component(message, "hand").custom_id
        text = await refusal(await emu.click(world.users[0], message, hand))
        assert text == t("en", "error.table_broken")
        assert table_id in bot.service.core.broken
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        for name in ("actions", "seats"):
            conn.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))
        conn.execute("DELETE FROM tables WHERE id = ?", (table_id,))
    async with running(emu, db):
        text = await refusal(await emu.click(world.users[1], message, hand))
        assert text == t("fr", "error.no_table")
    emu.assert_clean()
