"""The coach through the local Discord, people acting from their panels: hints at a
practice table in both languages, refused elsewhere and when there is nothing to decide;
each person's review of a deal from the deal's summary and from the history, computed
in the background and stored; nothing in either about another seat's hidden cards."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.games.tichu import coach as coach_module
from bot.i18n import LANGUAGES, t
from bot.i18n.names import card_label
from bot.store.models import TableStatus
from bot.tables import Table, TableError
from engine.errors import EngineError
from engine.review import KINDS, REASONS
from engine.tichu.actions import Exchange
from engine.tichu.cards import DECK
from engine.tichu.view import Phase
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import Person, component, running, settle, table_message

COACH = {"field_processes": 0}


def cards_named(text: str) -> set[int]:
    """The cards ``text`` names (in any language); the coach's own words that name a
    card as a thing of the game ("the Dragon's gift") do not count."""
    for lang in LANGUAGES:
        for words in (*(t(lang, f"coach.kind.{k}") for k in KINDS),
                      t(lang, "coach.do.gift", name="\0").split("\0")[0]):
            text = text.replace(words, " ")
    labels = {card_label(lang, int(c)): int(c) for lang in LANGUAGES for c in DECK}
    words = text.replace(",", " ").replace("(", " ").replace(")", " ").replace("·", " ").split()
    return {labels[w] for w in words if w in labels}


async def reply_to(handle: Any) -> Any:
    message = await handle.response()
    assert message.ephemeral
    return message


async def review_messages(emu: Any, user: Any, first: Any, count: int) -> list[Any]:
    """The review's messages from ``first`` on: one per decision shown, each with one
    picture (two images in one message would be cropped into a mosaic)."""
    def found() -> list[Any]:
        return [m for m in emu.ephemerals(user) if m.id >= first.id
                and any(a.filename.startswith("review-") for a in m.attachments)]

    await emu.wait_for(lambda: len(found()) >= count, 60, what="the review's messages")
    return found()


async def play_until(bot: Any, table: Table, people: dict[int, Person], done: Any,
                     limit: int = 600) -> None:
    """The people play from their panels until ``done()`` (or the game ends)."""
    for _ in range(limit):
        due = await settle(bot, table, timeout=60)
        if done() or not due:
            return
        await people[due[0]].act()
    raise AssertionError("the table did not get there")


async def test_hints_at_a_practice_table_in_both_languages(world: World,
                                                           tmp_path: Path) -> None:
    emu = world.emu
    alice, bob = world.users[0], world.users[1]  # en, fr
    async with running(emu, tmp_path / "db.sqlite3", **COACH) as bot:
        lobby, table = await open_lobby(world, bot, practice=True)
        assert t("en", "lobby.practice") in lobby.content
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "easy", 3: "easy"})
        people = {0: Person(emu, alice, random.Random(1), table=table),
                  2: Person(emu, bob, random.Random(2), table=table)}
        await settle(bot, table)
        # The Grand Tichu decision: each person asks for a hint from their panel.
        message = table_message(emu, table)
        for person, lang in ((people[0], "en"), (people[2], "fr")):
            panel = await person.open_hand(message)
            hint = component(panel, "hint")
            assert hint is not None and hint.label == t(lang, "button.hint")
            answer = await reply_to(await emu.click(person.user, panel, hint.custom_id))
            assert answer.content.startswith(t(lang, "coach.hint_title"))
            assert t(lang, "coach.hint_best", option="").split("**")[0] in answer.content
            assert any(answer.content.endswith(t(lang, f"coach.reason.{r}"))
                       for r in REASONS)
        # Alice keeps an older panel open, decides from a new one, then asks on the old
        # one: she has nothing to decide now.
        old = people[0].panel
        await people[0].open_hand(message)
        await people[0].act()
        assert table.game.view(0).grand_decided[0]
        refused = await reply_to(await emu.click(alice, old, component(old, "hint").custom_id))
        assert refused.content == t("en", "error.hint_no_decision")
        assert table.game.view(0).grand_decided[0]  # nothing else changed

        # On in the play: a hint on Alice's turn (with a choice) names only her cards.
        def alice_plays() -> bool:
            return table.game.phase is Phase.PLAY and table.game.turn == 0 \
                and coach_module.has_decision(table, 0)
        await play_until(bot, table, people, alice_plays)
        assert alice_plays()
        panel = people[0].panel  # the panel she plays from, kept up to date by the bot
        await emu.wait_for(lambda: component(panel, "hint") is not None, 10.0,
                           what="the Hint button on her turn")
        hand = {int(c) for c in table.game.hands[0]}
        answer = await reply_to(await emu.click(alice, panel,
                                                component(panel, "hint").custom_id))
        assert answer.content.startswith(t("en", "coach.hint_title"))
        assert cards_named(answer.content) <= hand
        assert table.status is TableStatus.PLAYING
    emu.assert_clean()


async def test_no_hints_at_a_rated_table_nor_practice_duplicate(world: World,
                                                                tmp_path: Path) -> None:
    emu = world.emu
    alice = world.users[0]
    async with running(emu, tmp_path / "db.sqlite3", **COACH) as bot:
        lobby, table = await open_lobby(world, bot)
        await seat_and_start(world, lobby, [0, None, None, None],
                             {1: "easy", 2: "easy", 3: "easy"})
        await settle(bot, table)
        panel = await open_hand_of(emu, alice, table)
        assert component(panel, "hint") is None
        # A Hint forged onto the panel is refused before it reaches the coach, and the
        # coach itself refuses a hint at this table.
        forged = f"tichu:b:{table.id}:-:hint"
        refused = await reply_to(await emu.forged_click(alice, panel, forged))
        assert refused.content == t("en", "error.forged")
        with pytest.raises(TableError) as caught:
            await bot.coach.hint(table, alice.id, "en")
        assert caught.value.code == "hint_not_here"
        await emu.wait_for_commands(["tichu"])
        both = await (await emu.slash(alice, world.channel, "tichu new", practice=True,
                                      duplicate=2)).response()
        assert both.content == t("en", "error.practice_duplicate")
    emu.assert_clean()


async def open_hand_of(emu: Any, user: Any, table: Table) -> Any:
    button = component(table_message(emu, table), "hand")
    assert button is not None
    return await (await emu.click(user, table_message(emu, table), button.custom_id)).response()


async def stored_reviews(bot: Any, table: Table, user: Any) -> list[Any]:
    """The person's stored reviews at the table, once the first is stored."""
    repo = bot.service.repo
    for _ in range(12000):
        found = await repo.user_reviews(table.id, user.id)
        if found:
            return list(found)
        await asyncio.sleep(0.01)
    raise AssertionError("no review was stored")


async def test_a_review_after_each_deal_and_from_the_history(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    alice, bob, dave = world.users[0], world.users[1], world.users[3]  # en, fr, fr
    # The reviews wait until the test lets them go: a click before one is stored is
    # told to come back, deterministically.
    release = threading.Event()
    real_job = coach_module.review_job

    def held_job(*args: Any) -> Any:
        release.wait(120)
        return real_job(*args)

    monkeypatch.setattr(coach_module, "review_job", held_job)
    async with running(emu, tmp_path / "db.sqlite3", **COACH) as bot:
        lobby, table = await open_lobby(world, bot, practice=True, target=50)
        await seat_and_start(world, lobby, [0, None, 1, None], {1: "easy", 3: "easy"})
        people = {0: Person(emu, alice, random.Random(3), table=table),
                  2: Person(emu, bob, random.Random(4), table=table)}
        dealt = [int(c) for c in table.game.dealt[0]]
        await play_until(bot, table, people, lambda: bool(table.game.history))
        await settle(bot, table)
        summary = next(m for m in emu.channel_messages(table.channel_id)
                       if component(m, "review") is not None)
        button = component(summary, "review", arg="0")
        assert button is not None and button.label == t("en", "button.review")

        pending = await reply_to(await emu.click(alice, summary, button.custom_id))
        assert pending.content == t("en", "error.review_pending")
        stranger = await reply_to(await emu.click(dave, summary, button.custom_id))
        assert stranger.content == t("fr", "error.review_not_yours")  # Dave reads French
        release.set()
        stored = await stored_reviews(bot, table, alice)
        assert [(r.deal, r.seat) for r in stored] == [(0, 0)]

        review = await reply_to(await emu.click(alice, summary, button.custom_id))
        assert review.content.startswith(t("en", "coach.review_title", deal=1))
        shown = coach_module.shown_decisions(stored[0].review)
        pictures = await review_messages(emu, alice, review, len(shown))
        assert [len(m.attachments) for m in pictures] == [1] * len(shown)
        assert pictures[0].id == review.id  # the first decision goes with the title
        # Only her own cards: those dealt to her and those she was passed.
        assert {int(c) for c in table.game.deal_log[0][0][0]} == set(dealt)
        for decision in stored[0].review["decisions"]:
            assert decision["seat"] == 0
        assert cards_named(review.content) <= set(dealt) | received_in_exchange(table, 0)
        # Bob's own review, in French, of his own seat.
        bobs = await stored_reviews(bot, table, bob)
        assert [(r.deal, r.seat) for r in bobs] == [(0, 2)]
        french = await reply_to(await emu.click(bob, summary, button.custom_id))
        assert french.content.startswith(t("fr", "coach.review_title", deal=1))
        bob_cards = {int(c) for c in table.game.deal_log[0][0][2]}
        assert cards_named(french.content) <= bob_cards | received_in_exchange(table, 2)

        # The game goes on to its end; its history offers the review of each deal.
        await play_until(bot, table, people, lambda: table.game_over)
        await settle(bot, table)
        history = await (await emu.slash(alice, world.channel, "tichu history")).response()
        games = await bot.service.repo.recent_games(world.guild.id, "tichu")
        assert games and not games[0].rated  # a practice game moves no rating
        select = component(history, "hgame", "s")
        opened = await reply_to(await emu.select(alice, history, select.custom_id,
                                                 [str(games[0].id)]))
        deals = component(opened, "review", "s")
        assert deals is not None
        again = await reply_to(await emu.select(alice, opened, deals.custom_id, ["0"]))
        assert again.content == review.content
    emu.assert_clean()


def received_in_exchange(table: Table, seat: int) -> set[int]:
    """The cards ``seat`` was passed in the first deal's exchange."""
    found: set[int] = set()
    for action in table.game.deal_log[0][1]:
        if isinstance(action, Exchange) and action.seat != seat:
            found |= {int(c) for target, c in action.give if target == seat}
    return found



async def test_a_review_that_cannot_be_made_says_so_once_and_for_all(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review job the engine refuses (a replay it cannot read) fails for good: the person
    is told so in their language, not "being prepared" forever, and it is not made again."""
    emu = world.emu
    alice = world.users[0]
    calls: list[int] = []

    def unreadable(data: Any, seat: int, *_: Any) -> Any:
        calls.append(seat)
        raise EngineError("this replay cannot be read")

    monkeypatch.setattr(coach_module, "review_job", unreadable)
    async with running(emu, tmp_path / "db.sqlite3", **COACH) as bot:
        lobby, table = await open_lobby(world, bot, practice=True, target=50)
        await seat_and_start(world, lobby, [0, None, None, None],
                             {1: "easy", 2: "easy", 3: "easy"})
        people = {0: Person(emu, alice, random.Random(5), table=table)}
        await play_until(bot, table, people, lambda: bool(table.game.history))
        await settle(bot, table)
        await bot.jobs.idle()
        summary = next(m for m in emu.channel_messages(table.channel_id)
                       if component(m, "review") is not None)
        button = component(summary, "review", arg="0")
        for _ in range(2):
            refused = await reply_to(await emu.click(alice, summary, button.custom_id))
            assert refused.content == t("en", "error.review_failed")
        await bot.jobs.idle()
        assert calls == [0]
        assert await bot.service.repo.user_reviews(table.id, alice.id) == []
    emu.assert_clean()
