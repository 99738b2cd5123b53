"""Pointing a real discord.py client at the emulator, and running it for a test.

discord.py 2.7 takes its REST base from ``discord.http.Route.BASE``. A plain
``Client``/``Bot`` never calls ``GET /gateway/bot``: it connects to
``DiscordWebSocket.DEFAULT_GATEWAY`` (and falls back to it after a
non-resumable INVALID_SESSION), so that class attribute must point at the
emulator too. Those two attributes are the only things changed, and both are
restored on exit. Attachment URLs are absolute emulator URLs, so
``Attachment.read()`` needs nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import discord

    from .server import DiscordEmulator

ClientT = TypeVar("ClientT", bound="discord.Client")


@contextlib.contextmanager
def point_discord_at(emulator: DiscordEmulator) -> Iterator[None]:
    """Set ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` to the emulator, restore on exit."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = emulator.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emulator.gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def run_bot(
    emulator: DiscordEmulator, client: ClientT, *, wait_ready: bool = True, timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``emulator``; on exit close it and await its task.

    Waits until the emulator has sent READY and the GUILD_CREATEs and, with
    ``wait_ready``, until the client fires ``on_ready`` (which discord.py delays
    by ``guild_ready_timeout``, 2 s by default: build test bots with a small
    one, e.g. ``guild_ready_timeout=0.05``). A startup failure (bad token,
    disallowed intents...) is raised here.
    """
    with point_discord_at(emulator):
        task = asyncio.create_task(client.start(emulator.bot_token), name="emulated-discord-bot")
        try:
            shard = getattr(client, "shard_id", None)
            ready = asyncio.create_task(emulator.wait_until_ready(timeout, shard=shard))
            done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                ready.cancel()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    await ready
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            await ready
            if wait_ready:
                await asyncio.wait_for(client.wait_until_ready(), timeout)
            yield client
        finally:
            await client.close()
            if not task.done():
                try:
                    await asyncio.wait_for(task, timeout)
                except TimeoutError:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            elif not task.cancelled():
                task.exception()
