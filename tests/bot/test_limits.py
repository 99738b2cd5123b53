"""Limits come before work: a refused command or click writes no row and queues no job,
whatever it asked for; one person's open tables are capped over every server; the
in-memory queue of duplicate fields is bounded."""

from __future__ import annotations

from pathlib import Path

from bot.games.tichu.commands import MAX_BOARDS
from bot.games.tichu.duplicate import FIELD_JOB, QUEUED_FIELDS
from bot.i18n import t
from bot.store.models import GuildSettings, TableStatus
from tests.bot.conftest import World
from tests.bot.driver import component, running
from tests.bot.store_rows import row_counts


async def test_refused_duplicate_tables_write_nothing(world: World, tmp_path: Path) -> None:
    """Five ``/tichu new duplicate:12`` in a channel that has no room left: each refused
    in one sentence, and no event, no table, no field job."""
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    async with running(emu, db, field_processes=0) as bot:
        await emu.wait_for_commands(["tichu"])
        await bot.service.repo.save_guild_settings(world.guild.id,
                                                   GuildSettings(tables_per_channel=1))
        await (await emu.slash(world.users[0], world.channel, "tichu new")).response()
        before = row_counts(db)
        assert before["dup_events"] == 0
        for index in (1, 2, 3, 0, 1):
            user = world.users[index]
            refused = await (await emu.slash(user, world.channel, "tichu new",
                                             duplicate=MAX_BOARDS)).response()
            assert refused.ephemeral
            assert refused.content == t(user.locale, "error.too_many_tables", limit=1)
        assert row_counts(db) == before
        assert await bot.jobs.depth(FIELD_JOB) == 0
    emu.assert_clean()


async def test_a_person_has_at_most_so_many_open_tables_anywhere(world: World,
                                                                 tmp_path: Path) -> None:
    """``TABLES_PER_PERSON``: the tables one person hosts or sits at, in every channel of
    every server; past it, opening one or sitting down at one is refused, and nothing is
    written. A table closed gives the room back."""
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    alice, bob, carol, _ = world.users
    other = emu.add_guild("Elsewhere", locale="de")
    there = emu.add_text_channel(other, "tichu")
    for user in world.users:
        emu.add_member(other, user)
    async with running(emu, db, tables_per_person=2) as bot:
        await emu.wait_for_commands(["tichu"])
        lobbies = [await (await emu.slash(alice, channel, "tichu new")).response()
                   for channel in (world.channel, there)]
        for lobby in lobbies:  # Bob (French) sits at both
            join = component(lobby, "join", arg="2")
            await (await emu.click(bob, lobby, join.custom_id)).response()
        third = await (await emu.slash(carol, there, "tichu new")).response()
        before = row_counts(db)
        refused = await (await emu.slash(alice, world.channel, "tichu new")).response()
        assert refused.ephemeral
        assert refused.content == t("en", "error.too_many_open", limit=2)
        refused = await (await emu.slash(bob, there, "tichu new", duplicate=2)).response()
        assert refused.content == t("fr", "error.too_many_open", limit=2)
        refused = await emu.click(bob, third, component(third, "join", arg="2").custom_id)
        assert (await refused.response()).content == t("fr", "error.too_many_open", limit=2)
        assert row_counts(db) == before
        table = max(bot.service.core.tables.values(), key=lambda table: table.id)
        assert table.seat_of(bob.id) is None
        assert await bot.jobs.depth(FIELD_JOB) == 0
        # Alice closes her table elsewhere: she may open one again.
        first = min(bot.service.core.tables.values(), key=lambda table: table.id)
        await (await emu.slash(alice, first.channel_id, "tichu abandon")).response()
        assert first.status is TableStatus.ABANDONED
        again = await (await emu.slash(alice, world.channel, "tichu new")).response()
        assert not again.ephemeral and component(again, "start") is not None
    emu.assert_clean()


async def test_the_field_queue_is_bounded(world: World, tmp_path: Path) -> None:
    """The in-memory queue holds at most ``QUEUED_FIELDS`` boards' fields for events: an
    event that would take it past that is refused before its event or table is written."""
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    alice, bob, _, _ = world.users
    async with running(emu, db, field_processes=0) as bot:
        await emu.wait_for_commands(["tichu"])
        assert bot.jobs is not None
        bot.jobs.drain()  # no field is played meanwhile: the queue only fills
        events = QUEUED_FIELDS // MAX_BOARDS
        for _ in range(events):
            lobby = await (await emu.slash(alice, world.channel, "tichu new",
                                           duplicate=MAX_BOARDS)).response()
            assert component(lobby, "start") is not None
        assert await bot.jobs.depth(FIELD_JOB) == events * MAX_BOARDS
        before = row_counts(db)
        refused = await (await emu.slash(bob, world.channel, "tichu new",
                                         duplicate=QUEUED_FIELDS - events * MAX_BOARDS + 1)
                         ).response()
        assert refused.ephemeral and refused.content == t("fr", "error.fields_busy")
        assert row_counts(db) == before
        assert await bot.jobs.depth(FIELD_JOB) == events * MAX_BOARDS
        # A table of an event already made needs no new field: it opens.
        code = max(bot.service.core.tables.values(), key=lambda table: table.id
                   ).record.options["event"]
        joined = await (await emu.slash(bob, world.channel, "tichu new", event=code)).response()
        assert component(joined, "start") is not None
        assert await bot.jobs.depth(FIELD_JOB) == events * MAX_BOARDS
    emu.assert_clean()
