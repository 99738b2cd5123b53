"""Public messages: the lobby and the table, built only from public information."""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.i18n import t
from bot.i18n.names import combo_name, rank_name
from bot.render import render_table
from bot.store.models import TableStatus
from bot.tables import LogEntry, SeatKind, Table, ids
from bot.tables.service import LEVELS
from bot.views.components import GameButton, GameSelect, view_of
from bot.views.hand import names_of
from bot.workers import offload
from engine.tichu.ai import pending_seats
from engine.tichu.view import Phase

LOG_LINES = 6


@dataclass(slots=True)
class PublicMessage:
    content: str
    image: bytes | None
    view: discord.ui.View | None

    def files(self) -> list[discord.File]:
        if self.image is None:
            return []
        return [discord.File(io.BytesIO(self.image), filename="table.png")]


def log_line(entry: LogEntry, names: list[str], locale: str) -> str:
    """One line of the table log in ``locale``."""
    values = dict(entry.values)
    for key in ("seat", "to", "lead"):
        if key in values and isinstance(values[key], int):
            values[key if key != "seat" else "name"] = names[values[key]]
    if "combo" in values:
        values["combo"] = combo_name(locale, values["combo"])
        wish = values.get("wish")
        if wish is not None:
            values["combo"] += " " + t(locale, "log.with_wish", rank=rank_name(locale, wish))
    if "team" in values:
        values["team"] = t(locale, f"team.{values['team']}")
    if "scores" in values:
        values["scores"] = " – ".join(str(s) for s in values["scores"])
    if "number" in values:
        values["number"] = int(values["number"]) + 1
    return t(locale, entry.key, **values)


def lobby_message(table: Table, locale: str) -> PublicMessage:
    """The lobby: seats, teams, and the controls to join, add computers and start."""
    names = names_of(table, locale)
    lines = [t(locale, "lobby.title", id=table.id, target=table.target)]
    if table.turn_timer:
        lines.append(t(locale, "lobby.timer", seconds=int(table.turn_timer)))
    for s in range(table.n_seats):
        team = t(locale, f"team.{s % 2}")
        who = names[s]
        if table.kind(s) is SeatKind.HUMAN:
            who = f"<@{table.seats[s].user_id}>"
        lines.append(t(locale, "lobby.seat", seat=s + 1, team=team, name=who))
    status = table.status
    if status is not TableStatus.LOBBY:
        lines.append(t(locale, f"lobby.status.{status.value}"))
        return PublicMessage("\n".join(lines), None, None)
    lines.append(t(locale, "lobby.help"))
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
        for level in LEVELS:
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


async def table_message(table: Table, locale: str) -> PublicMessage:
    """The table message: the public image, the last plays, and the public buttons."""
    game = table.game
    assert game is not None
    public = game.view(None)
    names = names_of(table, locale)
    lines = [t(locale, "table.title", id=table.id, target=table.target)]
    recent = list(table.log)[-LOG_LINES:]
    lines += [f"• {log_line(e, names, locale)}" for e in recent]
    waiting = pending_seats(public)
    status = table.status
    if status is TableStatus.PLAYING and waiting:
        if public.phase is Phase.GRAND:
            lines.append(t(locale, "table.waiting_grand", names=", ".join(names[s] for s in waiting)))
        elif public.phase is Phase.EXCHANGE:
            lines.append(t(locale, "table.waiting_exchange",
                           names=", ".join(names[s] for s in waiting)))
        elif public.phase is Phase.GIFT:
            lines.append(t(locale, "table.waiting_gift", name=names[waiting[0]]))
        else:
            lines.append(t(locale, "table.turn", name=names[waiting[0]]))
    elif status is not TableStatus.PLAYING:
        lines.append(t(locale, f"lobby.status.{status.value}"))
    image = await offload(render_table, public, names, locale=locale)
    if status is not TableStatus.PLAYING:
        return PublicMessage("\n".join(lines)[:2000], image, None)
    tid = table.id
    items = [
        GameButton(ids.button(tid, "hand"), label=t(locale, "button.my_hand"), emoji="🃏",
                   style=discord.ButtonStyle.primary, row=0),
        GameButton(ids.button(tid, "bomb"), label=t(locale, "button.bomb"), emoji="💣",
                   style=discord.ButtonStyle.danger, row=0),
        GameButton(ids.button(tid, "rules"), label=t(locale, "button.rules"), emoji="📖",
                   style=discord.ButtonStyle.secondary, row=0),
    ]
    return PublicMessage("\n".join(lines)[:2000], image, view_of(*items))
