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
from bot.tables.matchmaker import Matchmaker
from bot.tables.shards import Shards
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
    """The tables in direct messages whose game started."""
    return sorted((t for t in bot.service.core.tables.values()
                   if t.direct and t.status is not TableStatus.LOBBY), key=lambda t: t.id)


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


def english(emu: DiscordEmulator, n: int) -> list[Any]:
    """``n`` people of one language, from three servers and none."""
    users = []
    for index in range(n):
        user = emu.add_user(f"p{index}", locale="en-US")
        if index < 3:
            guild = emu.add_guild(f"Server {index}", locale="en-US")
            emu.add_member(guild, user)
        users.append(user)
    return users


async def test_a_decline_puts_the_others_back_at_the_head(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 5)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        for user in users[:4]:
            await join(bot, clock, user)
            clock.advance(1)
        [check] = (await mm.wave()).checks
        await answer(emu, users[0], True)
        reply = await answer(emu, users[1], False)
        assert reply.content == t("en-US", "queue.declined") and not reply.buttons
        # The decline closes the check at once: the others wait again, first in line.
        await until(lambda: all(t("en-US", "queue.back") in
                                [m.content for m in dm_messages(emu, u)]
                                for u in (users[0], users[2], users[3])))
        repo = bot.service.repo
        assert await repo.queue_entry(users[1].id) is None
        waiting = await repo.queue_entries(TICHU)
        assert [e.user_id for e in waiting] == [users[0].id, users[2].id, users[3].id]
        assert not direct_tables(bot)
        # Their ready check messages have no buttons left.
        assert not any(':ready_' in b.custom_id for u in users[:4]
                       for m in dm_messages(emu, u) for b in m.buttons)
        # A fifth person comes: the next wave seats the four who wait.
        await join(bot, clock, users[4])
        [second] = (await mm.wave()).checks
        assert second.id != check.id
        assert {m.user_id for m in second.members} == \
            {users[0].id, users[2].id, users[3].id, users[4].id}
    emu.assert_clean()


async def test_a_timeout_takes_the_silent_out(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        for user in users:
            await join(bot, clock, user)
        [check] = (await mm.wave()).checks
        for user in users[:3]:
            await answer(emu, user, True)
        clock.advance(29)
        assert not (await mm.wave()).closed  # still waiting for the fourth
        clock.advance(1)
        # Expired: a click now changes nothing, and says so.
        message = ready_message(emu, users[3])
        reply = await (await emu.click(users[3], message,
                                       button(message, "ready_yes"))).response()
        assert reply.ephemeral and reply.content == t("en-US", "error.queue_gone")
        [outcome] = (await mm.wave()).closed
        assert outcome.check.id == check.id and not outcome.seated
        assert outcome.removed == (users[3].id,)
        assert set(outcome.returned) == {u.id for u in users[:3]}
        assert t("en-US", "queue.out") in [m.content for m in dm_messages(emu, users[3])]
        assert await bot.service.repo.queue_entry(users[3].id) is None
        assert not direct_tables(bot)
    emu.assert_clean()


async def test_a_partner_pair_is_seated_as_a_team(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        await join(bot, clock, users[2])
        clock.advance(1)
        await join(bot, clock, users[0], partner=users[3])
        clock.advance(1)
        await join(bot, clock, users[1])
        [check] = (await mm.wave()).checks
        seats = check.seats
        team = {seats.index(users[0].id), seats.index(users[3].id)}
        assert team in ({0, 2}, {1, 3})
        for user in users:
            await answer(emu, user, True)
        await until(lambda: bool(direct_tables(bot)))
        [table] = direct_tables(bot)
        await shown(bot, table)
        at = {s.user_id: s.seat for s in table.seats}
        assert (at[users[0].id] - at[users[3].id]) % 2 == 0
    emu.assert_clean()


async def test_two_who_blocked_each_other_are_never_paired(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 7)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        repo = bot.service.repo
        assert await repo.block(users[1].id, users[0].id)
        for user in users:
            await join(bot, clock, user)
            clock.advance(1)
        checks = []
        for _ in range(5):
            report = await mm.wave()
            checks.extend(report.checks)
            clock.advance(10)
        assert checks
        for check in checks:
            people = {m.user_id for m in check.members}
            assert not {users[0].id, users[1].id} <= people
    emu.assert_clean()


async def test_a_restart_in_the_middle_of_the_queue_loses_nobody(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    db = tmp_path / "db.sqlite3"
    users = english(emu, 8)
    async with running(emu, db, **QUIET) as bot:
        mm = matchmaker(bot, clock)
        for user in users[:4]:
            await join(bot, clock, user)
            clock.advance(1)
        [check] = (await mm.wave()).checks
        await answer(emu, users[0], True)
        for user in users[4:7]:
            await join(bot, clock, user)
            clock.advance(1)
    # Another process (the same database): the places and the open check are kept.
    async with running(emu, db, **QUIET) as bot:
        mm = matchmaker(bot, clock)
        repo = bot.service.repo
        assert [e.user_id for e in await repo.queue_entries(TICHU)] == \
            [u.id for u in users[4:7]]
        await join(bot, clock, users[7])
        for user in users[1:4]:
            await answer(emu, user, True)  # the buttons sent before the restart
        await until(lambda: bool(direct_tables(bot)))
        [table] = direct_tables(bot)
        await shown(bot, table)
        assert {s.user_id for s in table.seats} == {u.id for u in users[:4]}
        [second] = (await mm.wave()).checks
        assert second.id != check.id
        assert {m.user_id for m in second.members} == {u.id for u in users[4:]}
    emu.assert_clean()


def with_channels(emu: DiscordEmulator, users: list[Any]) -> list[Any]:
    """Where each person types: a channel of their server, or their DM with the bot."""
    places = []
    for user in users:
        guilds = [g for g in emu.guilds.values() if user.id in g.members]
        if guilds:
            places.append(emu.add_text_channel(guilds[0], "general"))
        else:  # the app installed for the person: its commands work in their DMs
            emu.install_for_user(user)
            places.append(emu.dm_channel(user))
    return places


async def test_people_queue_with_the_command_and_are_seated(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = people_of(emu)
    places = with_channels(emu, users)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        await emu.wait_for_commands(["tichu"])
        for user, place in zip(users, places, strict=True):
            reply = await (await emu.slash(user, place, "tichu play now")).response()
            assert reply.ephemeral
            assert reply.content == t(user.locale, "queue.joined", game="Tichu")
            assert t(user.locale, "queue.greeting", game="Tichu") in \
                [m.content for m in dm_messages(emu, user)]
        entries = await bot.service.repo.queue_entries(TICHU)
        assert [e.user_id for e in entries] == [u.id for u in users]
        assert [e.guild_id is None for e in entries] == [False, False, False, True]
        # Four languages: any language once the last has waited a minute (the command
        # stamps its entry with the real time).
        clock.now = max(e.joined_at for e in entries)
        clock.advance(60)
        await mm.wave()
        await until(lambda: all(any(":ready_yes" in b.custom_id for m in dm_messages(emu, u)
                                    for b in m.buttons) for u in users))
        for user in users:
            await answer(emu, user, True)
        await until(lambda: bool(direct_tables(bot)))
        [table] = direct_tables(bot)
        await shown(bot, table)
        by_id = {u.id: u for u in users}
        people = {s: DirectPerson(emu, by_id[table.seats[s].user_id], random.Random(10 + s),
                                  panel=panel_of(emu, table, s), table=table)
                  for s in range(4)}
        for person in people.values():
            person.bot = bot
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 8)
        assert not any(p.refusals for p in people.values())
        # Seated at a table in play: queueing again is refused, nothing written.
        reply = await (await emu.slash(users[0], places[0], "tichu play now")).response()
        assert reply.content == t(users[0].locale, "error.queue_at_table")
        assert await bot.service.repo.queue_entry(users[0].id) is None
        await settle(bot, table)
    emu.assert_clean()


async def test_what_the_command_refuses(emulator: DiscordEmulator, tmp_path: Path,
                                        clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    places = with_channels(emu, users)
    emu.close_dms(users[2])
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        matchmaker(bot, clock)
        repo = bot.service.repo
        await emu.wait_for_commands(["tichu"])

        async def say(index: int, command: str, **options: Any) -> str:
            reply = await (await emu.slash(users[index], places[index], command,
                                           **options)).response()
            assert reply.ephemeral
            return str(reply.content)

        # Closed DMs: how to allow them, and not queued.
        assert await say(2, "tichu play now") == t("en-US", "error.queue_dms_closed")
        assert await repo.queue_entry(users[2].id) is None
        # Queued once, not twice.
        assert await say(0, "tichu play now", rated=False) == \
            t("en-US", "queue.joined", game="Tichu")
        assert await say(0, "tichu play now") == t("en-US", "error.queue_already")
        # A partner: not oneself, not someone queued.
        assert await say(1, "tichu play now", partner=users[1]) == \
            t("en-US", "error.queue_self_partner")
        assert await say(1, "tichu play now", partner=users[0]) == \
            t("en-US", "error.queue_partner_queued")
        assert await repo.queue_entry(users[1].id) is None
        # Blocks: not oneself.
        assert await say(1, "tichu play block", user=users[1]) == \
            t("en-US", "error.queue_block_self")
        assert await say(1, "tichu play block", user=users[3]) == \
            t("en-US", "queue.blocked", name=users[3].name)
        assert await repo.blocks_of(users[1].id) == [users[3].id]
        assert await say(1, "tichu play unblock", user=users[3]) == \
            t("en-US", "queue.unblocked", name=users[3].name)
        # Stop: the counts, no names.
        stop = await say(3, "tichu play stop")
        assert stop.startswith(t("en-US", "queue.not_queued"))
        line = t("en-US", "queue.count_unrated", game="Tichu", seats=4, people=1)
        assert line in stop and users[0].name not in stop
        stop = await say(0, "tichu play stop")
        assert stop == f"{t('en-US', 'queue.left')}\n{t('en-US', 'queue.nobody')}"
        assert await repo.queue_entry(users[0].id) is None
        # Repeated declines: a short cooldown.
        for _ in range(2):
            for user in users[:2] + users[3:]:
                await join(bot, clock, user)
            await join(bot, clock, users[2])
            [check] = (await bot.service.matchmaker.wave()).checks
            await bot.service.matchmaker.answer(check.id, users[3].id, False)
            await bot.service.matchmaker.close_due()
            for user in users:
                await repo.queue_leave(user.id)
        refused = await say(3, "tichu play now")
        assert refused == t("en-US", "error.queue_cooldown", minutes=5)
        assert await repo.queue_entry(users[3].id) is None
    emu.assert_clean()


async def test_computers_fill_a_table_whose_timer_is_due_and_it_is_unrated(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 2)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        await join(bot, clock, users[0], fill_after=60)
        await join(bot, clock, users[1], fill_after=120)
        clock.advance(59)
        assert not (await mm.wave()).checks
        clock.advance(1)
        [check] = (await mm.wave()).checks
        assert check.filled and not check.rated
        assert [m.user_id for m in check.members] == [users[0].id]
        message = ready_message(emu, users[0])
        assert message.content == t("en-US", "queue.ready_filled", game="Tichu", seconds=30)
        await answer(emu, users[0], True)
        await until(lambda: bool(direct_tables(bot)))
        [table] = direct_tables(bot)
        await shown(bot, table)
        assert table.record.options["rated"] is False
        assert [s.user_id for s in table.seats].count(None) == 3
        assert [e.user_id for e in await bot.service.repo.queue_entries(TICHU)] == \
            [users[1].id]
    emu.assert_clean()


async def test_tysiacha_and_chinois_have_their_own_queue(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    places = with_channels(emu, users)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        matchmaker(bot, clock)
        await emu.wait_for_commands(["tysiacha", "chinois"])
        reply = await (await emu.slash(users[3], places[3], "chinois play now",
                                       partner=users[0])).response()
        assert reply.content == t("en-US", "error.queue_no_teams")
        for user, place in zip(users[:3], places[:3], strict=True):
            reply = await (await emu.slash(user, place, "tysiacha play now")).response()
            assert reply.content == t("en-US", "queue.joined", game="Tysiacha")
        # The third join lets the pool fill a table: its wave runs at once.
        await until(lambda: all(any(":ready_yes" in b.custom_id for m in dm_messages(emu, u)
                                    for b in m.buttons) for u in users[:3]))
        for user in users[:3]:
            await answer(emu, user, True)
        await until(lambda: bool(direct_tables(bot)))
        [table] = direct_tables(bot)
        await shown(bot, table)
        assert table.spec.name == "tysiacha" and table.n_seats == 3
        assert {s.user_id for s in table.seats} == {u.id for u in users[:3]}
    emu.assert_clean()


async def test_one_matchmaker_runs_in_the_process_of_shard_0(
        emulator: DiscordEmulator, tmp_path: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with running(emu, tmp_path / "db.sqlite3", **QUIET) as bot:
        mm = matchmaker(bot, clock)
        assert (await mm.wave()).held  # the bot's own holds the lease
        service = bot.service
        other = Matchmaker(service.repo, service.lobby, service.shards, holder="elsewhere",
                           clock=clock)
        elsewhere = Matchmaker(service.repo, service.lobby, Shards(2, [1]),
                               holder="shard 1", clock=clock)
        for user in users:
            await join(bot, clock, user)
        assert not elsewhere.eligible and not (await elsewhere.wave()).held
        report = await other.wave()
        assert not report.held and not report.checks  # another holds the lease
        assert len((await mm.wave()).checks) == 1
        # Let go (the process stops): the other takes it.
        await mm.stop()
        assert (await other.wave()).held
        await other.stop()
    emu.assert_clean()
