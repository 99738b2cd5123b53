"""The emulator's REST rate limits: buckets, windows, the global limit, the call log."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from tests.emulator import (
    ChannelRecord,
    DiscordEmulator,
    InteractionHandle,
    RateLimits,
    run_bot,
)
from tests.emulator.ratelimits import INTERACTION_WEBHOOK, MESSAGE_WRITE, max_in_window

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]


class FakeClock:
    """The limiter's clock, moved by the test instead of waited for."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Setup:
    emu: DiscordEmulator
    clock: FakeClock
    http: aiohttp.ClientSession
    channels: list[ChannelRecord]

    def url(self, path: str) -> str:
        return self.emu.api_base + path

    async def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any, Any]:
        async with self.http.request(method, self.url(path), json=body) as resp:
            return resp.status, resp.headers, await resp.json(content_type=None)


@pytest_asyncio.fixture
async def setup(emulator_factory: EmulatorFactory) -> AsyncIterator[Setup]:
    emulator = await emulator_factory(rate_limits=True)  # Discord's own windows
    clock = FakeClock()
    emulator.limiter.clock = clock
    guild = emulator.add_guild("Limits")
    channels = [emulator.add_text_channel(guild, f"c{i}") for i in range(2)]
    headers = {"Authorization": f"Bot {emulator.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        yield Setup(emulator, clock, http, channels)


def plain_client() -> discord.Client:
    """A bot that is connected (so users can click) and answers nothing by itself."""
    return discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)


async def button_message(setup: Setup) -> int:
    """A bot message with a "Go" button in the first channel; its id."""
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    status, _, body = await setup.send(
        "POST",
        post(setup.channels[0]),
        {"content": "x", "components": [{"type": 1, "components": [button]}]},
    )
    assert status == 200
    return int(body["id"])


def post(channel: ChannelRecord) -> str:
    return f"/channels/{channel.id}/messages"


async def test_a_bucket_runs_out_answers_429_and_refills(setup: Setup) -> None:
    emu, (first, second) = setup.emu, setup.channels
    seen = []
    for i in range(5):
        status, headers, body = await setup.send("POST", post(first), {"content": f"m{i}"})
        assert status == 200, body
        seen.append(headers)
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2", "1", "0"]
    assert {h["X-RateLimit-Limit"] for h in seen} == {"5"}
    assert {h["X-RateLimit-Bucket"] for h in seen} == {MESSAGE_WRITE.bucket_hash}
    assert {float(h["X-RateLimit-Reset-After"]) for h in seen} == {5.0}
    assert "X-RateLimit-Scope" not in seen[0]

    setup.clock.now += 2.0
    message_id = emu.channel_messages(first)[0].id
    for method, path, body in (
        ("POST", post(first), {"content": "sixth"}),
        ("PATCH", f"{post(first)}/{message_id}", {"content": "edited"}),  # the same bucket
    ):
        status, headers, body = await setup.send(method, path, body)
        assert status == 429
        assert body == {"message": "You are being rate limited.", "retry_after": 3.0, "global": False}
        assert headers["Retry-After"] == "3"
        assert headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Remaining"] == "0"
        assert headers["X-RateLimit-Bucket"] == MESSAGE_WRITE.bucket_hash
        assert float(headers["X-RateLimit-Reset-After"]) == 3.0
        assert headers["Via"]  # discord.py takes a 429 without Via for a Cloudflare ban
    assert [m.content for m in emu.channel_messages(first)] == [f"m{i}" for i in range(5)]

    # Another channel is another bucket.
    status, headers, _ = await setup.send("POST", post(second), {"content": "elsewhere"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")

    setup.clock.now += 3.0  # the window ends: the bucket is full again
    status, headers, _ = await setup.send("POST", post(first), {"content": "later"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")

    assert [(h.method, h.scope, h.bucket) for h in emu.rate_limited] == [
        ("POST", "user", "message_write"),
        ("PATCH", "user", "message_write"),
    ]
    assert [c.status for c in emu.rest_calls] == [200] * 5 + [429, 429, 200, 200]
    assert emu.rest_calls[0].route == "POST /channels/{channel_id}/messages"
    assert emu.rest_calls[0].resource == str(first.id)
    emu.assert_clean()


async def test_the_global_limit_spares_interaction_callbacks(setup: Setup) -> None:
    emu, channel = setup.emu, setup.channels[0]
    user = emu.add_user("alice")
    emu.add_member(channel.guild_id or 0, user)
    async with run_bot(emu, plain_client()):
        handle = await emu.click(user, await button_message(setup), "go")
        setup.clock.now += 1.0  # a new global window: the client's own start-up calls are past
        await exhaust_the_global_limit_then_answer(setup, handle)
    emu.assert_clean()


async def exhaust_the_global_limit_then_answer(setup: Setup, handle: InteractionHandle) -> None:
    emu = setup.emu
    for _ in range(50):
        status, headers, _ = await setup.send("GET", "/users/@me")
        assert status == 200 and "X-RateLimit-Bucket" not in headers
    status, headers, body = await setup.send("GET", "/users/@me")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 1.0, "global": True}
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1"
    assert emu.rate_limited[-1].is_global

    # The first response to an interaction is not globally limited.
    record = handle.record
    status, _, _ = await setup.send(
        "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 6}
    )
    assert status == 204
    assert await handle.ack() == 6

    # Nor is anything else the interaction token opens; its own bucket still counts.
    webhook = f"/webhooks/{emu.application_id}/{record.token}"
    status, _, follow_up = await setup.send("POST", webhook, {"content": "f", "flags": 64})
    assert status == 200
    for method, path, body, expected in (
        ("GET", f"{webhook}/messages/@original", None, 200),
        ("PATCH", f"{webhook}/messages/{follow_up['id']}", {"content": "g"}, 200),
        ("GET", f"{webhook}/messages/{follow_up['id']}", None, 200),
        ("DELETE", f"{webhook}/messages/{follow_up['id']}", None, 204),
        ("POST", webhook, {"content": "sixth", "flags": 64}, 429),
    ):
        async with setup.http.request(method, setup.url(path), json=body) as resp:
            assert resp.status == expected, (method, path, await resp.text())
            if expected == 429:
                assert resp.headers["X-RateLimit-Scope"] == "user"
    assert not emu.rate_limited[-1].is_global

    setup.clock.now += 1.0
    status, _, _ = await setup.send("GET", "/users/@me")
    assert status == 200
    summary = emu.rest_summary()
    assert summary["rate_limited"] == 2
    assert summary["rate_limited_global"] == 1
    assert summary["by_route"]["GET /users/@me"] >= 52


async def test_follow_ups_are_limited_per_interaction_token(setup: Setup) -> None:
    emu, channel = setup.emu, setup.channels[0]
    user = emu.add_user("bob")
    emu.add_member(channel.guild_id or 0, user)
    async with run_bot(emu, plain_client()):
        message = await button_message(setup)
        handles = [await emu.click(user, message, "go") for _ in range(2)]
        await follow_ups(setup, handles)
    emu.assert_clean()


async def follow_ups(setup: Setup, handles: list[InteractionHandle]) -> None:
    emu = setup.emu
    for handle in handles:
        record = handle.record
        status, _, _ = await setup.send(
            "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 6}
        )
        assert status == 204
    app = emu.application_id
    first, second = (f"/webhooks/{app}/{h.record.token}" for h in handles)
    async with aiohttp.ClientSession() as anonymous:  # follow-ups carry no bot token
        statuses = []
        for i in range(6):
            async with anonymous.post(
                setup.url(first), json={"content": f"f{i}", "flags": 64}
            ) as resp:
                statuses.append(resp.status)
                last = resp.headers
        assert statuses == [200] * 5 + [429]
        assert last["X-RateLimit-Bucket"] == INTERACTION_WEBHOOK.bucket_hash
        assert last["X-RateLimit-Scope"] == "user"
        async with anonymous.post(setup.url(second), json={"content": "other"}) as resp:
            assert resp.status == 200
    assert emu.rate_limited[-1].route == "POST /webhooks/{app_id}/{token}"


async def test_interaction_webhooks_leave_the_global_limit_whole(setup: Setup) -> None:
    emu, channel = setup.emu, setup.channels[0]
    user = emu.add_user("carol")
    emu.add_member(channel.guild_id or 0, user)
    async with run_bot(emu, plain_client()):
        message = await button_message(setup)
        handles = [await emu.click(user, message, "go") for _ in range(12)]
        setup.clock.now += 1.0  # a new global window
        async with aiohttp.ClientSession() as anonymous:
            for handle in handles:  # 12 callbacks and 48 follow-ups within one window
                record = handle.record
                status, _, _ = await setup.send(
                    "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 6}
                )
                assert status == 204
                for i in range(4):
                    session = anonymous if i % 2 else setup.http
                    async with session.post(
                        setup.url(f"/webhooks/{emu.application_id}/{record.token}"),
                        json={"content": f"f{i}", "flags": 64},
                    ) as resp:
                        assert resp.status == 200
        # ... and the bot still has its 50 requests in the same window, no more.
        for _ in range(50):
            status, _, _ = await setup.send("GET", "/users/@me")
            assert status == 200
        status, _, _ = await setup.send("GET", "/users/@me")
        assert status == 429
    assert [h.route for h in emu.rate_limited] == ["GET /users/@me"]
    emu.assert_clean()


async def test_other_requests_without_a_bot_token_count_per_client_address(
    setup: Setup,
) -> None:
    async with aiohttp.ClientSession() as anonymous:
        for _ in range(50):
            async with anonymous.get(setup.url("/gateway")) as resp:
                assert resp.status == 200
        async with anonymous.get(setup.url("/gateway")) as resp:
            assert resp.status == 429
            assert resp.headers["X-RateLimit-Scope"] == "global"
    status, _, _ = await setup.send("GET", "/users/@me")  # the bot token has its own count
    assert status == 200
    setup.emu.assert_clean()


async def test_rate_limits_can_be_turned_off(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(rate_limits=False)
    channel = emu.add_text_channel(emu.add_guild("Free"), "free")
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for i in range(8):
            async with http.post(
                f"{emu.api_base}/channels/{channel.id}/messages", json={"content": str(i)}
            ) as resp:
                assert resp.status == 200
                assert "X-RateLimit-Limit" not in resp.headers
    assert emu.rate_limited == []
    assert len(emu.rest_calls) == 8  # still logged
    assert emu.max_writes_per_channel() == {channel.id: 8}


async def test_discord_py_is_slowed_down_but_loses_nothing(
    emulator_factory: EmulatorFactory,
) -> None:
    limits = RateLimits().scaled(0.2)  # 5 writes per second per channel: a quicker test
    emu = await emulator_factory(rate_limits=limits)
    channel = emu.add_text_channel(emu.add_guild("Busy"), "busy")
    client = plain_client()
    async with run_bot(emu, client):
        target = client.get_channel(channel.id)
        assert isinstance(target, discord.TextChannel)
        for i in range(8):
            await target.send(f"message {i}")
    assert [m.content for m in emu.channel_messages(channel)] == [f"message {i}" for i in range(8)]
    writes = [c for c in emu.rest_calls if c.route == "POST /channels/{channel_id}/messages"]
    assert [c.status for c in writes if c.status == 200] == [200] * 8
    window = limits.routes["POST /channels/{channel_id}/messages"].window
    # The sixth message waited for the first window to end: the client was slowed down ...
    assert writes[5].at - writes[0].at >= window
    # ... by the headers alone: discord.py never went past the bucket.
    assert emu.rate_limited == []
    emu.assert_clean()


@pytest.mark.parametrize(
    ("times", "window", "expected"),
    [([], 5.0, 0), ([0.0, 1.0, 4.9, 5.0], 5.0, 3), ([0.0, 0.0, 0.0], 1.0, 3), ([0, 2, 4], 1.0, 1)],
)
def test_max_in_window(times: list[float], window: float, expected: int) -> None:
    assert max_in_window(times, window) == expected


async def test_discord_py_waits_out_a_429_and_retries(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(rate_limits=RateLimits().scaled(0.2))
    channel = emu.add_text_channel(emu.add_guild("Shared"), "shared")
    client = plain_client()
    async with run_bot(emu, client):
        # Another process with the same token used up the channel's bucket.
        headers = {"Authorization": f"Bot {emu.bot_token}"}
        async with aiohttp.ClientSession(headers=headers) as other:
            for i in range(5):
                url = f"{emu.api_base}/channels/{channel.id}/messages"
                async with other.post(url, json={"content": f"other {i}"}) as resp:
                    assert resp.status == 200
        target = client.get_channel(channel.id)
        assert isinstance(target, discord.TextChannel)
        sent = await target.send("mine")
    assert [(h.scope, h.bucket) for h in emu.rate_limited] == [("user", "message_write")]
    assert emu.channel_messages(channel)[-1].id == sent.id
    emu.assert_clean()
