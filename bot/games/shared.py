"""What every game's messages share: seat names, the lines of the table log, the public
buttons under a table message, and the pieces of every image's description (its alt
text, which screen readers read): :class:`Part` and :func:`alt_text`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.games.ui import Control, GameButton
from bot.i18n import plain, t
from bot.i18n.names import SUIT_SYMBOLS, card_label, combo_name, rank_name
from bot.tables import LogEntry, ids
from engine.cards import Card
from engine.tichu.combos import Combo

if TYPE_CHECKING:
    from bot.tables import Table


def person_name(locale: str, name: str) -> str:
    """A person's stored name as shown: "a former player" for one who erased their data
    (or whose server's data was anonymized), whose name the store blanked.

    A name is a plain ``str``, as its person wrote it: escaped in each sentence it fills
    (:func:`bot.i18n.t`), drawn as written in a picture."""
    return name or plain(t(locale, "privacy.former"))


def display_name(table: Table, seat: int, locale: str) -> str:
    """A seat's name: the person's, or the computer's with its level. A plain ``str``
    (not the bot's :class:`~bot.i18n.Text`, even with its note: ``Alice (away)``), so
    that it is escaped wherever it fills a sentence (see :func:`person_name`)."""
    record = table.seats[seat]
    if record.user_id is not None:
        name = person_name(locale, record.name)
        return plain(t(locale, "seat.away", name=name)) if record.away else name
    if record.bot_level is not None:
        return record.name or plain(t(locale, "seat.computer", seat=seat + 1,
                                      level=t(locale, f"level.{record.bot_level}")))
    return plain(t(locale, "seat.empty"))


def names_of(table: Table, locale: str) -> list[str]:
    return [display_name(table, s, locale) for s in range(table.n_seats)]


def signed(points: int) -> str:
    """A score as text, with a true minus sign: ``120``, ``−20``."""
    return f"−{-points}" if points < 0 else str(points)


def plus(points: int) -> str:
    """A change of score, its sign always said: ``+120``, ``0``, ``−20``."""
    return f"+{points}" if points > 0 else signed(points)


def team_scores(locale: str, scores: Sequence[int], *, first: int | None = None) -> str:
    """Each team's score after its name, ``first`` (a team) first: ``Team A 120 · Team B
    −20``; never ``120 – -20``, whose dash reads as a minus."""
    order = list(range(len(scores)))
    if first is not None and 0 <= first < len(scores):
        order.remove(first)
        order.insert(0, first)
    return " · ".join(f"{t(locale, f'team.{team}')} {signed(scores[team])}" for team in order)


def seat_scores(names: Sequence[str], scores: Sequence[int]) -> str:
    """Each seat's score after its name: ``Alice 120 · Bob −60 · Chloé 40``."""
    return " · ".join(f"{names[seat]} {signed(points)}" for seat, points in enumerate(scores))


def log_line(entry: LogEntry, names: list[str], locale: str) -> str:
    """One line of a table log in ``locale``: seats become names, cards and
    combinations become words."""
    values = dict(entry.values)
    for key in ("seat", "to", "lead", "winner"):
        if isinstance(values.get(key), int):
            values["name" if key == "seat" else key] = names[values[key]]
    for key, value in list(values.items()):
        if isinstance(value, Combo):
            values[key] = combo_name(locale, value)
        elif isinstance(value, Card):
            values[key] = card_label(locale, value)
    if values.get("wish") is not None and "combo" in values:
        values["combo"] += " " + t(locale, "log.with_wish", rank=rank_name(locale, values["wish"]))
    if "team" in values:
        values["team"] = t(locale, f"team.{values['team']}")
    if isinstance(values.get("scores"), tuple | list):
        values["scores"] = team_scores(locale, values["scores"])
    if isinstance(values.get("seat_scores"), tuple | list):
        values["seat_scores"] = seat_scores(names, values["seat_scores"])
    if isinstance(values.get("number"), int):
        values["number"] = values["number"] + 1
    if isinstance(values.get("phrase"), str):  # a phrase said: stored by key, read here
        values["phrase"] = t(locale, f"talk.{values['phrase']}")
    return t(locale, entry.key, **values)


def public_buttons(table: Table, locale: str, *, bomb: bool = False) -> list[Control]:
    """The buttons under every table message: My hand (Bomb! in Tichu), Rules."""
    tid = table.id
    items: list[Control] = [
        GameButton(ids.button(tid, "hand"), label=t(locale, "button.my_hand"), emoji="🃏",
                   style=discord.ButtonStyle.primary, row=0)]
    if bomb:
        items.append(GameButton(ids.button(tid, "bomb"), label=t(locale, "button.bomb"),
                                emoji="💣", style=discord.ButtonStyle.danger, row=0))
    items.append(GameButton(ids.button(tid, "rules"), label=t(locale, "button.rules"), emoji="📖",
                            style=discord.ButtonStyle.secondary, row=0))
    return items


# ------------------------------------------------------------------ alt text
ALT_LIMIT = 1024
"""The most characters Discord takes in an attachment's description (its alt text)."""
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Part:
    """One piece of an image's description: its words, how much they matter (``rank`` 0:
    always kept; the higher, the sooner given up) and a shorter form tried first."""

    text: str
    rank: int = 0
    short: str | None = None


def alt_text(parts: Iterable[Part | str], limit: int = ALT_LIMIT) -> str:
    """The description made of ``parts`` in their order, within ``limit`` characters.

    Too long, it gives up the least important parts first (the highest rank; among
    equals, the last): each first takes its shorter form, if it has one, then goes.
    Parts of rank 0 only ever take their shorter form. What is still too long is cut
    at a word, with an ellipsis. Never empty: a description of nothing is refused."""
    # A description is no markdown: each part as it reads (names as written).
    items = [Part(plain(p.text), p.rank, None if p.short is None else plain(p.short))
             if isinstance(p, Part) else Part(plain(p)) for p in parts]
    items = [p for p in items if p.text.strip()]
    texts = [p.text.strip() for p in items]

    def fits() -> bool:
        return len(" ".join(x for x in texts if x)) <= limit

    for rank in sorted({p.rank for p in items}, reverse=True):
        chosen = [i for i, p in enumerate(items) if p.rank == rank]
        for i in reversed(chosen):
            if fits():
                break
            short = items[i].short
            if short is not None and short.strip():
                texts[i] = short.strip()
        for i in reversed(chosen):
            if fits() or rank == 0:
                break
            texts[i] = ""
    return cut(" ".join(x for x in texts if x) or ELLIPSIS, limit)


def cut(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` within ``limit`` characters: cut at the last word that fits, with an
    ellipsis (in the middle of a word only when a word is longer than half of it)."""
    if len(text) <= limit:
        return text
    room = text[:limit]
    space = room.rfind(" ")
    kept = room[:space] if space > limit // 2 else room[:limit - len(ELLIPSIS)]
    return kept.rstrip(" ,;:.·–—(") + ELLIPSIS


def listing(locale: str, items: Sequence[str]) -> str:
    """Items said as a list: ``Alice``, ``Alice and Bob``, ``Alice, Bob and Chloé``."""
    if len(items) <= 1:
        return "".join(items)
    return t(locale, "alt.and", items=", ".join(items[:-1]), last=items[-1])


def count_cards(locale: str, n: int) -> str:
    """``1 card``, ``9 cards`` (``0 carte`` in French: each language's plural)."""
    return t(locale, "alt.cards", n=n)


def cards_said(locale: str, cards: Iterable[int]) -> str:
    """Cards as the menus name them, a comma between each: ``Dog, 7♣, Q♥``."""
    return ", ".join(card_label(locale, c) for c in cards)


PLACE_KEYS = ("alt.place.1", "alt.place.2", "alt.place.3", "alt.place.4", "alt.place.5",
              "alt.place.6")


def place_said(locale: str, place: int) -> str:
    """A place in words (1 → ``first``), for places 1 to 6; beyond, its number."""
    return t(locale, PLACE_KEYS[place - 1]) if 1 <= place <= len(PLACE_KEYS) else str(place)


SUIT_KEYS = ("alt.suit.clubs", "alt.suit.diamonds", "alt.suit.hearts", "alt.suit.spades")
"""A French deck's suits (Chinois, Tysiacha) by their index, the low two bits of a card."""


def suit_said(locale: str, suit: int) -> str:
    """A French deck's suit in words and sign: ``hearts ♥``."""
    return f"{t(locale, SUIT_KEYS[suit])} {SUIT_SYMBOLS[suit]}"


def tricks_said(locale: str, n: int) -> str:
    """``1 trick``, ``3 tricks`` (``0 pli`` in French: each language's plural)."""
    return t(locale, "alt.tricks", n=n)


def french_hand_alt(locale: str, cards: Sequence[int], playable: Iterable[int] | None,
                    *more: Part | str) -> str:
    """A hand of French cards (Chinois, Tysiacha) in words, for its owner only: its cards
    in the picture's order, then ``more``, then the cards it may play now (the picture
    dims the others)."""
    parts: list[Part | str] = [t(locale, "alt.hand", count=count_cards(locale, len(cards)),
                                 cards=cards_said(locale, cards)), *more]
    if playable is not None:
        allowed = set(playable)
        shown = [c for c in cards if c in allowed]
        parts.append(Part(t(locale, "alt.playable_all") if len(shown) == len(cards)
                          else t(locale, "alt.playable", cards=cards_said(locale, shown)), 1))
    return alt_text(parts)
