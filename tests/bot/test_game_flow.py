"""Whole games through the local Discord: commands, lobby, hands, play, results."""

from __future__ import annotations

import random
from pathlib import Path

from bot.store.models import TableStatus
from engine.tichu.view import Phase
from tests.bot.driver import Person, component, running, settle, table_message
from tests.emulator.server import DiscordEmulator


async def open_table(emu: DiscordEmulator, host, channel, **options):  # type: ignore[no-untyped-def]
    reply = await emu.slash(host, channel, "tichu new", **options)
    return await reply.response()


async def test_two_people_and_two_computers_play_a_whole_game(emulator: DiscordEmulator,
                                                              tmp_path: Path) -> None:
    emu = emulator
    guild = emu.add_guild("Friends", locale="en-US")
    channel = emu.add_text_channel(guild, "tichu")
    alice, bob = emu.add_user("alice"), emu.add_user("bob", locale="fr")
    for user in (alice, bob):
        emu.add_member(guild, user)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu"])
        lobby = await open_table(emu, alice, channel, target=200)
        assert "Tichu" in lobby.content
        await (await emu.click(bob, lobby, component(lobby, "join", arg="2").custom_id)).response()
        cpu = component(lobby, "cpu", "s")
        await (await emu.select(alice, lobby, cpu.custom_id, ["1.easy"])).response()
        cpu = component(lobby, "cpu", "s")
        await (await emu.select(alice, lobby, cpu.custom_id, ["3.normal"])).response()
        await (await emu.click(alice, lobby, component(lobby, "start").custom_id)).response()
        table = next(iter(bot.service.tables.values()))
        assert table.status is TableStatus.PLAYING
        people = {0: Person(emu, alice, random.Random(1)), 2: Person(emu, bob, random.Random(2))}
        for _ in range(2000):
            due = await settle(bot, table)
            if not due:
                break
            await people[due[0]].act(table_message(emu, table))
        assert table.game is not None and table.game.phase is Phase.GAME_OVER
        assert table.status is TableStatus.FINISHED
        rows = await bot.service.repo.leaderboard(guild.id, "tichu")
        assert {r.user_id for r in rows} == {alice.id, bob.id}
        assert all(r.games == 1 for r in rows)
    emu.assert_clean()
