"""The board secret through the local Discord (issue 51, finding 1): the daily boards and
the computers' play on them follow from each deployment's secret, not from the date.
Two fresh deployments deal different boards on the same day; one deployment deals the
same boards to two servers; what anyone computes from the date alone (the boards, and
the computers' moves on a board played) is not what is dealt nor played; a damaged or
missing secret row is handled without a crash and never silently replaced; an operator's
``BOARD_SECRET`` deals the days not dealt yet; nothing exported or logged gives a board
away before it is played."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.games.tichu.boards import DECIDE_KEY
from bot.games.tichu.duplicate import daily_code, utc_today
from bot.games.tichu.secret import decision_key
from bot.i18n import t
from bot.store import SQLiteRepository
from bot.tables import Table
from engine.duplicate.boards import daily_boards, daily_seed
from engine.duplicate.play import decide
from tests.bot.conftest import World
from tests.bot.driver import Person, component, running
from tests.bot.test_daily import home, open_board, play_out, spoils

FRESH = {"daily_boards": 2, "field_tables": 0, "daily_level": "hard", "board_secret": None}
"""A deployment as it first starts: no ``BOARD_SECRET``, its own random secret."""
OPERATOR = "an operator's own board secret, 32 characters or more"


def hands(table: Table) -> list[list[int]]:
    return [[int(c) for c in hand] for hand in table.game.dealt]


async def board_one(world: World, bot: Any, user: Any, channel: Any = None) -> Table:
    """``user`` opens the day's first board from ``/tichu daily play``: its table."""
    _, table = await open_board(world, bot, user, await home(world, user, channel))
    return table


async def test_two_fresh_deployments_deal_different_boards_and_one_deals_the_same_to_all(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    others = emu.add_guild("Others", locale="fr")
    room = emu.add_text_channel(others, "cartes")
    frank = emu.add_user("frank", locale="fr")
    emu.add_member(others, frank)
    today = utc_today()
    # What anyone computes from the date and the public engine (the boards before issue 51).
    public = [[int(c) for c in hand] for hand in
              daily_boards(today, 2, seed=today.isoformat())[0].hands]
    deals = {}
    for name in ("first", "second"):
        async with running(emu, tmp_path / f"{name}.sqlite3", **FRESH) as bot:
            here = await board_one(world, bot, alice)
            there = await board_one(world, bot, frank, room)
            assert here.record.guild_id != there.record.guild_id
            # One deployment: every server gets the same boards that day.
            assert hands(here) == hands(there)
            stored = await bot.service.repo.board_secret()
            assert stored is not None and len(stored) == 64
            event = await bot.service.repo.get_event(daily_code(today))
            assert event is not None and event.seed == daily_seed(stored.encode(), today)
            deals[name] = hands(here), stored
    assert deals["first"][1] != deals["second"][1]
    assert deals["first"][0] != deals["second"][0]
    assert public not in (deals["first"][0], deals["second"][0])
    emu.assert_clean()


async def test_the_computers_moves_cannot_be_computed_without_the_secret(
        world: World, tmp_path: Path) -> None:
    """Alice plays a board to its end with hard computers. Each computer move is the
    engine's decision under the table's key; without the key, the engine's decisions on
    the same board and moves are not the ones played."""
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", **{**FRESH, "board_secret": OPERATOR}
                       ) as bot:
        panel, table = await open_board(world, bot, alice, await home(world, alice))
        await play_out(bot, Person(emu, alice, random.Random(5), panel=panel, table=table),
                       table)
        event = await bot.service.repo.get_event(daily_code(utc_today()))
        assert event is not None
        key = decision_key(event)
        assert table.record.options[DECIDE_KEY] == key != ""
        board = table.game.boards[0]
        actions = list(table.game.deal_log[0][1])
        moves = [(i, a) for i, a in enumerate(actions) if a.seat != 0]
        assert len(moves) > 20
        keyed = [decide(board, actions[:i], a.seat, "hard", key=key.encode()) for i, a in moves]
        assert keyed == [a for _, a in moves]
        public = [decide(board, actions[:i], a.seat, "hard") for i, a in moves]
        assert public != keyed
    emu.assert_clean()


@pytest.mark.parametrize("damage", ["'damaged-3f9a'", "x'00ff'"])
async def test_a_damaged_secret_refuses_new_boards_and_is_never_replaced(
        world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    emu = world.emu
    alice = world.users[0]
    db = tmp_path / "db.sqlite3"
    async with SQLiteRepository(db) as repo:
        await repo.make_board_secret("a" * 64)
    with closing(sqlite3.connect(db)) as file, file:
        file.execute(f"UPDATE board_secret SET secret = {damage}")
    caplog.set_level(logging.INFO)
    async with running(emu, db, **FRESH) as bot:
        repo = bot.service.repo
        day = await home(world, alice)  # the day's message still shows
        refused = await (await emu.click(alice, day, component(day, "dplay").custom_id)
                         ).response()
        assert refused.content == t("en", "error.board_secret")
        new = await (await emu.slash(alice, world.channel, "tichu new", duplicate=2)
                     ).response()
        assert new.content == t("en", "error.board_secret")
        # Nothing written: no table, no event, no job.
        assert not bot.service.core.tables
        assert await repo.get_event(daily_code(utc_today())) is None
        assert await bot.jobs.depth("field") == 0
    with closing(sqlite3.connect(db)) as file:
        row = file.execute("SELECT secret FROM board_secret").fetchall()
    assert row == [(b"\x00\xff",)] if damage.startswith("x") else [("damaged-3f9a",)]
    said = [r.getMessage() for r in caplog.records if "board secret" in r.getMessage()]
    assert said and all("damaged" not in line for line in said)
    assert sum("cannot be used" in line for line in said) == 1  # said once
    # The operator sets BOARD_SECRET: the boards are dealt from it; the row is kept.
    async with running(emu, db, **{**FRESH, "board_secret": OPERATOR}) as bot:
        table = await board_one(world, bot, alice)
        today = utc_today()
        expected = daily_boards(today, 2, seed=daily_seed(OPERATOR.encode(), today))[0]
        assert hands(table) == [[int(c) for c in h] for h in expected.hands]
    with closing(sqlite3.connect(db)) as file, file:
        assert len(file.execute("SELECT secret FROM board_secret").fetchall()) == 1
        file.execute("DELETE FROM board_secret")
    # The row deleted: a new random one is made at the next start.
    async with running(emu, db, **FRESH) as bot:
        made = await bot.service.repo.board_secret()
        assert made is not None and len(made) == 64 and made != "a" * 64
    emu.assert_clean()


async def test_an_operator_secret_deals_the_days_not_dealt_yet(world: World,
                                                                tmp_path: Path) -> None:
    emu = world.emu
    alice, bob = world.users[0], world.users[1]
    db = tmp_path / "db.sqlite3"
    today, tomorrow = utc_today(), utc_today() + timedelta(days=1)
    async with running(emu, db, **FRESH) as bot:
        first = hands(await board_one(world, bot, alice))
        stored = await bot.service.repo.board_secret()
    async with running(emu, db, **{**FRESH, "board_secret": OPERATOR}) as bot:
        # Today was dealt already: Bob gets what Alice got, whatever the setting says.
        assert hands(await board_one(world, bot, bob)) == first
        # The next day is dealt from the operator's secret; the stored one is kept.
        assert await bot.duplicate.day_boards(tomorrow) == daily_boards(
            tomorrow, 2, seed=daily_seed(OPERATOR.encode(), tomorrow))
        assert await bot.service.repo.board_secret() == stored
        assert stored is not None and (await bot.duplicate.day_boards(today))[0].hands != \
            daily_boards(today, 2, seed=daily_seed(OPERATOR.encode(), today))[0].hands
    emu.assert_clean()


async def test_nothing_exported_or_logged_gives_a_board_away(
        world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A daily board in play and an event opened: the person's export, the day's message
    and the bot's log hold no secret, no seed, no key and no card of the boards."""
    emu = world.emu
    alice = world.users[0]
    caplog.set_level(logging.DEBUG)
    async with running(emu, tmp_path / "db.sqlite3", **{**FRESH, "field_tables": 1}) as bot:
        repo = bot.service.repo
        table = await board_one(world, bot, alice)
        lobby = await (await emu.slash(alice, world.channel, "tichu new", duplicate=2)
                       ).response()
        assert lobby.components
        event_table = max(bot.service.core.tables.values(), key=lambda t: t.id)
        code = event_table.record.options["event"]
        await bot.jobs.idle()
        secrets_ = [await repo.board_secret()]
        for event_code in (code, daily_code(utc_today())):
            event = await repo.get_event(event_code)
            assert event is not None
            secrets_ += [event.seed, decision_key(event)]
        assert all(secrets_)
        export = await (await emu.slash(alice, world.channel, "privacy export")).response()
        text = export.attachment(f"tichu-data-{alice.id}.json").data.decode()
        document = json.loads(text)
        assert document["events_hosted"] and document["duplicate"]
        assert all(row["replay"] is None for row in document["duplicate"])
        assert all(secret not in text for secret in secrets_)
        day = await home(world, alice)
        assert not spoils(day.content)
        leaks = {(r.name, r.levelname) for r in caplog.records
                 if any(secret in r.getMessage() for secret in secrets_)}
        assert not leaks
        assert OPERATOR not in caplog.text and table.game.dealt
    emu.assert_clean()
