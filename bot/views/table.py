"""Public messages every game shares: the lobby, names, and the lines of the table log."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games.base import PublicMessage
from bot.i18n import t
from bot.i18n.names import card_name, combo_name, rank_name
from bot.store.models import TableStatus
from bot.tables import LogEntry, SeatKind, ids
from bot.views.components import GameButton, GameSelect, view_of
from engine.cards import Card
from engine.tichu.combos import Combo

if TYPE_CHECKING:
    from bot.tables import Table


def display_name(table: Table, seat: int, locale: str) -> str:
    """A seat's name: the person's, or the computer's with its level."""
    record = table.seats[seat]
    if record.user_id is not None:
        return record.name
    if record.bot_level is not None:
        return record.name or t(locale, "seat.computer", seat=seat + 1,
                                level=t(locale, f"level.{record.bot_level}"))
    return t(locale, "seat.empty")


def names_of(table: Table, locale: str) -> list[str]:
    return [display_name(table, s, locale) for s in range(table.n_seats)]


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
            values[key] = card_name(locale, value)
    if values.get("wish") is not None and "combo" in values:
        values["combo"] += " " + t(locale, "log.with_wish", rank=rank_name(locale, values["wish"]))
    if "team" in values:
        values["team"] = t(locale, f"team.{values['team']}")
    if isinstance(values.get("scores"), tuple | list):
        values["scores"] = " – ".join(str(s) for s in values["scores"])
    if isinstance(values.get("number"), int):
        values["number"] = values["number"] + 1
    return t(locale, entry.key, **values)


def lobby_message(table: Table, locale: str) -> PublicMessage:
    """The lobby: seats (and teams), and the controls to join, add computers and start."""
    spec = table.spec
    names = names_of(table, locale)
    lines = [t(locale, f"lobby.title.{spec.name}", id=table.id, target=table.target)]
    if table.turn_timer:
        lines.append(t(locale, "lobby.timer", seconds=int(table.turn_timer)))
    for s in range(table.n_seats):
        who = names[s]
        if table.kind(s) is SeatKind.HUMAN:
            who = f"<@{table.seats[s].user_id}>"
        if spec.team_size > 1:
            lines.append(t(locale, "lobby.seat", seat=s + 1, name=who,
                           team=t(locale, f"team.{s % (table.n_seats // spec.team_size)}")))
        else:
            lines.append(t(locale, "lobby.seat_alone", seat=s + 1, name=who))
    status = table.status
    if status is not TableStatus.LOBBY:
        lines.append(t(locale, f"lobby.status.{status.value}"))
        return PublicMessage("\n".join(lines), None, None)
    lines.append(t(locale, f"lobby.help.{spec.name}"))
    tid = table.id
    items: list[discord.ui.Item[discord.ui.View]] = []
    for s in range(table.n_seats):
        items.append(GameButton(ids.button(tid, "join", str(s)),
                                label=t(locale, "button.seat", seat=s + 1),
                                style=discord.ButtonStyle.primary if s % 2 == 0
                                else discord.ButtonStyle.success,
                                disabled=table.kind(s) is SeatKind.HUMAN, row=0))
    options = []
    for s in range(table.n_seats):
        if table.kind(s) is SeatKind.HUMAN:
            continue
        for level in spec.levels:
            options.append(discord.SelectOption(
                label=t(locale, "lobby.cpu_option", seat=s + 1, level=t(locale, f"level.{level}")),
                value=f"{s}.{level}"))
        if table.kind(s) is SeatKind.COMPUTER:
            options.append(discord.SelectOption(label=t(locale, "lobby.cpu_remove", seat=s + 1),
                                                value=f"{s}.none"))
    if options:
        items.append(GameSelect(ids.select(tid, "cpu"), options=options[:25],
                                placeholder=t(locale, "select.cpu")[:150], row=1))
    items.append(GameButton(ids.button(tid, "leave"), label=t(locale, "button.leave"),
                            style=discord.ButtonStyle.secondary, row=2))
    items.append(GameButton(ids.button(tid, "start"), label=t(locale, "button.start"),
                            style=discord.ButtonStyle.success, row=2))
    return PublicMessage("\n".join(lines), None, view_of(*items))


def public_buttons(table: Table, locale: str, *, bomb: bool = False) -> list[discord.ui.Item[discord.ui.View]]:
    """The buttons under every table message: My hand (Bomb! in Tichu), Rules."""
    tid = table.id
    items: list[discord.ui.Item[discord.ui.View]] = [
        GameButton(ids.button(tid, "hand"), label=t(locale, "button.my_hand"), emoji="🃏",
                   style=discord.ButtonStyle.primary, row=0)]
    if bomb:
        items.append(GameButton(ids.button(tid, "bomb"), label=t(locale, "button.bomb"),
                                emoji="💣", style=discord.ButtonStyle.danger, row=0))
    items.append(GameButton(ids.button(tid, "rules"), label=t(locale, "button.rules"), emoji="📖",
                            style=discord.ButtonStyle.secondary, row=0))
    return items
