"""The Prometheus figures of a bot process (issue 40): its clicks and their time to an
answer, its live tables, the shards it holds, the store's errors and the job queue."""

from __future__ import annotations

import random
from pathlib import Path

from prometheus_client import REGISTRY

from bot import metrics
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, running, settle


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_bot_counts_its_clicks_tables_shards_and_queue(world: World,
                                                               tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3", field_tables=1) as bot:
        clicks = sample("tichu_clicks_total")
        timed = sample("tichu_click_response_seconds_count")
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, None, None, None],
                             {1: "easy", 2: "easy", 3: "easy"})
        person = Person(emu, world.users[0], random.Random(1), table=table)
        if await settle(bot, table):
            await person.act()
        assert sample("tichu_clicks_total") > clicks
        assert sample("tichu_click_response_seconds_count") - timed \
            == sample("tichu_clicks_total") - clicks
        await bot._measure()
        assert sample("tichu_live_tables") >= 1
        assert sample("tichu_shard_owned", shard="0") == 1
        assert sample("tichu_database_down") == 0
        assert sample("tichu_jobs_queued", kind="review") == 0
    errors = sample("tichu_store_errors_total", code="unavailable")
    metrics.store_error("unavailable")
    assert sample("tichu_store_errors_total", code="unavailable") == errors + 1
    emu.assert_clean()
