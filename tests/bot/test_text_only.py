"""A whole Tichu deal played by four people who never look at a picture.

"The table message's text and the alt text together let a person who cannot see the
picture play the whole game." Each person here reads only words: the messages'
contents, the pictures' descriptions (their alt text, which a screen reader reads) and
the labels of the buttons and menus of their hand panel. From them alone they find out
whose turn it is, and decide: never a Grand Tichu, the first cards offered in the
exchange, the lowest combination the play menu names (the menu lists the legal plays,
lowest first), else a pass; no wish; the first reading of the Phoenix; the Dragon's
trick to the first opponent offered.

Along the way the test checks the words against the engine: the public table's
description names whose turn it is (or who must still decide), each seat's card count
(or its place out) and the play on top, as the public view has them; each panel's
description names the seat's own cards, and the public one none that is still in a
hand. People read in their own language (two of them
in French); the table speaks the server's (English).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.games.shared import count_cards, place_said
from bot.i18n import t
from bot.i18n.names import card_label, combo_name
from bot.render import filename
from engine.tichu.view import Phase, TichuView
from tests.bot.conftest import World, open_lobby, seat_and_start
from tests.bot.driver import running, settle, table_message

SEED = "text-only-7"
EXCERPT = 40
"""How many lines of what the people read the test prints (``pytest -s`` shows them)."""


def first_sentence(words: str) -> str:
    return words.split(". ")[0]


def check_table_words(words: str, public: TichuView, names: list[str], locale: str) -> None:
    """The public table's description says what the public view holds: whose turn it is
    (or who must still decide), each seat's card count or place out, the play on top."""
    assert public.seat is None
    if public.phase is Phase.PLAY:
        assert public.turn is not None
        key = "alt.tichu.turn" if public.trick else "alt.tichu.lead"
        assert words.startswith(t(locale, key, name=names[public.turn])), words
    elif public.phase is Phase.GIFT:
        assert public.turn is not None
        assert words.startswith(t(locale, "alt.tichu.gift", name=names[public.turn])), words
    for seat in range(public.n_seats):
        held = t(locale, "alt.tichu.out", place=place_said(locale, public.out.index(seat) + 1)) \
            if seat in public.out else count_cards(locale, public.hand_counts[seat])
        said = t(locale, "alt.tichu.seat", name=names[seat], team=t(locale, f"team.{seat % 2}"),
                 state=held).removesuffix(".")
        assert said in words, (said, words)
    if public.trick:
        top = public.trick[-1]
        assert t(locale, "alt.tichu.played", name=names[top.seat],
                 combo=combo_name(locale, top.combo)) in words, words


@dataclass
class Reader:
    """A person who reads their hand panel and acts from its words alone."""

    emu: Any
    user: Any
    transcript: list[str]
    panel: Any = None
    refusals: list[str] = field(default_factory=list)
    decisions: int = 0

    def say(self, key: str, **values: Any) -> str:
        """A sentence or a label as this person's Discord shows it, in their language."""
        return str(t(self.user.locale, key, **values))

    def read(self) -> str:
        """Everything of the panel a screen reader reads: its text, its picture's
        description, its buttons and its menus."""
        panel = self.panel
        described = [a.description or "" for a in panel.attachments]
        buttons = [b.label for b in panel.buttons if b.label and not b.disabled]
        menus = [f"{s.placeholder} [{'; '.join(o.label for o in s.options[:6])}"
                 f"{'; …' if len(s.options) > 6 else ''}]" for s in panel.selects]
        return " | ".join([panel.content.replace("\n", " / "), *described,
                           "buttons: " + ", ".join(buttons), *menus])

    async def open(self, message: Any, locale: str) -> None:
        """"My hand" on the table message (its buttons speak the server's ``locale``)."""
        reply = await self.emu.click(self.user, message, label=t(locale, "button.my_hand"))
        self.panel = await reply.response()

    def choice(self) -> tuple[str, Any, str | None] | None:
        """What the panel's words offer this person now: ``("click", label, None)``,
        ``("select", menu, option label)``, ``("exchange", None, None)``; None: wait."""
        panel = self.panel
        buttons = [b.label for b in panel.buttons if b.label and not b.disabled]
        menus = {s.placeholder or "": s for s in panel.selects}
        take = self.say("button.take_six", rest=6)
        if take in buttons:
            return ("click", take, None)
        if panel.content.startswith(self.say("hand.exchange_prompt")):
            return ("exchange", None, None)
        if panel.content.startswith(self.say("hand.gift_prompt")):
            return next(("click", b, None) for b in buttons
                        if b.startswith(self.say("button.gift", name="")))
        if (wish := menus.get(self.say("select.wish"))) is not None:
            return ("select", wish, self.say("wish.none"))
        if (phoenix := menus.get(self.say("select.phoenix"))) is not None:
            return ("select", phoenix, phoenix.options[0].label)
        play_page = self.say("select.play_page", page=1, pages=9).split("(")[0]
        play = next((s for p, s in menus.items()
                     if p == self.say("select.play") or p.startswith(play_page)), None)
        if play is not None:
            return ("select", play, play.options[0].label)  # the lowest play it names
        if self.say("button.pass") in buttons:
            return ("click", self.say("button.pass"), None)
        return None

    async def answered(self, reply: Any) -> None:
        answer = await reply.response()
        if answer.id != self.panel.id:
            self.refusals.append(answer.content)

    async def act(self) -> None:
        """Wait until the panel's words offer a decision; read it; decide."""
        await self.emu.wait_for(lambda: self.choice() is not None, 10.0,
                                what="a decision in the panel's words")
        self.transcript.append(f"{self.user.name} reads: {self.read()}")
        kind, what, option = self.choice() or ("", None, None)
        self.decisions += 1
        if kind == "click":
            self.transcript.append(f"{self.user.name} clicks {what!r}")
            await self.answered(await self.emu.click(self.user, self.panel, label=what))
        elif kind == "select":
            self.transcript.append(f"{self.user.name} chooses {option!r} in {what.placeholder!r}")
            await self.answered(await self.emu.select(self.user, self.panel, what.custom_id,
                                                      [option]))
        else:
            for slot in range(3):  # one menu per seat to give to, then Confirm
                menu = self.panel.selects[slot]
                option = menu.options[0].label
                self.transcript.append(f"{self.user.name} gives {option!r} ({menu.placeholder})")
                await self.answered(await self.emu.select(self.user, self.panel, menu.custom_id,
                                                          [option]))
            self.transcript.append(f"{self.user.name} reads: {self.read()}")
            await self.answered(await self.emu.click(self.user, self.panel,
                                                     label=self.say("button.confirm_exchange")))


async def test_four_people_play_a_deal_reading_only_words(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = world.emu
    monkeypatch.setattr(secrets, "token_hex", lambda nbytes=None: SEED)
    transcript: list[str] = []
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_lobby(world, bot, target=1000)
        await seat_and_start(world, lobby, [0, 1, 2, 3], {})
        await settle(bot, table)
        locale = table.record.locale
        names = [table.seats[s].name for s in range(4)]
        people = [Reader(emu, world.users[s], transcript) for s in range(4)]
        for person in people:
            await person.open(table_message(emu, table), locale)
        checked = 0
        while not table.game.history:
            due = await settle(bot, table)
            if not due:
                break
            message = table_message(emu, table)
            words = message.attachment(filename("table")).description
            transcript.append(f"table: {' / '.join(message.content.splitlines()[1:])} | {words}")
            public = table.game.view(None)
            check_table_words(words, public, names, locale)
            # Public words: not one card still in someone's hand is named.
            assert not [c for hand in table.game.hands for c in hand
                        if card_label(locale, c) in words], words
            # Who must act now, read from the words alone: the names in its first sentence.
            named = tuple(s for s in range(4) if names[s] in first_sentence(words))
            assert named == due, (first_sentence(words), due)
            for seat in due:
                person = people[seat]
                await person.act()
                own = table.game.view(seat)
                hand_words = person.panel.attachment(filename("hand")).description
                assert all(card_label(person.user.locale, c) in hand_words for c in own.hand)
                checked += 1
        assert len(table.game.history) == 1, "the deal was not played to its end"
        assert all(not p.refusals for p in people), [p.refusals for p in people]
        assert checked > 40 and all(p.decisions > 5 for p in people)
        assert any("reads:" in line and "Your hand, 14 cards" in line for line in transcript)
        print("\n".join([*transcript[:EXCERPT], "…", *transcript[-EXCERPT // 4:]]))
    emu.assert_clean()
