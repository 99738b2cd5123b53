"""Four people at one Tichu table, as people play: each opens their hand panel once and
acts from it as it stands, at the same time as the others — Grand Tichu and the exchange
all at once, Tichu calls and bombs out of turn racing the turn's play.

What must hold however the clicks interleave: no still-legal choice is refused, no
acknowledged action is lost, every open panel shows the seat's options of the moment,
and a person needs no more than one or two hand messages a deal.

One deal, chosen so that it holds what two unchosen deals did (and more): seats 1 and 3
are dealt bombs, and the people call Tichu and drop a bomb out of turn, racing the plays.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameSpec
from bot.i18n import t
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, running, settle, table_message

DEALS = 1
SEED = "four-172"
"""The deal: bombs in seats 1 and 3 (a four and a straight flush), a Tichu call and a
bomb raced out of turn, 111 rounds of clicks."""
RACE_CODES = ("does_not_beat", "not_your_turn", "no_bomb_before_lead", "no_bomb_on_dog",
              "wrong_phase", "card_not_in_hand", "seat_out")
"""Refusals a racing bomb or turn play may meet: another seat's action came first and
made it illegal. Nothing else may be refused."""


def control_ids(message: Any) -> set[str]:
    return {c.custom_id for c in (*message.buttons, *message.selects)}


async def assert_panels_true(table: Any, people: dict[int, Person]) -> None:
    """Each open panel offers exactly what the seat's panel offers now."""
    spec: GameSpec = table.spec
    for seat, person in people.items():
        if person.panel is None:
            continue
        expected = await spec.hand_message(table, seat, person.user.locale)
        wanted = {i.custom_id for i in expected.view.children}  # type: ignore[attr-defined]
        assert control_ids(person.panel) == wanted, (seat, person.panel.content)
        assert person.panel.content == expected.content


async def test_four_people_act_from_their_open_panels_at_once(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    monkeypatch.setattr(secrets, "token_hex", lambda nbytes=None: SEED)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot, target=1000)
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        message = table_message(emu, table)
        people = {s: Person(emu, world.users[s], random.Random(40 + s), calls=True)
                  for s in range(4)}
        await asyncio.gather(*(p.open_hand(message) for p in people.values()))
        rounds = 0
        while len(table.game.history) < DEALS:
            due = await settle(bot, table)
            if not due:
                break
            await assert_panels_true(table, people)
            rounds += 1
            await asyncio.gather(
                *(people[s].act(message) for s in due),
                *(people[s].out_of_turn() for s in range(4) if s not in due))
        deals = len(table.game.history)
        assert deals == DEALS
        await settle(bot, table)
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None
        for seat, person in people.items():
            # No lost action: every click the bot acknowledged is in the log, once.
            humans = [a for a in stored.actions
                      if a.payload.get("seat") == seat and a.payload.get("by") == "human"]
            assert len(humans) == person.actions, seat
            # No refusal of a still-legal choice: only racing bombs and plays were refused.
            allowed = {t(person.user.locale, f"error.engine.{c}") for c in RACE_CODES}
            assert set(person.refusals) <= allowed, person.refusals
            # One panel for the whole game, pushed by the bot; no pile of hand messages.
            hands = [m for m in emu.ephemerals(person.user) if m.content not in allowed]
            assert person.opened == 1 and len(hands) == 1
        # The races really happened: a Tichu call and a bomb, each made out of turn.
        assert sum(p.called for p in people.values()) >= 1
        assert sum(p.bombed for p in people.values()) >= 1
        assert rounds > 40
    emu.assert_clean()


async def test_a_double_click_from_an_open_panel_applies_once(world: World,
                                                              tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        message = table_message(emu, table)
        person = Person(emu, world.users[0])
        panel = await person.open_hand(message)
        take = component(panel, "nogrand").custom_id
        first, second = await asyncio.gather(emu.click(person.user, panel, take),
                                             emu.click(person.user, panel, take))
        answers = [await first.response(), await second.response()]
        decided = [a for a in (await bot.service.repo.load_table(table.id)).actions
                   if a.payload.get("seat") == 0]
        assert len(decided) == 1
        refused = [a.content for a in answers if a.id != panel.id]
        assert refused == [t(person.user.locale, "error.engine.already_decided")]
    emu.assert_clean()
