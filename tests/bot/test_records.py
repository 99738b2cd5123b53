"""Ratings, leaderboard image, stats chart, history and replay export, through the emulator.

Games are played by computers with one person (alice) whose turn timer runs out at once,
so a computer acts for her while her seat stays hers: each game is recorded and rated for
her and for each computer level."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.app import TichuBot
from bot.games.registry import all_specs
from bot.i18n import t
from bot.render import filename
from bot.render.ratings import BOARD_W
from bot.store import GamePlayerResult, GameResult, TableStatus
from engine.replay import run_replay
from tests.bot.conftest import World
from tests.bot.driver import component, running
from tests.emulator.errors import NoResponseError

SHOTS = Path("/tmp/records-shots")


async def play_with_computers(world: World, bot: TichuBot, game: str, levels: list[str],
                              **options: Any) -> int:
    """A finished game of ``game``: alice at seat 0 (played by a computer), ``levels`` on
    the other seats; the table's id."""
    service = bot.service
    alice = world.users[0]
    table = await service.lobby.open_lobby(game=game, guild_id=world.guild.id,
                                           channel_id=world.channel.id, host_id=alice.id,
                                           host_name=alice.name, locale="en",
                                           options={**options, "turn_timer": 30})
    table.record.options["turn_timer"] = 0.01  # seconds: the timer plays for alice
    for seat, level in enumerate(levels, start=1):
        await service.lobby.set_computer(table.id, alice.id, seat, level)
    await service.lobby.start(table.id, alice.id)
    end = time.monotonic() + 120
    while table.status is not TableStatus.FINISHED:
        assert time.monotonic() < end, f"{game} did not finish"
        await asyncio.sleep(0.02)
    await bot.presenter.idle.wait()
    return table.id


def save(name: str, data: bytes) -> None:
    if SHOTS.exists():
        (SHOTS / name).write_bytes(data)


async def test_records_of_all_three_games(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, bob = world.users[0], world.users[1]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu", "chinois", "tysiacha"])
        await play_with_computers(world, bot, "tichu", ["hard", "easy", "hard"], target=100)
        await play_with_computers(world, bot, "chinois", ["easy", "normal", "normal"])
        await play_with_computers(world, bot, "tysiacha", ["easy", "normal"])
        repo = bot.service.repo
        guild = world.guild.id

        for game in ("tichu", "chinois", "tysiacha"):
            # The rating: alice and each computer level, one game each.
            ratings = {r.player: r for r in await repo.ratings(guild, game)}
            assert f"u:{alice.id}" in ratings and all(r.games >= 1 for r in ratings.values())
            assert any(key.startswith("cpu:") for key in ratings)
            [stored] = await repo.recent_games(guild, game)
            assert stored.replay["game"] == game
            # The stored figures are those of the stored action log, seat by seat.
            derived = all_specs()[game].stats_from_replay(stored.replay)
            assert {p.seat: p.stats for p in stored.players} == derived
            assert any(any(v for v in stats.values()) for stats in derived.values())

            # The leaderboard is an image, with the rating in its text too.
            reply = await (await emu.slash(alice, world.channel, f"{game} leaderboard")).response()
            png = reply.attachment(filename("leaderboard")).data
            assert Image.open(io.BytesIO(png)).size[0] == BOARD_W
            assert "alice" in reply.texts[-1]
            # Its description says it in words: the title, each line (alice's rating).
            words = reply.attachment(filename("leaderboard")).description
            assert words.startswith(t("en", f"leaderboard.title.{game}"))
            assert t("en", "alt.board.mine", row="").strip() in words and "alice" in words
            assert reply.embeds[0]["footer"]["text"].startswith("Page 1/")
            save(f"{game}-leaderboard.png", png)
            assert component(reply, "lbpage") is not None

            # Stats: rating, chart, partner line.
            stats = await (await emu.slash(bob, world.channel, f"{game} stats",
                                           user=alice)).response()
            assert any("Cote :" in text for text in stats.texts)  # bob reads French (la cote)
            chart = stats.attachment(filename("rating")).description
            assert chart.startswith(t("fr", "ratings.chart"))
            save(f"{game}-rating.png", stats.attachment(filename("rating")).data)

            # History: a select opens the game, Export attaches its replay file.
            history = await (await emu.slash(alice, world.channel, f"{game} history")).response()
            assert f"#{stored.id}" in history.texts[-1]
            select = component(history, "hgame", "s")
            opened = await (await emu.select(alice, history, select.custom_id,
                                             [str(stored.id)])).response()
            assert opened.ephemeral and f"#{stored.id}" in opened.content
            export = component(opened, "hexport")
            exported = await (await emu.click(alice, opened, export.custom_id)).response()
            replay = exported.attachment(f"replay-{stored.id}.json")
            assert f"{stored.id}" in replay.description and "JSON" in replay.description
            data = json.loads(replay.data)
            assert data == stored.replay
            summary = run_replay(data)
            assert list(summary["scores"]) == stored.scores, game

        # Rebuilding every rating from the stored games gives the same numbers.
        before = {g: await repo.ratings(guild, g) for g in ("tichu", "chinois", "tysiacha")}
        assert await repo.rebuild_ratings() == 3
        assert {g: await repo.ratings(guild, g) for g in before} == before
    emu.assert_clean()


async def test_forged_record_ids_are_refused(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await play_with_computers(world, bot, "tichu", ["easy", "easy", "easy"], target=100)
        reply = await (await emu.slash(alice, world.channel, "tichu leaderboard")).response()
        for forged in ("tichu:b:0:-:lbpage:poker.1", "tichu:b:0:-:lbpage:tichu",
                       "tichu:b:1:-:lbpage:tichu.0.n", "tichu:b:0:-:hexport:x"):
            refused = await (await emu.forged_click(alice, reply, forged)).response()
            assert refused.content == t("en", "error.forged"), forged
    emu.assert_clean()


async def test_leaderboard_pages_through_buttons(world: World, tmp_path: Path) -> None:
    """Twelve people on the board: page 1 holds ten, Next shows the last two, and the
    caller outside the top ten sees their own line under the page."""
    emu = world.emu
    people = [world.users[0], *[emu.add_user(f"p{i:02d}", locale="en-US") for i in range(11)]]
    for user in people[1:]:
        emu.add_member(world.guild, user)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        repo = bot.service.repo
        for round_, user in enumerate(people):
            table = await repo.create_table(
                guild_id=world.guild.id, channel_id=world.channel.id + round_ + 1,
                host_id=user.id, game="chinois", seed=str(round_), options={}, locale="en",
                seats=[])
            await repo.record_game(GameResult(
                table_id=table.id, guild_id=world.guild.id, game="chinois",
                scores=[300 - round_, 100, 90, 80], winner=0,
                players=[GamePlayerResult(0, user.id, None, user.name, 0, True),
                         *[GamePlayerResult(s, None, "easy", "", s, False) for s in (1, 2, 3)]],
                replay={"game": "chinois"}))
        board = await repo.leaderboard(world.guild.id, "chinois", limit=20)
        assert [row.rank for row in board] == list(range(1, 13))
        last = next(u for u in people if u.id == board[-1].user_id)
        reply = await (await emu.slash(last, world.channel, "chinois leaderboard")).response()
        text = reply.texts[-1]
        assert text.count("\n") == 11  # header, ten lines, the caller's own line
        assert last.name in text.splitlines()[-1]
        save("chinois-leaderboard-own.png", reply.attachment(filename("leaderboard")).data)
        assert component(reply, "lbpage", arg="chinois.0.p").disabled
        following = component(reply, "lbpage", arg="chinois.1.n")
        await (await emu.click(last, reply, following.custom_id)).response()
        # The message is edited in place: the last two players, Next now disabled.
        assert reply.texts[-1].count("\n") == 2 and last.name in reply.texts[-1]
        assert component(reply, "lbpage", arg="chinois.1.n").disabled
        assert not component(reply, "lbpage", arg="chinois.0.p").disabled
        save("chinois-leaderboard-page2.png", reply.attachment(filename("leaderboard")).data)
    emu.assert_clean()


async def test_the_global_leaderboard_names_only_those_who_chose_to_appear(
        world: World, tmp_path: Path) -> None:
    """``/tichu leaderboard scope:global`` (issue 53): the games of two servers and of
    direct messages in one rating; only those who chose to appear (``/privacy standings``)
    are named, the others counted; a hidden person reads their own place privately. In
    direct messages it is the default, and a server's board cannot be asked for."""
    emu = world.emu
    alice, bob, carol, dave = world.users
    other = emu.add_guild("Elsewhere", locale="en-US")
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        repo = bot.service.repo
        plan = [(world.guild.id, (alice, bob, carol, dave), 0),
                (other.id, (alice, dave, carol, bob), 1),
                (0, (carol, bob, alice, dave), 0)]  # a table in direct messages
        for n, (guild_id, people, winner) in enumerate(plan):
            table = await repo.create_table(
                guild_id=guild_id, channel_id=world.channel.id + n + 1, host_id=alice.id,
                game="tichu", seed=str(n), options={}, locale="en", seats=[])
            await repo.record_game(GameResult(
                table_id=table.id, guild_id=guild_id, game="tichu",
                scores=[1000, 400] if winner == 0 else [400, 1000], winner=winner,
                players=[GamePlayerResult(s, u.id, None, u.name, s % 2, s % 2 == winner)
                         for s, u in enumerate(people)], replay={"game": "tichu"}))
        for user in (alice, carol):
            chose = await (await emu.slash(user, emu.dm_channel(user), "privacy standings",
                                           appear="on")).response()
            assert chose.content == t("en", "privacy.set_on")
        ranked = [r.user_id for r in await repo.ratings(None, "tichu")]
        assert set(ranked) == {u.id for u in world.users}

        # In the server: its own board lists everyone who played there, as before.
        server = await (await emu.slash(bob, world.channel, "tichu leaderboard")).response()
        assert all(u.name in server.embeds[0]["description"] for u in world.users)
        assert component(server, "lbpage", arg="tichu.0.p").disabled
        # The global board: alice and carol only, at their places among everyone rated;
        # bob and dave counted, not named.
        asked = await emu.slash(bob, world.channel, "tichu leaderboard", scope="global")
        board = await asked.response()
        text = board.embeds[0]["description"]
        for user in (alice, carol):
            rank = ranked.index(user.id) + 1
            assert any(line.startswith(f"`{rank} ") and user.name in line
                       for line in text.splitlines()), (user.name, text)
        assert "bob" not in text and "dave" not in text
        assert t("fr", "leaderboard.hidden", count=2) in text  # bob reads French
        words = board.attachment(filename("leaderboard")).description
        assert t("fr", "leaderboard.scope.global") in words and "bob" not in words
        assert component(board, "lbpage", arg="tichu.0.p.g").disabled
        # Bob's own place, which only he sees.
        own = await asked.followup(0)  # the first follow-up filled the deferred answer
        assert own.ephemeral and own.content == t(
            "fr", "leaderboard.own_hidden", rating=f"{await repo.queue_rating(bob.id, 'tichu'):.1f}",
            rank=ranked.index(bob.id) + 1, total=4)

        # In direct messages the global board is the default; alice, who appears, reads
        # no private line; a server's board is refused there.
        dm = emu.dm_channel(alice)
        asked = await emu.slash(alice, dm, "tichu leaderboard")
        mine = await asked.response()
        lines = mine.embeds[0]["description"].splitlines()
        assert [line.split()[1] for line in lines[1:3]] == [
            u.name for u in sorted((alice, carol), key=lambda u: ranked.index(u.id))]
        assert lines[3:] == [t("en", "leaderboard.hidden", count=2)]
        with pytest.raises(NoResponseError):
            await asked.followup(0, timeout=0.5)
        # Its pages turn in direct messages too (one page here: the same one, edited).
        assert component(mine, "lbpage", arg="tichu.0.n.g").disabled
        turned = await (await emu.forged_click(alice, mine, "tichu:b:0:-:lbpage:tichu.0.n.g")
                        ).response()
        assert turned.id == mine.id and turned.embeds[0]["description"].splitlines() == lines
        refused = await (await emu.forged_click(alice, mine, "tichu:b:0:-:lbpage:tichu.0.n")
                         ).response()
        assert refused.content == t("en", "error.forged_direct")  # a server's board: not here
        refused = await (await emu.slash(alice, dm, "tichu leaderboard",
                                         scope="server")).response()
        assert refused.content == t("en", "error.scope_server")
        # Chinois has no rated game yet: nobody has a global rating there.
        empty = await (await emu.slash(dave, emu.dm_channel(dave), "chinois leaderboard")).response()
        assert empty.content == t("fr", "leaderboard.empty_global")
    emu.assert_clean()
