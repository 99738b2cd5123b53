""""Play now" (issue 53) through the local Discord: people from several servers and none
queue, get a ready check in their DMs, accept, and sit at one table shown in their DMs.

Deterministic: the matchmaker's waves are run by the tests (its own loop waits an hour
between waves), and its clock is the tests' (:class:`Clock`), so a ready check's 30 s
pass without any wait; the people's choices are seeded.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.store.codec import utc_now
from bot.store.models import Pool, QueueEntry, TableStatus
from bot.tables import Table
from tests.bot.driver import running, settle
from tests.bot.test_direct_tables import DirectPerson, dm_messages, panel_of, play, shown
from tests.emulator.server import DiscordEmulator

TICHU = Pool("tichu", 4, True)
QUIET = {"queue_wave_interval": 3600.0}
"""The bot's own waves wait an hour: the tests run each wave."""


class Clock:
    """The matchmaker's now, moved by the test."""

    def __init__(self) -> None:
        self.now = utc_now().replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def people_of(emu: DiscordEmulator, n: int = 4) -> list[Any]:
    """People from three servers, then from none (direct messages only)."""
    names = (("ana", "en-US"), ("bruno", "fr"), ("chen", "en-GB"), ("dora", "de"),
             ("eleni", "el"), ("femi", "en-US"))
    users = []
    for index, (name, locale) in enumerate(names[:n]):
        user = emu.add_user(name, locale=locale)
        if index < 3:
            guild = emu.add_guild(f"Server {index}", locale="en-US")
            emu.add_member(guild, user)
        users.append(user)
    return users


async def join(bot: Any, clock: Clock, user: Any, *, partner: Any = None,
               pool: Pool = TICHU, fill_after: int | None = None,
               guild_id: int | None = None) -> QueueEntry:
    entry = QueueEntry(user_id=user.id, pool=pool, locale=user.locale, rating=0.0,
                       partner_id=None if partner is None else partner.id,
                       partner_rating=None if partner is None else 0.0,
                       fill_after=fill_after, guild_id=guild_id, joined_at=clock())
    stored = await bot.service.repo.queue_join(entry)
    assert isinstance(stored, QueueEntry)
    return stored


def ready_message(emu: DiscordEmulator, user: Any) -> Any:
    """The person's latest ready check DM (the one with Accept)."""
    for message in reversed(dm_messages(emu, user)):
        if any(":ready_yes" in b.custom_id for b in message.buttons):
            return message
    raise AssertionError(f"{user.name} has no ready check")


def button(message: Any, action: str) -> str:
    return next(b.custom_id for b in message.buttons if b.custom_id.endswith(f":{action}"))


async def answer(emu: DiscordEmulator, user: Any, accept: bool) -> Any:
    message = ready_message(emu, user)
    handle = await emu.click(user, message, button(message, "ready_yes" if accept
                                                   else "ready_no"))
    return await handle.response()


async def until(what: Any, rounds: int = 3000) -> None:
    """Wait until ``what()`` holds (the work a click started after its answer)."""
    for _ in range(rounds):
        if what():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it did not happen")


@pytest.fixture
def clock() -> Iterator[Clock]:
    yield Clock()


def matchmaker(bot: Any, clock: Clock) -> Any:
    mm = bot.service.matchmaker
    mm.clock = clock
    return mm


def direct_tables(bot: Any) -> list[Table]:
    return sorted((t for t in bot.service.core.tables.values() if t.direct),
                  key=lambda t: t.id)


async def test_four_people_from_anywhere_are_seated_at_one_table(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = people_of(emu)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        for index, user in enumerate(users):
            await join(bot, clock, user, guild_id=None if index == 3 else 1000 + index)
            clock.advance(1)
        # Four languages: none is paired in the first minute, then any language is.
        assert not (await mm.wave()).checks
        clock.advance(60)
        report = await mm.wave()
        assert report.held and len(report.checks) == 1 and not report.tables
        check = report.checks[0]
        assert {m.user_id for m in check.members} == {u.id for u in users}
        # Each has a ready check in their DM, in their language.
        for user in users:
            message = ready_message(emu, user)
            assert message.content == t(user.locale, "queue.ready", game="Tichu", seconds=30)
        for user in users[:3]:
            reply = await answer(emu, user, True)
            assert reply.content == t(user.locale, "queue.accepted") and not reply.buttons
        assert not direct_tables(bot)
        # The last accept seats them at once: no wait for the 30 s.
        await answer(emu, users[3], True)
        await until(lambda: direct_tables(bot) and all(
            t(u.locale, "queue.seated") in [m.content for m in dm_messages(emu, u)]
            for u in users))
        [table] = direct_tables(bot)
        assert table.status is TableStatus.PLAYING
        assert table.record.options["rated"] is True
        assert table.record.options["turn_timer"] == 60
        assert sorted(s.user_id for s in table.seats) == sorted(u.id for u in users)
        assert await bot.service.repo.queue_counts() == []
        for user in users:
            assert t(user.locale, "queue.seated") in [m.content for m in dm_messages(emu, user)]
        # The table plays from its DM panels.
        await shown(bot, table)
        by_id = {u.id: u for u in users}
        people = {s: DirectPerson(emu, by_id[table.seats[s].user_id], random.Random(s),
                                  panel=panel_of(emu, table, s), table=table)
                  for s in range(4)}
        for person in people.values():
            person.bot = bot
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 12)
        assert all(p.actions for p in people.values())
        assert not any(p.refusals for p in people.values())
        await settle(bot, table)
    emu.assert_clean()
