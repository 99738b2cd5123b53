"""Several bot processes on one PostgreSQL, one gateway shard each, against the local
Discord: each drives only its shard's tables; one killed with SIGKILL leaves the
other's tables playing, and started again resumes its own from the database; a
second process for a shard already run never acts."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store.postgres import SHARD_LOCK_CLASS
from bot.tables import ids
from tests.bot.conftest import World, seat_and_start
from tests.bot.driver import Person, component
from tests.bot.processes import BotProcess, bot_environment, table_message
from tests.emulator.server import DiscordEmulator

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]
SHARDS = 2


def shard_world(emu: DiscordEmulator, shard: int) -> World:
    """A guild on ``shard`` with a channel and one person."""
    guild = emu.add_guild(f"Shard {shard}", shard=shard)
    assert emu.shard_of(guild) == shard
    channel = emu.add_text_channel(guild, "tichu")
    person = emu.add_user(f"player{shard}")
    stranger = emu.add_user(f"eve{shard}")
    for user in (person, stranger):
        emu.add_member(guild, user)
    return World(emu, guild, channel, [person], stranger)


async def start_table(world: World) -> tuple[int, Any]:
    """``/tichu new`` by the world's person, three easy computers, start: the table's id
    and its message."""
    emu = world.emu
    lobby = await (await emu.slash(world.users[0], world.channel, "tichu new",
                                   target=1000)).response()
    parsed = ids.parse(component(lobby, "start").custom_id)
    assert parsed is not None
    await seat_and_start(world, lobby, [0], {1: "easy", 2: "easy", 3: "easy"})
    message = await emu.wait_for(lambda: table_message(emu, parsed.table),
                                 what=f"table {parsed.table}'s message")
    return parsed.table, message


async def actions(db: asyncpg.Connection, table_id: int) -> int:
    count = await db.fetchval("SELECT count(*) FROM actions WHERE table_id = $1", table_id)
    assert isinstance(count, int)
    return count


async def wait_released(db: asyncpg.Connection, shard: int) -> None:
    """Block until no session holds the shard's lock (the killed process's session is
    gone, and with it any write it had under way), then let it go again."""
    await db.execute("SET lock_timeout = '20s'")
    await db.execute("SELECT pg_advisory_lock($1, $2)", SHARD_LOCK_CLASS, shard)
    await db.execute("SELECT pg_advisory_unlock($1, $2)", SHARD_LOCK_CLASS, shard)


@asynccontextmanager
async def processes(emu: DiscordEmulator, database: str, cwd: Path) -> AsyncIterator[
        Callable[..., Awaitable[BotProcess]]]:
    """``await launch(name, shard_ids=..., ...)`` starts a bot process; every process is
    stopped afterwards."""
    started: list[BotProcess] = []

    async def launch(name: str, **settings: Any) -> BotProcess:
        env = bot_environment(emu, database, shard_count=SHARDS, **settings)
        process = await BotProcess(name, env, cwd).start()
        started.append(process)
        return process

    try:
        yield launch
    except BaseException:
        for process in started:
            print(process.log())  # shown by pytest with the failure
        raise
    finally:
        for process in started:
            await process.stop()


async def test_each_process_drives_its_shard_and_survives_the_other(
        emulator_factory: EmulatorFactory, pg_url: str, tmp_path: Path) -> None:
    emu = await emulator_factory(shard_count=SHARDS)
    worlds = [shard_world(emu, shard) for shard in range(SHARDS)]
    people = [Person(emu, world.users[0], random.Random(shard))
              for shard, world in enumerate(worlds)]
    db = await asyncpg.connect(pg_url)
    try:
        async with processes(emu, pg_url, tmp_path) as launch:
            bots = [await launch(f"shard{shard}", shard_ids=shard) for shard in range(SHARDS)]
            for shard, process in enumerate(bots):
                await process.wait_line(f"holding shard(s) [{shard}] of 2")
                await process.wait_line(f"restored 0 active tables of shards [{shard}]")
            await emu.wait_for(lambda: emu.is_ready(0) and emu.is_ready(1), what="both shards")
            await emu.wait_for_commands(["tichu"])
            tables = [await start_table(world) for world in worlds]
            for person, (_, message) in zip(people, tables, strict=True):
                for _ in range(3):
                    await person.act(message)
            (a, a_message), (b, b_message) = tables
            assert await actions(db, a) > 3 and await actions(db, b) > 3

            # Shard 1's process dies at once; shard 0's table plays on meanwhile.
            await bots[1].kill()
            await wait_released(db, 1)
            frozen = await actions(db, b)
            await emu.wait_for(lambda: not emu.is_ready(1), what="shard 1 gone")
            before = await actions(db, a)
            for _ in range(4):
                await people[0].act(a_message)  # the person acts and is answered
            assert await actions(db, a) > before + 4  # the computers played too
            with pytest.raises(RuntimeError, match="no bot shard"):
                await emu.click(worlds[1].users[0], b_message,
                                component(b_message, "hand").custom_id)
            assert await actions(db, b) == frozen  # nobody drives shard 1's table

            # Started again, it takes its shard back and resumes its table only.
            bots.append(await launch("shard1-again", shard_ids=1))
            await bots[2].wait_line("restored 1 active tables of shards [1]")
            await emu.wait_for(lambda: emu.is_ready(1), what="shard 1 back")
            people[1].panel = None  # the old table message's "My hand" opens a new one
            for _ in range(3):
                await people[1].act(b_message)
            assert await actions(db, b) > frozen + 3
            await people[0].act(a_message)  # and shard 0's table never paused
            assert await actions(db, a) > before + 5
        # Both stopped cleanly (Ctrl-C), and nothing failed in any of the three.
        assert bots[0].proc.returncode == 0 and bots[2].proc.returncode == 0, (
            bots[0].log() + bots[2].log())
        for process in bots:
            assert not any("Traceback" in line or " ERROR " in line for line in process.lines), \
                process.log()
    finally:
        await db.close()
    emu.assert_clean()


async def test_a_second_process_for_a_running_shard_never_acts(
        emulator_factory: EmulatorFactory, pg_url: str, tmp_path: Path) -> None:
    emu = await emulator_factory(shard_count=SHARDS)
    world = shard_world(emu, 1)
    async with processes(emu, pg_url, tmp_path) as launch:
        first = await launch("first", shard_ids=1)
        await first.wait_line("restored 0 active tables")
        await emu.wait_until_ready(shard=1)
        await emu.wait_for_commands(["tichu"])
        table, message = await start_table(world)
        identifies = emu.gateway.identifies

        # With SHARD_LOCK_WAIT=0 a second process for shard 1 stops at once, saying why.
        quitter = await launch("quitter", shard_ids=1, shard_lock_wait=0)
        assert await quitter.exited() == 3
        refusal = await quitter.wait_line("Not started")
        assert "another bot process on this database runs shard(s) [1] of 2" in refusal
        # By default it waits, saying so, without restoring or connecting anything.
        waiter = await launch("waiter", shard_ids="[1]")
        await waiter.wait_line("shard(s) [1] are held by another bot process")
        assert emu.gateway.identifies == identifies
        assert not any("restored" in line for line in (*quitter.lines, *waiter.lines))

        # When the first one dies, the waiting one takes the shard and its table over.
        await first.kill()
        await waiter.wait_line("restored 1 active tables of shards [1]")
        await emu.wait_until_ready(shard=1)
        person = Person(emu, world.users[0], random.Random(3))
        await person.act(message)
        assert person.actions == 1 and not person.refusals
        assert component(emu.messages[message.id], "hand") is not None
        assert table == ids.parse(component(message, "hand").custom_id).table
    emu.assert_clean()
