"""The daily challenge through the local Discord, people acting from their panels: the
same boards and, for the same choices, the same computer play for everyone; results,
percentages and standings from the store; nothing of a board for someone who has not
finished it; a restart in the middle of a board; refusals."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.games.tichu import duplicate as daily_module
from bot.games.tichu.duplicate import daily_code, utc_today
from bot.i18n import LANGUAGES, t
from bot.i18n.names import card_label
from bot.jobs import Jobs, local_jobs
from bot.render import filename
from bot.store import SQLiteRepository
from bot.store.models import BoardPlayer, BoardResult, EventRecord, TableStatus
from bot.tables import SeatKind, Table
from engine.duplicate.boards import daily_boards
from engine.duplicate.scoring import Result, score
from engine.tichu.cards import DECK
from tests.bot.conftest import World
from tests.bot.driver import Person, component, running, settle
from tests.emulator.errors import UserActionError

DAILY = {"daily_boards": 2, "field_tables": 2, "field_processes": 0,
         "daily_level": "normal"}


async def home(world: World, user: Any, channel: Any = None) -> Any:
    await world.emu.wait_for_commands(["tichu"])
    reply = await world.emu.slash(user, channel or world.channel, "tichu daily play")
    return await reply.response()


async def open_board(world: World, bot: Any, user: Any, message: Any) -> tuple[Any, Table]:
    """The "Play board" button of the day's message: the board's panel and table."""
    play = component(message, "dplay")
    assert play is not None, message.content
    panel = await (await world.emu.click(user, message, play.custom_id)).response()
    table = max((t for t in bot.service.core.tables.values() if t.seat_of(user.id) == 0),
                key=lambda t: t.id)
    return panel, table


async def play_out(bot: Any, person: Person, table: Table, limit: int = 400) -> None:
    """The person plays the board from their panel until it is over, each decision after
    the computers due with them made theirs. In the Grand Tichu and exchange phases all
    seats decide at once: a person who decides after the computers makes the same choices
    in the same order at every table, so the tables' actions can be compared in full (the
    order alone does not change the computers' play:
    ``tests/engine/duplicate/test_boards_game.py``)."""
    loop = asyncio.get_running_loop()
    for _ in range(limit):
        deadline = loop.time() + 60
        while True:
            if not await settle(bot, table, timeout=60):
                return
            game = table.game
            if game is None or all(table.kind(s) is SeatKind.HUMAN
                                   for s in table.spec.due_seats(game)):
                break
            assert loop.time() < deadline, "the computers did not decide"
            await asyncio.sleep(0.005)
        await person.act()
    raise AssertionError("the board did not end")


def spoils(text: str) -> bool:
    """Whether ``text`` names a card (in any language)."""
    labels = {card_label(lang, int(c)) for lang in LANGUAGES for c in DECK}
    words = set(text.replace(",", " ").replace("·", " ").split())
    return bool(words & labels)


async def test_two_people_play_the_same_boards_and_meet_the_same_computers(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, bob, carol = world.users[0], world.users[1], world.users[2]
    async with running(emu, tmp_path / "db.sqlite3", **DAILY) as bot:
        boards = await bot.duplicate.day_boards(utc_today())
        day = await home(world, alice)
        assert day.ephemeral and "Tichu daily" in day.content
        panel, table_a = await open_board(world, bot, alice, day)
        assert panel.ephemeral and table_a.private and len(panel.attachments) == 1
        # Played alone, the panel shows the table with the hand under it, one picture
        # (two would be cropped into a mosaic), said in words: the hand, then the table.
        words = panel.attachments[0].description
        assert words.startswith(t(alice.locale, "alt.tichu.hand_first", count="",
                                  cards="").split(" ")[0])
        assert t(alice.locale, "alt.tichu.grand", done=0, total=4,
                 names="").split(":")[0] in words
        # It takes nothing of the channel's room for tables.
        assert await bot.service.repo.count_active_tables(world.channel.id) == 0
        assert [list(h) for h in table_a.game.dealt] == [list(h) for h in boards[0].hands]
        await play_out(bot, Person(emu, alice, random.Random(3), panel=panel, table=table_a),
                       table_a)
        assert table_a.status is TableStatus.FINISHED
        # Bob gets the same cards, and making the same choices meets the same computers.
        day_b = await home(world, bob)
        panel_b, table_b = await open_board(world, bot, bob, day_b)
        assert [list(h) for h in table_b.game.dealt] == [list(h) for h in boards[0].hands]
        await play_out(bot, Person(emu, bob, random.Random(3), panel=panel_b, table=table_b),
                       table_b)
        assert table_b.game.actions == table_a.game.actions
        # A second attempt at the board: refused, nothing stored.
        before = len(bot.service.core.tables)
        reply = await emu.click(alice, day, component(day, "dplay").custom_id)
        refusal = await reply.response()
        assert refusal.content == t("en", "error.daily_played")
        assert len(bot.service.core.tables) == before
        # The result: against the field and the people here, and how the best played it.
        await bot.jobs.idle()
        last = emu.messages[panel.id]
        result = await (await emu.click(alice, last, component(last, "dresult")
                                        .custom_id)).response()
        field = await bot.service.repo.field(boards[0].id)
        diff = table_a.game.diffs(0)[0]
        rows = [Result(boards[0].id, 0, "me", diff)] + [
            Result(boards[0].id, d, f"f{f.index}/{d}", f.diff if d == 0 else -f.diff)
            for f in field for d in (0, 1)]
        expected = next(s.percentage for s in score(rows)[0] if s.result.player == "me")
        assert f"{expected:.1f}%" in result.content and "50.0%" in result.content
        assert "1." in result.content  # the tricks of the best result here
        # Standings from the stored results; Carol, who has not played, sees no card.
        standings = await (await emu.slash(carol, world.channel, "tichu daily standings")
                           ).response()
        names = {p.name for p in (await bot.service.repo.event_results(
            daily_code(utc_today()), guild_id=world.guild.id))[0].players}
        assert names <= {"alice", "bob"} and standings.embeds
        # Each person's score: the spec's percentage over the stored results and field.
        stored = await bot.service.repo.event_results(daily_code(utc_today()),
                                                      guild_id=world.guild.id)
        rows = [Result(r.board, 0, r.players[0].name, r.diff or 0) for r in stored] + [
            Result(boards[0].id, d, f"f{f.index}/{d}", f.diff if d == 0 else -f.diff)
            for f in field for d in (0, 1)]
        pct = {s.result.player: s.percentage for s in score(rows)[0]}
        lines = standings.embeds[0]["description"].splitlines()
        assert {line.split(" · ")[0].split(". ", 1)[1]: line.split(" · ")[1]
                for line in lines} == {"alice": f"{pct['alice']:.1f}%",
                                       "bob": f"{pct['bob']:.1f}%"}
        assert not spoils(standings.embeds[0]["description"])
        words = standings.attachment(filename("standings")).description
        assert all(f"{name}: {pct[name]:.1f}%" in words for name in ("alice", "bob"))
        assert not spoils(words)
        # the image holds the lines; the embed its title and footnote
        assert "players of this server" in standings.embeds[0]["footer"]["text"]
        carol_day = await home(world, carol)
        assert not spoils(carol_day.content)
        # History: Alice's own lists her board and exports it; others see nothing of it.
        [stored] = await bot.service.repo.recent_games(world.guild.id, "tichu_dup",
                                                       user_id=alice.id)
        assert not stored.rated
        history = await (await emu.slash(alice, world.channel, "tichu history")).response()
        assert f"#{stored.id}" in history.texts[-1] and "duplicate" in history.texts[-1]
        select = component(history, "hgame", "s")
        opened = await (await emu.select(alice, history, select.custom_id,
                                         [str(stored.id)])).response()
        exported = await (await emu.click(alice, opened, component(opened, "hexport")
                                          .custom_id)).response()
        assert exported.attachment(f"replay-{stored.id}.json").data
        theirs = await (await emu.slash(carol, world.channel, "tichu history",
                                        user=alice)).response()
        assert f"#{stored.id}" not in " ".join(theirs.texts)
        peek = await (await emu.select(carol, history, select.custom_id,
                                       [str(stored.id)])).response()
        assert peek.content == t("en", "error.no_game")
        # Share: one public line, nothing of the boards.
        day = await home(world, alice)
        shared = await (await emu.click(alice, day, component(day, "dshare").custom_id)
                        ).response()
        assert not shared.ephemeral and "Tichu daily" in shared.content
        assert not spoils(shared.content)
    emu.assert_clean()


async def test_a_daily_board_goes_on_after_a_restart(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    db = tmp_path / "db.sqlite3"
    person = Person(emu, alice, random.Random(8))
    async with running(emu, db, **DAILY) as bot:
        panel, table = await open_board(world, bot, alice, await home(world, alice))
        person.panel, person.table = panel, table
        for _ in range(12):
            await settle(bot, table)
            await person.act()
        await settle(bot, table)
        seq, table_id = table.seq, table.id
    async with running(emu, db, **DAILY) as bot:
        table = await bot.service.core.get(table_id)
        assert table.seq == seq
        person.table = table
        await play_out(bot, person, table)  # from the same panel, its buttons included
        assert table.status is TableStatus.FINISHED
        results = await bot.service.repo.user_results(alice.id, daily_code(utc_today()))
        assert [r.diff for r in results] == [table.game.diffs(0)[0]]
    emu.assert_clean()


async def test_daily_refusals(world: World, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", **DAILY) as bot:
        day = await home(world, alice)
        # The day is over: its message's board is another day's now, and refused.
        tomorrow = utc_today() + timedelta(days=1)
        monkeypatch.setattr(daily_module, "utc_today", lambda now=None: tomorrow)
        refusal = await (await emu.click(alice, day, component(day, "dplay").custom_id)
                         ).response()
        assert refusal.content == t("en", "error.daily_other_day")
        assert not [table for table in bot.service.core.tables.values() if table.private]
        assert await bot.service.repo.user_results(alice.id, daily_code(utc_today())) == []
        bad = await (await emu.slash(alice, world.channel, "tichu daily standings",
                                     day="yesterday")).response()
        assert bad.content == t("en", "error.daily_bad_day")
    emu.assert_clean()


async def test_yesterday_s_standings_go_to_the_server_s_daily_channel_once(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, owner = world.users[0], emu.users[world.guild.owner_id]
    news = emu.add_text_channel(world.guild, "daily")
    async with running(emu, tmp_path / "db.sqlite3", **DAILY) as bot:
        await emu.wait_for_commands(["tichu"])
        refused = await (await emu.slash(world.users[1], world.channel, "tichu daily channel",
                                         channel=news)).response()
        assert refused.content == t("fr", "error.not_manager")
        done = await (await emu.slash(owner, world.channel, "tichu daily channel",
                                      channel=news)).response()
        assert done.ephemeral and (await bot.service.repo.guild_settings(
            world.guild.id)).daily_channel_id == news.id
        # Alice played a board of yesterday (stored as the bot stores it).
        repo = bot.service.repo
        yesterday = utc_today() - timedelta(days=1)
        board = daily_boards(yesterday, 2, seed=yesterday.isoformat())[0]
        record = await repo.create_table(guild_id=world.guild.id, channel_id=world.channel.id,
                                         host_id=alice.id, game="tichu", seed="s", options={},
                                         locale="en", seats=[])
        await repo.create_event(EventRecord(code=daily_code(yesterday), kind="daily",
                                            seed=yesterday.isoformat(), boards=2, guild_id=None,
                                            host_id=None))
        await repo.claim_board(BoardResult(board=board.id, event=daily_code(yesterday),
                                           table_id=record.id, direction=0,
                                           guild_id=world.guild.id,
                                           players=[BoardPlayer(alice.id, "alice")], diff=None,
                                           replay=None))
        await repo.finish_board(record.id, board.id, 0, 40, {"game": "tichu"})
        assert await bot.post_daily_standings() == 1
        assert await bot.post_daily_standings() == 0  # once a day
        posted = emu.channel_messages(news)
        assert len(posted) == 1 and posted[0].embeds
        assert "alice" in posted[0].embeds[0]["description"]
        assert yesterday.isoformat() in posted[0].embeds[0]["title"]
    emu.assert_clean()


async def test_the_daily_challenge_in_direct_messages_has_global_standings(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, bob = world.users[0], world.users[2]
    dm = emu.dm_channel(alice)
    async with running(emu, tmp_path / "db.sqlite3", **DAILY) as bot:
        await emu.wait_for_commands(["tichu"])
        refused = await (await emu.slash(alice, dm, "tichu new")).response()
        assert refused.content == t("en", "error.server_only")
        panel, table = await open_board(world, bot, alice, await home(world, alice, dm))
        assert table.record.guild_id == 0 and table.record.channel_id == 0
        assert panel.channel_id == dm.id
        await play_out(bot, Person(emu, alice, random.Random(4), panel=panel, table=table), table)
        panel_b, table_b = await open_board(world, bot, bob, await home(world, bob))
        await play_out(bot, Person(emu, bob, random.Random(5), panel=panel_b, table=table_b),
                       table_b)
        here = await (await emu.slash(bob, world.channel, "tichu daily standings")).response()
        everywhere = await (await emu.slash(alice, dm, "tichu daily standings")).response()
        assert "carol" in here.embeds[0]["description"]
        assert "alice" not in here.embeds[0]["description"]
        # Across servers only those who chose to appear are named (and the asker): Carol
        # did not, so she is counted, not named, in the text and in the picture's words.
        words = everywhere.attachment(filename("standings")).description
        assert "alice" in everywhere.embeds[0]["description"].split()
        assert "carol" not in everywhere.embeds[0]["description"] and "carol" not in words
        assert t("en", "daily.standings_others", count=1) in \
            everywhere.embeds[0]["footer"]["text"]
        chose = await (await emu.slash(bob, emu.dm_channel(bob), "privacy standings",
                                       appear="on")).response()
        assert chose.ephemeral and chose.content == t("en", "privacy.set_on")
        everywhere = await (await emu.slash(alice, dm, "tichu daily standings")).response()
        assert {"alice", "carol"} <= set(everywhere.embeds[0]["description"].split())
        assert "others" not in everywhere.embeds[0]["footer"]["text"]
        # The server's own standings were never changed by the choice.
        assert (await (await emu.slash(bob, world.channel, "tichu daily standings")
                       ).response()).embeds[0]["description"] == here.embeds[0]["description"]
        # Someone who shares no server with the app reaches /tichu daily only once they
        # install it for themselves (a user install). In their DMs every game answers
        # (its Play now queue works there), but a table of a server is opened in one.
        frank = emu.add_user("frank", locale="fr")
        alone = emu.dm_channel(frank)
        with pytest.raises(UserActionError):
            await emu.slash(frank, alone, "tichu daily play")
        emu.install_for_user(frank)
        day = await home(world, frank, alone)
        assert day.ephemeral and "Tichu quotidien" in day.content  # Frank reads French
        refused = await (await emu.slash(frank, alone, "chinois new")).response()
        assert refused.ephemeral and refused.content == t("fr", "error.server_only")
    emu.assert_clean()


class CountingRepo(SQLiteRepository):
    """A store that counts its reads of fields."""

    reads = 0

    async def field(self, board: str) -> list[Any]:
        self.reads += 1
        return await super().field(board)


async def bare_daily(path: Path, field_tables: int
                     ) -> tuple[daily_module.Duplicate, CountingRepo, Jobs]:
    repo = CountingRepo(path)
    await repo.open()
    service = cast(Any, SimpleNamespace(results=SimpleNamespace(deal_listeners=[]),
                                        lobby=SimpleNamespace(start_checks=[]), repo=repo,
                                        shards=SimpleNamespace(owns=lambda guild: True)))
    jobs = local_jobs(repo)
    jobs.handle(daily_module.FIELD_JOB, daily_module.make_field)
    return daily_module.Duplicate(service, jobs, boards=2, field_tables=field_tables), repo, jobs


async def test_no_field_tables_means_no_field_and_no_store_reads(tmp_path: Path) -> None:
    daily, repo, jobs = await bare_daily(tmp_path / "db.sqlite3", 0)
    try:
        await jobs.open()
        await daily.prepare(utc_today())
        await daily.field_soon(daily_boards(utc_today(), 1, seed="any")[0])
        assert repo.reads == 0 and await jobs.depth(daily_module.FIELD_JOB) == 0
    finally:
        await repo.close()


async def test_prepare_queues_today_then_tomorrow_and_asks_the_store_once(
        tmp_path: Path) -> None:
    daily, repo, jobs = await bare_daily(tmp_path / "db.sqlite3", 1)
    try:
        await jobs.open()
        day = utc_today()
        await daily.prepare(day)
        today = {b.id for b in await daily.day_boards(day)}
        tomorrow = {b.id for b in await daily.day_boards(day + timedelta(days=1))}
        queued = await jobs.queries.browse_queue(statuses=["queued"])
        # Today's fields first, the next day's behind them; a job names its board only.
        assert {j.headers["key"].partition(":")[2] for j in queued[:2]} == today
        assert {j.headers["key"].partition(":")[2] for j in queued} == today | tomorrow
        assert all(j.priority > k.priority for j in queued[:2] for k in queued[2:])
        assert {json.loads(bytes(j.payload or b""))["board"] for j in queued} == \
            today | tomorrow
        reads = repo.reads
        await daily.prepare(day)  # all queued: the store is not asked
        assert repo.reads == reads
        runner = asyncio.create_task(jobs.run())
        try:
            await jobs.idle()
        finally:
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        assert all([await repo.field(b) for b in today | tomorrow])
        reads = repo.reads
        await daily.prepare(day)  # all played
        assert repo.reads == reads
    finally:
        await repo.close()
