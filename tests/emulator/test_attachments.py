"""Attachment descriptions (alt text): stored, served back, and held to Discord's 1,024 characters."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest

from tests.emulator import DiscordEmulator, run_bot


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)


def png() -> bytes:
    return (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (640).to_bytes(4, "big")
            + (480).to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")


async def test_descriptions_are_stored_and_served_back(emulator: DiscordEmulator) -> None:
    emu = emulator
    channel = emu.add_text_channel(emu.add_guild("Alt"), "tables")
    async with run_bot(emu, client()) as bot:
        target = bot.get_channel(channel.id)
        assert isinstance(target, discord.TextChannel)
        sent = await target.send(files=[
            discord.File(io.BytesIO(png()), "table.png", description="The table: 4 seats"),
            discord.File(io.BytesIO(b"{}"), "replay.json"),
        ])
        assert [a.description for a in sent.attachments] == ["The table: 4 seats", None]
        fetched = await target.fetch_message(sent.id)
        assert fetched.attachments[0].description == "The table: 4 seats"
        assert (fetched.attachments[0].width, fetched.attachments[0].height) == (640, 480)
        record = emu.message(sent.id)
        assert record.attachment("table.png").description == "The table: 4 seats"
        assert record.attachment("replay.json").description is None
        # An edit that uploads a new file describes it; a kept attachment keeps its own (a
        # text file: a second image would be cropped into a mosaic, a display breach).
        await sent.edit(attachments=[sent.attachments[0], discord.File(
            io.BytesIO(b"7s 8s 9s"), "hand.txt", description="Your hand")])
        assert [(a.filename, a.description) for a in record.attachments] == [
            ("table.png", "The table: 4 seats"), ("hand.txt", "Your hand")]
        event = [e for e in emu.events if e.name == "MESSAGE_UPDATE"][-1]
        assert [a.get("description") for a in event.data["attachments"]] == [
            "The table: 4 seats", "Your hand"]
    emu.assert_clean()


async def test_a_description_longer_than_1024_characters_is_refused(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    channel = emu.add_text_channel(emu.add_guild("Alt"), "tables")
    async with run_bot(emu, client()) as bot:
        target = bot.get_channel(channel.id)
        assert isinstance(target, discord.TextChannel)
        await target.send(file=discord.File(io.BytesIO(png()), "ok.png", description="x" * 1024))
        with pytest.raises(discord.HTTPException) as refused:
            await target.send(files=[
                discord.File(io.BytesIO(png()), "a.png", description="fine"),
                discord.File(io.BytesIO(png()), "b.png", description="x" * 1025),
            ])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    [violation] = emu.violations
    assert violation.kind == "invalid_form_body"
    assert violation.errors == {"attachments": {"1": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 1024 or fewer in length."}]}}}}
    assert len(emu.channel_messages(channel)) == 1


async def test_an_interaction_response_with_a_long_description_is_refused(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    guild = emu.add_guild("Alt")
    channel = emu.add_text_channel(guild, "tables")
    alice = emu.add_user("alice")
    emu.add_member(guild, alice)
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    board = emu.create_message(
        channel, emu.bot, {"content": "t", "components": [{"type": 1, "components": [button]}]}, []
    )
    failures: asyncio.Queue[discord.HTTPException] = asyncio.Queue()

    class Answers(discord.Client):
        async def on_interaction(self, interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message(ephemeral=True, file=discord.File(
                    io.BytesIO(png()), "hand.png", description="y" * 1025))
            except discord.HTTPException as error:
                await failures.put(error)

    async with run_bot(emu, Answers(intents=discord.Intents.default(),
                                    guild_ready_timeout=0.05)):
        handle = await emu.click(alice, board, "go")
        error = await asyncio.wait_for(failures.get(), 30)
    assert (error.status, error.code) == (400, 50035)
    [violation] = handle.record.rejections
    assert violation.errors == {"data": {"attachments": {"0": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 1024 or fewer in length."}]}}}}}
