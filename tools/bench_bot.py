"""Many tables at once through the local Discord: response latency and memory per table.

``N`` tables (50 by default) each seat one person, driven through Discord
components like the tests do, and three computer players. Everything runs in
one process and one event loop: the emulator, the bot and the people, so the
figures include the emulator's own work. Run: ``python -m tools.bench_bot``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import time
from pathlib import Path

from bot.app import TichuBot
from bot.config import Settings
from bot.tables import Table
from tests.bot.driver import Person, component, settle, table_message
from tests.emulator.runner import run_bot
from tests.emulator.server import DiscordEmulator


def rss_mb() -> float:
    """Resident memory of this process in MiB (Linux)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def one_table(emu: DiscordEmulator, bot: TichuBot, channel: object, user: object,
                    actions: int, seed: int) -> Table:
    lobby = await (await emu.slash(user, channel, "tichu new", target=1000)).response()
    for seat, level in ((1, "normal"), (2, "easy"), (3, "normal")):
        cpu = component(lobby, "cpu", "s")
        await (await emu.select(user, lobby, cpu.custom_id, [f"{seat}.{level}"])).response()
    await (await emu.click(user, lobby, component(lobby, "start").custom_id)).response()
    table = next(t for t in bot.service.tables.values() if t.record.channel_id == channel.id)  # type: ignore[attr-defined]
    person = Person(emu, user, random.Random(seed))
    while table.seq < actions and table.game is not None and table.status.is_active:
        await settle(bot, table, timeout=120)
        await person.act(table_message(emu, table))
    return table


async def bench(n: int, actions: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database=str(Path(tmp) / "bench.sqlite3"),  # type: ignore[call-arg]
                            ai_delay=0.0)
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Bench")
            channels, users = [], []
            for i in range(n):
                channels.append(emu.add_text_channel(guild, f"t{i}"))
                users.append(emu.add_user(f"p{i}"))
                emu.add_member(guild, users[-1])
            bot = TichuBot(settings, guild_ready_timeout=0.05)
            async with run_bot(emu, bot):
                await emu.wait_for_commands(["tichu"])
                gc.collect()
                before = rss_mb()
                start = time.perf_counter()
                tables = await asyncio.gather(*(
                    one_table(emu, bot, channels[i], users[i], actions, i) for i in range(n)))
                elapsed = time.perf_counter() - start
                await bot.presenter.idle.wait()
                gc.collect()
                after = rss_mb()
                stats = emu.latency_stats()
                total = sum(t.seq for t in tables)
                print(f"{n} concurrent tables, {total} game actions in {elapsed:.1f} s "
                      f"({total / elapsed:.0f} actions/s)")
                print(f"interaction → first response: p50 {stats['p50_ms']:.1f} ms, "
                      f"p99 {stats['p99_ms']:.1f} ms, max {stats['max_ms']:.1f} ms "
                      f"over {stats['count']} interactions")
                print(f"memory: {(after - before) / n * 1024:.0f} KiB per table "
                      f"(RSS {before:.0f} → {after:.0f} MiB)")
            assert not emu.violations, emu.violations


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_bot")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=120,
                        help="play each table until it has this many actions")
    args, _ = parser.parse_known_args()
    asyncio.run(bench(args.tables, args.actions))


if __name__ == "__main__":
    main()
