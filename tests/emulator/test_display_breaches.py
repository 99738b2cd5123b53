"""The emulator records the display rules the bot's messages break (``emu.display_breaches``)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest
from PIL import Image

from tests.emulator import DiscordEmulator, MessageRecord, run_bot
from tests.emulator.models import ChannelRecord, Upload
from tests.emulator.state import World


def webp(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "green").save(out, "WEBP", quality=50)
    return out.getvalue()


TABLE, HAND = webp(1000, 500), webp(800, 200)


def world(*, display_rules: bool = True) -> tuple[World, ChannelRecord]:
    w = World(display_rules=display_rules)
    return w, w.add_text_channel(w.add_guild("Pictures"), "tables")


def send(
    w: World, channel: ChannelRecord, body: dict[str, Any], files: dict[str, bytes]
) -> MessageRecord:
    """The bot posts ``body`` with ``files`` (``files[n]`` parts, in order), as over REST."""
    uploads = [Upload(i, name, data, "") for i, (name, data) in enumerate(files.items())]
    plan = w.check_message(body, uploads, [], creating=True)
    return w.create_message(channel, w.bot, body, plan)


def described(*names: str) -> list[dict[str, Any]]:
    return [{"id": i, "filename": n, "description": f"the {n}"} for i, n in enumerate(names)]


def test_one_described_image_is_fine() -> None:
    w, channel = world()
    msg = send(w, channel, {"content": "t", "attachments": described("table.webp")},
               {"table.webp": TABLE})
    assert (msg.attachment("table.webp").width, msg.attachment("table.webp").height) == (1000, 500)
    [shown] = w.image_displays(msg)
    assert (shown.shown_as, shown.scale_desktop, shown.alt_text) == (
        "inline", 0.55, "the table.webp")
    assert w.display_breaches == []
    assert w.display_report() == {"images_sent": 1, "images_with_alt_text": 1,
                                  "messages_with_images": 1, "messages_cropped": 0,
                                  "breaches": 0}
    w.assert_clean()


def test_two_images_in_one_message_are_a_cropped_breach() -> None:
    w, channel = world()
    msg = send(w, channel, {"attachments": described("table.webp", "hand.webp")},
               {"table.webp": TABLE, "hand.webp": HAND})
    [breach] = w.display_breaches
    assert (breach.kind, breach.message_id, breach.channel_id, breach.filenames) == (
        "cropped", msg.id, channel.id, ("table.webp", "hand.webp"))
    assert "mosaic" in breach.why
    # Edited the same way again: still one breach. Down to one image: no new one.
    w.edit_message(msg, {"content": "again"}, list(msg.attachments))
    w.edit_message(msg, {}, [msg.attachments[0]])
    assert len(w.display_breaches) == 1
    assert w.display_report()["messages_cropped"] == 1
    with pytest.raises(AssertionError, match="display breach cropped"):
        w.assert_clean()


def test_v2_with_two_single_item_galleries_is_fine() -> None:
    def gallery(name: str) -> dict[str, Any]:
        return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}}]}

    w, channel = world()
    body = {"flags": 1 << 15, "attachments": described("table.webp", "hand.webp"),
            "components": [{"type": 10, "content": "Your turn"}, gallery("table.webp"),
                           gallery("hand.webp")]}
    msg = send(w, channel, body, {"table.webp": TABLE, "hand.webp": HAND})
    assert [d.shown_as for d in w.image_displays(msg)] == ["inline", "inline"]
    assert w.display_breaches == []
    w.assert_clean()


def test_an_image_without_description_is_a_breach_only_recorded_unless_display_rules() -> None:
    w, channel = world(display_rules=False)
    msg = send(w, channel, {"content": "t"}, {"table.webp": TABLE, "replay.json": b"{}"})
    [breach] = w.display_breaches
    assert (breach.kind, breach.message_id, breach.filenames) == (
        "no_alt_text", msg.id, ("table.webp",))
    assert w.display_report() == {"images_sent": 1, "images_with_alt_text": 0,
                                  "messages_with_images": 1, "messages_cropped": 0,
                                  "breaches": 1}
    w.assert_clean()  # recorded, not failed: display_rules is off
    w.display_rules = True
    with pytest.raises(AssertionError, match="display breach no_alt_text"):
        w.assert_clean()


def test_people_s_messages_are_not_checked() -> None:
    w, channel = world()
    alice = w.add_user("alice")
    upload = Upload(0, "photo.png", TABLE, "image/webp")
    w.create_message(channel, alice, {"content": "look"}, [(upload, {})])
    assert w.display_breaches == []


class Pictures(discord.Client):
    """Answers a click with two images in one ephemeral message (the bot's habit today),
    then a described follow-up, then edits the first answer down to one described image."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.done = asyncio.Event()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "your turn", ephemeral=True,
            files=[discord.File(io.BytesIO(TABLE), "table.webp"),
                   discord.File(io.BytesIO(HAND), "hand.webp")])
        await interaction.followup.send(
            ephemeral=True, file=discord.File(io.BytesIO(HAND), "hand.webp",
                                              description="Your hand: 8 cards"))
        await interaction.edit_original_response(
            attachments=[discord.File(io.BytesIO(TABLE), "table.webp",
                                      description="The table")])
        self.done.set()


async def test_the_emulator_records_breaches_of_a_real_client(
    emulator_factory: Any,
) -> None:
    emu: DiscordEmulator = await emulator_factory(display_rules=True)
    guild = emu.add_guild("Pictures")
    channel = emu.add_text_channel(guild, "tables")
    alice = emu.add_user("alice")
    emu.add_member(guild, alice)
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    board = emu.create_message(channel, emu.bot, {"content": "table", "components": [
        {"type": 1, "components": [button]}]}, [])
    async with run_bot(emu, Pictures()) as bot:
        first = await (await emu.click(alice, board, "go")).response()
        await asyncio.wait_for(bot.done.wait(), 30)
    followup = emu.ephemerals(alice)[-1]
    assert [(b.kind, b.message_id, b.filenames, b.ephemeral) for b in emu.display_breaches] == [
        ("cropped", first.id, ("table.webp", "hand.webp"), True),
        ("no_alt_text", first.id, ("table.webp", "hand.webp"), True),
    ]
    assert followup.attachment("hand.webp").description == "Your hand: 8 cards"
    assert [a.filename for a in first.attachments] == ["table.webp"]
    assert first.attachment("table.webp").description == "The table"
    assert emu.display_report() == {"images_sent": 4, "images_with_alt_text": 2,
                                    "messages_with_images": 2, "messages_cropped": 1,
                                    "breaches": 2}
    assert emu.violations == []
    with pytest.raises(AssertionError, match="display breach cropped"):
        emu.assert_clean()
