"""``make demo``: four computer players play a whole game through the real bot stack
(``make demo PLAYERS=6``: six, at a table of Tichu for six).

A local Discord emulator starts on 127.0.0.1, the real bot connects to it with a
fresh database, a host user opens a table with ``/tichu new``, seats the
computer players and starts. Every line of the table log is printed once, as it
happens. Every image the bot posts is saved under ``demo-output/``, with the table
and the first seat's hand as they stand in the middle of the first deal
(``mid-deal-table``, ``mid-deal-hand``) and the table at the end (``final-table``).

``make run`` starts it after the bot when the bot has no token (``--unless-token``): the
bot explains how to get one, then the demo plays.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pydantic

from bot.app import TichuBot
from bot.config import Settings
from bot.games.base import spec_of
from bot.games.shared import log_line, names_of
from bot.render import filename
from bot.store.models import TableStatus
from bot.tables.rules import LogEntry
from tests.emulator.runner import run_bot
from tests.emulator.server import DiscordEmulator

LEVELS = {4: ("hard", "normal", "normal", "easy"),
          6: ("hard", "normal", "normal", "normal", "easy", "hard")}
"""The computer players by seat: teams alternate, so each team gets the same levels."""


async def demo(out: Path, target: int, delay: float, locale: str, players: int = 4) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.*"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database=str(Path(tmp) / "demo.sqlite3"),
                            ai_delay=delay)
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Demo", locale=locale)
            channel = emu.add_text_channel(guild, "tichu")
            host = emu.add_user("host", locale=locale)
            emu.add_member(guild, host)
            bot = TichuBot(settings, guild_ready_timeout=0.05)
            async with run_bot(emu, bot):
                print(f"Local Discord at {emu.api_base}; the bot is connected.")
                await emu.wait_for_commands(["tichu"])
                lobby = await (await emu.slash(host, channel, "tichu new", target=target,
                                               players=players)).response()
                await (await emu.click(host, lobby, lobby.button(custom_id=_id(":leave")).custom_id)).response()
                for seat, level in enumerate(LEVELS[players]):
                    select = lobby.select(_id(":cpu"))
                    await (await emu.select(host, lobby, select.custom_id, [f"{seat}.{level}"])).response()
                print(lobby.content)
                await (await emu.click(host, lobby, lobby.button(custom_id=_id(":start")).custom_id)).response()
                table = max(bot.service.core.tables.values(), key=lambda t: t.id)
                await _follow(emu, bot, table, out, locale)
    print(f"\nImages saved in {out}/")


def _id(fragment: str) -> re.Pattern[str]:
    return re.compile(re.escape(fragment) + r"(:|$)")


class _Tap(deque[LogEntry]):
    """The table's log, calling ``heard`` with every entry appended to it."""

    def __init__(self, old: deque[LogEntry], heard: Callable[[LogEntry], None]) -> None:
        super().__init__(old, maxlen=old.maxlen)
        self.heard = heard

    def append(self, entry: LogEntry) -> None:
        super().append(entry)
        self.heard(entry)


async def _follow(emu: DiscordEmulator, bot: TichuBot, table: object, out: Path,
                  locale: str) -> None:
    """Print every log line once, as it happens; save every image the bot posts, and once
    the first trick of the game is taken and the next one started, the table image and
    the first seat's hand image as they are then; stop when the game is over."""
    from bot.tables import Table

    assert isinstance(table, Table)
    saved: set[int] = set()
    started = time.monotonic()
    count = 0
    moment = {"tricks": 0, "plays_after": 0}

    def heard(entry: LogEntry) -> None:
        print(f"• {log_line(entry, names_of(table, locale), locale)}")
        if entry.key == "log.trick":
            moment["tricks"] += 1
        elif entry.key in ("log.play", "log.bomb") and moment["tricks"]:
            moment["plays_after"] += 1

    table.log = _Tap(table.log, heard)
    mid_deal_saved = False
    while True:
        finished = table.status is not TableStatus.PLAYING
        if finished:
            await bot.presenter.idle.wait()
        if not mid_deal_saved and moment["plays_after"] >= 2:
            mid_deal_saved = True
            async with table.lock:  # no action lands while the two images are drawn
                public = await spec_of(table).table_message(table, locale)
                hand = await spec_of(table).hand_message(table, 0, locale)
            names = []
            for name, image in (("mid-deal-table", public.image), ("mid-deal-hand", hand.image)):
                if image is not None:
                    (out / filename(name)).write_bytes(image)
                    names.append(filename(name))
            print(f"  [the table now, and seat 1's hand] -> {', '.join(names)}")
        for message in emu.channel_messages(table.channel_id):
            if message.id == table.record.message_id or message.id in saved:
                continue
            saved.add(message.id)
            for attachment in message.attachments:
                count += 1
                name = f"{count:03d}-{attachment.filename}"
                (out / name).write_bytes(attachment.data)
                print(f"  [{message.content.splitlines()[0] if message.content else ''}] -> {name}")
        if finished:
            break
        await asyncio.sleep(0.02)
    final = emu.messages[table.record.message_id] if table.record.message_id else None
    if final is not None and final.attachments:
        (out / filename("final-table")).write_bytes(final.attachments[0].data)
        print(f"  [the table at the end] -> {filename('final-table')}")
    print(f"Played {table.seq} actions in {time.monotonic() - started:.1f} s.")


def has_token() -> bool:
    """Whether the bot's settings (the environment, or ``.env`` here) hold a Discord
    token, as ``python -m bot`` reads them; settings it cannot read count as holding one
    (the bot has said what is wrong with them, and the demo is not what was asked)."""
    try:
        return Settings().token is not None
    except pydantic.ValidationError:
        return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.demo",
        description="Computer players play a whole game through the real bot against a local "
        "Discord emulator (`make demo`): the table log is printed and every image the bot "
        "posts is saved.")
    parser.add_argument("--target", type=int, default=1000, help="points that win the game")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds per computer move")
    parser.add_argument("--locale", default="en-US", help="the server's locale (en-US or fr)")
    parser.add_argument("--out", type=Path, default=Path("demo-output"),
                        help="folder of the saved images (default: demo-output)")
    parser.add_argument("--players", type=int, choices=(4, 6), default=4,
                        help="four players, or six (Tichu for six)")
    parser.add_argument("--unless-token", action="store_true",
                        help="play only when the bot has no DISCORD_TOKEN (how `make run` "
                        "starts the demo after the bot)")
    args = parser.parse_args(argv)
    if args.unless_token and has_token():
        return
    asyncio.run(demo(args.out, args.target, args.delay, args.locale, args.players))


if __name__ == "__main__":
    main()
