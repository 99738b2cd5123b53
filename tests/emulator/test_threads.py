"""Archived threads in the emulator, seen by a real discord.py client."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.emulator import ChannelType, DiscordEmulator, UserActionError, run_bot


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)


async def test_an_archived_thread_refuses_edits_until_unarchived(emulator: DiscordEmulator) -> None:
    emu = emulator
    channel = emu.add_text_channel(emu.add_guild("Archive"), "tables")
    async with run_bot(emu, client()) as bot:
        parent = bot.get_channel(channel.id)
        assert isinstance(parent, discord.TextChannel)
        starter = await parent.send("table 1")
        thread = await starter.create_thread(name="table-1", auto_archive_duration=1440)
        board = await thread.send("board v1")
        record = emu.channels[thread.id]
        assert record.auto_archive_duration == 1440 and not record.archived

        seen = asyncio.ensure_future(bot.wait_for("thread_update", timeout=5))
        emu.archive_thread(thread.id)
        _before, after = await seen
        assert after.id == thread.id and after.archived
        with pytest.raises(discord.HTTPException) as refused:
            await board.edit(content="board v2")
        assert (refused.value.status, refused.value.code) == (400, 50083)
        assert emu.messages[board.id].content == "board v1"

        await thread.edit(archived=False)  # PATCH /channels/{id} {"archived": false}
        assert not record.archived
        await board.edit(content="board v2")
        assert emu.messages[board.id].content == "board v2"

        emu.archive_thread(thread.id)
        ping = await thread.send("your turn")  # posting un-archives an unlocked thread
        assert not record.archived and emu.messages[ping.id].channel_id == thread.id
        assert [e.data["thread_metadata"]["archived"] for e in emu.events
                if e.name == "THREAD_UPDATE"] == [True, False, True, False]
    emu.assert_clean()


async def test_people_reopen_an_archived_thread_unless_it_is_locked(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    guild = emu.add_guild("Archive")
    channel = emu.add_text_channel(guild, "tables")
    alice = emu.add_user("alice")
    emu.add_member(guild, alice)
    thread = emu.create_thread(
        channel, name="t", type=ChannelType.PUBLIC_THREAD, owner=emu.bot, auto_archive_duration=60
    )
    emu.archive_thread(thread)
    await emu.post(alice, thread, "hello?")
    assert not thread.archived
    emu.archive_thread(thread, locked=True)
    with pytest.raises(UserActionError, match="locked"):
        await emu.post(alice, thread, "still there?")
    assert thread.archived
    with pytest.raises(ValueError, match="not a thread"):
        emu.archive_thread(channel)
