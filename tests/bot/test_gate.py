"""One person's pace: a flood of commands and clicks gets one polite refusal and costs no
work (no store call, no image), while everyone else plays on."""

from __future__ import annotations

from pathlib import Path

from prometheus_client import REGISTRY

from bot.app import TichuBot
from bot.config import Settings
from bot.games.tichu.commands import MAX_BOARDS
from bot.i18n import t
from bot.store import SQLiteRepository
from bot.views.gate import Buckets, Verdict
from tests.bot.conftest import World
from tests.bot.driver import WRITES_PER_SECOND, component
from tests.bot.flaky_store import FlakyStore
from tests.bot.store_rows import row_counts
from tests.emulator.runner import run_bot

BURST = 3
SLOW = 0.0001
"""Tokens a second in the test of a flood: none comes back while it runs, whatever the
machine's speed (the pace's return is tested on a clock of its own)."""


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_tells_once_per_flood() -> None:
    clock = Clock()
    buckets = Buckets(rate=2.0, burst=BURST, clock=clock)
    assert [buckets.take(1) for _ in range(BURST)] == [Verdict.ADMIT] * BURST
    assert buckets.take(1) is Verdict.TELL
    assert buckets.take(1) is Verdict.QUIET
    assert buckets.take(2) is Verdict.ADMIT  # another person has their own pace
    clock.now += 0.5  # one token back: one more goes through, the flood is still on
    assert buckets.take(1) is Verdict.ADMIT
    assert buckets.take(1) is Verdict.QUIET
    clock.now += BURST / 2.0  # quiet long enough to fill the bucket: the flood is over
    assert [buckets.take(1) for _ in range(BURST)] == [Verdict.ADMIT] * BURST
    assert buckets.take(1) is Verdict.TELL
    clock.now += 10
    assert buckets.prune() == 2 and len(buckets) == 0  # idle people are forgotten


def test_a_rate_of_zero_is_no_limit() -> None:
    buckets = Buckets(rate=0, burst=1)
    assert all(buckets.take(1) is Verdict.ADMIT for _ in range(1000))


def throttled(answer: str) -> float:
    return REGISTRY.get_sample_value("tichu_interactions_throttled_total",
                                     {"answer": answer}) or 0.0


async def test_a_flood_gets_one_refusal_and_costs_no_work(world: World, tmp_path: Path) -> None:
    emu = world.emu
    alice, bob = world.users[0], world.users[1]
    db = tmp_path / "db.sqlite3"
    store = FlakyStore(SQLiteRepository(str(db)))
    config = Settings(  # type: ignore[call-arg]
        _env_file=None, database=str(db), ai_delay=0.0, worker_processes=0,
        field_processes=0, table_edit_interval=0.0, rest_writes_per_second=WRITES_PER_SECOND,
        interaction_rate=SLOW, interaction_burst=BURST, watch_interval=3600,
        sweep_interval=3600)
    bot = TichuBot(config, repo=store, guild_ready_timeout=0.05)  # type: ignore[arg-type]
    async with run_bot(emu, bot):
        await bot.restored.wait()
        await emu.wait_for_commands(["tichu"])
        lobby = await (await emu.slash(bob, world.channel, "tichu new")).response()
        for _ in range(BURST):  # within her pace: answered as always
            rules = await (await emu.slash(alice, world.channel, "tichu rules")).response()
            assert rules.content == t("en", "rules.tichu")
        await bot.presenter.idle.wait()
        calls, rows = dict(store.calls), row_counts(db)
        images = emu.display_report()["images_sent"]
        told, quiet = throttled("tell"), throttled("quiet")

        # The flood: commands that would open tables and queue fields, and clicks.
        first = await emu.slash(alice, world.channel, "tichu new", duplicate=MAX_BOARDS)
        answer = await first.response()
        assert answer.ephemeral and answer.content == t("en", "error.too_fast")
        join = component(lobby, "join", arg="2").custom_id
        clicks = [await emu.click(alice, lobby, join) for _ in range(5)]
        clicks.append(await emu.forged_click(alice, lobby, "tichu:b:1:-:join:3"))
        assert [await click.ack() for click in clicks] == [6] * len(clicks)  # acknowledged
        assert all(not click.record.followup_ids for click in clicks)  # nothing said again
        again = await (await emu.slash(alice, world.channel, "tichu new")).response()
        assert again.ephemeral and again.content == t("en", "error.too_fast")

        # No store call, no row, no job, no image; the lobby as it was.
        assert store.calls == calls
        assert row_counts(db) == rows
        assert bot.jobs is not None and await bot.jobs.depth("field") == 0
        assert emu.display_report()["images_sent"] == images
        table = next(iter(bot.service.core.tables.values()))
        assert table.seat_of(alice.id) is None
        assert throttled("tell") == told + 1
        assert throttled("quiet") == quiet + len(clicks) + 1

        # Bob, at his own pace, plays on meanwhile.
        joined = await (await emu.click(bob, lobby, join)).response()
        assert not joined.ephemeral and table.seat_of(bob.id) == 2
    emu.assert_clean()
