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
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.view import Phase
from tests.bot.conftest import World
from tests.bot.driver import component, play_outside_discord, running, settle, table_message

PUBLIC_IMAGES = {filename("table"), filename("round"), filename("game-over")}


async def open_chinois(world: World, bot: Any, **options: Any) -> tuple[Any, Table]:
    """``/chinois new`` by the first user; the lobby message and the table."""
    await world.emu.wait_for_commands(["chinois"])
    reply = await world.emu.slash(world.users[0], world.channel, "chinois new", **options)
    lobby = await reply.response()
    table = max(bot.service.tables.values(), key=lambda t: t.id)
    assert table.spec is CHINOIS
    return lobby, table


async def seat_and_start(world: World, lobby: Any, people: dict[int, int],
                         computers: dict[int, str]) -> None:
    """Seat user ``people[seat]`` at each seat (the host sits at 0), add computers, start."""
    emu, host = world.emu, world.users[0]
    for seat, index in people.items():
        if seat == 0:
            continue
        join = component(lobby, "join", arg=str(seat))
        await (await emu.click(world.users[index], lobby, join.custom_id)).response()
    for seat, level in computers.items():
        cpu = component(lobby, "cpu", "s")
        await (await emu.select(host, lobby, cpu.custom_id, [f"{seat}.{level}"])).response()
    await (await emu.click(host, lobby, component(lobby, "start").custom_id)).response()


async def open_hand(world: World, user: Any, table: Table) -> Any:
    message = table_message(world.emu, table)
    button = component(message, "hand")
    assert button is not None, "the table message has no My hand button"
    return await (await world.emu.click(user, message, button.custom_id)).response()


class Tally:
    forbidden_hidden = 0
    bids = 0
    plays = 0
    french_hands = 0


async def act_once(world: World, table: Table, seat: int, user: Any, rng: random.Random,
                   tally: Tally, panels: dict[int, Any]) -> None:
    """Act from the seat's open hand panel (opened once: the bot keeps it up to date), as
    it stands; check it against the engine's legal choices and pick one."""
    if seat not in panels:
        panels[seat] = await open_hand(world, user, table)
    hand = panels[seat]
    await world.emu.wait_for(lambda: hand.selects, 10.0, what="the panel to offer a choice")
    expected = await CHINOIS.hand_message(table, seat, user.locale)
    assert hand.content == expected.content
    assert {c.custom_id for c in (*hand.buttons, *hand.selects)} == \
        {i.custom_id for i in expected.view.children}  # type: ignore[attr-defined]
    view = table.game.view(seat)
    assert hand.ephemeral and hand.attachment(filename("hand")) is not None
    if user.locale == "fr":
        tally.french_hands += 1
        assert "Atout" in hand.content
    if view.phase is Phase.BID:
        select = component(hand, "bid", "s")
        assert select is not None, hand.content
        offered = [int(o.value) for o in select.options]
        assert offered == list(legal_bids(view))
        forbidden = view.forbidden_bid if view.dealer == seat else None
        if forbidden is not None:
            assert forbidden not in offered
            assert f"~~{forbidden}~~" in hand.content
            tally.forbidden_hidden += 1
            shots = Path("/tmp/chinois-shots")
            if shots.exists() and tally.forbidden_hidden == 3:
                (shots / f"hand-{user.locale}.png").write_bytes(hand.attachment(filename("hand")).data)
                (shots / f"hand-{user.locale}.txt").write_text(hand.content)
                table_png = table_message(world.emu, table).attachment(filename("table")).data
                (shots / "table-bidding.png").write_bytes(table_png)
        tally.bids += 1
    else:
        assert view.phase is Phase.PLAY
        shots = Path("/tmp/chinois-shots")
        if shots.exists() and tally.plays == 40:
            (shots / f"play-{user.locale}.png").write_bytes(hand.attachment(filename("hand")).data)
            (shots / f"play-{user.locale}.txt").write_text(hand.content)
            message = table_message(world.emu, table)
            (shots / "table-play.png").write_bytes(message.attachment(filename("table")).data)
            (shots / "table-play.txt").write_text(message.content)
        select = component(hand, "play", "s")
        assert select is not None, hand.content
        assert {int(o.value) for o in select.options} == {int(c) for c in legal_cards(view)}
        tally.plays += 1
    value = rng.choice(select.options).value
    seq = table.seq
    answer = await (await world.emu.select(user, hand, select.custom_id, [value])).response()
    assert table.seq > seq and answer.id == hand.id, answer.content


LIVE = ((1, 4), (16, 16), (25, 28))
"""The rounds played through Discord: the first four (each seat deals one, so both
people meet the dealer's forbidden bid), one of the four no-trump rounds of 13 cards,
and the last four, to the game's end and its records. The rounds between are played
on in the database with the bot stopped (:func:`play_outside_discord`), and a new bot
restores the table: through Discord, they would repeat the same checks for a minute of
CPU. Each restart, the people open their hand again."""


async def play_rounds(world: World, bot: Any, table: Table, last: int, users: dict[int, Any],
                      rngs: dict[int, random.Random], tally: Tally, panels: dict[int, Any],
                      *, stale_check: bool = False) -> None:
    """Play through Discord until round ``last`` is over (or the game)."""
    emu = world.emu
    for _ in range(2000):
        due = await settle(bot, table)
        if not due or len(table.game.history) >= last:
            break
        seat = due[0]
        if stale_check:
            # A hand opened twice: once the second has acted, the first is from
            # before the seat's move, and a pick on it is refused.
            first = await open_hand(world, users[seat], table)
            select = first.selects[0]
            await act_once(world, table, seat, users[seat], rngs[seat], tally, panels)
            mine = sum(a.seat == seat for a in table.game.actions)
            reply = await (await emu.select(users[seat], first, select.custom_id,
                                            [select.options[0].value])).response()
            assert reply.ephemeral
            assert reply.content == t(users[seat].locale, "error.stale")
            assert sum(a.seat == seat for a in table.game.actions) == mine
            stale_check = False
            continue
        await act_once(world, table, seat, users[seat], rngs[seat], tally, panels)
    else:
        raise AssertionError("the rounds did not end")


async def test_a_game_of_four_plays_to_the_end(world: World, tmp_path: Path) -> None:
    emu = world.emu
    db = tmp_path / "db.sqlite3"
    # alice (English) at seat 0, bob (French) at seat 2, computers between them.
    users = {0: world.users[0], 2: world.users[1]}
    rngs = {s: random.Random(s) for s in users}
    tally = Tally()
    panels: dict[int, Any] = {}
    async with running(emu, db) as bot:
        lobby, table = await open_chinois(world, bot)
        assert "Chinois" in lobby.content
        await seat_and_start(world, lobby, {0: 0, 2: 1}, {1: "easy", 3: "normal"})
        assert table.status is TableStatus.PLAYING
        table_id = table.id
        await play_rounds(world, bot, table, LIVE[0][1], users, rngs, tally, panels,
                          stale_check=True)
    for first, last in LIVE[1:]:
        await play_outside_discord(db, table_id, lambda g, r=first: g.round == r)
        panels.clear()
        async with running(emu, db) as bot:
            table = await bot.service.get(table_id)
            assert table.game.round == first
            await play_rounds(world, bot, table, last, users, rngs, tally, panels)
            if last == 28:
                await check_the_end(world, bot, table, users, tally)
    emu.assert_clean()


async def check_the_end(world: World, bot: Any, table: Table, users: dict[int, Any],
                        tally: Tally) -> None:
    emu = world.emu
    game = table.game
    assert game is not None and game.phase is Phase.GAME_OVER
    assert len(game.history) == 28
    assert table.status is TableStatus.FINISHED
    live = sum(last - first + 1 for first, last in LIVE)
    assert tally.forbidden_hidden > 0 and tally.bids == 2 * live and tally.french_hands > 0
    # Two hand messages each for the first bot (one of them for the stale check above)
    # and the refusal, then one per restart: the bot keeps each panel up to date.
    for user in users.values():
        assert len(emu.ephemerals(user)) <= 3 + len(LIVE) - 1
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
    assert sorted(r.user_id for r in rows) == sorted(u.id for u in users.values())
    assert all(r.stats.get("deals") == 28 for r in rows)
    reply = await emu.slash(world.users[1], world.channel, "chinois leaderboard")
    board = await reply.response()
    assert "alice" in board.texts[-1] and "contrats exacts" in board.texts[-1]
    rules = await (await emu.slash(world.users[1], world.channel, "chinois rules")).response()
    assert rules.ephemeral and "Le Chinois en bref" in rules.content
    if (out := Path("/tmp/chinois-shots")).exists():
        for message in (over, rounds[-1], final):
            for a in message.attachments:
                (out / f"{message.id}-{a.filename}").write_bytes(a.data)
