"""Drive the real bot through the local Discord as people would: clicks and menus only.

One driver for the tests of every game: :class:`Person` opens their hand panel once
and acts from it as it stands, with their game's choices (:class:`TichuChoices`,
:class:`ChinoisChoices`, :class:`TysiachaChoices`); :func:`settle` says when.

The tests peek at the bot's tables only to know *when* a person would act
(their ping), and to check what the panels offer; every action goes through Discord
components.
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
from bot.games.base import spec_of
from bot.games.registry import all_specs
from bot.i18n import LANGUAGES, t
from bot.render import IMAGE_EXT, PANEL_EXT, filename
from bot.store import open_repository
from bot.store.models import ActionRecord, TableStatus
from bot.tables import SeatKind, Table
from bot.tables.computer import computer_move
from bot.tables.table import phase_of
from engine.chinois import legal as chinois_legal
from engine.chinois.view import Phase as ChinoisPhase
from engine.tysiacha import legal as tysiacha_legal
from engine.tysiacha.cards import TOTAL_POINTS, bid_limit
from engine.tysiacha.view import Phase as TysiachaPhase
from tests.bot.processes import INTERACTION_RATE
from tests.emulator.fixtures import TIME_SCALE
from tests.emulator.runner import run_bot
from tests.emulator.server import DiscordEmulator

WRITES_PER_SECOND = Settings.model_fields["rest_writes_per_second"].default / TIME_SCALE
"""The bot's pace for its own writes, on the emulator's clock: its rate-limit windows are
:data:`TIME_SCALE` times as long as Discord's, so the pace is that much quicker (at
Discord's 30 a second, the writes of one six-person deal waited ten seconds)."""


TEST_BOARD_SECRET = "the tests' board secret: seeds every daily deal"
"""``BOARD_SECRET`` of the bots the tests run, so every deal is seeded (a test of the
random secret a deployment makes passes ``board_secret=None``)."""



def hand_picture(message: Any) -> Any:
    """The picture of a hand panel: ``hand.webp`` in a thread, ``hand.jpg`` (a live panel's
    JPEG) at a table in DMs or played alone; raises LookupError."""
    for ext in (IMAGE_EXT, PANEL_EXT):
        try:
            return message.attachment(f"hand.{ext}")
        except LookupError:
            continue
    return message.attachment(filename("hand"))  # raises, naming what it has

def make_bot(db: Path, **settings: Any) -> TichuBot:
    values: dict[str, Any] = {"ai_delay": 0.0, "worker_processes": 0,
                              "table_edit_interval": 0.0, "board_secret": TEST_BOARD_SECRET,
                              "rest_writes_per_second": WRITES_PER_SECOND,
                              "interaction_rate": INTERACTION_RATE, **settings}
    config = Settings(_env_file=None, database=str(db), **values)
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


WAITING = tuple(t(lang, key) for lang in LANGUAGES
                for key in ("hand.waiting", "hand.waiting_bomb", "hand.waiting_grand",
                            "hand.waiting_exchange"))


def actionable(panel: Any) -> bool:
    """Whether a Tichu hand panel offers the seat's decision (not only Refresh, Tichu, or
    a bomb while someone else is on turn)."""
    waiting = panel.content.startswith(WAITING)
    return not waiting and any(component(panel, a, k) is not None for a in ACTIONS for k in "bs")


def values_of(select: Any) -> list[str]:
    """The values a select offers, in its order."""
    return [o.value for o in select.options]


def control_ids(message: Any) -> set[str]:
    """The custom IDs of every button and select of ``message``."""
    return {c.custom_id for c in (*message.buttons, *message.selects)}


async def new_table(emu: DiscordEmulator, bot: TichuBot, user: Any, channel: Any, game: str,
                    **options: Any) -> tuple[Any, Table]:
    """``/<game> new`` by ``user`` in ``channel``; the lobby message and the table."""
    await emu.wait_for_commands([game])
    lobby = await (await emu.slash(user, channel, f"{game} new", **options)).response()
    table = max(bot.service.core.tables.values(), key=lambda t: t.id)
    assert table.spec.name == game
    return lobby, table


async def open_hand(emu: DiscordEmulator, user: Any, message: Any) -> Any:
    """"My hand" on a table message: the hand panel it opens."""
    button = component(message, "hand")
    assert button is not None, "the table message has no My hand button"
    return await (await emu.click(user, message, button.custom_id)).response()


class Choices:
    """How the people of one game choose: when their panel offers them a decision, and
    which one they take from it as it stands (through :class:`Person`'s clicks)."""

    def ready(self, panel: Any) -> bool:
        """Whether ``panel`` offers the seat's decision (else the person waits)."""
        raise NotImplementedError

    async def decide(self, person: Person, panel: Any) -> None:
        """One decision from ``panel``."""
        raise NotImplementedError

    async def out_of_turn(self, person: Person, panel: Any) -> None:
        """Something done while others are on turn (nothing, unless the game has it)."""


@dataclass
class Person:
    """A person at a table, of any game, who keeps their hand panel open and acts from
    it as it stands (the bot keeps it up to date: no Refresh before a click); "My hand"
    only when they have no panel. What they choose is their game's :attr:`choices`
    (Tichu's unless said). A person who knows the :attr:`table` also checks, before each
    decision, that the panel is the one the bot would draw for the seat now."""

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
    choices: Choices = field(default_factory=lambda: TichuChoices())
    table: Table | None = None
    """The table, when the person's choices check the panel against the game."""

    @property
    def seat(self) -> int:
        assert self.table is not None, "a person who knows no table has no seat"
        seat = self.table.seat_of(self.user.id)
        assert seat is not None
        return seat

    async def open_hand(self, message: Any) -> Any:
        """"My hand" on the table message ``message``: the panel this person acts from."""
        self.panel = await open_hand(self.emu, self.user, message)
        self.opened += 1
        return self.panel

    async def act(self, message: Any = None) -> None:
        """Make one decision from the open panel (opening one first if needed, from
        ``message`` or the table's message now)."""
        if self.panel is None or self.panel.deleted:
            if message is None:
                assert self.table is not None
                message = table_message(self.emu, self.table)
            await self.open_hand(message)
        panel = self.panel
        # A person acts when their panel shows them something to do; the bot redraws it.
        await self.emu.wait_for(lambda: self.choices.ready(panel), 10.0,
                                what="a decision on the panel")
        if self.table is not None:
            await self.check(panel)
        await self.decide(panel)

    async def check(self, panel: Any) -> None:
        """The panel as it stands is the one the bot would draw for the seat now."""
        assert self.table is not None
        expected = await spec_of(self.table).hand_message(self.table, self.seat,
                                                          self.user.locale)
        assert panel.ephemeral
        assert panel.content == expected.content
        assert control_ids(panel) == \
            {getattr(i, "custom_id", None) for i in expected.view.children}

    async def decide(self, panel: Any) -> None:
        await self.choices.decide(self, panel)

    async def out_of_turn(self) -> None:
        """Maybe act while others are on turn (Tichu: call, or drop a bomb)."""
        if self.calls and self.panel is not None:
            await self.choices.out_of_turn(self, self.panel)

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


class TichuChoices(Choices):
    """Tichu (for four): no Grand Tichu, the first cards offered to exchange, a random
    combination kind and play (or a pass, three times in ten), the first Phoenix reading
    and a random wish. Out of turn, a call (one time in ten) or the first bomb."""

    def ready(self, panel: Any) -> bool:
        return actionable(panel)

    async def out_of_turn(self, person: Person, panel: Any) -> None:
        if (ask := component(panel, "ask", arg="tichu")) is not None \
                and person.rng.random() < 0.1:
            person.raced += 1
            await person.click(panel, ask.custom_id)
            if (confirm := component(panel, "tichu")) is not None:
                person.called += await person.click(panel, confirm.custom_id, action=True)
        elif (bombs := component(panel, "play", "s")) is not None:  # off turn: bombs only
            person.raced += 1
            person.bombed += await person.select(panel, bombs.custom_id,
                                                 [bombs.options[0].value], action=True)

    async def exchange(self, person: Person, hand: Any, slots: int) -> None:
        """A different card in each of the ``slots`` exchange menus, then Exchange."""
        used: set[str] = set()
        for slot in range(slots):
            select = component(hand, "ex", "s", arg=str(slot))
            assert select is not None
            value = next(v for v in values_of(select) if v not in used)
            used.add(value)
            await person.select(hand, select.custom_id, [value])
        ok = component(hand, "exok")
        assert ok is not None and not ok.disabled
        await person.click(hand, ok.custom_id, action=True)

    async def decide(self, person: Person, hand: Any) -> None:
        rng = person.rng
        if (b := component(hand, "nogrand")) is not None:
            await person.click(hand, b.custom_id, action=True)
            return
        if component(hand, "ex", "s") is not None:
            await self.exchange(person, hand, 3)
            return
        if (b := component(hand, "gift")) is not None:
            await person.click(hand, b.custom_id, action=True)
            return
        kinds = component(hand, "kind", "s")
        if kinds is not None and rng.random() < 0.5:
            choice = rng.choice(kinds.options)
            await person.select(hand, kinds.custom_id, [choice.value])
        play = component(hand, "play", "s")
        passing = component(hand, "pass")
        if passing is not None and (play is None or rng.random() < 0.3):
            await person.click(hand, passing.custom_id, action=True)
            return
        assert play is not None, f"no control to act with: {hand.content!r}"
        option = rng.choice(play.options)
        needs_step = bool({"52", "54"} & set(option.value.split(".")))
        if not await person.select(hand, play.custom_id, [option.value], action=not needs_step):
            return
        if (wish := component(hand, "wish", "s")) is not None:
            choice = rng.choice(wish.options)
            await person.select(hand, wish.custom_id, [choice.value], action=True)
        elif (phx := component(hand, "phx", "s")) is not None:
            await person.select(hand, phx.custom_id, [phx.options[0].value], action=True)
        elif needs_step:
            person.actions += 1  # a Phoenix play with one reading needs no second step


@dataclass
class ChinoisChoices(Choices):
    """Chinois: a random bid or card from the panel's one menu, which must offer exactly
    the engine's legal choices (never the dealer's forbidden bid, struck through in the
    text). Counts what the people met, for the test to check; with :attr:`shots`, saves
    a few panels and tables there for a look by eye."""

    shots: Path | None = None
    forbidden_hidden: int = 0
    bids: int = 0
    plays: int = 0
    french_hands: int = 0

    def ready(self, panel: Any) -> bool:
        return bool(panel.selects)

    async def decide(self, person: Person, hand: Any) -> None:
        table = person.table
        assert table is not None
        seat = person.seat
        view = table.game.view(seat)
        assert hand_picture(hand) is not None
        locale = person.user.locale
        if locale == "fr":
            self.french_hands += 1
            assert "Atout" in hand.content
        if view.phase is ChinoisPhase.BID:
            select = component(hand, "bid", "s")
            assert select is not None, hand.content
            offered = [int(v) for v in values_of(select)]
            assert offered == list(chinois_legal.legal_bids(view))
            forbidden = view.forbidden_bid if view.dealer == seat else None
            if forbidden is not None:
                assert forbidden not in offered
                assert f"~~{forbidden}~~" in hand.content
                self.forbidden_hidden += 1
                if self.forbidden_hidden == 3:
                    self.shoot(person, hand, f"hand-{locale}", "table-bidding")
            self.bids += 1
        else:
            assert view.phase is ChinoisPhase.PLAY
            if self.plays == 40:
                self.shoot(person, hand, f"play-{locale}", "table-play")
            select = component(hand, "play", "s")
            assert select is not None, hand.content
            assert {int(v) for v in values_of(select)} == \
                {int(c) for c in chinois_legal.legal_cards(view)}
            self.plays += 1
        value = person.rng.choice(select.options).value
        seq = table.seq
        assert await person.select(hand, select.custom_id, [value], action=True), \
            person.refusals
        assert table.seq > seq

    def shoot(self, person: Person, hand: Any, name: str, table_name: str) -> None:
        if self.shots is None or not self.shots.exists():
            return
        assert person.table is not None
        (self.shots / f"{name}.png").write_bytes(hand_picture(hand).data)
        (self.shots / f"{name}.txt").write_text(hand.content)
        message = table_message(person.emu, person.table)
        (self.shots / f"{table_name}.png").write_bytes(message.attachment(filename("table")).data)
        (self.shots / f"{table_name}.txt").write_text(message.content)


class TysiachaChoices(Choices):
    """Tysiacha: a redeal when offered; a pass (more than half the time), a bid from the
    menu or the first bid button; with the prikup, now and then a concession or a raise,
    else a random card to each opponent; a random card or marriage in play. Each menu
    must offer only legal choices (every legal card, bids above 120 only with a
    marriage in hand)."""

    def ready(self, panel: Any) -> bool:
        return bool(panel.selects) or any(
            component(panel, a) is not None for a in ("redeal", "pass", "bid", "concede"))

    async def decide(self, person: Person, hand: Any) -> None:
        assert person.table is not None
        view = person.table.game.view(person.seat)
        if (redeal := component(hand, "redeal")) is not None:
            await person.click(hand, redeal.custom_id, action=True)
            return
        if view.phase is TysiachaPhase.BIDDING:
            await self.bid(person, hand, view)
        elif view.phase is TysiachaPhase.PRIKUP:
            await self.prikup(person, hand, view)
        else:
            play = component(hand, "play", "s")
            assert play is not None, hand.content
            legal = {str(int(c)) for c in tysiacha_legal.legal_cards(view)}
            offered = values_of(play)
            assert {v.lstrip("m") for v in offered} == legal  # only (and every) legal card
            assert {v[1:] for v in offered if v.startswith("m")} == \
                {str(int(c)) for c in tysiacha_legal.marriage_leads(view)}
            await person.select(hand, play.custom_id, [person.rng.choice(offered)], action=True)

    async def bid(self, person: Person, hand: Any, view: Any) -> None:
        rng = person.rng
        legal = set(tysiacha_legal.legal_bids(view))
        buttons = [b for b in hand.buttons if ":bid:" in b.custom_id]
        select = component(hand, "bids", "s")
        offered = {int(b.custom_id.rsplit(":", 1)[1]) for b in buttons}
        offered |= {int(v) for v in values_of(select)} if select is not None else set()
        assert offered <= legal
        if any(b > TOTAL_POINTS for b in offered):
            assert bid_limit(view.hand) > TOTAL_POINTS  # only with a marriage in hand
        passing = component(hand, "pass")
        if passing is not None and (rng.random() < 0.55 or not offered):
            await person.click(hand, passing.custom_id, action=True)
        elif select is not None and rng.random() < 0.3:
            await person.select(hand, select.custom_id, [values_of(select)[0]], action=True)
        else:
            await person.click(hand, buttons[0].custom_id, action=True)

    async def prikup(self, person: Person, hand: Any, view: Any) -> None:
        rng = person.rng
        roll = rng.random()
        if roll < 0.05:
            concede = component(hand, "concede")
            assert concede is not None
            await person.click(hand, concede.custom_id, action=True)
            return
        raise_select = component(hand, "raise", "s")
        if raise_select is not None and roll < 0.2:
            await person.select(hand, raise_select.custom_id, [values_of(raise_select)[0]],
                                action=True)
            return
        first = next(s for s in hand.selects if re.search(r":gv:0\.", s.custom_id))
        assert {int(v) for v in values_of(first)} == {int(c) for c in view.hand}
        give = component(hand, "give")
        assert give is not None and give.disabled
        value = rng.choice(values_of(first))
        await person.select(hand, first.custom_id, [value])
        second = next(s for s in hand.selects if re.search(r":gv:1\.", s.custom_id))
        assert value not in values_of(second)  # the same card cannot go to both
        await person.select(hand, second.custom_id, [rng.choice(values_of(second))])
        give = component(hand, "give")
        assert give is not None and not give.disabled
        await person.click(hand, give.custom_id, action=True)


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


def pace_computers(bot: TichuBot) -> None:
    """From now on each computer move waits until the bot has shown every change before
    it (its table message, pings and panel redraws), as at a real table.

    A computer moves ``ai_delay`` (1.2 s) after the last change, long after that change's
    redraws went out. These tests run with no delay (``ai_delay=0``), so a computer's
    move often lands while a panel is still being redrawn, and that redraw, which draws
    the latest state, shows it: what the bot does, or fails to do, on its own after a
    computer's move goes unseen. Paced, a test sees what people see."""
    service = bot.service
    drive_once = service.drivers._drive_once

    async def paced(table: Table) -> str:
        while pending := [task for task in service.core.notices if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)
        return await drive_once(table)

    service.drivers._drive_once = paced  # type: ignore[method-assign]


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
