"""What every game's messages share: seat names, the lines of the table log, the public
buttons under a table message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.games.ui import Control, GameButton
from bot.i18n import t
from bot.i18n.names import card_label, combo_name, rank_name
from bot.tables import LogEntry, ids
from engine.cards import Card
from engine.tichu.combos import Combo

if TYPE_CHECKING:
    from bot.tables import Table


def display_name(table: Table, seat: int, locale: str) -> str:
    """A seat's name: the person's, or the computer's with its level."""
    record = table.seats[seat]
    if record.user_id is not None:
        return t(locale, "seat.away", name=record.name) if record.away else record.name
    if record.bot_level is not None:
        return record.name or t(locale, "seat.computer", seat=seat + 1,
                                level=t(locale, f"level.{record.bot_level}"))
    return t(locale, "seat.empty")


def names_of(table: Table, locale: str) -> list[str]:
    return [display_name(table, s, locale) for s in range(table.n_seats)]


def signed(points: int) -> str:
    """A score as text, with a true minus sign: ``120``, ``−20``."""
    return f"−{-points}" if points < 0 else str(points)


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
