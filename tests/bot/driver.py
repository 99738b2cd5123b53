"""Drive the real bot through the local Discord as people would: clicks and menus only.

The tests peek at the bot's tables only to know *when* a person would act
(their ping); every action goes through Discord components.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import TichuBot
from bot.config import Settings
from bot.tables import SeatKind, Table
from engine.tichu.ai import pending_seats
from engine.tichu.view import Phase
from tests.emulator.runner import run_bot
from tests.emulator.server import DiscordEmulator


def make_bot(db: Path, **settings: Any) -> TichuBot:
    values: dict[str, Any] = {"ai_delay": 0.0, "worker_processes": 0, **settings}
    config = Settings(_env_file=None, database=str(db), **values)  # type: ignore[call-arg]
    return TichuBot(config, guild_ready_timeout=0.05)


@asynccontextmanager
async def running(emu: DiscordEmulator, db: Path, **settings: Any) -> AsyncIterator[TichuBot]:
    bot = make_bot(db, **settings)
    async with run_bot(emu, bot):
        await bot.restored.wait()
        yield bot


def component(message: Any, action: str, kind: str = "b", arg: str | None = None) -> Any | None:
    """The button (``b``) or select (``s``) of ``message`` whose custom ID has ``action``
    (and ``arg``, if given)."""
    tail = "(:.*)?" if arg is None else ":" + re.escape(arg)
    pattern = re.compile(rf"tichu:{kind}:\d+:[-\d]+:{action}{tail}$")
    items = message.buttons if kind == "b" else message.selects
    for item in items:
        if pattern.match(item.custom_id):
            return item
    return None


@dataclass
class Person:
    """A person at the table, choosing among what the bot offers."""

    emu: DiscordEmulator
    user: Any
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    async def open_hand(self, table_message: Any) -> Any:
        button = component(table_message, "hand")
        assert button is not None, "the table message has no My hand button"
        reply = await self.emu.click(self.user, table_message, button.custom_id)
        return await reply.response()

    async def act(self, table_message: Any) -> None:
        """Open the hand and make one decision with the controls shown."""
        hand = await self.open_hand(table_message)
        await self.decide(hand)

    async def decide(self, hand: Any) -> None:
        emu, user = self.emu, self.user
        if (b := component(hand, "nogrand")) is not None:
            await (await emu.click(user, hand, b.custom_id)).response()
            return
        if component(hand, "ex", "s") is not None:
            used: set[str] = set()
            for slot in range(3):
                select = next(s for s in hand.selects if re.search(rf":ex:{slot}\.", s.custom_id))
                value = next(o.value for o in select.options if o.value not in used)
                used.add(value)
                await (await emu.select(user, hand, select.custom_id, [value])).response()
            ok = component(hand, "exok")
            assert ok is not None and not ok.disabled
            await (await emu.click(user, hand, ok.custom_id)).response()
            return
        if (b := component(hand, "gift")) is not None:
            await (await emu.click(user, hand, b.custom_id)).response()
            return
        play = component(hand, "play", "s")
        passing = component(hand, "pass")
        if passing is not None and (play is None or self.rng.random() < 0.3):
            await (await emu.click(user, hand, passing.custom_id)).response()
            return
        assert play is not None, f"no control to act with: {hand.content!r}"
        option = self.rng.choice(play.options)
        await (await emu.select(user, hand, play.custom_id, [option.value])).response()
        if (wish := component(hand, "wish", "s")) is not None:
            choice = self.rng.choice(wish.options)
            await (await emu.select(user, hand, wish.custom_id, [choice.value])).response()
        elif (phx := component(hand, "phx", "s")) is not None:
            await (await emu.select(user, hand, phx.custom_id, [phx.options[0].value])).response()


async def settle(bot: TichuBot, table: Table, *, timeout: float = 30.0) -> tuple[int, ...]:
    """Wait until a person must act or the game is over; return the people's seats due."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        game = table.game
        if game is not None and game.phase is Phase.GAME_OVER:
            await bot.presenter.idle.wait()
            return ()
        if game is not None and not table.lock.locked():
            due = tuple(s for s in pending_seats(game.view(None)) if table.kind(s) is SeatKind.HUMAN)
            if due and bot.presenter.idle.is_set():
                return due
        await asyncio.sleep(0.005)
    raise TimeoutError("the table did not settle")


def table_message(emu: DiscordEmulator, table: Table) -> Any:
    """The table's public message as the emulator holds it now."""
    assert table.record.message_id is not None
    message = emu.messages[table.record.message_id]
    assert not message.deleted and not message.ephemeral
    return message
