"""Duplicate tables of people through the local Discord: an event of two tables that play
the same boards, compared with each other and with the field; forged codes and second
attempts refused."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.store.models import TableStatus
from bot.tables import Table
from engine.duplicate.play import BoardsGame
from engine.duplicate.scoring import Result, score
from tests.bot.conftest import World, seat_and_start
from tests.bot.driver import Person, component, running, settle, table_message

SETTINGS = {"field_tables": 2, "field_processes": 0}


async def new_duplicate(world: World, bot: Any, host: Any, **options: Any) -> tuple[Any, Table]:
    await world.emu.wait_for_commands(["tichu"])
    lobby = await (await world.emu.slash(host, world.channel, "tichu new", **options)).response()
    table = max(bot.service.core.tables.values(), key=lambda t: t.id)
    return lobby, table


async def play(world: World, bot: Any, table: Table, people: dict[int, Person]) -> None:
    for _ in range(2000):
        due = await settle(bot, table, timeout=60)
        if not due:
            return
        await people[due[0]].act(table_message(world.emu, table))
    raise AssertionError("the table did not end")


async def test_an_event_of_two_tables_of_people(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, bob, carol, _ = world.users
    async with running(emu, tmp_path / "db.sqlite3", **SETTINGS) as bot:
        lobby, first = await new_duplicate(world, bot, alice, duplicate=2)
        code = first.record.options["event"]
        assert f"event:{code}" in lobby.content
        # A forged code: refused, nothing opened.
        count = len(bot.service.core.tables)
        forged = await (await emu.slash(carol, world.channel, "tichu new", event="ZZZZZZ")
                        ).response()
        assert forged.content.startswith("No event has that code")
        assert len(bot.service.core.tables) == count
        other_lobby, second = await new_duplicate(world, bot, carol, event=code.lower())
        assert second.record.options["boards"] == first.record.options["boards"]
        await seat_and_start(world, lobby, [0, 1, None, None], {2: "normal", 3: "normal"})
        # Carol's table starts with Alice seated: Alice plays these boards already.
        join = next(b for b in other_lobby.buttons if b.custom_id.endswith(":join:2"))
        await (await emu.click(alice, other_lobby, join.custom_id)).response()
        cpu = other_lobby.selects[0].custom_id
        for seat in (1, 3):
            await (await emu.select(carol, other_lobby, cpu, [f"{seat}.normal"])).response()
        start = next(b for b in other_lobby.buttons if b.custom_id.endswith(":start"))
        refused = await (await emu.click(carol, other_lobby, start.custom_id)).response()
        assert "already played boards of this event" in refused.content
        assert second.status is TableStatus.LOBBY
        assert {r.table_id for r in await bot.service.repo.event_results(code)} <= {first.id}
        leave = next(b for b in other_lobby.buttons if b.custom_id.endswith(":leave"))
        await (await emu.click(alice, other_lobby, leave.custom_id)).response()
        await (await emu.select(carol, other_lobby, cpu, ["2.normal"])).response()
        await (await emu.click(carol, other_lobby, start.custom_id)).response()
        # The fields first (they are played as the event opens): the marks below are then
        # those of the field and the tables that finished before.
        await bot.jobs.idle()
        await play(world, bot, first, {0: Person(emu, alice, random.Random(1)),
                                       1: Person(emu, bob, random.Random(2))})
        await play(world, bot, second, {0: Person(emu, carol, random.Random(3))})
        for table in (first, second):
            assert table.status is TableStatus.FINISHED
            assert isinstance(table.game, BoardsGame)
        assert [d[0] for d in first.game.deal_log] == [d[0] for d in second.game.deal_log]
        # Each table was told each board's marks, and the standings at the end.
        posts = [m.content for m in emu.channel_messages(first.channel_id)]
        assert sum("Board 1 of 2" in p for p in posts) == 1
        assert any(p.startswith(f"Event {code} is over") for p in posts)
        # The marks are the spec's matchpoints over the field and both tables.
        repo = bot.service.repo
        results = await repo.event_results(code)
        assert {(r.table_id, r.direction) for r in results} == {
            (first.id, 0), (first.id, 1), (second.id, 0)}
        board = results[0].board
        # Board 1 at the first table was marked before the second table played it.
        rows = [Result(r.board, r.direction, f"{r.table_id}/{r.direction}", r.diff or 0)
                for r in results if r.board == board and r.table_id == first.id]
        rows += [Result(board, d, f"f{f.index}/{d}", f.diff if d == 0 else -f.diff)
                 for f in await repo.field(board) for d in (0, 1)]
        mine = next(s for s in score(rows)[0] if s.result.player == f"{first.id}/0")
        assert any(f"Team A {mine.percentage:.1f}%" in p for p in posts if "Board 1 of 2" in p)
        # The standings as each table ends: the second, last, has everyone.
        def end_of(table: Table) -> set[str]:
            ends = [m.content for m in emu.channel_messages(table.channel_id)
                    if m.content.startswith(f"Event {code} is over")]
            assert len(ends) == 1
            return set(ends[0].replace(".", " ").split())

        assert {"alice", "bob"} <= end_of(first) and "carol" not in end_of(first)
        assert {"alice", "bob", "carol"} <= end_of(second)
    emu.assert_clean()


async def test_an_event_s_standings_name_other_servers_people_only_by_their_choice(
        world: World, tmp_path: Path) -> None:
    """An event played in two servers. Each server's closing standings name its own
    players; a player of the other server only if they chose to appear by name in lists
    across servers (``/privacy standings``), the others counted, each at their rank."""
    emu = world.emu
    alice, bob = world.users[0], world.users[1]
    others = emu.add_guild("Others", locale="en-US")
    room = emu.add_text_channel(others, "tichu")
    frank, gina = emu.add_user("frank"), emu.add_user("gina")
    for user in (frank, gina):
        emu.add_member(others, user)
    async with running(emu, tmp_path / "db.sqlite3", field_tables=0) as bot:
        lobby, first = await new_duplicate(world, bot, alice, duplicate=1)
        code = first.record.options["event"]
        chose = await (await emu.slash(alice, emu.dm_channel(alice), "privacy standings",
                                       appear="on")).response()
        assert chose.content == t("en", "privacy.set_on")
        await seat_and_start(world, lobby, [0, 1, None, None], {2: "normal", 3: "normal"})
        await play(world, bot, first, {0: Person(emu, alice, random.Random(1)),
                                       1: Person(emu, bob, random.Random(2))})
        # The second table, in the other server.
        there = await (await emu.slash(frank, room, "tichu new", event=code)).response()
        second = max(bot.service.core.tables.values(), key=lambda t: t.id)
        assert second.record.guild_id == others.id
        await (await emu.click(gina, there, component(there, "join", arg="1").custom_id)
               ).response()
        for seat in (2, 3):
            await (await emu.select(frank, there, component(there, "cpu", "s").custom_id,
                                    [f"{seat}.normal"])).response()
        await (await emu.click(frank, there, component(there, "start").custom_id)).response()
        await play(world, bot, second, {0: Person(emu, frank, random.Random(3)),
                                        1: Person(emu, gina, random.Random(4))})
        assert first.status is second.status is TableStatus.FINISHED

        def closing(table: Table) -> str:
            [end] = [m.content for m in emu.channel_messages(table.channel_id)
                     if m.content.startswith(f"Event {code} is over")]
            return end

        # The first server's, when only its own table had played: its own people.
        here = closing(first)
        assert "alice" in here and "bob" in here and "others" not in here
        # The other server's: its own people, Alice (who chose to appear), and Bob
        # counted but not named.
        there_end = closing(second)
        assert {"frank", "gina", "alice"} <= set(there_end.replace(".", " ").split())
        assert "bob" not in there_end
        assert t("en", "daily.standings_others", count=1) in there_end
        standings = await bot.duplicate.event_standings(code, None)
        ranks = {s.name: s.rank for s in standings}
        for name in ("frank", "gina", "alice"):
            assert f"{ranks[name]}. {name} · " in there_end  # at their true rank
    emu.assert_clean()
