""""Play now" (issue 53) through the local Discord: people from several servers and none
queue, get a ready check in their DMs, accept, and sit at one table shown in their DMs.

Deterministic: the matchmaker's waves are run by the tests (its own loop waits an hour
between waves), and its clock is the tests' (:class:`Clock`), so a ready check's 30 s
pass without any wait; the people's choices are seeded. A crash is a store or a lobby
that fails at the step where a process could die, then a restart on the same database.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.store import StoreUnavailableError
from bot.store.codec import utc_now
from bot.store.models import Pool, QueueEntry, TableStatus
from bot.tables import Table
from bot.tables.matchmaker import STARTED, Matchmaker
from bot.tables.shards import Shards
from tests.bot.driver import Person, running, settle
from tests.bot.test_direct_tables import DirectPerson, dm_messages, panel_of, play, shown
from tests.bot.test_six import SixChoices
from tests.emulator.server import DiscordEmulator

TICHU = Pool("tichu", 4, True)
TICHU6 = Pool("tichu", 6, True)
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


@pytest.fixture
def clock() -> Iterator[Clock]:
    yield Clock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "db.sqlite3"


@asynccontextmanager
async def queue_bot(emu: DiscordEmulator, db: Path,
                    clock: Clock) -> AsyncIterator[tuple[Any, Matchmaker]]:
    """The bot on ``db`` (its own waves an hour apart), and its matchmaker on the test's
    clock."""
    async with running(emu, db, **QUIET) as bot:
        yield bot, matchmaker(bot, clock)


def matchmaker(bot: Any, clock: Clock) -> Any:
    mm = bot.service.matchmaker
    mm.clock = clock
    return mm


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


async def join_all(bot: Any, clock: Clock, users: list[Any], *, step: float = 0.0,
                   **options: Any) -> None:
    """Each of ``users`` queues, ``step`` seconds after the one before."""
    for user in users:
        await join(bot, clock, user, **options)
        clock.advance(step)


def contents(emu: DiscordEmulator, user: Any) -> list[str]:
    """What the bot's messages in the person's DM say."""
    return [m.content for m in dm_messages(emu, user)]


def told(emu: DiscordEmulator, users: list[Any], key: str) -> bool:
    """Whether each of ``users`` was told ``key``, in their language, in their DM."""
    return all(t(u.locale, key) in contents(emu, u) for u in users)


def has_ready_check(emu: DiscordEmulator, user: Any) -> bool:
    return any(":ready_yes" in b.custom_id for m in dm_messages(emu, user) for b in m.buttons)


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


async def accept_all(emu: DiscordEmulator, users: list[Any]) -> None:
    """Each accepts their ready check, once it has come."""
    await until(lambda: all(has_ready_check(emu, u) for u in users))
    for user in users:
        await answer(emu, user, True)


async def until(what: Any, rounds: int = 3000) -> None:
    """Wait until ``what()`` holds (the work a click started after its answer)."""
    for _ in range(rounds):
        if what():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it did not happen")


def direct_tables(bot: Any) -> list[Table]:
    """The tables in direct messages whose game started."""
    return sorted((t for t in bot.service.core.tables.values()
                   if t.direct and t.status in STARTED), key=lambda t: t.id)


async def the_table(bot: Any) -> Table:
    """The one table in direct messages, once it started, its DM panels drawn."""
    await until(lambda: bool(direct_tables(bot)))
    [table] = direct_tables(bot)
    await shown(bot, table)
    return table


def players(emu: DiscordEmulator, bot: Any, table: Table, users: list[Any], seed: int,
            **options: Any) -> dict[int, Person]:
    """The people of the table, each playing from their DM panel (seeded by seat)."""
    by_id = {u.id: u for u in users}
    people: dict[int, Person] = {}
    for seat in range(table.n_seats):
        person = DirectPerson(emu, by_id[table.seats[seat].user_id], random.Random(seed + seat),
                              panel=panel_of(emu, table, seat), table=table, **options)
        person.bot = bot
        people[seat] = person
    return people


async def test_four_people_from_anywhere_are_seated_at_one_table(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = people_of(emu)
    async with queue_bot(emu, db, clock) as (bot, mm):
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
        await until(lambda: bool(direct_tables(bot)) and told(emu, users, "queue.seated"))
        table = await the_table(bot)
        assert table.status is TableStatus.PLAYING
        assert table.record.options["rated"] is True
        assert table.record.options["turn_timer"] == 60
        assert sorted(s.user_id for s in table.seats) == sorted(u.id for u in users)
        assert await bot.service.repo.queue_counts() == []
        assert await bot.service.repo.seating_ready_checks() == []
        # The table plays from its DM panels.
        people = players(emu, bot, table, users, seed=0)
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 12)
        assert all(p.actions for p in people.values())
        assert not any(p.refusals for p in people.values())
        await settle(bot, table)
    emu.assert_clean()


async def test_a_decline_puts_the_others_back_at_the_head(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 5)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join_all(bot, clock, users[:4], step=1)
        [check] = (await mm.wave()).checks
        await answer(emu, users[0], True)
        reply = await answer(emu, users[1], False)
        assert reply.content == t("en-US", "queue.declined") and not reply.buttons
        # The decline closes the check at once: the others wait again, first in line.
        await until(lambda: told(emu, [users[0], users[2], users[3]], "queue.back"))
        repo = bot.service.repo
        assert await repo.queue_entry(users[1].id) is None
        waiting = await repo.queue_entries(TICHU)
        assert [e.user_id for e in waiting] == [users[0].id, users[2].id, users[3].id]
        assert not direct_tables(bot)
        # Their ready check messages have no buttons left.
        assert not any(has_ready_check(emu, u) for u in users[:4])
        # A fifth person comes: the next wave seats the four who wait.
        await join(bot, clock, users[4])
        [second] = (await mm.wave()).checks
        assert second.id != check.id
        assert {m.user_id for m in second.members} == \
            {users[0].id, users[2].id, users[3].id, users[4].id}
    emu.assert_clean()


async def test_a_timeout_takes_the_silent_out(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join_all(bot, clock, users)
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
        assert told(emu, [users[3]], "queue.out")
        assert await bot.service.repo.queue_entry(users[3].id) is None
        assert not direct_tables(bot)
    emu.assert_clean()


async def test_a_partner_pair_is_seated_as_a_team(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join(bot, clock, users[2])
        clock.advance(1)
        await join(bot, clock, users[0], partner=users[3])
        clock.advance(1)
        await join(bot, clock, users[1])
        [check] = (await mm.wave()).checks
        seats = check.seats
        team = {seats.index(users[0].id), seats.index(users[3].id)}
        assert team in ({0, 2}, {1, 3})
        await accept_all(emu, users)
        table = await the_table(bot)
        at = {s.user_id: s.seat for s in table.seats}
        assert (at[users[0].id] - at[users[3].id]) % 2 == 0
    emu.assert_clean()


async def test_two_who_blocked_each_other_are_never_paired(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 7)
    async with queue_bot(emu, db, clock) as (bot, mm):
        assert await bot.service.repo.block(users[1].id, users[0].id)
        await join_all(bot, clock, users, step=1)
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
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 8)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join_all(bot, clock, users[:4], step=1)
        [check] = (await mm.wave()).checks
        await answer(emu, users[0], True)
        await join_all(bot, clock, users[4:7], step=1)
    # Another process (the same database): the places and the open check are kept.
    async with queue_bot(emu, db, clock) as (bot, mm):
        repo = bot.service.repo
        assert [e.user_id for e in await repo.queue_entries(TICHU)] == \
            [u.id for u in users[4:7]]
        await join(bot, clock, users[7])
        for user in users[1:4]:
            await answer(emu, user, True)  # the buttons sent before the restart
        table = await the_table(bot)
        assert {s.user_id for s in table.seats} == {u.id for u in users[:4]}
        [second] = (await mm.wave()).checks
        assert second.id != check.id
        assert {m.user_id for m in second.members} == {u.id for u in users[4:]}
    emu.assert_clean()


@pytest.mark.parametrize("end", ["seated", "expired"])
async def test_the_news_edits_the_ready_check_sent_before_a_restart(
        emulator: DiscordEmulator, db: Path, clock: Clock, end: str) -> None:
    """The bot restarts while a ready check waits: what came of it (the table seated, or
    the check expired: back in the queue, or out) edits each person's ready check
    message, as without a restart, rather than coming as a new DM."""
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join_all(bot, clock, users, step=1)
        [check] = (await mm.wave()).checks
        await until(lambda: all(has_ready_check(emu, u) for u in users))
        sent = {u.id: ready_message(emu, u).id for u in users}
        await answer(emu, users[0], True)
    async with queue_bot(emu, db, clock) as (bot, mm):
        if end == "seated":
            for user in users[1:]:
                await answer(emu, user, True)  # the buttons sent before the restart
            await the_table(bot)
            news = {u.id: "queue.seated" for u in users}
        else:
            await answer(emu, users[1], True)
            clock.advance(30)
            [outcome] = (await mm.wave()).closed
            assert outcome.check.id == check.id and set(outcome.removed) == \
                {users[2].id, users[3].id}
            news = {u.id: "queue.back" if u in users[:2] else "queue.out" for u in users}
        for user in users:
            await until(lambda u=user: emu.messages[sent[u.id]].content ==
                        t(u.locale, news[u.id]))
            assert not emu.messages[sent[user.id]].buttons
            # Nothing else says it: the only message before the table's panel is the check.
            assert [m.id for m in dm_messages(emu, user)
                    if m.content == t(user.locale, news[user.id])] == [sent[user.id]]
    emu.assert_clean()


async def test_a_ready_check_message_the_store_could_not_keep(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    """The store fails as the first person's ready check message is kept: the others'
    checks go out all the same, and the news of the first one's comes as a new DM."""
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        keep = mm.repo.note_ready_message

        async def lost(check_id: int, user_id: int, message: Any) -> bool:
            if user_id == users[0].id:
                raise StoreUnavailableError("note_ready_message: connection refused")
            return bool(await keep(check_id, user_id, message))

        mm.repo.note_ready_message = lost
        await join_all(bot, clock, users, step=1)
        assert len((await mm.wave()).checks) == 1
        await until(lambda: all(has_ready_check(emu, u) for u in users))
        sent = {u.id: ready_message(emu, u).id for u in users}
        for user in users[1:]:
            await answer(emu, user, True)
        clock.advance(30)
        [outcome] = (await mm.wave()).closed
        assert outcome.removed == (users[0].id,)
        await until(lambda: told(emu, [users[0]], "queue.out"))
        out = [m for m in dm_messages(emu, users[0]) if m.content == t("en-US", "queue.out")]
        assert [m.id for m in out] != [sent[users[0].id]] and len(out) == 1
        for user in users[1:]:
            await until(lambda u=user: emu.messages[sent[u.id]].content ==
                        t(u.locale, "queue.back"))
    emu.assert_clean()


@pytest.mark.parametrize("crash", ["opening", "started"])
async def test_a_crash_while_a_table_is_seated_loses_nobody(
        emulator: DiscordEmulator, db: Path, clock: Clock, crash: str) -> None:
    """The process dies between the close of a check everyone accepted and its table's
    start (its lobby left half made), or once the table started but before the store
    heard it: after the restart, the table goes on, or its people are back at the head
    of the queue and seated by the next check. Nobody's place is lost."""
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        repo, lobby = bot.service.repo, bot.service.lobby
        died = asyncio.Event()

        async def dies(*args: Any, **kwargs: Any) -> Any:
            died.set()
            raise RuntimeError("the process is killed here")

        if crash == "opening":  # as the game starts; nothing after it runs
            lobby.start = dies
            lobby.abandon = dies
        else:
            async def store_lost(check_id: int) -> int:
                died.set()
                raise StoreUnavailableError("seat_ready_check: connection refused")
            mm.repo.seat_ready_check = store_lost
        await join_all(bot, clock, users, step=1)
        [check] = (await mm.wave()).checks
        await until(lambda: all(has_ready_check(emu, u) for u in users))
        sent = {u.id: ready_message(emu, u).id for u in users}
        await accept_all(emu, users)
        await asyncio.wait_for(died.wait(), 30)
        await until(lambda: not mm._close_lock.locked())
        # Left seating: their entries are held by the check, none waits, none is lost.
        assert await repo.seating_ready_checks() == [check.id]
        assert await repo.queue_entries(TICHU) == []
        for user in users:
            assert (await repo.queue_entry(user.id) or check).check_id == check.id
    async with queue_bot(emu, db, clock) as (bot, mm):
        repo = bot.service.repo
        await mm.wave()  # the first wave finishes the check (or the bot's own did)
        assert await repo.seating_ready_checks() == []
        if crash == "started":
            # Their table had started: it is kept, and they are told so.
            table = await the_table(bot)
            assert table.record.options["ready_check"] == check.id
            assert {s.user_id for s in table.seats} == {u.id for u in users}
            await until(lambda: told(emu, users, "queue.seated"))
            assert await repo.queue_counts() == []
            people = players(emu, bot, table, users, seed=40)
            await play(bot, table, people, lambda tb: sum(tb.moves) >= 8)
            assert not any(p.refusals for p in people.values())
            await settle(bot, table)
        else:
            # No table: the lobby the crash left is gone, and they are back at the head
            # of the queue, told so under their ready check, then asked again.
            await until(lambda: told(emu, users, "queue.back_unmade"))
            # Their ready check message says so (kept in the store through the restart).
            for user in users:
                assert [m.id for m in dm_messages(emu, user) if m.content == t(
                    user.locale, "queue.back_unmade")] == [sent[user.id]]
            for user in users:
                assert await repo.count_open_tables_of(user.id) == 0
            await accept_all(emu, users)
            table = await the_table(bot)
            assert table.record.options["ready_check"] != check.id
            assert {s.user_id for s in table.seats} == {u.id for u in users}
            assert await repo.queue_counts() == []
    emu.assert_clean()


async def test_a_table_the_queue_seated_survives_a_restart_mid_game(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    """Played partway in DMs, the bot restarts: the same DM panels go on, the first click
    after the restart acts, and no move is lost."""
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await join_all(bot, clock, users, step=1)
        await mm.wave()
        await accept_all(emu, users)
        table = await the_table(bot)
        people = players(emu, bot, table, users, seed=20)
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 10)
        await settle(bot, table)
        table_id, moves, seq = table.id, list(table.moves), table.seq
        kept = {s: p.panel.id for s, p in people.items()}
    async with queue_bot(emu, db, clock) as (bot, mm):
        table = await bot.service.core.get(table_id)
        due = await shown(bot, table)
        assert table.status is TableStatus.PLAYING
        assert list(table.moves) == moves and table.seq == seq  # no move lost
        assert due
        for seat, person in people.items():
            assert panel_of(emu, table, seat).id == kept[seat]
            person.table, person.bot = table, bot
        # The first click after the restart, on the panel sent before it, acts.
        first = people[due[0]]
        await first.act()
        await settle(bot, table)
        assert not first.refusals
        assert sum(table.moves) > sum(moves)
        await play(bot, table, people, lambda tb: sum(tb.moves) >= sum(moves) + 8)
        assert not any(p.refusals for p in people.values())
        assert all(person.panel.id == kept[seat] for seat, person in people.items())
        await settle(bot, table)
    emu.assert_clean()


async def test_people_queue_with_the_command_and_are_seated(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = people_of(emu)
    places = with_channels(emu, users)
    async with queue_bot(emu, db, clock) as (bot, mm):
        await emu.wait_for_commands(["tichu"])
        for user, place in zip(users, places, strict=True):
            reply = await (await emu.slash(user, place, "tichu play now")).response()
            assert reply.ephemeral
            assert reply.content == t(user.locale, "queue.joined", game="Tichu")
            assert t(user.locale, "queue.greeting", game="Tichu") in contents(emu, user)
        entries = await bot.service.repo.queue_entries(TICHU)
        assert [e.user_id for e in entries] == [u.id for u in users]
        assert [e.guild_id is None for e in entries] == [False, False, False, True]
        # Four languages: any language once the last has waited a minute (the command
        # stamps its entry with the real time).
        clock.now = max(e.joined_at for e in entries if e.joined_at is not None)
        clock.advance(60)
        await mm.wave()
        await accept_all(emu, users)
        table = await the_table(bot)
        people = players(emu, bot, table, users, seed=10)
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 8)
        assert not any(p.refusals for p in people.values())
        # Seated at a table in play: queueing again is refused, nothing written.
        reply = await (await emu.slash(users[0], places[0], "tichu play now")).response()
        assert reply.content == t(users[0].locale, "error.queue_at_table")
        assert await bot.service.repo.queue_entry(users[0].id) is None
        await settle(bot, table)
    emu.assert_clean()


async def test_six_people_queue_for_tichu_for_six_and_sit_at_one_table(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 7)
    places = with_channels(emu, users)
    async with queue_bot(emu, db, clock) as (bot, _):
        await emu.wait_for_commands(["tichu"])
        repo = bot.service.repo
        # Tichu for four and for six are pools apart.
        reply = await (await emu.slash(users[6], places[6], "tichu play now")).response()
        assert reply.content == t("en-US", "queue.joined", game="Tichu")
        for index, (user, place) in enumerate(zip(users[:6], places, strict=False)):
            options: dict[str, Any] = {"players": 6}
            if index == 0:
                options["partner"] = users[5]
            if index == 5:  # queued already, as the partner of the first
                continue
            reply = await (await emu.slash(user, place, "tichu play now", **options)).response()
            assert reply.content == t("en-US", "queue.joined", game=t("en-US", "game.tichu6"))
        assert [e.people for e in await repo.queue_entries(TICHU)] == [(users[6].id,)]
        six = await repo.queue_entries(TICHU6)
        assert [e.people for e in six] == [(users[0].id, users[5].id),
                                           *((u.id,) for u in users[1:5])]
        # The join that lets the pool fill a table of six runs its wave at once.
        await accept_all(emu, users[:6])
        table = await the_table(bot)
        assert table.n_seats == 6 and table.record.options["players"] == 6
        assert {s.user_id for s in table.seats} == {u.id for u in users[:6]}
        # The partners are on one team: the seats of one parity.
        at = {s.user_id: s.seat for s in table.seats}
        assert (at[users[0].id] - at[users[5].id]) % 2 == 0
        assert [e.people for e in await repo.queue_entries(TICHU)] == [(users[6].id,)]
        people = players(emu, bot, table, users, seed=60, choices=SixChoices())
        await play(bot, table, people, lambda tb: sum(tb.moves) >= 14)
        assert all(p.actions for p in people.values())
        assert not any(p.refusals for p in people.values())
        await settle(bot, table)
        assert not has_ready_check(emu, users[6])
    emu.assert_clean()


async def test_what_the_command_refuses(emulator: DiscordEmulator, db: Path,
                                        clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    places = with_channels(emu, users)
    emu.close_dms(users[2])
    async with queue_bot(emu, db, clock) as (bot, _):
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
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 2)
    async with queue_bot(emu, db, clock) as (bot, mm):
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
        table = await the_table(bot)
        assert table.record.options["rated"] is False
        assert [s.user_id for s in table.seats].count(None) == 3
        assert [e.user_id for e in await bot.service.repo.queue_entries(TICHU)] == \
            [users[1].id]
    emu.assert_clean()


async def test_tysiacha_and_chinois_have_their_own_queue(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    places = with_channels(emu, users)
    async with queue_bot(emu, db, clock) as (bot, _):
        await emu.wait_for_commands(["tysiacha", "chinois"])
        reply = await (await emu.slash(users[3], places[3], "chinois play now",
                                       partner=users[0])).response()
        assert reply.content == t("en-US", "error.queue_no_teams")
        for user, place in zip(users[:3], places[:3], strict=True):
            reply = await (await emu.slash(user, place, "tysiacha play now")).response()
            assert reply.content == t("en-US", "queue.joined", game="Tysiacha")
        # The third join lets the pool fill a table: its wave runs at once.
        await accept_all(emu, users[:3])
        table = await the_table(bot)
        assert table.spec.name == "tysiacha" and table.n_seats == 3
        assert {s.user_id for s in table.seats} == {u.id for u in users[:3]}
    emu.assert_clean()


async def test_one_matchmaker_runs_in_the_process_of_shard_0(
        emulator: DiscordEmulator, db: Path, clock: Clock) -> None:
    emu = emulator
    users = english(emu, 4)
    async with queue_bot(emu, db, clock) as (bot, mm):
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
