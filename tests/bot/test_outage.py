"""The bot through the local Discord while its database does not answer: a click gets
one sentence in the clicker's language (the table is reconnecting), nothing changes,
the heartbeat says the database is down, and once it answers the same click works and
the computers play on. A process that gives a shard up stops, with exit code 3."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import health
from bot.app import TichuBot
from bot.config import Settings
from bot.i18n import t
from bot.store import SQLiteRepository
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import WRITES_PER_SECOND, Person, component, settle, table_message
from tests.bot.flaky_store import FlakyStore
from tests.bot.processes import INTERACTION_RATE
from tests.emulator.runner import run_bot


def flaky_bot(store: FlakyStore, tmp_path: Path, **settings: object) -> TichuBot:
    config = Settings(  # type: ignore[call-arg]
        _env_file=None, database=str(tmp_path / "db.sqlite3"), ai_delay=0.0,
        worker_processes=0, table_edit_interval=0.0, rest_writes_per_second=WRITES_PER_SECOND,
        interaction_rate=INTERACTION_RATE, watch_interval=0.05, **settings)
    return TichuBot(config, repo=store, guild_ready_timeout=0.05)  # type: ignore[arg-type]


async def test_a_click_while_the_database_is_down_is_refused_in_the_clickers_language(
        world: World, tmp_path: Path) -> None:
    emu = world.emu
    store = FlakyStore(SQLiteRepository(str(tmp_path / "db.sqlite3")))
    beat = tmp_path / "heartbeat"
    bot = flaky_bot(store, tmp_path, heartbeat_file=str(beat))
    async with run_bot(emu, bot):
        await bot.restored.wait()
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, None, 1], {1: "easy", 3: "easy"})
        await settle(bot, table)
        alice, bob = (Person(emu, world.users[i], random.Random(i)) for i in (0, 1))
        message = table_message(emu, table)
        panels = [await alice.open_hand(message), await bob.open_hand(message)]
        seq = table.seq

        store.down = True
        await emu.wait_for(lambda: "database-down-since" in beat.read_text(), 5.0,
                           what="the heartbeat to say the database is down")
        assert health.check(beat, 60) is not None
        for person, panel, lang in ((alice, panels[0], "en"), (bob, panels[1], "fr")):
            button = component(panel, "nogrand")
            assert button is not None
            assert not await person.click(panel, button.custom_id, action=True)
            assert person.refusals == [t(lang, "error.store_unavailable")]
        assert table.seq == seq

        store.down = False
        await emu.wait_for(lambda: "database-down-since" not in beat.read_text(), 5.0,
                           what="the heartbeat to say the database answers")
        assert health.check(beat, 60) is None
        for person, panel in zip((alice, bob), panels, strict=True):
            button = component(panel, "nogrand")
            assert await person.click(panel, button.custom_id, action=True)
        await settle(bot, table)
        assert table.seq > seq + 2  # both decisions stored, and the computers went on
        human = [a.payload for a in (await store.inner.load_table(table.id)).actions  # type: ignore[union-attr]
                 if a.payload["by"] == "human"]
        assert sorted(p["seat"] for p in human) == [0, 2]
    await store.inner.close()
    emu.assert_clean()


async def test_a_process_that_gives_its_shard_up_stops_with_exit_code_3(
        world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = FlakyStore(SQLiteRepository(str(tmp_path / "db.sqlite3")))
    bot = flaky_bot(store, tmp_path)
    async with run_bot(world.emu, bot):
        await bot.restored.wait()
        assert bot.exit_code == 0 and bot.service.watch.watched == {0}
        store.held = set()  # the lock is lost, and another process holds it now
        store.free = False
        bot.service.watch.shard_lock_wait = 0
        await world.emu.wait_for(bot.is_closed, 5.0, what="the bot to stop")
        assert bot.exit_code == 3
    assert "stopping: shard(s) [0] are no longer this process's" in caplog.text
