"""Sharded gateways: each guild, its events and its interactions go to its own shard."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from tests.emulator import DiscordEmulator, run_bot

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]


class ShardBot(discord.Client):
    """One shard of two; remembers the guilds of the interactions it was sent."""

    def __init__(self, shard_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), shard_id=shard_id, shard_count=2,
                         guild_ready_timeout=0.05)
        self.clicked_in: list[int | None] = []

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.clicked_in.append(interaction.guild_id)
        await interaction.response.defer()


async def test_two_shards_each_get_only_their_guilds(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(shard_count=2)
    guilds = [emu.add_guild(f"g{i}", shard=i % 2) for i in range(4)]
    assert [emu.shard_of(g) for g in guilds] == [0, 1, 0, 1]
    channels = [emu.add_text_channel(g, "tables") for g in guilds]
    alice = emu.add_user("alice")
    for guild in guilds:
        emu.add_member(guild, alice)
    first, second = ShardBot(0), ShardBot(1)
    async with run_bot(emu, first), run_bot(emu, second):
        assert {g.id for g in first.guilds} == {guilds[0].id, guilds[2].id}
        assert {g.id for g in second.guilds} == {guilds[1].id, guilds[3].id}
        shard_of_session = {s.session_id: s.shard for s in emu.gateway.sessions.values()}
        assert sorted(shard_of_session.values()) == [(0, 2), (1, 2)]

        button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
        headers = {"Authorization": f"Bot {emu.bot_token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            posted = []
            for channel in channels:
                url = f"{emu.api_base}/channels/{channel.id}/messages"
                body = {"content": "x", "components": [{"type": 1, "components": [button]}]}
                async with http.post(url, json=body) as resp:
                    posted.append(int((await resp.json())["id"]))
        for message in posted:
            assert await (await emu.click(alice, message, "go")).ack() == 6

        for event in emu.events:
            guild_id = event.data.get("guild_id") or (
                event.data.get("id") if event.name == "GUILD_CREATE" else None)
            if guild_id is not None:
                assert shard_of_session[event.session_id][0] == emu.shard_of(int(guild_id))
    assert first.clicked_in == [guilds[0].id, guilds[2].id]
    assert second.clicked_in == [guilds[1].id, guilds[3].id]
    emu.assert_clean()


async def test_gateway_bot_recommends_the_shard_count(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(shard_count=3)
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as http, http.get(
            f"{emu.api_base}/gateway/bot") as resp:
        assert (await resp.json())["shards"] == 3


class AutoSharded(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s between identifies by default


async def test_an_auto_sharded_client_runs_the_recommended_shards(
    emulator_factory: EmulatorFactory,
) -> None:
    emu = await emulator_factory(shard_count=2)
    guilds = [emu.add_guild(f"g{i}", shard=i % 2) for i in range(4)]
    client = AutoSharded(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with run_bot(emu, client):
        await emu.wait_for(lambda: emu.is_ready(0) and emu.is_ready(1), what="both shards")
        await client.wait_until_ready()
        assert sorted(client.shards) == [0, 1]
        assert {g.id for g in client.guilds} == {g.id for g in guilds}
        assert {g.id: g.shard_id for g in client.guilds} == {g.id: emu.shard_of(g) for g in guilds}
    emu.assert_clean()
