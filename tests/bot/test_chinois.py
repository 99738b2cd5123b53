"""Chinois through the local Discord: a whole game of 28 rounds, menus that offer only
legal choices (never the dealer's forbidden bid), French for a French user, refusals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.games.chinois.spec import CHINOIS
from bot.i18n import t
from bot.render import filename
from bot.store.models import TableStatus
from bot.tables import Table
from engine.chinois.view import Phase
from tests.bot.conftest import World, seat_and_start
from tests.bot.driver import (
    ChinoisChoices,
    Person,
    new_table,
    open_hand,
    play_outside_discord,
    running,
    settle,
    table_message,
)

PUBLIC_IMAGES = {filename("table"), filename("round"), filename("game-over")}


LIVE = ((1, 4), (16, 16), (25, 28))
"""The rounds played through Discord: the first four (each seat deals one, so both
people meet the dealer's forbidden bid), one of the four no-trump rounds of 13 cards,
and the last four, to the game's end and its records. The rounds between are played
on in the database with the bot stopped (:func:`play_outside_discord`), and a new bot
restores the table: through Discord, they would repeat the same checks for a minute of
CPU. Each restart, the people open their hand again."""


async def play_rounds(bot: Any, table: Table, last: int, people: dict[int, Person], *,
                      stale_check: bool = False) -> None:
    """Play through Discord until round ``last`` is over (or the game)."""
    for _ in range(2000):
        due = await settle(bot, table)
        if not due or len(table.game.history) >= last:
            break
        person = people[due[0]]
        if stale_check:
            # A hand opened twice: once the second has acted, the first is from
            # before the seat's move, and a pick on it is refused.
            emu, seat = person.emu, person.seat
            first = await open_hand(emu, person.user, table_message(emu, table))
            select = first.selects[0]
            await person.act()
            mine = sum(a.seat == seat for a in table.game.actions)
            reply = await (await emu.select(person.user, first, select.custom_id,
                                            [select.options[0].value])).response()
            assert reply.ephemeral
            assert reply.content == t(person.user.locale, "error.stale")
            assert sum(a.seat == seat for a in table.game.actions) == mine
            stale_check = False
            continue
        await person.act()
    else:
        raise AssertionError("the rounds did not end")


async def test_a_game_of_four_plays_to_the_end(world: World, tmp_path: Path) -> None:
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    # alice (English) at seat 0, bob (French) at seat 2, computers between them; each
    # opens a hand panel once per bot (the bot keeps it up to date).
    choices = ChinoisChoices(shots=Path("/tmp/chinois-shots"))
    people = {s: Person(emu, world.users[i], random.Random(s), choices=choices)
              for s, i in ((0, 0), (2, 1))}
    async with running(emu, db) as bot:
        lobby, table = await new_table(emu, bot, world.users[0], world.channel, "chinois")
        assert table.spec is CHINOIS
        assert "Chinois" in lobby.content
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "easy", 3: "normal"})
        assert table.status is TableStatus.PLAYING
        table_id = table.id
        for person in people.values():
            person.table = table
        await play_rounds(bot, table, LIVE[0][1], people, stale_check=True)
    for first, last in LIVE[1:]:
        await play_outside_discord(db, table_id, lambda g, r=first: g.round == r)
        async with running(emu, db) as bot:
            table = await bot.service.core.get(table_id)
            assert table.game.round == first
            for person in people.values():
                person.table, person.panel = table, None
            await play_rounds(bot, table, last, people)
            if last == 28:
                await check_the_end(world, bot, table, people, choices)
    emu.assert_clean()


async def check_the_end(world: World, bot: Any, table: Table, people: dict[int, Person],
                        tally: ChinoisChoices) -> None:
    emu = world.emu
    game = table.game
    assert game is not None and game.phase is Phase.GAME_OVER
    assert len(game.history) == 28
    assert table.status is TableStatus.FINISHED
    live = sum(last - first + 1 for first, last in LIVE)
    assert tally.forbidden_hidden > 0 and tally.bids == 2 * live and tally.french_hands > 0
    # Two hand messages each for the first bot (one of them for the stale check above)
    # and the refusal, then one per restart: the bot keeps each panel up to date.
    for person in people.values():
        assert len(emu.ephemerals(person.user)) <= 3 + len(LIVE) - 1
    final = table_message(emu, table)
    assert not final.buttons
    public = emu.channel_messages(table.channel_id)
    for message in public:
        assert {a.filename for a in message.attachments} <= PUBLIC_IMAGES
    rounds = [m for m in public if any(a.filename == filename("round") for a in m.attachments)]
    assert len(rounds) == live - 1  # every round played through Discord but the last
    over = next(m for m in public if any(a.filename == filename("game-over") for a in m.attachments))
    assert "Scale: over 300" in over.content  # the rating scale, in the table's language
    rows = await bot.service.repo.leaderboard(world.guild.id, "chinois")
    assert sorted(r.user_id for r in rows) == sorted(p.user.id for p in people.values())
    assert all(r.stats.get("deals") == 28 for r in rows)
    reply = await emu.slash(world.users[1], world.channel, "chinois leaderboard")
    board = await reply.response()
    assert "alice" in board.texts[-1] and "paris exacts" in board.texts[-1]
    rules = await (await emu.slash(world.users[1], world.channel, "chinois rules")).response()
    assert rules.ephemeral and "Le Chinois en bref" in rules.content
    if (out := Path("/tmp/chinois-shots")).exists():
        for message in (over, rounds[-1], final):
            for a in message.attachments:
                (out / f"{message.id}-{a.filename}").write_bytes(a.data)
