"""A guild with a channel and four people, and a way to open and start a table."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import TichuBot
from bot.games.shared import ALT_LIMIT
from bot.render import encoding
from bot.tables import Table
from engine.tichu.view import Phase
from tests.bot.driver import Person, component, settle, table_message
from tests.emulator.models import AttachmentRecord
from tests.emulator.server import DiscordEmulator
from tests.emulator.state import World as Discord


@dataclass
class World:
    emu: DiscordEmulator
    guild: Any
    channel: Any
    users: list[Any]
    stranger: Any


@pytest.fixture
def world(emulator: DiscordEmulator) -> World:
    emu = emulator
    guild = emu.add_guild("Friends", locale="en-US")
    channel = emu.add_text_channel(guild, "tichu")
    users = [emu.add_user(name, locale=loc) for name, loc in
             (("alice", "en-US"), ("bob", "fr"), ("carol", "en-GB"), ("dave", "fr"))]
    stranger = emu.add_user("eve", locale="en-US")
    for user in (*users, stranger):
        emu.add_member(guild, user)
    return World(emu, guild, channel, users, stranger)


async def open_lobby(world: World, bot: TichuBot, **options: Any) -> tuple[Any, Table]:
    """``/tichu new`` by the first user; the lobby message and the table."""
    await world.emu.wait_for_commands(["tichu"])
    reply = await world.emu.slash(world.users[0], world.channel, "tichu new", **options)
    lobby = await reply.response()
    table = max(bot.service.core.tables.values(), key=lambda t: t.id)
    return lobby, table


async def seat_and_start(world: World, lobby: Any, people: list[int | None],
                         computers: dict[int, str]) -> None:
    """Seat users ``people[i]`` at seat i (None: leave to a computer), add computers, start."""
    emu = world.emu
    host = world.users[0]
    for seat, index in enumerate(people):
        if seat == 0 or index is None:
            continue
        join = component(lobby, "join", arg=str(seat))
        assert join is not None
        await (await emu.click(world.users[index], lobby, join.custom_id)).response()
    for seat, level in computers.items():
        cpu = component(lobby, "cpu", "s")
        assert cpu is not None
        await (await emu.select(host, lobby, cpu.custom_id, [f"{seat}.{level}"])).response()
    start = component(lobby, "start")
    assert start is not None
    await (await emu.click(host, lobby, start.custom_id)).response()


@pytest.fixture(autouse=True)
def every_image_described(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every file the bot uploads in these tests carries a description (its alt text,
    which screen readers read), within Discord's 1,024 characters: checked as the local
    Discord stores each one, whichever test, game or message it belongs to."""
    stored: list[AttachmentRecord] = []
    materialize = Discord._materialize

    def keep(self: Discord, channel_id: int, plan: Any) -> list[AttachmentRecord]:
        made = materialize(self, channel_id, plan)
        stored.extend(made)
        return made

    monkeypatch.setattr(Discord, "_materialize", keep)
    yield
    blind = [a.filename for a in stored if not (a.description or "").strip()]
    assert not blind, f"uploaded without a description: {blind}"
    long = [(a.filename, len(a.description or "")) for a in stored
            if len(a.description or "") > ALT_LIMIT]
    assert not long, f"descriptions over {ALT_LIMIT} characters: {long}"


@pytest.fixture(autouse=True)
def quick_webp(monkeypatch: pytest.MonkeyPatch) -> None:
    """libwebp's least effort for the images the bot draws in these tests.

    Encoding takes about half the CPU of a game played through the local Discord; at
    effort 0 it takes a third less, for a few more bytes (quality 80 all the same).
    What these tests check (which images, where, when) does not depend on it; the
    images themselves and their encoder settings are checked in tests/render.
    """
    monkeypatch.setattr(encoding, "WEBP_METHOD", 0)


async def until_bob_plays(world: World, bot: TichuBot) -> tuple[Table, Person, Person]:
    """A Tichu table of Alice (seat 0), Bob (seat 2) and two computers, played on from
    their panels until Bob's turn comes in the play, Alice waiting with her panel open."""
    lobby, table = await open_lobby(world, bot, target=1000)
    await seat_and_start(world, lobby, [0, None, 1, None], {1: "normal", 3: "easy"})
    alice, bob = (Person(world.emu, world.users[i], random.Random(7 + i)) for i in (0, 1))
    people = {0: alice, 2: bob}
    while True:
        due = await settle(bot, table)
        if table.game.phase is Phase.PLAY and due == (2,) and alice.panel is not None:
            return table, alice, bob
        await people[due[0]].act(table_message(world.emu, table))
