"""``/privacy`` through the local Discord (issue 42), people acting: show, export (the
file's replays played back by ``python -m engine replay``), erase (refused at a live
table, for a stranger's button, and the other players' records unchanged but for the
name), and a server that removes the bot, swept after the retention."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import TichuBot
from bot.cogs import privacy
from bot.cogs.privacy import Turns, erase, export_file
from bot.config import Settings
from bot.i18n import t
from bot.store import GuildSettings, SQLiteRepository, TableStatus
from bot.store.export import document_file
from bot.tables import TableError, ids
from engine.cards import parse_card
from engine.errors import EngineError
from engine.tichu.actions import Play
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, run_bot, running, settle
from tests.bot.flaky_store import FlakyStore
from tests.bot.test_coach import cards_named, play_until, received_in_exchange, reply_to

ROOT = Path(__file__).resolve().parents[2]


async def play_game(world: World, bot: TichuBot, people: list[Any]) -> int:
    """A finished Tichu game of 100 points: ``people`` at seats 0 and 2 (the first hosts),
    computers beside them; each person's turn timer runs out at once, so a computer plays
    for them while their seat stays theirs. The table's id."""
    service = bot.service
    host = people[0]
    table = await service.lobby.open_lobby(game="tichu", guild_id=world.guild.id,
                                           channel_id=world.channel.id, host_id=host.id,
                                           host_name=host.name, locale="en",
                                           options={"target": 100, "turn_timer": 30})
    table.record.options["turn_timer"] = 0.01  # seconds: the timer plays for them
    if len(people) > 1:
        await service.lobby.join(table.id, people[1].id, people[1].name, 2)
    for seat in (1, 3) if len(people) > 1 else (1, 2, 3):
        await service.lobby.set_computer(table.id, host.id, seat, "normal")
    await service.lobby.start(table.id, host.id)
    end = time.monotonic() + 120
    while table.status is not TableStatus.FINISHED:
        assert time.monotonic() < end, "the game did not finish"
        await asyncio.sleep(0.02)
    await bot.presenter.idle.wait()
    return table.id


async def run(world: World, who: Any, command: str, channel: Any = None, /,
              **options: Any) -> Any:
    """``who`` runs ``command`` (in the table channel, or ``channel``): the reply."""
    return await (await world.emu.slash(who, channel or world.channel, command,
                                        **options)).response()


async def records_of(world: World, user: Any) -> dict[str, str]:
    """What ``user`` reads of the records: the leaderboard, their stats and history."""
    board = await run(world, user, "tichu leaderboard")
    stats = await run(world, user, "tichu stats", user=user)
    history = await run(world, user, "tichu history")
    return {"board": board.embeds[0]["description"], "stats": stats.embeds[0]["description"],
            "history": history.texts[-1]}


def replay_plays_back(replay: dict[str, Any], scores: list[int]) -> None:
    """``python -m engine replay`` reads the file and ends at the stored scores."""
    done = subprocess.run([sys.executable, "-m", "engine", "replay", "-"],
                          input=json.dumps(replay), capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] is True and list(out["scores"]) == scores


async def test_export_then_erase_leaves_the_others_their_records(world: World,
                                                                 tmp_path: Path) -> None:
    emu = world.emu
    alice, bob, eve = world.users[0], world.users[1], world.stranger
    async with running(emu, tmp_path / "db.sqlite3", export_cooldown=0) as bot:
        await emu.wait_for_commands(["tichu", "privacy"])
        # Nothing yet: show and export say so, and export sends a file that says it too.
        shown = await run(world, alice, "privacy show")
        assert shown.ephemeral and t("en", "privacy.show_empty") in shown.content
        empty = await run(world, alice, "privacy export")
        assert empty.content == t("en", "privacy.export_empty")
        assert json.loads(empty.attachment(f"tichu-data-{alice.id}.json").data)["empty"]

        tables = [await play_game(world, bot, [alice, bob]),
                  await play_game(world, bot, [bob, alice]),
                  await play_game(world, bot, [alice])]
        shown = await run(world, alice, "privacy show")
        assert "finished games **3**" in shown.content and "docs/privacy.md" in shown.content
        export = await run(world, alice, "privacy export")
        assert export.ephemeral
        document = json.loads(export.attachment(f"tichu-data-{alice.id}.json").data)
        assert document["user_id"] == str(alice.id) and not document["empty"]
        assert sorted(g["table_id"] for g in document["games"]) == sorted(tables)
        for game in document["games"]:
            replay_plays_back(game["replay"], game["scores"])
        assert str(bob.id) not in export.attachment(f"tichu-data-{alice.id}.json").data.decode()
        assert len(document["ratings"]) == 1 and document["settings"] is None

        before = await records_of(world, bob)
        assert "alice" in before["history"] and "alice" in before["board"]

        # The erase asks first; a button of someone else's is refused, nothing changes.
        asked = await run(world, alice, "privacy erase")
        assert asked.ephemeral and asked.content == t("en", "privacy.erase_confirm")
        button = component(asked, "perase", arg=str(alice.id))
        assert button is not None
        # (Eve sees only her own confirmation: she sends Alice's button from it, forged.)
        her_own = await run(world, eve, "privacy erase")
        refused = await (await emu.forged_click(eve, her_own, button.custom_id)).response()
        assert refused.content == t("en", "error.forged")
        assert (await bot.service.repo.person_counts(alice.id)).games == 3

        done = await (await emu.click(alice, asked, button.custom_id)).response()
        assert done.content == t("en", "privacy.erased", games=3)
        assert not emu.messages[asked.id].components  # the button is gone
        assert (await bot.service.repo.person_counts(alice.id)).empty

        # Bob's records: the same, but for her name (Bob reads French).
        after = await records_of(world, bob)
        former = t("fr", "privacy.former")
        assert after["history"] == before["history"].replace("alice", former)
        assert after["stats"] == before["stats"].replace("alice", former)
        assert [line for line in before["board"].splitlines() if "alice" not in line] == \
            after["board"].splitlines()
        assert "alice" not in json.dumps(after)

        # Again: nothing is stored; the export says so.
        again = await run(world, alice, "privacy erase")
        button = component(again, "perase", arg=str(alice.id))
        second = await (await emu.click(alice, again, button.custom_id)).response()
        assert second.content == t("en", "privacy.erase_nothing")
        empty = await run(world, alice, "privacy export")
        assert json.loads(empty.attachment(f"tichu-data-{alice.id}.json").data)["empty"]
    emu.assert_clean()


def wait_sentence(lang: str, content: str) -> int:
    """The time (Unix) an export refused for its cooldown names, after checking that the
    answer is that sentence in ``lang``."""
    found = re.fullmatch(re.escape(t(lang, "privacy.export_wait", when="<t:@:R>")).replace(
        "@", r"(\d+)"), content)
    assert found is not None, content
    return int(found.group(1))


async def test_a_second_export_within_the_cooldown_costs_no_work(world: World,
                                                                 tmp_path: Path) -> None:
    """Within ``EXPORT_COOLDOWN`` of an export, another is refused in one sentence in the
    person's language saying when they may export again, before any store read, from any
    channel; an export that failed (the store down) does not count."""
    emu = world.emu
    alice, bob = world.users[0], world.users[1]
    store = FlakyStore(SQLiteRepository(str(tmp_path / "db.sqlite3")))
    config = Settings(_env_file=None, database=str(tmp_path / "db.sqlite3"), ai_delay=0.0,
                      worker_processes=0, field_processes=0, export_cooldown=600)
    bot = TichuBot(config, repo=store, guild_ready_timeout=0.05)  # type: ignore[arg-type]
    async with run_bot(emu, bot):
        await bot.restored.wait()
        await emu.wait_for_commands(["privacy"])
        await play_game(world, bot, [alice])
        store.fail("export_rows")
        failed = await run(world, alice, "privacy export")
        assert failed.ephemeral and failed.content == t("en", "error.store_unavailable")
        start = time.time()
        export = await run(world, alice, "privacy export")
        assert json.loads(export.attachment(f"tichu-data-{alice.id}.json").data)["games"]
        calls = dict(store.calls)
        for channel, person, lang in ((None, alice, "en"), (emu.dm_channel(alice), alice, "en"),
                                      (None, bob, "fr")):
            if person is bob:
                await run(world, bob, "privacy export")  # his first: a file
                calls = dict(store.calls)
            refused = await run(world, person, "privacy export", channel)
            assert refused.ephemeral and not refused.attachments
            when = wait_sentence(lang, refused.content)
            assert start + 600 <= when <= time.time() + 601
            assert store.calls == calls  # not one store call
    await store.inner.close()
    emu.assert_clean()


async def test_an_export_not_made_in_time_is_said_and_can_be_asked_again(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the deadline (Discord takes the file for 15 minutes) the person is told, in
    their language, that nothing was sent; the cooldown does not count it."""
    emu = world.emu
    bob = world.users[1]
    async with running(emu, tmp_path / "db.sqlite3", export_cooldown=600) as bot:
        await emu.wait_for_commands(["privacy"])
        await play_game(world, bot, [bob])
        monkeypatch.setattr(privacy, "EXPORT_DEADLINE", 0)
        busy = await run(world, bob, "privacy export")
        assert busy.ephemeral and busy.content == t("fr", "privacy.export_busy")
        assert not busy.attachments
        monkeypatch.undo()
        export = await run(world, bob, "privacy export")
        assert export.content == t("fr", "privacy.export_done", games=1)
        assert json.loads(export.attachment(f"tichu-data-{bob.id}.json").data)["games"]
    emu.assert_clean()


def test_turns_are_per_person_and_forget_the_past() -> None:
    now = [1000.0]
    turns = Turns(lambda: now[0])
    assert turns.left(1) is None
    turns.take(1, 600)
    assert turns.left(1) == 600 and turns.left(2) is None
    now[0] += 599
    assert turns.left(1) == 1
    turns.take(2, 600)
    now[0] += 1
    assert turns.left(1) is None and turns.left(2) == 599
    turns.take(3, 600)  # the people whose wait is over are forgotten
    assert sorted(turns._next) == [2, 3]
    turns.give_back(3)
    assert turns.left(3) is None
    turns.take(4, 0)  # no cooldown: nothing kept
    assert turns.left(4) is None and 4 not in turns._next


async def test_an_erase_is_refused_at_a_live_table(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu", "privacy"])
        await play_game(world, bot, [alice])
        lobby = await run(world, alice, "tichu new")
        assert lobby.components
        asked = await run(world, alice, "privacy erase")
        button = component(asked, "perase", arg=str(alice.id))
        refused = await (await emu.click(alice, asked, button.custom_id)).response()
        assert refused.content == t("en", "error.privacy_at_table")
        assert (await bot.service.repo.person_counts(alice.id)).games == 1
        # The same works in direct messages, where the app is installed for her.
        dm = emu.dm_channel(alice)
        shown = await run(world, alice, "privacy show", dm)
        assert "finished games **1**" in shown.content
    emu.assert_clean()


def named(world: World, locale: str, text: str) -> list[tuple[str, str]]:
    """The commands ``text`` names: what it reads (``/datenschutz wertungen``) and the
    command's default path (``privacy standings``), followed along the commands the bot
    synced by the names a client of ``locale`` shows, and no other."""
    found = []
    for start in re.finditer(r"(?<![\w/])/(?=\w)", text):
        run_ = re.match(r"[\w'-]+(?: [\w'-]+)*", text[start.end():])
        level = [command.data for command in world.emu.commands.values()]
        read, path = [], []
        for word in run_.group(0).split(" ") if run_ else []:
            step = next((d for d in level
                         if (d.get("name_localizations") or {}).get(locale, d["name"]) == word),
                        None)
            if step is None:
                break
            read.append(word)
            path.append(step["name"])
            level = step.get("options") or []
        found.append(("/" + " ".join(read), " ".join(path)))
    return found


def shown(option: dict[str, Any], locale: str) -> str:
    return str((option.get("name_localizations") or {}).get(locale, option["name"]))


@pytest.mark.parametrize("locale", ["fr", "de", "el"])
async def test_a_reader_types_the_command_the_answer_names(world: World, tmp_path: Path,
                                                           locale: str) -> None:
    """A person whose client is French, German or Greek runs /privacy show by the names
    their client shows, reads which command changes their choice, types it as they read
    it, and it works (issue 52: the answer named /privacy standings to everyone)."""
    emu = world.emu
    reader = emu.add_user("zoe", locale=locale)
    emu.add_member(world.guild, reader)
    async with running(emu, tmp_path / "db.sqlite3"):
        await emu.wait_for_commands(["tichu", "privacy"])
        privacy = next(c for c in emu.commands.values() if c.name == "privacy")
        subs = {option["name"]: option for option in privacy.options}
        show = f"/{privacy.localized_name(locale)} {shown(subs['show'], locale)}"
        answer = await run(world, reader, show)
        assert t(locale, "privacy.standings_off") in answer.content
        assert [path for _, path in named(world, locale, answer.content)] == \
            ["privacy standings"]
        typed = named(world, locale, answer.content)[0][0]
        assert typed != "/privacy standings"  # the names of the reader's client
        appear = subs["standings"]["options"][0]
        on = next(c for c in appear["choices"] if c["value"] == "on")
        done = await run(world, reader, typed, **{shown(appear, locale): shown(on, locale)})
        assert done.content == t(locale, "privacy.set_on")
        again = await run(world, reader, show)
        assert t(locale, "privacy.standings_on") in again.content
        assert [path for _, path in named(world, locale, again.content)] == \
            ["privacy standings"]
    emu.assert_clean()


async def noted(bot: TichuBot, guild_id: int, left: bool) -> datetime | None:
    """Wait until the store says the bot is out of (``left``) or back in the guild."""
    deadline = time.monotonic() + 10
    while True:
        when = await bot.service.repo.guild_left_at(guild_id)
        if (when is not None) == left:
            return when
        assert time.monotonic() < deadline, "the bot's removal or return was never noted"
        await asyncio.sleep(0.05)


async def test_a_server_that_removes_the_bot_is_swept_after_the_retention(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    other = emu.add_guild("Others", locale="de")
    async with running(emu, tmp_path / "db.sqlite3", left_guild_retention=30) as bot:
        await emu.wait_for_commands(["tichu", "privacy"])
        repo = bot.service.repo
        await play_game(world, bot, [alice])
        lobby = await run(world, alice, "tichu new")
        table = max(bot.service.core.tables.values(), key=lambda t: t.id)
        assert table.status is TableStatus.LOBBY and lobby.components
        await repo.save_guild_settings(world.guild.id, GuildSettings(
            locale="fr", turn_timer=45))
        await repo.save_guild_settings(other.id, GuildSettings(locale="de"))

        emu.remove_bot(world.guild)
        emu.remove_bot(other)
        left = await noted(bot, world.guild.id, left=True)
        assert left is not None and await noted(bot, other.id, left=True) is not None
        emu.add_bot(other)  # added back within the retention: nothing of it goes
        await noted(bot, other.id, left=False)
        # Within the retention nothing goes; past it, the settings and the lobby do.
        assert await bot.sweep_left_guilds(left + timedelta(days=30)) == []
        assert (await repo.guild_settings(world.guild.id)).locale == "fr"
        swept = await bot.sweep_left_guilds(left + timedelta(days=30, seconds=1))
        assert swept == [world.guild.id]
        assert (await repo.guild_settings(world.guild.id)).locale is None
        assert await repo.load_table(table.id) is None and table.id not in bot.service.core.tables
        assert (await repo.guild_settings(other.id)).locale == "de"
        # The finished game stays, anonymized: no longer Alice's.
        assert (await repo.person_counts(alice.id)).empty
        [game] = await repo.recent_games(world.guild.id, "tichu")
        assert game.players[0].name == "" and game.players[0].user_id < 0
    emu.assert_clean()


async def test_the_periodic_sweep_empties_a_server_the_bot_left(world: World,
                                                                tmp_path: Path) -> None:
    """With no retention, the bot's own sweep (every ``SWEEP_INTERVAL``) does it."""
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3", sweep_interval=0.1,
                       left_guild_retention=0) as bot:
        await emu.wait_for_commands(["tichu", "privacy"])
        repo = bot.service.repo
        await repo.save_guild_settings(world.guild.id, GuildSettings(locale="el"))
        emu.remove_bot(world.guild)
        deadline = time.monotonic() + 10
        while (await repo.guild_settings(world.guild.id)).locale is not None:
            assert time.monotonic() < deadline, "the sweep never came"
            await asyncio.sleep(0.05)
    emu.assert_clean()


def test_a_big_export_is_sent_compressed_or_not_at_all() -> None:
    document = {"games": [{"replay": {"actions": ["pass"] * 500}}] * 40}
    made = document_file(document, 10**9)
    assert made is not None and not made.packed
    plain = export_file(made, 7)
    assert plain.filename == "tichu-data-7.json"
    assert json.loads(plain.fp.read()) == document
    made = document_file(document, 20_000)
    assert made is not None and made.packed
    packed = export_file(made, 7, "de")
    assert packed.filename == "tichu-data-7.json.gz"
    assert packed.description == t("de", "privacy.file_alt", packed=t("de", "privacy.file_gz"))
    assert json.loads(gzip.decompress(packed.fp.read())) == document
    noise = {"x": random.Random(1).randbytes(5000).hex()}
    assert document_file(noise, 1000) is None


async def test_the_confirmation_erases_only_the_person_it_names() -> None:
    """Behind the check that the button is on the message (a forged one is refused
    before): the button's person must be the clicker, or nothing is read or changed."""
    host = SimpleNamespace(service=SimpleNamespace(repo=None))
    eve = SimpleNamespace(user=SimpleNamespace(id=5), locale=None)
    for custom_id in ("tichu:b:0:-:perase:6", "tichu:b:0:-:perase", "tichu:b:7:-:perase:5"):
        cid = ids.parse(custom_id)
        assert cid is not None
        with pytest.raises(TableError) as refused:
            await erase(host, eve, cid)  # type: ignore[arg-type]
        assert refused.value.code == "privacy_not_yours"


def cards_in(data: Any) -> set[int]:
    """Every card a JSON document names (each of its texts that is a card token)."""
    if isinstance(data, dict):
        return set().union(*(cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(cards_in(v) for v in data)) if data else set()
    if isinstance(data, str):
        try:
            return {int(parse_card(data))}
        except EngineError:
            return set()
    return set()


async def test_an_export_during_a_game_shows_no_other_seat_s_hidden_card(
        world: World, tmp_path: Path) -> None:
    """Alice's first deal is over and the game goes on: her export's review of it names
    her hand, every card played and the cards passed to her, never another seat's card
    unseen nor a pass between two other seats; the Review she opens neither. Once the
    game is over (abandoned here), the export gives the whole review, as stored."""
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", field_processes=0,
                       export_cooldown=0) as bot:
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, None, None, None],
                             {1: "easy", 2: "easy", 3: "easy"})
        person = Person(emu, alice, random.Random(6), table=table)
        await play_until(bot, table, {0: person}, lambda: bool(table.game.history))
        await settle(bot, table)
        await bot.jobs.idle()
        assert table.status is TableStatus.PLAYING and not table.game_over
        hands, actions = table.game.deal_log[0]
        played = {int(c) for a in actions if isinstance(a, Play) for c in a.cards}
        known = {int(c) for c in hands[0]} | played | received_in_exchange(table, 0)
        hidden = {int(c) for s in (1, 2, 3) for c in hands[s]} - known
        assert hidden  # the last seats out kept cards nobody saw
        [stored] = await bot.service.repo.user_reviews(table.id, alice.id)

        export = await run(world, alice, "privacy export")
        document = json.loads(export.attachment(f"tichu-data-{alice.id}.json").data)
        [review] = document["reviews"]
        seen = review["review"]["replay"]
        assert seen["seen_by"] == [0]
        assert [h is None for h in seen["deals"][0]["hands"]] == [False, True, True, True]
        assert cards_in(document) <= known and not cards_in(document) & hidden
        for action in seen["deals"][0]["actions"]:
            if action["do"] == "exchange" and action["seat"] != 0:
                assert set(action["give"]) <= {"0"}  # what came to her, no other pass
        assert review["review"]["decisions"] == stored.review["decisions"]
        # The review she opens: her own cards and the table's, nothing hidden.
        summary = next(m for m in emu.channel_messages(table.channel_id)
                       if component(m, "review") is not None)
        opened = await reply_to(await emu.click(alice, summary, component(
            summary, "review", arg="0").custom_id))
        words = " ".join([opened.content, *(a.description or "" for a in opened.attachments)])
        assert not cards_named(words) & hidden

        # Over (the host abandons it): the whole review, as today.
        await run(world, alice, "tichu abandon", table.channel_id)
        assert table.status is TableStatus.ABANDONED
        after = await run(world, alice, "privacy export")
        document = json.loads(after.attachment(f"tichu-data-{alice.id}.json").data)
        [review] = document["reviews"]
        assert review["review"]["replay"] == stored.review["replay"]
        assert hidden <= cards_in(document)
    emu.assert_clean()
