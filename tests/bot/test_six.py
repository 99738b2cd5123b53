"""Tichu for six through the local Discord: six people at their open hand panels, people
with computers to the end and the leaderboard, a restart mid-deal, the refusals; and
the six-player hand panel built directly from known hands."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.tables.lobby as lobby_module
from bot.games.registry import all_specs
from bot.games.tichu import hand as tichu_hand
from bot.games.tichu.spec import TICHU
from bot.i18n import t
from bot.render import filename
from bot.store.models import SeatRecord, TableRecord, TableStatus
from bot.tables import Table, ids
from engine.cards import parse_cards
from engine.replay import game_from_replay
from engine.tichu.actions import DeclineGrand, Exchange, Pass, Play
from engine.tichu.cards import DOG, SPECIALS
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import (
    Person,
    TichuChoices,
    actionable,
    component,
    running,
    settle,
    table_message,
    values_of,
)


@pytest.fixture
def six(world: World, monkeypatch: pytest.MonkeyPatch) -> World:
    """The world with six people (alice … farid), and tables dealt from a fixed seed."""
    for name, locale in (("erin", "en-US"), ("farid", "fr")):
        user = world.emu.add_user(name, locale=locale)
        world.emu.add_member(world.guild, user)
        world.users.append(user)
    seeds = iter(f"six-{n}" for n in range(100))
    monkeypatch.setattr(lobby_module, "secrets",
                      SimpleNamespace(token_hex=lambda _n: next(seeds)))
    return world


class SixChoices(TichuChoices):
    """Tichu for six: two exchange slots (none for an opponent), and the Dog's partner
    choice, which these people lead whenever they can, to meet it."""

    async def decide(self, person: Person, hand: Any) -> None:
        if component(hand, "ex", "s") is not None:
            assert component(hand, "ex", "s", arg="2") is None  # nothing for an opponent
            await self.exchange(person, hand, 2)
            return
        play = component(hand, "play", "s")
        dog = str(int(DOG))
        if play is not None and dog in values_of(play):
            await person.select(hand, play.custom_id, [dog])
            if (to := component(hand, "dog")) is not None:
                await person.click(hand, to.custom_id)
            return
        await super().decide(person, hand)


def six_person(world: World, index: int, seed: int) -> Person:
    return Person(world.emu, world.users[index], random.Random(seed), choices=SixChoices())


async def play_on(world: World, bot: Any, table: Any, people: dict[int, Person], *,
                  until: Any, limit: int = 5000) -> None:
    for _ in range(limit):
        if until():
            return
        due = await settle(bot, table)
        if not due:
            return
        await people[due[0]].act(table_message(world.emu, table))
    raise AssertionError("the table did not get there")


async def test_six_people_play_a_whole_deal_from_their_panels(six: World,
                                                              tmp_path: Path) -> None:
    emu = six.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(six, bot, players=6)
        assert table.n_seats == 6
        assert t("en", "team.0") in lobby.content and "Seat 6" in lobby.content
        await seat_and_start(six, lobby, [0, 1, 2, 3, 4, 5], {})
        assert table.status is TableStatus.PLAYING and table.game.n_seats == 6
        people = {s: six_person(six, s, s) for s in range(6)}
        await play_on(six, bot, table, people, until=lambda: table.game.history)
        result = table.game.history[0]
        assert sum(result.card_points) == 100
        assert len(result.out) == 5 or result.triple_victory is not None
        # One card to each partner, none to an opponent, and every play from the panels.
        exchanges = [a for a in table.game.actions if isinstance(a, Exchange)]
        assert len(exchanges) == 6
        for ex in exchanges:
            assert {to for to, _ in ex.give} == {(ex.seat + 2) % 6, (ex.seat + 4) % 6}
        dogs = [a for a in table.game.actions if isinstance(a, Play) and a.cards == (DOG,)]
        assert dogs and all(a.to in ((a.seat + 2) % 6, (a.seat + 4) % 6, None) for a in dogs)
        for person in people.values():
            assert person.refusals == []
            assert person.opened == 1  # the live panel followed the whole deal
        stored = sqlite3.connect(tmp_path / "db.sqlite3").execute(
            "select count(*) from actions where table_id = ?", (table.id,)).fetchone()[0]
        assert stored == table.seq
    emu.assert_clean()


async def test_three_people_and_three_computers_play_to_the_leaderboard(
        six: World, tmp_path: Path) -> None:
    emu = six.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(six, bot, players=6, target=50)  # one deal
        await seat_and_start(six, lobby, [0, None, 1, None, 2, None],
                             {1: "easy", 3: "normal", 5: "hard"})
        people = {s: six_person(six, i, 10 + s) for s, i in ((0, 0), (2, 1), (4, 2))}
        await play_on(six, bot, table, people, until=lambda: False)
        assert table.status is TableStatus.FINISHED
        final = table_message(emu, table)
        assert final.content.startswith(t("en", "table.title_six", id=table.id, target=50))
        [over] = [m for m in emu.channel_messages(table.channel_id)
                  if any(a.filename == filename("game-over") for a in m.attachments)]
        winners = [table.seats[s].name for s in range(6) if s % 2 == table.game.winner]
        assert all(name in over.content for name in winners if name)
        repo = bot.service.repo
        guild = six.guild.id
        # Six-player games have their own rating pool and leaderboard.
        assert await repo.leaderboard(guild, "tichu") == []
        rows = await repo.leaderboard(guild, "tichu6")
        assert {r.user_id for r in rows} == {u.id for u in six.users[:3]}
        assert all(r.rating is not None for r in rows)
        board = await (await emu.slash(six.users[0], six.channel, "tichu leaderboard",
                                       players="tichu6")).response()
        assert t("en", "leaderboard.title.tichu6") in board.embeds[0]["title"]
        empty = await (await emu.slash(six.users[0], six.channel,
                                       "tichu leaderboard")).response()
        assert empty.content == t("en", "leaderboard.empty")
        stats = await (await emu.slash(six.users[1], six.channel, "tichu stats",
                                       players="tichu6")).response()
        assert t("fr", "stats.title.tichu6", name="bob") == stats.embeds[0]["title"]
        # History labels the variant; the exported replay plays back to the same game.
        history = await (await emu.slash(six.users[0], six.channel,
                                         "tichu history")).response()
        assert t("en", "variant.tichu6") in history.embeds[0]["description"]
        [game] = await repo.recent_games(guild, "tichu6", limit=5)
        assert game.replay["players"] == 6 and game.replay["game"] == "tichu"
        again = game_from_replay(json.loads(json.dumps(game.replay)))
        assert list(again.scores) == game.scores and again.winner == game.winner
        derived = all_specs()["tichu"].stats_from_replay(game.replay)
        assert {p.seat: p.stats for p in game.players} == derived
        assert all("triple_victories" in s for s in derived.values())
        teams = {p.team for p in game.players if p.won}
        assert teams == {game.winner} and sum(p.won for p in game.players) == 3
    emu.assert_clean()


async def test_a_six_seat_table_resumes_after_a_restart(six: World, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    emu = six.emu
    people = {s: six_person(six, i, 20 + s) for s, i in ((0, 0), (2, 1), (4, 2))}
    async with running(emu, db) as bot:
        lobby, table = await open_lobby(six, bot, players=6, target=50)  # one deal
        await seat_and_start(six, lobby, [0, None, 1, None, 2, None],
                             {1: "normal", 3: "easy", 5: "normal"})
        await play_on(six, bot, table, people,
                      until=lambda: table.game.phase is Phase.PLAY and table.seq >= 20)
        await settle(bot, table)
        before = {s: table.game.view(s) for s in (None, *range(6))}
        seq, table_id, message_id = table.seq, table.id, table.record.message_id
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert table.seq == seq and table.n_seats == 6
        assert {s: table.game.view(s) for s in (None, *range(6))} == before
        due = await settle(bot, table)
        panel = await people[due[0]].open_hand(emu.messages[message_id])
        assert component(panel, "refresh") is not None
        await play_on(six, bot, table, people, until=lambda: False)
        assert table.status is TableStatus.FINISHED
    emu.assert_clean()


LOCALES = {0: "en", 1: "fr", 2: "en", 3: "fr", 4: "en", 5: "fr"}


async def test_six_seat_refusals(six: World, tmp_path: Path) -> None:
    emu = six.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(six, bot, players=6)
        await seat_and_start(six, lobby, [0, 1, 2, 3, 4, 5], {})
        people = {s: six_person(six, s, s) for s in range(6)}
        # A stranger has no hand at this table.
        await settle(bot, table)
        message = table_message(emu, table)
        reply = await emu.click(six.stranger, message, component(message, "hand").custom_id)
        assert (await reply.response()).content == t("en", "error.not_seated")
        await play_on(six, bot, table, people, until=lambda: table.game.phase is Phase.PLAY)
        for _ in range(200):
            due = await settle(bot, table)
            seat = due[0]
            person = people[seat]
            if person.panel is None:
                await person.open_hand(table_message(emu, table))
            panel = person.panel
            await emu.wait_for(lambda p=panel: actionable(p), 10.0, what="a decision")
            passing = component(panel, "pass")
            if passing is None:
                await person.decide(panel)
                continue
            # A double click on Pass, both before the first answer: applied once.
            seq = table.seq
            first, second = await asyncio.gather(
                emu.click(person.user, panel, passing.custom_id),
                emu.click(person.user, panel, passing.custom_id))
            answers = [await first.response(), await second.response()]
            assert sum(a.content == t(LOCALES[seat], "error.stale") for a in answers) == 1
            assert table.game.actions[seq:].count(Pass(seat)) == 1
            assert person.refusals == []
            break
        else:
            raise AssertionError("nobody could pass")
        # Controls the panel never offered with six (an exchange slot for an opponent, the
        # Dog's lead to an opponent) are refused as forged; nothing changes.
        seq = table.seq
        for forged in (f"tichu:s:{table.id}:-:ex:2",
                       f"tichu:b:{table.id}:{table.moves[seat]}:dog:{seat + 1}"):
            reply = await emu.forged_click(person.user, panel, forged, values=[str(int(DOG))])
            assert (await reply.response()).content == t(LOCALES[seat], "error.forged")
        assert table.seq == seq
    emu.assert_clean()


# -- the panel, from known hands ------------------------------------------------------

HANDS = [
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
    "MAHJONG DOG 2d 3d 4d 5d 6d 7d 8d 9d",
    "Td Jd Qd Kd Ad Qc Kc Ac 2h",
    "3h 4h 5h 6h 7h 8h 9h Th Jh",
    "Qh Kh Ah 2s 3s 4s 5s 6s 7s",
    "8s 9s Ts Js Qs Ks As PHOENIX DRAGON",
]
"""Dealt by seat 5: seats 0 and 1 hold ten cards; seat 1 leads and holds the Dog."""


def six_table(game: TichuGame) -> Table:
    record = TableRecord(id=9, guild_id=1, channel_id=1, host_id=100, game="tichu",
                         status=TableStatus.PLAYING, seed="known",
                         options={"players": 6, "target": 1000},
                         seats=[SeatRecord(seat=s, user_id=100 + s, name=f"p{s}")
                                for s in range(6)])
    return Table(record, TICHU, game)


def custom_ids(message: Any) -> list[str]:
    return [getattr(item, "custom_id", "") or "" for item in message.view.children]


async def test_the_six_seat_panel_grand_exchange_and_dog() -> None:
    game = TichuGame(hands=[parse_cards(h.split()) for h in HANDS], players=6, dealer=5)
    table = six_table(game)
    grand = await tichu_hand.hand_message(table, 0, "en")
    assert grand.content == t("en", "hand.grand_prompt", shown=6, rest=4)
    assert any(i.endswith(":nogrand") for i in custom_ids(grand))
    for seat in range(6):
        game.apply(DeclineGrand(seat))
    exchange = await tichu_hand.hand_message(table, 0, "en")
    slots = [i for i in custom_ids(exchange) if ":ex:" in i]
    assert [s.rsplit(":", 1)[1] for s in slots] == ["0", "1"]
    assert tichu_hand.exchange_targets(game.view(0)) == (4, 2)
    for seat in range(6):
        view = game.view(seat)
        low = [c for c in sorted(view.hand) if c not in SPECIALS][:2]
        game.apply(Exchange(seat, tuple(zip(view.exchange_targets(seat), low, strict=True))))
    assert game.phase is Phase.PLAY and game.turn == 1
    view = game.view(1)
    assert tichu_hand.choice_step(view, (DOG,)) == "dog"
    # The Dog waits in the draft for its partner: the panel asks which one.
    table.drafts[1] = tichu_hand.new_draft(table, 1, {}, pending=ids.encode_cards((DOG,)))
    asked = await tichu_hand.hand_message(table, 1, "en")
    assert asked.content.startswith(t("en", "hand.choose_dog"))
    dogs = [i for i in custom_ids(asked) if ":dog:" in i]
    assert sorted(int(d.rsplit(":", 1)[1]) for d in dogs) == [3, 5]
    # Seat 4's panel is the public trick's bystander: no exchange slot, no Dog question.
    assert not [i for i in custom_ids(await tichu_hand.hand_message(table, 4, "en"))
                if ":dog:" in i or ":ex:" in i]
