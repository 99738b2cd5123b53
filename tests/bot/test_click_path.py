"""The one path of a click, for every game: staleness is decided in one place, the table
service, before the game reads the click; the engine alone judges legality.

A control drawn before the seat's last move — a second panel, a double click — is
refused with the stale sentence in the clicker's language, whatever values it carries,
and nothing is stored; the same unreadable values on a current control are the game's
to refuse (``forged``)."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.games.base import HandMessage
from bot.games.registry import all_specs
from bot.i18n import t
from bot.store import SQLiteRepository
from bot.tables import Table, TableError, TableService, ids
from bot.tables.computer import computer_move
from tests.bot.conftest import World
from tests.bot.driver import component, running, settle, table_message

GAMES = ("tichu", "chinois", "tysiacha")
HOST = 11
ROOT = Path(__file__).resolve().parents[2]
MOVE_CONTROLS = (("s", "play"), ("s", "bid"), ("s", "bids"), ("b", "pass"), ("b", "gift"),
                 ("b", "bid"), ("b", "redeal"))
"""Controls of a move, in the order a test picks one (each carries the seat's move count):
selects first, whose values a modified client may change."""
ASKS_MORE = {"52", "54"}
"""Tichu plays that ask a second question (the Mahjong's wish, the Phoenix's reading)."""

Control = tuple[str, str, list[str]]
"""A control to use: its kind (``b`` or ``s``), its custom ID, the values to choose."""


def move_control(message: HandMessage) -> Control | None:
    """A control of ``message`` that makes a move at once, with the values to choose."""
    found: dict[tuple[str, str], Control] = {}
    for child in message.view.children:
        custom_id = getattr(child, "custom_id_text", None)
        cid = ids.parse(custom_id or "")
        item = getattr(child, "item", None)
        if cid is None or cid.seq is None or item is None or getattr(item, "disabled", False):
            continue
        values: list[str] = []
        if cid.kind == "s":
            plain = [o.value for o in item.options if not ASKS_MORE & set(o.value.split("."))]
            if not plain:
                continue
            values = [plain[0]]
        found.setdefault((cid.kind, cid.action), (cid.kind, str(cid), values))
    return next((found[key] for key in MOVE_CONTROLS if key in found), None)


async def until_a_move_control(service: TableService, table: Table, user_id: int,
                               wait: Callable[[], Awaitable[None]]) -> Control:
    """Seat 0 due with a control of a move on its panel. Its other decisions (Tichu's
    Grand Tichu and exchange, which carry no move count) are made for it as a computer
    player would, through the table service."""
    spec: Any = table.spec
    for turn in range(40):
        await wait()
        chosen = move_control(await spec.hand_message(table, 0, "en"))
        if chosen is not None:
            return chosen
        action = computer_move(spec.name, "easy", table.game.view(0), f"test:{turn}")
        assert action is not None
        await service.clicks.act(table.id, user_id, None, lambda seat, a=action: a)
    raise AssertionError("seat 0 was never offered a move")


# ------------------------------------------------------------- the service alone
@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await repo.open()
    svc = TableService(repo, all_specs(), ai_delay=0.0)
    yield svc
    await svc.close()
    await repo.close()


@pytest.mark.parametrize("game", GAMES)
async def test_a_stale_click_is_refused_before_the_game_reads_it(service: TableService,
                                                                 game: str) -> None:
    table = await service.lobby.open_lobby(game=game, guild_id=1, channel_id=2, host_id=HOST,
                                           host_name="host", locale="en", options={"turn_timer": 0})
    for seat in range(1, table.n_seats):
        await service.lobby.set_computer(table.id, HOST, seat, "easy")
    await service.lobby.start(table.id, HOST)

    async def due() -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while table.lock.locked() or 0 not in table.spec.due_seats(table.game):
            assert loop.time() < end, "seat 0 never became due"
            await asyncio.sleep(0.005)

    _, custom_id, values = await until_a_move_control(service, table, HOST, due)
    cid = ids.parse(custom_id)
    assert cid is not None and cid.seq == table.moves[0]
    click = ids.Click(cid, tuple(values))
    _, seat, _ = await service.clicks.click(table.id, HOST, click)
    assert seat == 0 and table.moves[0] == cid.seq + 1
    mine = await moves_stored(service, table)
    for old in (click, ids.Click(ids.ComponentId("s", table.id, cid.seq, "play"), ("junk",))):
        with pytest.raises(TableError, match=r"^stale$"):
            await service.clicks.click(table.id, HOST, old)
    current = ids.ComponentId("s", table.id, table.moves[0], "play")
    with pytest.raises(TableError, match=r"^forged$"):  # the game's reading refuses it
        await service.clicks.click(table.id, HOST, ids.Click(current, ("junk",)))
    assert table.moves[0] == cid.seq + 1 and await moves_stored(service, table) == mine


async def moves_stored(service: TableService, table: Table) -> int:
    """How many of seat 0's actions the store holds."""
    record = await service.repo.load_table(table.id)
    assert record is not None
    return sum(a.payload.get("seat") == 0 for a in record.actions)


# ------------------------------------------------------------ through Discord
@pytest.mark.parametrize("game", GAMES)
async def test_an_old_control_is_stale_in_every_game(world: World, tmp_path: Path,
                                                     game: str) -> None:
    emu = world.emu
    bob = world.users[1]  # French: the refusal comes in his language
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands([game])
        lobby = await (await emu.slash(bob, world.channel, f"{game} new",
                                       turn_timer=0)).response()
        table = max(bot.service.core.tables.values(), key=lambda t: t.id)
        for seat in range(1, table.n_seats):
            cpu = component(lobby, "cpu", "s")
            await (await emu.select(bob, lobby, cpu.custom_id, [f"{seat}.easy"])).response()
        await (await emu.click(bob, lobby, component(lobby, "start").custom_id)).response()

        async def due() -> None:
            assert await settle(bot, table) == (0,)

        kind, custom_id, values = await until_a_move_control(bot.service, table, bob.id, due)
        message = table_message(emu, table)
        hand = component(message, "hand").custom_id
        first = await (await emu.click(bob, message, hand)).response()
        second = await (await emu.click(bob, message, hand)).response()
        moves = table.moves[0]

        async def use(panel: Any) -> Any:
            if kind == "b":
                return await (await emu.click(bob, panel, custom_id)).response()
            return await (await emu.select(bob, panel, custom_id, values)).response()

        await use(second)
        assert table.moves[0] == moves + 1
        mine = sum(a.payload.get("seat") == 0 for a in table.record.actions)
        stale = t("fr", "error.stale")
        answer = await use(first)  # the control from before the move
        assert answer.ephemeral and answer.content == stale
        if kind == "s":  # a modified client: the old menu, with values it never offered
            junk = await (await emu.forged_click(bob, first, custom_id,
                                                 values=["junk"])).response()
            assert junk.ephemeral and junk.content == stale
        assert table.moves[0] == moves + 1
        assert sum(a.payload.get("seat") == 0 for a in table.record.actions) == mine
    emu.assert_clean()


# ------------------------------------------------------------------ the source
def test_only_the_table_service_decides_staleness() -> None:
    """The refusal ``stale`` is raised in one module, and ``stale()`` is called once."""
    raised: list[str] = []
    calls: list[str] = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == "stale":
                raised.append(where)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "stale":
                calls.append(where)
    assert raised == ["bot/tables/clicks.py"]
    assert calls == ["bot/tables/clicks.py"]
