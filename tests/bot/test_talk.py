"""Talk at tables in direct messages (issue 53): a fixed set of phrases, no free text.

What must hold: a phrase chosen on one's DM panel is a line of the table's log, shown to
each reader in their own language (stored by key, never as text); it is stored before it
is acknowledged, so a restarted bot shows it still; a person says one phrase every few
seconds and a capped number a game (past it one sentence, nothing written); a forged
value, a phrase the game does not offer, or a stranger changes nothing; "thanks,
partner" is offered only where teams play.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.games.shared import display_name
from bot.i18n import t
from bot.tables import Table, TableError
from bot.tables.lobby import DirectSeat
from bot.tables.phrases import PHRASES, TEAM_PHRASES
from bot.tables.talk import TALK_GAP
from bot.views.surfaces import with_talk
from tests.bot.driver import component, running, settle, values_of
from tests.bot.test_direct_tables import panel_of, shown
from tests.emulator.server import DiscordEmulator

LOCALES = ("en-US", "fr", "el", "de")


class Clock:
    """The talk's wall clock, moved by the test alone."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def readers(emu: DiscordEmulator) -> list[Any]:
    """Four people reading four languages, two from servers, two from none."""
    users = []
    for index, (name, locale) in enumerate(zip(("ana", "bruno", "chen", "dora"), LOCALES,
                                               strict=True)):
        user = emu.add_user(name, locale=locale)
        if index < 2:
            emu.add_member(emu.add_guild(f"Server {index}", locale=locale), user)
        users.append(user)
    return users


async def open_tichu(bot: Any, users: list[Any]) -> Table:
    table = await bot.service.lobby.open_direct(
        game="tichu", seats=[DirectSeat(u.id, u.name, u.locale) for u in users],
        options={"target": 200})
    await shown(bot, table)
    return table


def line_of(table: Table, seat: int, phrase: str, locale: str) -> str:
    """The log line of ``seat`` saying ``phrase``, as a reader of ``locale`` sees it."""
    return t(locale, "log.talk", name=display_name(table, seat, locale),
             phrase=t(locale, f"talk.{phrase}"))


async def say(emu: DiscordEmulator, user: Any, panel: Any, phrase: str) -> Any:
    menu = component(panel, "talk", "s")
    assert menu is not None, "the DM panel has no Say… menu"
    return await (await emu.select(user, panel, menu.custom_id, [phrase])).response()


async def test_a_phrase_is_shown_to_each_reader_in_their_own_language(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    db = tmp_path / "db.sqlite3"
    users = readers(emu)
    async with running(emu, db) as bot:
        clock = bot.service.talk.clock = Clock()
        table = await open_tichu(bot, users)
        panels = [panel_of(emu, table, s) for s in range(4)]
        # The menu offers every phrase (Tichu is played by teams), in the reader's words.
        for seat, panel in enumerate(panels):
            menu = component(panel, "talk", "s")
            assert menu is not None and values_of(menu) == list(PHRASES)
            assert [o.label for o in menu.options] == [t(LOCALES[seat], f"talk.{p}")
                                                      for p in PHRASES]
        edited = bot.presenter.direct.edited
        # Bruno (French) wishes luck: his own panel shows it at once, in French.
        answer = await say(emu, users[1], panels[1], "gl")
        assert answer.id == panels[1].id
        assert line_of(table, 1, "gl", "fr") in answer.content
        # The line is stored by key, never as text.
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None
        assert [(x.seat, x.user_id, x.phrase) for x in stored.talk] == [(1, users[1].id, "gl")]
        await shown(bot, table)
        for seat, locale in enumerate(LOCALES):
            assert line_of(table, 1, "gl", locale) in panel_of(emu, table, seat).content
        # The others' panels took it in one edit each (the talker's own: the answer).
        assert bot.presenter.direct.edited - edited <= 3
        clock.now += TALK_GAP
        await say(emu, users[2], panels[2], "hello")
        await shown(bot, table)
        for seat, locale in enumerate(LOCALES):
            content = panel_of(emu, table, seat).content
            assert line_of(table, 2, "hello", locale) in content
            assert content.index(line_of(table, 1, "gl", locale)) < \
                content.index(line_of(table, 2, "hello", locale))
        table_id = table.id
    # A restart keeps the lines: the same panels show them, in order, in each language.
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        await shown(bot, table)
        assert [x.phrase for x in table.talk] == ["gl", "hello"]
        for seat, locale in enumerate(LOCALES):
            expected = await bot.presenter.direct.panel(table, seat, locale)
            assert line_of(table, 1, "gl", locale) in expected.content
            assert line_of(table, 2, "hello", locale) in expected.content
            assert panel_of(emu, table, seat).id == panels[seat].id
        # And the menu still works after it.
        answer = await say(emu, users[3], panel_of(emu, table, 3), "wp")
        assert line_of(table, 3, "wp", "de") in answer.content
    emu.assert_clean()


async def test_the_pace_and_the_cap_write_nothing_past_them(
        emulator: DiscordEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = emulator
    users = readers(emu)
    monkeypatch.setattr("bot.tables.talk.TALK_PER_GAME", 3)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        clock = bot.service.talk.clock = Clock()
        table = await open_tichu(bot, users)
        panel = panel_of(emu, table, 1)
        assert (await say(emu, users[1], panel, "gl")).id == panel.id
        # Too soon after the last: one sentence in the person's language, nothing written.
        clock.now += TALK_GAP - 1
        refusal = await say(emu, users[1], panel, "nice")
        assert refusal.ephemeral
        assert refusal.content == t("fr", "error.talk_pace", seconds=int(TALK_GAP))
        assert [x.phrase for x in table.talk] == ["gl"]
        # Someone else may talk meanwhile: the pace is each person's.
        assert (await say(emu, users[0], panel_of(emu, table, 0), "thanks")).id != refusal.id
        clock.now += 1
        assert (await say(emu, users[1], panel, "nice")).id == panel.id
        clock.now += TALK_GAP
        assert (await say(emu, users[1], panel, "wp")).id == panel.id
        # Three said: the cap of this game (3 here). Past it, nothing is written.
        clock.now += 10 * TALK_GAP
        refusal = await say(emu, users[1], panel, "gg")
        assert refusal.ephemeral and refusal.content == t("fr", "error.talk_cap", limit=3)
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None
        assert [(x.user_id, x.phrase) for x in stored.talk] == [
            (users[1].id, "gl"), (users[0].id, "thanks"), (users[1].id, "nice"),
            (users[1].id, "wp")]
        await settle(bot, table)
    emu.assert_clean()


async def test_forged_talk_changes_nothing(emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    users = readers(emu)
    stranger = emu.add_user("eve", locale="en-US")
    guild = emu.add_guild("Elsewhere", locale="en-US")
    channel = emu.add_text_channel(guild, "general")
    emu.add_member(guild, stranger)
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        bot.service.talk.clock = Clock()
        table = await open_tichu(bot, users)
        panel = panel_of(emu, table, 2)
        menu = component(panel, "talk", "s")
        assert menu is not None
        before = panel.content
        # Values the menu never offers: free text, none, two at once.
        for values in (["Buy cheap gold!"], [], ["gl", "wp"], ["GL"]):
            reply = await (await emu.forged_click(users[2], panel, menu.custom_id,
                                                  values=values)).response()
            assert reply.ephemeral and reply.content == t("el", "error.forged_direct")
        # A stranger cannot talk at the table: not from a server (a DM table's control
        # there is forged) …
        post = await emu.post(stranger, channel, "hello")
        reply = await (await emu.forged_click(stranger, post, menu.custom_id,
                                              values=["gl"])).response()
        assert reply.ephemeral and reply.content == t("en-US", "error.forged")
        # … nor down the table's own path.
        with pytest.raises(TableError) as refused:
            await bot.service.talk.say(table.id, stranger.id, "gl")
        assert refused.value.code == "not_seated"
        await settle(bot, table)
        assert table.talk == [] and panel.content == before
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and stored.talk == []
        # Chinois is played alone: no "thanks, partner", and a forged one is refused.
        chinois = await bot.service.lobby.open_direct(
            game="chinois", seats=[DirectSeat(users[0].id, "ana", "en-US"), "easy",
                                   DirectSeat(users[3].id, "dora", "de"), "easy"])
        await shown(bot, chinois)
        panel = panel_of(emu, chinois, 2)
        menu = component(panel, "talk", "s")
        assert menu is not None
        assert values_of(menu) == [p for p in PHRASES if p not in TEAM_PHRASES]
        reply = await (await emu.forged_click(users[3], panel, menu.custom_id,
                                              values=["partner"])).response()
        assert reply.ephemeral and reply.content == t("de", "error.forged_direct")
        assert chinois.talk == []
        answer = await say(emu, users[3], panel, "gl")
        assert line_of(chinois, 2, "gl", "de") in answer.content
    emu.assert_clean()


def _rows_of_buttons(rows: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row in range(rows):
        view.add_item(discord.ui.Button(label=f"b{row}", custom_id=f"b{row}", row=row))
    return view


async def test_the_menu_takes_a_free_row_and_only_a_free_row(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    """A select needs a row of its own: with four rows used, the menu comes fifth; with
    all five used by the seat's decision, the panel goes without it on this drawing."""
    users = readers(emulator)
    async with running(emulator, tmp_path / "db.sqlite3") as bot:
        table = await open_tichu(bot, users)
        four = with_talk(_rows_of_buttons(4), table, "en-US")
        assert [len(row["components"]) for row in four.to_components()] == [1, 1, 1, 1, 1]
        assert four.to_components()[4]["components"][0]["type"] == 3
        five = with_talk(_rows_of_buttons(5), table, "en-US")
        assert len(five.children) == 5 and all(
            isinstance(item, discord.ui.Button) for item in five.children)
