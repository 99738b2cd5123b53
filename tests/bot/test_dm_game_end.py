"""The end of a game at a table in direct messages (issue 53): each deal's summary, then
the result with each person's rating change, Rematch for the same people in the same
seats if all press it within a minute, and the coach's review.

What must hold: the panel at the game's end says each person's rating before and after
(or that the game was unrated); each Rematch press is stored before it is acknowledged
(a restart keeps it) and shown to everyone; when all press in time, a new table opens
in their DMs with the same seats; a press after the minute, a second press, a stranger's
press, a rematch after someone left or while someone sits at another table are each
refused with one sentence, and nothing changes (a last press whose table is then refused
is taken back); every press stored before a restart opens the rematch as the bot
starts again within the minute, or the rematch has expired after it; Review answers the
presser alone.
"""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Text, t
from bot.ratings import Rating
from bot.store.codec import format_timestamp, utc_now
from bot.store.models import TableStatus
from bot.tables import Table, TableError
from bot.tables.lobby import DirectSeat
from tests.bot.driver import component, running, settle
from tests.bot.test_coach import COACH, reply_to, stored_reviews
from tests.bot.test_direct_tables import DirectPerson, dm_messages, panel_of, people_of, play, shown
from tests.emulator.server import DiscordEmulator


def two_people(users: list[Any]) -> list[DirectSeat | str]:
    """Ana and Bruno, partners, with two computers between them."""
    return [DirectSeat(users[0].id, users[0].name, "en-US"), "easy",
            DirectSeat(users[1].id, users[1].name, "fr"), "easy"]


async def finished(bot: Any, table: Table) -> None:
    """Computers finish the game for its people (their seats stay theirs), and every
    panel shows its end."""
    await bot.service.results.finish_for_people(table, "easy")
    for _ in range(200):
        await settle(bot, table, timeout=120)
        if table.status is TableStatus.FINISHED:
            break
    assert table.status is TableStatus.FINISHED
    await shown(bot, table)


async def press(emu: DiscordEmulator, user: Any, table: Table, seat: int) -> Any:
    """Rematch on the person's DM panel, as it stands; the answer."""
    panel = panel_of(emu, table, seat)
    button = component(panel, "rematch")
    assert button is not None, panel.content
    return await (await emu.click(user, panel, button.custom_id)).response()


async def ana_pressed(emu: DiscordEmulator, bot: Any, ana: Any, bruno: Any) -> Table:
    """Ana and Bruno's game in their DMs, finished, and Ana's Rematch pressed."""
    table = await bot.service.lobby.open_direct(game="tichu", seats=two_people([ana, bruno]),
                                                options={"target": 1})
    await finished(bot, table)
    assert not (await press(emu, ana, table, 0)).ephemeral
    return table


def refused(reply: Any, locale: str, code: str) -> None:
    assert reply.ephemeral and reply.content == t(locale, f"error.{code}"), reply.content


async def test_a_game_ends_with_ratings_review_and_a_rematch_in_the_same_seats(
        emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    ana, bruno = people_of(emu)[:2]
    async with running(emu, tmp_path / "db.sqlite3", **COACH) as bot:
        table = await bot.service.lobby.open_direct(game="tichu", seats=two_people([ana, bruno]),
                                                    options={"target": 1})
        await shown(bot, table)
        people = {s: DirectPerson(emu, u, random.Random(40 + s), panel=panel_of(emu, table, s),
                                  table=table) for s, u in ((0, ana), (2, bruno))}
        for person in people.values():
            person.bot = bot
        await play(bot, table, people, lambda tb: tb.game_over)
        await settle(bot, table)
        assert table.status is TableStatus.FINISHED
        await shown(bot, table)
        deals = len(table.game.history)
        # Each person's panel: the rating before and after, for both of them.
        for seat, locale in ((0, "en-US"), (2, "fr")):
            panel = panel_of(emu, table, seat)
            assert panel.id == people[seat].panel.id  # the same message, edited
            for other in (ana, bruno):
                points = await bot.service.repo.rating_history(0, "tichu", other.id)
                assert len(points) == 1
                before, after = Rating().ordinal, points[0].ordinal
                change = after - before
                sign = "−" if change < 0 and f"{abs(change):.1f}" != "0.0" else "+"
                line = t(locale, "end.rating", name=other.name, before=f"{before:.1f}",
                         after=f"{after:.1f}", change=f"{sign}{abs(change):.1f}")
                assert line in panel.content, (line, panel.content)
            assert t(locale, "end.unrated") not in panel.content
            assert component(panel, "rematch") is not None
            assert component(panel, "review", "s") is not None
        # The DMs stay few: the panel, each deal's summary, the final sheet.
        for user in (ana, bruno):
            assert len(dm_messages(emu, user)) <= 2 + deals

        # Review: the presser's own review of the deal, for the presser alone.
        await stored_reviews(bot, table, ana)
        panel = panel_of(emu, table, 0)
        review = component(panel, "review", "s")
        before_bruno = len(emu.visible_to(bruno))
        answer = await reply_to(await emu.select(ana, panel, review.custom_id, ["0"]))
        assert answer.content.startswith(t("en-US", "coach.review_title", deal=1))
        assert answer not in emu.visible_to(bruno)
        assert len(emu.visible_to(bruno)) == before_bruno

        # Rematch: Ana presses; both panels say who asked so far.
        reply = await press(emu, ana, table, 0)
        assert reply.id == panel_of(emu, table, 0).id and not reply.ephemeral
        assert table.record.options["rematch"] == [ana.id]
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and stored.options["rematch"] == [ana.id]
        await shown(bot, table)
        for seat, locale in ((0, "en-US"), (2, "fr")):
            asked = t(locale, "end.rematch_pressed", names=ana.name, count=1, total=2)
            assert asked in panel_of(emu, table, seat).content
        refused(await press(emu, ana, table, 0), "en-US", "rematch_repeat")
        assert table.record.options["rematch"] == [ana.id]
        # Bruno presses: the same people in the same seats, the computers in theirs.
        reply = await press(emu, bruno, table, 2)
        assert not reply.ephemeral
        new_id = table.record.options["rematch_table"]
        new = await bot.service.core.get(new_id)
        assert new.id != table.id and new.direct and new.status is TableStatus.PLAYING
        assert [(s.user_id, s.bot_level) for s in new.seats] == \
            [(ana.id, None), (None, "easy"), (bruno.id, None), (None, "easy")]
        assert new.record.options["target"] == 1 and new.record.options["rated"] is True
        await shown(bot, new)
        for seat, user in ((0, ana), (2, bruno)):
            fresh = panel_of(emu, new, seat)
            assert fresh.channel_id == emu.dm_channel(user).id
            assert fresh.id != panel_of(emu, table, seat).id
        await shown(bot, table)
        old = panel_of(emu, table, 0)
        assert t("en-US", "end.rematch_open") in old.content
        assert component(old, "rematch") is None
    emu.assert_clean()


async def test_refusals_change_nothing(emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    users = people_of(emu)
    ana, bruno, chen = users[0], users[1], users[2]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await bot.service.lobby.open_direct(
            game="tichu", seats=two_people([ana, bruno]), rated=False, options={"target": 1})
        await finished(bot, table)
        assert t("en-US", "end.unrated") in panel_of(emu, table, 0).content
        assert t("fr", "end.unrated") in panel_of(emu, table, 2).content
        ends_at = await bot.service.rematch.ends_at(table)
        assert ends_at is not None
        when = t("en-US", "end.rematch_ask", when=Text(f"<t:{int(ends_at)}:T>"))
        assert when in panel_of(emu, table, 0).content

        # A stranger sends the Rematch of the table from a message of their own.
        guild = emu.add_guild("Elsewhere", locale="en-US")
        channel = emu.add_text_channel(guild, "general")
        emu.add_member(guild, chen)
        post = await emu.post(chen, channel, "hello")
        rematch = component(panel_of(emu, table, 0), "rematch").custom_id
        reply = await (await emu.forged_click(chen, post, rematch)).response()
        refused(reply, "en-GB", "forged")  # no Rematch of theirs: the control is not one

        # Bruno sits at another live table: no rematch while he plays there.
        other = await bot.service.lobby.open_direct(
            game="tichu", seats=[DirectSeat(bruno.id, bruno.name, "fr"), "easy", "easy",
                                 "easy"], options={"target": 1})
        await shown(bot, other)
        refused(await press(emu, ana, table, 0), "en-US", "rematch_busy")
        assert "rematch" not in table.record.options
        await bot.service.lobby.abandon(other.id, bruno.id, can_manage=True)

        reply = await press(emu, ana, table, 0)
        assert not reply.ephemeral and table.record.options["rematch"] == [ana.id]
        # The minute passes (the rematch's clock), and Bruno presses too late.
        bot.service.rematch.clock = lambda: ends_at + 1
        before = dict(table.record.options)
        refused(await press(emu, bruno, table, 2), "fr", "rematch_expired")
        assert table.record.options == before
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and stored.options["rematch"] == [ana.id]
        assert "rematch_table" not in stored.options
    emu.assert_clean()


async def test_no_rematch_after_someone_left(emulator: DiscordEmulator,
                                             tmp_path: Path) -> None:
    emu = emulator
    ana, bruno = people_of(emu)[:2]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await bot.service.lobby.open_direct(game="tichu", seats=two_people([ana, bruno]),
                                                    options={"target": 1})
        await shown(bot, table)
        await bot.service.seats.leave_game(table.id, bruno.id)
        await finished(bot, table)
        assert table.seats[2].user_id is None
        refused(await press(emu, ana, table, 0), "en-US", "rematch_left")
        assert "rematch" not in table.record.options
        # Bruno's panel of the game he left offers no Rematch.
        assert component(panel_of(emu, table, 2), "rematch") is None
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and "rematch" not in stored.options
    emu.assert_clean()


async def test_a_press_survives_a_restart(emulator: DiscordEmulator, tmp_path: Path) -> None:
    emu = emulator
    db = tmp_path / "db.sqlite3"
    ana, bruno = people_of(emu)[:2]
    async with running(emu, db) as bot:
        table = await ana_pressed(emu, bot, ana, bruno)
        table_id = table.id
    # The bot stops within the minute, and starts again.
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert table.status is TableStatus.FINISHED
        assert table.record.options["rematch"] == [ana.id]
        ends_at = await bot.service.rematch.ends_at(table)
        assert ends_at is not None
        bot.service.rematch.clock = lambda: ends_at - 1  # still within the minute
        reply = await press(emu, bruno, table, 2)
        assert not reply.ephemeral
        new = await bot.service.core.get(table.record.options["rematch_table"])
        assert [s.user_id for s in new.seats] == [ana.id, None, bruno.id, None]
        await shown(bot, new)
        assert panel_of(emu, new, 0).channel_id == emu.dm_channel(ana).id
    emu.assert_clean()


async def test_a_refused_opening_takes_the_last_press_back(emulator: DiscordEmulator,
                                                           tmp_path: Path) -> None:
    """The last press, whose table is then refused as it starts, is taken back before
    the refusal is answered: the options are as before it, in memory and stored, and
    a press once the refusal is gone opens the rematch."""
    emu = emulator
    ana, bruno = people_of(emu)[:2]
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await ana_pressed(emu, bot, ana, bruno)

        async def full(new: Table) -> None:
            """A check of the new table's start (as a duplicate board's claim) refuses it."""
            raise TableError("too_many_tables", limit=1)

        bot.service.lobby.start_checks.append(full)
        before = dict(table.record.options)
        live = {x.id for x in bot.service.core.tables.values() if x.status.is_active}
        reply = await press(emu, bruno, table, 2)
        assert reply.ephemeral and reply.content == t("fr", "error.too_many_tables", limit=1)
        assert table.record.options == before and before["rematch"] == [ana.id]
        stored = await bot.service.repo.load_table(table.id)
        assert stored is not None and stored.options == before
        # The table opened for it was abandoned at once: nobody sits at a new live table.
        assert {x.id for x in bot.service.core.tables.values() if x.status.is_active} == live
        bot.service.lobby.start_checks.remove(full)
        assert not (await press(emu, bruno, table, 2)).ephemeral
        new = await bot.service.core.get(table.record.options["rematch_table"])
        assert [s.user_id for s in new.seats] == [ana.id, None, bruno.id, None]
        await shown(bot, new)
    emu.assert_clean()


async def every_press_stored_then_a_restart(emu: DiscordEmulator, db: Path,
                                            ana: Any, bruno: Any) -> int:
    """Ana presses; Bruno's press is stored and the bot stops before the rematch opens
    (as a crash there leaves it). The table's id."""
    async with running(emu, db) as bot:
        table = await ana_pressed(emu, bot, ana, bruno)
        async with bot.service.core.hold(table):
            await bot.service.core.set_options(table, rematch=[ana.id, bruno.id])
        return table.id


@pytest.mark.parametrize("down", ["seconds", "two minutes"])
async def test_a_rematch_everyone_pressed_before_a_restart(
        emulator: DiscordEmulator, tmp_path: Path, down: str) -> None:
    """Back within the minute, the rematch opens as the bot starts, without a press;
    after it, the rematch has expired."""
    emu = emulator
    db = tmp_path / "db.sqlite3"
    ana, bruno = people_of(emu)[:2]
    table_id = await every_press_stored_then_a_restart(emu, db, ana, bruno)
    if down == "seconds":
        async with running(emu, db) as bot:
            table = await bot.service.core.get(table_id)
            assert table.record.options["rematch"] == [ana.id, bruno.id]
            new = await bot.service.core.get(table.record.options["rematch_table"])
            assert [s.user_id for s in new.seats] == [ana.id, None, bruno.id, None]
            await shown(bot, new)
            assert panel_of(emu, new, 2).channel_id == emu.dm_channel(bruno).id
            await shown(bot, table)
            assert t("en-US", "end.rematch_open") in panel_of(emu, table, 0).content
            assert component(panel_of(emu, table, 0), "rematch") is None
        emu.assert_clean()
        return
    # The bot is down for two minutes: the game and the presses are that much older.
    with closing(sqlite3.connect(db)) as conn, conn:
        for sql in ("UPDATE games SET finished_at = ? WHERE table_id = ?",
                    "UPDATE tables SET updated_at = ? WHERE id = ?"):
            conn.execute(sql, (format_timestamp(utc_now() - timedelta(minutes=2)), table_id))
    async with running(emu, db) as bot:
        table = await bot.service.core.get(table_id)
        assert "rematch_table" not in table.record.options
        assert not [x for x in bot.service.core.tables.values() if x.status.is_active]
        before = dict(table.record.options)
        refused(await press(emu, bruno, table, 2), "fr", "rematch_expired")
        assert table.record.options == before
    emu.assert_clean()
