"""Drive the real bot through the local Discord as people would: clicks and menus only.

The tests peek at the bot's tables only to know *when* a person would act
(their ping); every action goes through Discord components.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import TichuBot
from bot.config import Settings
from bot.games.registry import all_specs
from bot.i18n import t
from bot.store import open_repository
from bot.store.models import ActionRecord, TableStatus
from bot.tables import SeatKind, Table
from bot.tables.computer import computer_move
from bot.tables.table import phase_of
from tests.emulator.fixtures import TIME_SCALE
from tests.emulator.runner import run_bot
from tests.emulator.server import DiscordEmulator

WRITES_PER_SECOND = Settings.model_fields["rest_writes_per_second"].default / TIME_SCALE
"""The bot's pace for its own writes, on the emulator's clock: its rate-limit windows are
:data:`TIME_SCALE` times as long as Discord's, so the pace is that much quicker (at
Discord's 30 a second, the writes of one six-person deal waited ten seconds)."""


def make_bot(db: Path, **settings: Any) -> TichuBot:
    values: dict[str, Any] = {"ai_delay": 0.0, "worker_processes": 0,
                              "table_edit_interval": 0.0,
                              "rest_writes_per_second": WRITES_PER_SECOND, **settings}
    config = Settings(_env_file=None, database=str(db), **values)  # type: ignore[call-arg]
    return TichuBot(config, guild_ready_timeout=0.05)


@asynccontextmanager
async def running(emu: DiscordEmulator, db: Path, **settings: Any) -> AsyncIterator[TichuBot]:
    bot = make_bot(db, **settings)
    async with run_bot(emu, bot):
        await bot.restored.wait()
        yield bot


def component(message: Any, action: str, kind: str = "b", arg: str | None = None) -> Any | None:
    """The button (``b``) or select (``s``) of ``message`` whose custom ID has ``action``
    (and ``arg``, if given)."""
    tail = "(:.*)?" if arg is None else ":" + re.escape(arg)
    pattern = re.compile(rf"tichu:{kind}:\d+:[-\d]+:{action}{tail}$")
    items = message.buttons if kind == "b" else message.selects
    for item in items:
        if pattern.match(item.custom_id):
            return item
    return None


ACTIONS = ("nogrand", "ex", "exok", "gift", "play", "pass", "kind", "wish", "phx", "back")


WAITING = tuple(t(lang, key) for lang in ("en", "fr")
                for key in ("hand.waiting", "hand.waiting_bomb", "hand.waiting_grand",
                            "hand.waiting_exchange"))


def actionable(panel: Any) -> bool:
    """Whether a hand panel offers the seat's decision (not only Refresh, Tichu, or a
    bomb while someone else is on turn)."""
    waiting = panel.content.startswith(WAITING)
    return not waiting and any(component(panel, a, k) is not None for a in ACTIONS for k in "bs")


@dataclass
class Person:
    """A person at the table who keeps their hand panel open and acts from it, as it
    stands (the bot keeps it up to date); "My hand" only when they have no panel."""

    emu: DiscordEmulator
    user: Any
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    panel: Any = None
    opened: int = 0
    """How many hand messages this person opened."""
    refusals: list[str] = field(default_factory=list)
    """Every refusal the bot answered this person with."""
    calls: bool = False
    """Whether this person calls Tichu and bombs out of turn now and then (racing the
    others' plays)."""
    actions: int = 0
    """Actions of this person the bot acknowledged (its panel redrawn, no refusal)."""
    raced: int = 0
    """Calls and bombs made out of turn."""
    called: int = 0
    """Tichu calls confirmed out of turn (and accepted)."""
    bombed: int = 0
    """Bombs dropped out of turn (and accepted)."""

    async def open_hand(self, table_message: Any) -> Any:
        button = component(table_message, "hand")
        assert button is not None, "the table message has no My hand button"
        reply = await self.emu.click(self.user, table_message, button.custom_id)
        self.panel = await reply.response()
        self.opened += 1
        return self.panel

    async def act(self, table_message: Any) -> None:
        """Make one decision from the open panel (opening one first if needed)."""
        if self.panel is None or self.panel.deleted:
            await self.open_hand(table_message)
        panel = self.panel
        # A person acts when their panel shows them something to do; the bot redraws it.
        await self.emu.wait_for(lambda: actionable(panel), 10.0, what="a decision on the panel")
        await self.decide(panel)

    async def _do(self, reply: Any, hand: Any, action: bool) -> bool:
        """Wait for the bot's answer to a click: the panel redrawn, or a refusal (a new
        ephemeral message), which is noted. Whether it was accepted."""
        answer = await reply.response()
        if answer.id != hand.id:
            self.refusals.append(answer.content)
            return False
        self.actions += action
        return True

    async def click(self, hand: Any, custom_id: str, *, action: bool = False) -> bool:
        return await self._do(await self.emu.click(self.user, hand, custom_id), hand, action)

    async def select(self, hand: Any, custom_id: str, values: list[str], *,
                     action: bool = False) -> bool:
        return await self._do(await self.emu.select(self.user, hand, custom_id, values), hand,
                              action)

    async def out_of_turn(self) -> None:
        """Maybe call Tichu (confirmed) or drop a bomb, whoever's turn it is."""
        panel = self.panel
        if not self.calls or panel is None:
            return
        if (ask := component(panel, "ask", arg="tichu")) is not None and self.rng.random() < 0.1:
            self.raced += 1
            await self.click(panel, ask.custom_id)
            if (confirm := component(panel, "tichu")) is not None:
                self.called += await self.click(panel, confirm.custom_id, action=True)
        elif (bombs := component(panel, "play", "s")) is not None:  # off turn: bombs only
            self.raced += 1
            self.bombed += await self.select(panel, bombs.custom_id, [bombs.options[0].value],
                                             action=True)

    async def decide(self, hand: Any) -> None:
        if (b := component(hand, "nogrand")) is not None:
            await self.click(hand, b.custom_id, action=True)
            return
        if component(hand, "ex", "s") is not None:
            used: set[str] = set()
            for slot in range(3):
                select = component(hand, "ex", "s", arg=str(slot))
                value = next(o.value for o in select.options if o.value not in used)
                used.add(value)
                await self.select(hand, select.custom_id, [value])
            ok = component(hand, "exok")
            assert ok is not None and not ok.disabled
            await self.click(hand, ok.custom_id, action=True)
            return
        if (b := component(hand, "gift")) is not None:
            await self.click(hand, b.custom_id, action=True)
            return
        kinds = component(hand, "kind", "s")
        if kinds is not None and self.rng.random() < 0.5:
            choice = self.rng.choice(kinds.options)
            await self.select(hand, kinds.custom_id, [choice.value])
        play = component(hand, "play", "s")
        passing = component(hand, "pass")
        if passing is not None and (play is None or self.rng.random() < 0.3):
            await self.click(hand, passing.custom_id, action=True)
            return
        assert play is not None, f"no control to act with: {hand.content!r}"
        option = self.rng.choice(play.options)
        needs_step = bool({"52", "54"} & set(option.value.split(".")))
        if not await self.select(hand, play.custom_id, [option.value], action=not needs_step):
            return
        if (wish := component(hand, "wish", "s")) is not None:
            choice = self.rng.choice(wish.options)
            await self.select(hand, wish.custom_id, [choice.value], action=True)
        elif (phx := component(hand, "phx", "s")) is not None:
            await self.select(hand, phx.custom_id, [phx.options[0].value], action=True)
        elif needs_step:
            self.actions += 1  # a Phoenix play with one reading needs no second step


async def settle(bot: TichuBot, table: Table, *, timeout: float = 30.0) -> tuple[int, ...]:
    """Wait until a person must act or the game is over; return the people's seats due.
    Any game: the seats due are the game's own (``due_seats`` of its spec)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        game = table.game
        if table.game_over and not table.lock.locked():
            # The last move is stored and the game recorded (under the lock), and its
            # presentation was scheduled as the lock was released: let it start.
            await asyncio.sleep(0)
            await bot.presenter.idle.wait()
            return ()
        if game is not None and not table.lock.locked() \
                and table.status is TableStatus.PLAYING:
            due = tuple(s for s in table.spec.due_seats(game)
                        if table.kind(s) is SeatKind.HUMAN)
            if due and bot.presenter.idle.is_set():
                return due
        await asyncio.sleep(0.005)
    raise TimeoutError("the table did not settle")


def table_message(emu: DiscordEmulator, table: Table) -> Any:
    """The table's public message as the emulator holds it now."""
    assert table.record.message_id is not None
    message = emu.messages[table.record.message_id]
    assert not message.deleted and not message.ephemeral
    return message


async def play_outside_discord(db: Path, table_id: int, until: Callable[[Any], bool], *,
                               store: bool = True) -> Any:
    """With the bot stopped, play its table on in the database until ``until(game)``; the
    game as it is then.

    Each seat due moves as a computer player would (a computer seat at its level, a
    person's seat as a normal one; seeded, as the bot seeds its players), and each action
    is checked by the engine and stored as the bot stores it; a new bot restores the table
    from there. For the middle of long games, whose every deal through Discord would
    check nothing new. With ``store=False`` nothing is written: a look ahead.
    """
    repo = open_repository(str(db))
    await repo.open()
    try:
        record = await repo.load_table(table_id)
        assert record is not None
        spec = all_specs()[record.game]
        table = Table.rebuild(record, spec)
        game = table.game
        while not until(game):
            assert phase_of(game) != "game_over", "the game ended before it got there"
            for seat in spec.due_seats(game):
                level = table.seats[seat].bot_level or "normal"
                action = computer_move(spec.name, level, game.view(seat),
                                       f"{record.seed}:outside:{table.seq}")
                if action is not None:
                    break
            else:
                raise AssertionError("nobody due has a move")
            game.check(action)
            by = "human" if table.kind(seat) is SeatKind.HUMAN else "ai"
            table.seq += 1
            if store:
                await repo.append_action(table_id, ActionRecord(
                    seq=table.seq, payload={**spec.action_to_json(action), "by": by}))
            game.apply(action)
            if phase_of(game) == "deal_over":
                game.next_deal()
        return game
    finally:
        await repo.close()
