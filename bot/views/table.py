"""The lobby message every game shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games.base import PublicMessage
from bot.games.shared import names_of
from bot.games.ui import Control, GameButton, GameSelect, view_of
from bot.i18n import Text, t
from bot.store.models import TableStatus
from bot.tables import SeatKind, ids

if TYPE_CHECKING:
    from bot.tables import Table


def lobby_message(table: Table, locale: str) -> PublicMessage:
    """The lobby: seats (and teams), and the controls to join, add computers and start."""
    spec = table.spec
    names = names_of(table, locale)
    event = table.record.options.get("event")
    boards = table.record.options.get("boards")
    if isinstance(event, str) and isinstance(boards, list):
        # A duplicate table: its boards, and the code other tables join its event with.
        lines = [t(locale, "lobby.title.duplicate", id=table.id, boards=len(boards)),
                 t(locale, "lobby.event", code=event)]
    else:
        lines = [t(locale, f"lobby.title.{spec.name}", id=table.id, target=table.target)]
    if table.record.options.get("practice"):
        lines.append(t(locale, "lobby.practice"))
    if table.turn_timer:
        lines.append(t(locale, "lobby.timer", seconds=int(table.turn_timer)))
    for s in range(table.n_seats):
        who = names[s]
        if table.kind(s) is SeatKind.HUMAN:
            who = Text(f"<@{table.seats[s].user_id}>")  # shown, never pinged
        if spec.team_size > 1:
            lines.append(t(locale, "lobby.seat", seat=s + 1, name=who,
                           team=t(locale, f"team.{s % 2}")))  # teams alternate (4 or 6 seats)
        else:
            lines.append(t(locale, "lobby.seat_alone", seat=s + 1, name=who))
    status = table.status
    if status is not TableStatus.LOBBY:
        lines.append(t(locale, f"lobby.status.{status.value}"))
        return PublicMessage("\n".join(lines), None, None)
    lines.append(t(locale, f"lobby.help.{spec.name}"))
    tid = table.id
    items: list[Control] = []
    for s in range(table.n_seats):
        items.append(GameButton(ids.button(tid, "join", str(s)),
                                label=t(locale, "button.seat", seat=s + 1),
                                style=discord.ButtonStyle.primary if s % 2 == 0
                                else discord.ButtonStyle.success,
                                disabled=table.kind(s) is SeatKind.HUMAN, row=s // 5))
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
    below = (table.n_seats - 1) // 5 + 1  # seat buttons fill five to a row
    if options:
        items.append(GameSelect(ids.select(tid, "cpu"), options=options[:25],
                                placeholder=t(locale, "select.cpu")[:150], row=below))
    items.append(GameButton(ids.button(tid, "leave"), label=t(locale, "button.leave"),
                            style=discord.ButtonStyle.secondary, row=below + 1))
    items.append(GameButton(ids.button(tid, "start"), label=t(locale, "button.start"),
                            style=discord.ButtonStyle.success, row=below + 1))
    return PublicMessage("\n".join(lines), None, view_of(*items))
