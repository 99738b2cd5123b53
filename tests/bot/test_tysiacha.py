"""Tysiacha through the local Discord: lobby, bidding, the prikup, gifts, play, sheets,
the end of a game to 1000 and its record."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from bot.games.tysiacha.hand import hand_message
from bot.games.tysiacha.spec import TYSIACHA
from bot.i18n import t
from bot.render import filename
from bot.store.models import SeatRecord, TableRecord, TableStatus
from bot.tables import Table
from engine.cards import parse_cards
from engine.tysiacha.cards import TOTAL_POINTS
from engine.tysiacha.deal import Deal
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import legal_bids, legal_cards, marriage_leads
from engine.tysiacha.view import Phase
from tests.bot.conftest import World, seat_and_start
from tests.bot.driver import (
    Person,
    TysiachaChoices,
    new_table,
    play_outside_discord,
    running,
    settle,
    table_message,
)

PUBLIC_IMAGES = {filename("table"), filename("prikup"), filename("sheet"), filename("final")}
SHOTS = os.environ.get("TYSIACHA_SHOTS")
"""A folder to save the images seen, for a look by eye (unset: nothing saved)."""


def player(world: World, index: int, table: Table, seed: int) -> Person:
    """``world.users[index]`` at ``table``, choosing as a Tysiacha player (seeded)."""
    return Person(world.emu, world.users[index], random.Random(seed), table=table,
                  choices=TysiachaChoices())


def save(name: str, data: bytes) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        (Path(SHOTS) / name).write_bytes(data)


def assert_public_safe(world: World, table: Table) -> None:
    """No hand is ever shown in public: public messages carry only public images."""
    for message in world.emu.channel_messages(table.channel_id):
        assert {a.filename for a in message.attachments} <= PUBLIC_IMAGES, message.content
    for message in world.emu.messages.values():
        if message.ephemeral:
            assert {a.filename for a in message.attachments} <= {filename("hand")}


async def play_on(bot: Any, table: Table, people: dict[int, Person],
                  until: Any = lambda game: False) -> None:
    """Play through Discord until ``until(game)`` when a person is due, or the game's end."""
    for _ in range(3000):
        due = await settle(bot, table)
        if not due or until(table.game):
            return
        game = table.game
        seat = game.turn if game.turn in due else due[0]
        await people[seat].act()
    raise AssertionError("the game did not end")


async def test_a_game_of_three_plays_to_the_end(world: World, tmp_path: Path) -> None:
    """Five deals through Discord (bob leaves his seat to a computer before the fifth), the
    deals after them played on in the database with the bot stopped, up to the deal
    that ends the game there; a new bot restores the table and alice plays on through
    Discord to the game's end (a game to 1000 takes 20 to 50 deals: through Discord,
    they repeated the same checks for half a minute of CPU)."""
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    async with running(emu, db) as bot:
        lobby, table = await new_table(emu, bot, world.users[0], world.channel, "tysiacha")
        assert table.n_seats == 3
        await seat_and_start(world, lobby, [0, 1, None], {2: "normal"})
        assert table.status is TableStatus.PLAYING
        table_id = table.id
        people = {s: player(world, s, table, s) for s in (0, 1)}
        await play_on(bot, table, people, until=lambda game: game.deal_number >= 4)
        # Bob has played a few deals by hand and leaves: a computer plays his seat from now on.
        done = await (await emu.slash(world.users[1], table.channel_id,
                                      "tysiacha leave")).response()
        assert done.content == t(table.record.locale, "table.left", name="bob")
        await play_on(bot, table, people, until=lambda game: game.deal_number >= 5)
        assert table.game.phase is not Phase.GAME_OVER
    ahead = await play_outside_discord(db, table_id, lambda g: g.phase is Phase.GAME_OVER,
                                       store=False)
    await play_outside_discord(db, table_id, lambda g: g.deal_number == ahead.deal_number)
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert table.game.deal_number == ahead.deal_number
        people[0] = player(world, 0, table, 10)  # alice opens her hand again
        await play_on(bot, table, people)
        await bot.presenter.idle.wait()
        game = table.game
        assert game.phase is Phase.GAME_OVER
        assert max(game.scores) >= 1000 and game.winner is not None
        # One hand panel each, kept up to date by the bot; alice's second after the restart.
        assert all(person.refusals == [] for person in people.values())
        assert len(emu.ephemerals(world.users[0])) == 2
        assert len(emu.ephemerals(world.users[1])) == 1
        assert table.status is TableStatus.FINISHED
        assert table.seats[1].user_id is None and table.seats[1].bot_level is not None
        final = table_message(emu, table)
        assert not final.buttons
        public = emu.channel_messages(table.channel_id)
        names = [a.filename for m in public for a in m.attachments]
        assert filename("prikup") in names and filename("sheet") in names and names.count(filename("final")) == 1
        assert_public_safe(world, table)
        if SHOTS:
            for m in public:
                for a in m.attachments:
                    if a.filename != filename("table"):
                        save(f"{m.id}-{a.filename}", a.data)
            save(filename("table"), final.attachment(filename("table")).data)
            for m in emu.ephemerals(world.users[0])[-3:]:
                for a in m.attachments:
                    save(f"hand-{m.id}.png", a.data)
        rows = await bot.service.repo.leaderboard(world.guild.id, "tysiacha")
        assert [r.user_id for r in rows] == [world.users[0].id]
        assert all("contracts" in r.stats for r in rows)
        board = await (await emu.slash(world.users[0], world.channel,
                                       "tysiacha leaderboard")).response()
        assert "alice" in board.texts[-1]
        stats = await (await emu.slash(world.users[1], world.channel, "tysiacha stats",
                                       user=world.users[0])).response()
        assert any("Contrats" in text for text in stats.texts)  # bob reads French
        rules = await (await emu.slash(world.users[1], world.channel, "tysiacha rules")).response()
        assert rules.ephemeral and rules.content == t("fr", "rules.tysiacha")
    emu.assert_clean()


def fixed_table(hands: list[str], prikup: str) -> Table:
    """A 3-seat table (seat 0 opens the bidding) on a deal given card by card."""
    deal = Deal(dealer=2, hands=tuple(tuple(parse_cards(h.split())) for h in hands),
                prikup=tuple(parse_cards(prikup.split())))
    record = TableRecord(id=7, guild_id=1, channel_id=1, host_id=1, game="tysiacha",
                         status=TableStatus.PLAYING, seed="fixed",
                         seats=[SeatRecord(seat=s, user_id=100 + s, name=f"p{s}")
                                for s in range(3)])
    return Table(record, TYSIACHA, TysiachaGame(deal=deal))


def offered_bids(message: Any) -> set[int]:
    bids: set[int] = set()
    for item in message.view.children:
        custom_id = getattr(item, "custom_id", "") or ""
        if ":b:" in custom_id and ":bid:" in custom_id:
            bids.add(int(custom_id.rsplit(":", 1)[1]))
        if ":bids" in custom_id:
            bids |= {int(o.value) for o in item.item.options}
    return bids


MARRIED = ["Kh Qh Ah Th 9c Jc Js", "Ac Tc Kc Qc Ad Td Kd", "Qd Jd 9d Jh 9h As Ts"]
UNMARRIED = ["Kh Qs Ah Th 9c Jc Js", "Ac Tc Kc Qc Ad Td Kd", "Qd Jd 9d Jh 9h As Qh"]


async def test_bids_above_120_are_offered_only_with_a_marriage() -> None:
    married = fixed_table(MARRIED, "Ks Qs 9s")
    bids = offered_bids(await hand_message(married, 0, "en"))
    assert 100 in bids and max(bids) > TOTAL_POINTS
    assert bids <= set(legal_bids(married.game.view(0)))
    single = fixed_table(UNMARRIED, "Ks Ts 9s")
    bids = offered_bids(await hand_message(single, 0, "en"))
    assert bids and max(bids) <= TOTAL_POINTS
    # Nobody else has a menu of bids while seat 0 decides.
    assert not offered_bids(await hand_message(single, 1, "en"))


async def test_only_legal_cards_and_marriages_are_offered() -> None:
    from engine.tysiacha.actions import Bid, Give, Pass, Play

    table = fixed_table(MARRIED, "Ks Qs 9s")
    game = table.game
    for action in (Bid(0, 100), Pass(1), Pass(2)):
        game.apply(action)
    # The soloist holds the prikup: one select per opponent, both offering its 10 cards.
    message = await hand_message(table, 0, "en")
    selects = [i for i in message.view.children if ":gv:" in (getattr(i, "custom_id", "") or "")]
    assert len(selects) == 2 and all(len(s.item.options) == 10 for s in selects)
    give = parse_cards(["9c", "Jc"])
    game.apply(Give(0, ((1, give[0]), (2, give[1]))))
    # Seat 0 leads: any card, no marriage before a trick is won.
    game.apply(Play(0, parse_cards(["Ah"])[0]))
    message = await hand_message(table, 1, "en")
    play = next(i for i in message.view.children if ":play" in (getattr(i, "custom_id", "") or ""))
    assert {o.value for o in play.item.options} == {str(int(c)) for c in legal_cards(game.view(1))}
    game.apply(Play(1, legal_cards(game.view(1))[0]))
    game.apply(Play(2, legal_cards(game.view(2))[0]))
    assert game.turn == 0  # the Ace won: the Kings and Queens of its marriages may declare
    message = await hand_message(table, 0, "en")
    play = next(i for i in message.view.children if ":play" in (getattr(i, "custom_id", "") or ""))
    marriages = {o.value for o in play.item.options if o.value.startswith("m")}
    assert marriages == {f"m{int(c)}" for c in marriage_leads(game.view(0))}
    assert len(marriages) == 4  # K and Q of hearts, K and Q of spades (from the prikup)


async def test_four_players_the_dealer_sits_out(world: World, tmp_path: Path) -> None:
    emu = world.emu
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await new_table(emu, bot, world.users[0], world.channel, "tysiacha",
                                       players=4, rounding=5)
        assert table.n_seats == 4
        await seat_and_start(world, lobby, [0, None, None, None],
                             {1: "easy", 2: "normal", 3: "easy"})
        game = table.game
        assert game.n_seats == 4 and int(game.rounding) == 5
        alice = player(world, 0, table, 4)
        while game.deal_number < 4 and game.phase is not Phase.GAME_OVER:
            due = await settle(bot, table)
            if not due:
                break
            await alice.act()
        assert alice.refusals == []
        # Alice dealt one of the first deals and sat it out (she was never asked to act).
        assert 0 in [r.dealer for r in game.history]
        assert all(r.scores[r.dealer] == 0 for r in game.history)
        # The dealer's hand message says it sits out.
        record = TableRecord(id=8, guild_id=1, channel_id=1, host_id=1, game="tysiacha",
                             status=TableStatus.PLAYING, seed="four",
                             options={"players": 4},
                             seats=[SeatRecord(seat=s, user_id=100 + s, name=f"p{s}")
                                    for s in range(4)])
        four = Table(record, TYSIACHA, TYSIACHA.new_game(record))
        dealer = four.game.dealer
        assert (await hand_message(four, dealer, "fr")).content.startswith(
            t("fr", "tysiacha.hand.sitting_out"))
        message = table_message(emu, table)
        save("table-4.png", message.attachment(filename("table")).data)
        await (await emu.slash(world.users[0], table.channel_id, "tysiacha abandon")).response()
        assert table.status is TableStatus.ABANDONED
        await bot.presenter.idle.wait()
        assert_public_safe(world, table)
    emu.assert_clean()
