"""Waits that watch one channel re-check only after changes there (or of the whole world)."""

from __future__ import annotations

import asyncio

from tests.emulator import DiscordEmulator


async def settle() -> None:
    """Let every ready task run until it waits again (no time passes)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_wait_on_a_channel_ignores_other_channels(emulator: DiscordEmulator) -> None:
    emu = emulator
    guild = emu.add_guild("Waits")
    mine, other = emu.add_text_channel(guild, "mine"), emu.add_text_channel(guild, "other")
    alice = emu.add_user("alice")
    emu.add_member(guild, alice)
    checks: list[int] = []

    def said_go() -> bool:
        checks.append(1)
        return any(m.content == "go" for m in emu.channel_messages(mine))

    waiting = asyncio.create_task(emu.wait_for(said_go, 30, channel=mine))
    everything = asyncio.create_task(emu.wait_for(
        lambda: any(m.content == "go" for m in emu.channel_messages(mine)), 30))
    await settle()
    assert len(checks) == 1
    for i in range(3):
        await emu.post(alice, other, f"elsewhere {i}")
    await settle()
    assert len(checks) == 1  # three messages in another channel: not one re-check
    await emu.post(alice, mine, "not yet")
    await settle()
    assert len(checks) == 2 and not waiting.done()
    emu.notify()  # a change of the whole world wakes every wait
    await settle()
    assert len(checks) == 3
    await emu.post(alice, mine, "go")
    assert await waiting and await everything
    assert len(checks) == 4


async def test_channel_messages_keep_their_order_and_skip_deleted(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    guild = emu.add_guild("Order")
    a, b = emu.add_text_channel(guild, "a"), emu.add_text_channel(guild, "b")
    alice = emu.add_user("alice")
    emu.add_member(guild, alice)
    posted = [await emu.post(alice, a if i % 2 else b, str(i)) for i in range(6)]
    emu.delete_message(posted[3])
    assert [m.content for m in emu.channel_messages(a)] == ["1", "5"]
    assert [m.content for m in emu.channel_messages(b)] == ["0", "2", "4"]
    assert [m.id for m in emu.channel_index(a)] == [posted[1].id, posted[3].id, posted[5].id]
