"""Slash commands: French, German and Greek names and descriptions, rules, table repost,
abandon, takeover."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import discord

from bot.i18n import language, t
from bot.store.models import TableStatus
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, running, settle, table_message
from tests.bot.store_rows import row_counts
from tests.emulator.server import DiscordEmulator


async def test_commands_are_localised(world: World, tmp_path: Path) -> None:
    async with running(world.emu, tmp_path / "db.sqlite3"):
        await world.emu.wait_for_commands(["tichu"])
        command = world.emu.get_command("tichu")
        subcommands = {o["name"]: o for o in command.options}
        assert set(subcommands) >= {"new", "leaderboard", "rules", "table", "abandon", "stats"}
        assert subcommands["new"]["name_localizations"]["fr"] == "nouvelle"
        assert subcommands["rules"]["name_localizations"]["fr"] == "règles"
        assert subcommands["settings"]["name_localizations"]["fr"] == "réglages"
        assert subcommands["new"]["description_localizations"]["fr"].startswith("Ouvrir")
        assert subcommands["new"]["name_localizations"]["de"] == "neu"
        assert subcommands["settings"]["name_localizations"]["de"] == "einstellungen"
        assert subcommands["new"]["name_localizations"]["el"] == "νέο"
        assert subcommands["rules"]["name_localizations"]["el"] == "κανόνες"
        # Every game's commands have real descriptions in every language.
        for game in ("tichu", "chinois", "tysiacha"):
            group = world.emu.get_command(game)
            for option in [group.data, *group.options]:
                assert not option["description"].startswith("cmd."), option["name"]
                for lang in ("fr", "de", "el"):
                    assert not option["description_localizations"][lang].startswith("cmd.")
                assert "ja" not in option["description_localizations"]  # English there
        # A French speaker gets the rules in French.
        reply = await world.emu.slash(world.users[1], world.channel, "tichu rules")
        rules = await reply.response()
        assert rules.ephemeral and rules.content == t("fr", "rules.tichu")
    world.emu.assert_clean()


async def test_commands_are_synced_only_when_the_tree_changed(world: World,
                                                              tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with running(world.emu, db) as bot:
        await world.emu.wait_for_commands(["tichu"])
    assert world.emu.command_syncs == 1
    async with running(world.emu, db) as bot:  # a restart: the same tree, no sync
        assert await bot.sync_commands() is False
    assert world.emu.command_syncs == 1
    async with running(world.emu, db) as bot:  # a changed tree is synced, once
        bot.tree.remove_command("chinois")
        assert await bot.sync_commands() is True
        assert await bot.sync_commands() is False
    assert world.emu.command_syncs == 2
    world.emu.assert_clean()


async def test_settings_leave_and_vote_to_end(world: World, tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu"])
        # Only who may manage the server changes its settings.
        refused = await (await emu.slash(world.users[1], world.channel, "tichu settings",
                                         language="fr")).response()
        assert refused.content == t("fr", "error.not_manager")
        settings = await bot.service.repo.guild_settings(world.guild.id)
        assert settings.locale is None
        lobby, table = await open_lobby(world, bot)
        assert table.record.options["turn_timer"] == 90  # on by default
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        # Bob leaves: a computer plays his seat.
        left = await (await emu.slash(world.users[1], table.channel_id, "tichu leave")).response()
        assert left.content == t(table.record.locale, "table.left", name="bob")
        assert table.seats[1].user_id is None and table.seats[1].bot_level is not None
        # Two of the three people left vote to end: a majority ends the table, unrated.
        for index in (0, 2):
            vote = await (await emu.slash(world.users[index], table.channel_id,
                                          "tichu end")).response()
            assert vote.ephemeral
        assert table.status is TableStatus.ABANDONED
        assert await bot.service.repo.leaderboard(world.guild.id, "tichu") == []
    emu.assert_clean()


async def test_the_server_setting_picks_german_or_greek(world: World, tmp_path: Path) -> None:
    """``/tichu settings language:de`` (or ``el``): the server's new tables speak it, whatever
    its Discord locale; the one who asked reads the answer in their own language."""
    emu = world.emu
    owner = emu.users[world.guild.owner_id]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu"])
        for code in ("de", "el"):
            shown = await (await emu.slash(owner, world.channel, "tichu settings",
                                           language=code)).response()
            assert (await bot.service.repo.guild_settings(world.guild.id)).locale == code
            assert f": {t(owner.locale, f'language.{code}')} ·" in shown.content, shown.content
            lobby, table = await open_lobby(world, bot)
            assert table.record.locale == code
            assert t(code, "lobby.title.tichu", id=table.id, target=table.target) \
                in lobby.content
            assert t(code, "lobby.help.tichu") in lobby.content
    emu.assert_clean()


async def test_repost_takeover_and_abandon(world: World, tmp_path: Path) -> None:
    """The host hands a seat to a computer only once its person has stopped playing it (away,
    or the turn timer ran out on their decision): an active player's seat at a rated table
    is refused in one sentence, and nothing is written."""
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    async with running(emu, db) as bot:
        lobby, table = await open_lobby(world, bot)
        assert not table.record.options.get("practice")  # a rated table
        await seat_and_start(world, lobby, [0, 1, None, None], {2: "easy", 3: "easy"})
        await settle(bot, table)
        old = table.record.message_id
        thread = table.channel_id
        reply = await emu.slash(world.users[0], thread, "tichu table")
        await reply.response()
        await emu.wait_for(lambda: table.record.message_id != old and emu.messages[old].deleted)
        assert table_message(emu, table).buttons
        # Only the host may hand a seat to a computer.
        refused = await (await emu.slash(world.users[1], thread, "tichu takeover", seat=1)).response()
        assert refused.content == t("fr", "error.not_host")
        # Bob plays his seat (his turn timer runs): the host may not take it.
        await settle(bot, table)
        rows, seats = row_counts(db), [replace(s) for s in table.seats]
        refused = await (await emu.slash(world.users[0], thread, "tichu takeover",
                                         seat=2)).response()
        assert refused.ephemeral
        assert refused.content == t("en", "error.seat_active", seat=2)
        assert row_counts(db) == rows and table.seats == seats
        assert (await bot.service.repo.load_table(table.id)).seats == seats
        assert table.seats[1].user_id == world.users[1].id and not table.seats[1].away
        # Bob lets his time run out (a short timer from Alice's next move on): the timer
        # decides for him, and now the host may hand his seat to a computer for good.
        table.record.options["turn_timer"] = 0.01
        await Person(emu, world.users[0], random.Random(1)).act(table_message(emu, table))
        await emu.wait_for(lambda: table.idle(1))
        done = await (await emu.slash(world.users[0], thread, "tichu takeover", seat=2)).response()
        assert done.content == t("en", "table.takeover", seat=2)
        assert table.seats[1].bot_level == "normal" and table.seats[1].user_id is None
        assert (await bot.service.repo.load_table(table.id)).seats[1].user_id is None
        # A stranger cannot abandon the table; the host can.
        refused = await (await emu.slash(world.stranger, thread, "tichu abandon")).response()
        assert refused.content == t("en", "error.not_host")
        await (await emu.slash(world.users[0], thread, "tichu abandon")).response()
        assert table.status is TableStatus.ABANDONED
        await bot.presenter.idle.wait()
        assert not table_message(emu, table).buttons
        assert await bot.service.repo.leaderboard(world.guild.id, "tichu") == []
    emu.assert_clean()


async def test_a_table_in_an_archived_thread_is_reopened(world: World, tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        message = table_message(emu, table)
        edits = len(message.history)
        # Discord archives a thread idle for 24 h; the next table edit reopens it.
        emu.archive_thread(table.record.thread_id)
        await bot.presenter.table_changed(table)
        assert not emu.get_channel(table.record.thread_id).archived
        assert table_message(emu, table).id == message.id and len(message.history) > edits
    emu.assert_clean()


async def test_settings_name_the_language_of_every_discord_locale(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    """A server whose language comes from its Discord locale (``en-US``, ``fr``, ``de``
    …) sees the name of the language its public messages use, never a raw key."""
    emu = emulator
    servers = []
    for locale in discord.Locale:
        guild = emu.add_guild(f"Server {locale.value}", locale=locale.value)
        servers.append((locale.value, guild, emu.add_text_channel(guild, "tichu")))
    async with running(emu, tmp_path / "db.sqlite3"):
        await emu.wait_for_commands(["tichu"])
        for locale, guild, channel in servers:
            owner = emu.users[guild.owner_id]
            shown = await (await emu.slash(owner, channel, "tichu settings")).response()
            name = t("en", f"language.{language(locale)}")  # Deutsch for de, English for ja
            assert f": {name} {t('en', 'settings.auto')}" in shown.content, (locale, shown)
            assert "language." not in shown.content
    emu.assert_clean()
