"""Whole games through the local Discord: commands, lobby, hands, play, results."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.i18n import language, t
from bot.render import filename
from bot.store.models import TableStatus
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, running, settle, table_message

PUBLIC_IMAGES = {filename("table"), filename("deal"), filename("game-over")}


async def play_until_over(world: World, bot, table, people, *, check=None) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5000):
        due = await settle(bot, table)
        if not due:
            return
        await people[due[0]].act(table_message(world.emu, table))
        if check is not None:
            await check()
    raise AssertionError("the game did not end")


def assert_hands_private(world: World, table) -> None:  # type: ignore[no-untyped-def]
    """No hand image in public; every ephemeral card menu offers only its owner's cards."""
    game = table.game
    for message in world.emu.messages.values():
        if not message.ephemeral:
            assert {a.filename for a in message.attachments} <= PUBLIC_IMAGES
            continue
        seat = table.seat_of(message.ephemeral_user_id)
        if seat is None:
            assert not message.attachments
            continue
        held = {int(c) for c in game.dealt[seat]} | {int(c) for c in game.received[seat].values()}
        for select in message.selects:
            if ":ex:" in select.custom_id or ":cards" in select.custom_id:
                assert {int(o.value) for o in select.options} <= held


@pytest.mark.parametrize(("server", "locales"), [
    ("en-US", ("en-US", "fr", "en-GB", "fr")),
    ("el", ("de", "el", "de", "el")),  # a Greek server, people reading German and Greek
])
async def test_four_people_play_a_whole_game(world: World, tmp_path: Path, server: str,
                                             locales: tuple[str, ...]) -> None:
    world.guild.locale = server
    for user, locale in zip(world.users, locales, strict=True):
        user.locale = locale
    async with running(world.emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot, target=100)
        assert language(table.record.locale) == language(server)
        assert t(server, "lobby.help.tichu") in lobby.content
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        assert table.status is TableStatus.PLAYING
        people = {s: Person(world.emu, world.users[s], random.Random(s)) for s in range(4)}

        async def check() -> None:
            # Checked through the first deal, while every menu sent belongs to it.
            if table.game is not None and table.game.deal_number == 0:
                assert_hands_private(world, table)

        await play_until_over(world, bot, table, people, check=check)
        assert table.game is not None and table.game.phase is Phase.GAME_OVER
        assert table.status is TableStatus.FINISHED
        final = table_message(world.emu, table)
        assert not final.buttons  # a finished table offers nothing to click
        public = world.emu.channel_messages(table.channel_id)
        assert any(a.filename == filename("game-over") for m in public for a in m.attachments)
        for message in public:
            assert {a.filename for a in message.attachments} <= PUBLIC_IMAGES
        rows = await bot.service.repo.leaderboard(world.guild.id, "tichu")
        assert sorted(r.user_id for r in rows) == sorted(u.id for u in world.users)
        winners = {r.user_id for r in rows if r.wins}
        assert len(winners) == 2
        over = t(server, "table.game_over", names="", scores="").split("**")[0]
        assert any(m.content.startswith(over) for m in public)  # in the server's language
        reply = await world.emu.slash(world.users[0], world.channel, "tichu leaderboard")
        board = await reply.response()
        assert "alice" in board.texts[-1]
    world.emu.assert_clean()


async def test_two_people_and_two_computers_play_a_whole_game(world: World,
                                                              tmp_path: Path) -> None:
    async with running(world.emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot, target=200)
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "easy", 3: "normal"})
        assert table.status is TableStatus.PLAYING
        assert table.record.thread_id is not None  # the table plays in its own thread
        people = {0: Person(world.emu, world.users[0], random.Random(1)),
                  2: Person(world.emu, world.users[1], random.Random(2))}
        await play_until_over(world, bot, table, people)
        assert table.status is TableStatus.FINISHED
        rows = await bot.service.repo.leaderboard(world.guild.id, "tichu")
        assert {r.user_id for r in rows} == {world.users[0].id, world.users[1].id}
        stats = await world.emu.slash(world.users[1], world.channel, "tichu stats")
        text = (await stats.response()).texts
        assert any("Parties" in t for t in text)  # bob reads French
    world.emu.assert_clean()
