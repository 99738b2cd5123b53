"""Run the emulator standalone: ``python -m tests.emulator --port 8765``.

Prints the REST base, the gateway URL, the bot token and the ids of a seeded
guild, then serves until interrupted, and then prints the figures of the REST
calls it answered (``emu.rest_summary()``). Discord's rate limits are on unless
``--no-rate-limits``. Point a bot at it with
``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` (see README).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json

from .server import DiscordEmulator


async def serve(host: str, port: int, bot_name: str, seed: bool, rate_limits: bool = True) -> None:
    """Start the emulator, print how to reach it, wait forever, then print the REST figures."""
    async with DiscordEmulator(
        host=host, port=port, bot_name=bot_name, rate_limits=rate_limits
    ) as emu:
        try:
            await _serve(emu, seed)
        finally:
            print(json.dumps(emu.rest_summary(), indent=2), flush=True)


async def _serve(emu: DiscordEmulator, seed: bool) -> None:
    print(f"api_base     {emu.api_base}")
    print(f"gateway_url  {emu.gateway_url}")
    print(f"bot_token    {emu.bot_token}")
    print(f"application  {emu.application_id}")
    if seed:
        guild = emu.add_guild("Emulator Guild", locale="en-US")
        channel = emu.add_text_channel(guild, "general")
        for name, locale in (("alice", "en-US"), ("bob", "fr")):
            user = emu.add_user(name, locale=locale)
            emu.add_member(guild, user)
            print(f"user         {name} {user.id} ({locale})")
        print(f"guild        {guild.name} {guild.id}")
        print(f"channel      #{channel.name} {channel.id}")
    print("serving; Ctrl-C to stop", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    """Parse arguments and serve."""
    parser = argparse.ArgumentParser(prog="python -m tests.emulator", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--bot-name", default="TestBot")
    parser.add_argument(
        "--no-seed", action="store_true", help="do not create a guild, channel and users"
    )
    parser.add_argument(
        "--no-rate-limits", action="store_true", help="answer no 429 (calls are still counted)"
    )
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            serve(args.host, args.port, args.bot_name, not args.no_seed, not args.no_rate_limits)
        )


if __name__ == "__main__":
    main()
