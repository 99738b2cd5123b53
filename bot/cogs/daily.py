"""``/tichu daily``: the daily challenge, in private messages.

``/tichu daily play`` shows the person's day (each board: its result and percentage,
in play, or to play) with a button for the next board; the board is played in one
private panel that shows the table and the hand and follows the play live (a private
table, :mod:`bot.games.tichu.duplicate`). After the board: its result, its percentage
against the field and the people here, and how the best result here played it.
``/tichu daily standings [day]`` shows a day's standings as an image; **Share** posts
a line that gives nothing of the boards away. In direct messages (the app installed
for a user) the standings are everyone's.

The buttons are routed by the controller (``DAILY_ACTIONS``): ``dplay`` (arg: the day
and the board number), ``dhome`` and ``dstand`` (arg: the day), ``dshare`` (arg: the
day) and ``dresult`` (the table's id).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.cogs.records import board_alt
from bot.games.base import image_file
from bot.games.shared import person_name, signed
from bot.games.tichu.duplicate import (
    DayStanding,
    Duplicate,
    daily_code,
    how_played,
    parse_day,
    utc_today,
)
from bot.games.ui import GameButton, view_of
from bot.i18n import Text, t
from bot.i18n.text import DESCRIPTION, cut
from bot.i18n.translator import ls
from bot.render import filename
from bot.render.ratings import BOARD_ROWS, BoardLine, render_leaderboard
from bot.store.models import BoardPlayer
from bot.store.personal import is_former
from bot.tables import TableError, TableService, ids
from bot.views.controller import Controller
from bot.workers import offload
from engine.duplicate.play import BoardsGame

DAILY_ACTIONS = {"dplay", "dhome", "dresult", "dstand", "dshare"}
EPHEMERAL_ACTIONS = {"dplay", "dhome", "dresult", "dstand"}
"""Answered with a new private message (``dshare`` posts in the channel)."""
_PLAY_ARG = re.compile(r"(?P<day>\d{4}-\d{2}-\d{2})\.(?P<number>\d{1,2})")
UP, DOWN = "▲", "▼"


class DailyHost(Protocol):
    service: TableService
    duplicate: Duplicate
    controller: Controller


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def _scope(interaction: discord.Interaction[Any]) -> int | None:
    """Whose results a person is compared with: the server's, or everyone's in DMs."""
    return interaction.guild_id


def _pct(value: float) -> str:
    return f"{value:.1f}%"


def _day_arg(text: str | None) -> date:
    day = parse_day(text or "")
    if day is None:
        raise TableError("forged")
    return day


async def home(host: DailyHost, interaction: discord.Interaction[Any],
               day: date) -> tuple[str, discord.ui.View]:
    """The person's day: each board and where they stand, and what to do next."""
    daily = host.duplicate
    locale = _locale(interaction)
    user_id = interaction.user.id
    mine = await daily.mine(user_id, day)
    await daily.repair(list(mine.values()))
    _, marks = await daily.marks(daily_code(day), _scope(interaction))
    own = marks.get(user_id, {})
    board_ids = await daily.day_board_ids(day)
    lines = [t(locale, "daily.title", day=day.isoformat(), boards=len(board_ids))]
    next_number: int | None = None
    for number, board_id in enumerate(board_ids, start=1):
        result = mine.get(board_id)
        if result is not None and result.diff is not None:
            pct = own.get(board_id)
            lines.append(t(locale, "daily.board_done", number=number, diff=_signed(result.diff),
                           pct=_pct(pct) if pct is not None else "…"))
        elif result is not None:
            lines.append(t(locale, "daily.board_open", number=number))
            next_number = next_number or number
        else:
            lines.append(t(locale, "daily.board_new", number=number))
            next_number = next_number or number
    if own:
        lines.append(t(locale, "daily.score", pct=_pct(sum(own.values()) / len(own)),
                       streak=await daily.streak(user_id, utc_today())))
    items = []
    if next_number is not None and day == utc_today():
        key = "daily.continue" if mine.get(board_ids[next_number - 1]) else "daily.play"
        items.append(GameButton(ids.button(0, "dplay", f"{day.isoformat()}.{next_number}"),
                                label=t(locale, key, number=next_number),
                                style=discord.ButtonStyle.primary))
    items.append(GameButton(ids.button(0, "dstand", day.isoformat()),
                            label=t(locale, "daily.standings_button"),
                            style=discord.ButtonStyle.secondary))
    if own:
        items.append(GameButton(ids.button(0, "dshare", day.isoformat()),
                                label=t(locale, "daily.share_button"),
                                style=discord.ButtonStyle.success))
    return "\n".join(lines), view_of(*items)


def _signed(diff: int) -> str:
    return f"+{diff}" if diff > 0 else signed(diff)


async def standings_message(host: DailyHost, locale: str, day: date, guild_id: int | None,
                            user_id: int) -> dict[str, Any]:
    """A day's standings as an image (the leaderboard's look) and its text."""
    daily = host.duplicate
    everyone = await daily.standings(day, guild_id)
    _, marks = await daily.marks(daily_code(day), guild_id)
    title = t(locale, "daily.standings_title", day=day.isoformat())
    if not everyone:
        return {"content": t(locale, "daily.standings_empty", day=day.isoformat())}
    boards = await daily.day_board_ids(day)
    rows = await named_rows(host, everyone, guild_id, user_id)
    others = len(everyone) - len(rows)

    def line(row: DayStanding) -> BoardLine:
        return BoardLine(row.rank, person_name(locale, row.name), row.score, row.boards, 0.0,
                         mine=row.user_id == user_id,
                         last=_trend(marks.get(row.user_id, {}), boards))

    shown = rows[:BOARD_ROWS]
    own = next((r for r in rows[BOARD_ROWS:] if r.user_id == user_id), None)
    headers = [t(locale, f"daily.col.{c}") for c in ("rank", "name", "score", "boards", "trend")]
    footer = t(locale, "daily.standings_footer" if guild_id is not None
               else "daily.standings_footer_global", count=len(everyone))
    if others:
        footer += "\n" + t(locale, "daily.standings_others", count=others)
    lines = [line(r) for r in shown]
    mine = None if own is None else line(own)
    image = await offload(render_leaderboard, headers, lines, mine)
    alt = board_alt(locale, t(locale, "alt.standings.title", title=title, count=len(everyone)),
                    lines, mine, standing_row)
    text = [t(locale, "daily.standings_row", rank=r.rank, name=person_name(locale, r.name),
              pct=_pct(r.score), boards=r.boards) for r in [*shown, *([own] if own else [])]]
    embed = discord.Embed(title=title, description=cut("\n".join(text), DESCRIPTION),
                          colour=discord.Colour.dark_green())
    embed.set_image(url=f"attachment://{filename('standings')}")
    embed.set_footer(text=footer)
    return {"embed": embed, "file": image_file(image, filename("standings"), alt)}


async def named_rows(host: DailyHost, rows: list[DayStanding], guild_id: int | None,
                     user_id: int) -> list[DayStanding]:
    """The rows a standings message lists by name: a server's, all of them; across
    servers (``guild_id`` None), only those who chose to appear (``/privacy standings``)
    and the asker's own, each at their true rank. The others are counted, not named."""
    if guild_id is not None:
        return rows
    appearing = await host.duplicate.repo.appearing(r.user_id for r in rows)
    return [r for r in rows if r.user_id in appearing or r.user_id == user_id]


async def shown_name(host: DailyHost, player: BoardPlayer, guild_id: int | None,
                     user_id: int, locale: str) -> str:
    """A result's person as a message shows them: "a former player" if they erased their
    data; across servers, "a player" unless they chose to appear or are the asker."""
    if is_former(player.user_id) or not player.name:
        return person_name(locale, "")
    if guild_id is None and player.user_id != user_id and \
            player.user_id not in await host.duplicate.repo.appearing([player.user_id]):
        return t(locale, "privacy.unnamed")
    return player.name


def standing_row(locale: str, line: BoardLine) -> str:
    """A line of the daily standings in words: ``2. mahjong_mike: 68.5%, 4 boards, per
    board: up, up, down, up``."""
    trend = ", ".join(t(locale, "alt.standings.up" if mark == UP else "alt.standings.down")
                      for mark in line.last or "")
    return t(locale, "alt.standings.row", rank=line.rank, name=line.name,
             pct=_pct(line.rating or 0.0), boards=line.games, trend=trend or "—")


def _trend(marks: dict[str, float], boards: Sequence[str]) -> str:
    """▲ for each board at 50% or more, ▼ below, in the boards' order (finished ones)."""
    return "".join(UP if marks[b] >= 50 else DOWN for b in boards if b in marks)


async def share_line(host: DailyHost, interaction: discord.Interaction[Any], day: date) -> str:
    """``Tichu daily 2026-11-23 · 68.5% · ▲▲▼▲ · 3-day streak``: nothing of the boards."""
    daily = host.duplicate
    locale = _locale(interaction)
    _, marks = await daily.marks(daily_code(day), _scope(interaction))
    own = marks.get(interaction.user.id)
    if not own:
        raise TableError("daily_nothing_to_share")
    trend = _trend(own, await daily.day_board_ids(day))
    streak = await daily.streak(interaction.user.id, day)
    return t(locale, "daily.share", name=interaction.user.display_name, day=day.isoformat(),
             pct=_pct(sum(own.values()) / len(own)), trend=trend, streak=streak)


async def result_message(host: DailyHost, interaction: discord.Interaction[Any],
                         table_id: int) -> str:
    """After a board: the person's result, its percentages, and how the best result here
    played it (only to someone seated at the board's table, once it is over)."""
    table = await host.service.core.get(table_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise TableError("not_seated")
    game = table.game
    if not isinstance(game, BoardsGame) or not game.history:
        raise TableError("daily_not_over")
    locale = _locale(interaction)
    board = game.boards[len(game.history) - 1]
    day = parse_day(str(table.record.options.get("event", "")).removeprefix("daily:"))
    ids = await host.duplicate.day_board_ids(day) if day else []
    number = ids.index(board.id) + 1 if board.id in ids else 1
    report = await host.duplicate.report(interaction.user.id, board, number, _scope(interaction))
    if report is None:
        raise TableError("daily_not_over")
    lines = [t(locale, "daily.result", number=number, diff=_signed(report.diff))]
    if report.field_pct is None:
        lines.append(t(locale, "daily.field_pending"))
    else:
        lines.append(t(locale, "daily.vs_field", pct=_pct(report.field_pct),
                       tables=report.field_tables))
    lines.append(t(locale, "daily.vs_people", pct=_pct(report.people_pct), count=report.people))
    best = report.best
    if best is not None and best.replay is not None:
        # A daily board: its person in seat 1, computers around (the table itself may be
        # another process's, in another server).
        who = await shown_name(host, best.players[0], _scope(interaction),
                               interaction.user.id, locale)
        seats = [who, *(t(locale, f"daily.seat.{s}") for s in ("right", "partner", "left"))]
        lines.append(t(locale, "daily.best", name=who, diff=_signed(best.diff or 0)))
        lines += how_played(best.replay, seats, locale)
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1999] + "…"


async def handle_component(host: DailyHost, interaction: discord.Interaction[Any],
                           cid: ids.ComponentId, values: Sequence[str]) -> None:
    """A click on a daily message (already deferred; see :data:`EPHEMERAL_ACTIONS`)."""
    locale = _locale(interaction)
    if cid.action == "dplay":
        match = _PLAY_ARG.fullmatch(cid.arg or "")
        day = parse_day(match["day"]) if match else None
        if match is None or day is None or cid.table != 0:
            raise TableError("forged")
        user = interaction.user
        table = await host.duplicate.open_board(
            day=day, number=int(match["number"]), user_id=user.id, name=user.display_name,
            guild_id=interaction.guild_id or 0, locale=locale)
        await host.controller.open_panel(interaction, table, 0, locale)
        return
    if cid.action == "dresult":
        await interaction.followup.send(await result_message(host, interaction, cid.table),
                                        ephemeral=True)
        return
    if cid.table != 0:
        raise TableError("forged")
    day = _day_arg(cid.arg)
    if cid.action == "dhome":
        content, view = await home(host, interaction, day)
        await interaction.followup.send(content, view=view, ephemeral=True)
    elif cid.action == "dstand":
        message = await standings_message(host, locale, day, _scope(interaction),
                                          interaction.user.id)
        await interaction.followup.send(ephemeral=True, **message)
    elif cid.action == "dshare":
        await interaction.followup.send(await share_line(host, interaction, day))
    else:
        raise TableError("forged")


class DailyCommands(app_commands.Group):
    """``/tichu daily play`` and ``/tichu daily standings [day]``."""

    def __init__(self, host: DailyHost) -> None:
        super().__init__(name=ls("cmd.daily.name"), description=ls("cmd.daily.description"))
        self.host = host

    @app_commands.command(name=ls("cmd.daily.play.name"),
                          description=ls("cmd.daily.play.description"))
    async def play(self, interaction: discord.Interaction[Any]) -> None:
        content, view = await home(self.host, interaction, utc_today())
        await interaction.response.send_message(content, view=view, ephemeral=True)

    @app_commands.command(name=ls("cmd.daily.standings.name"),
                          description=ls("cmd.daily.standings.description"))
    @app_commands.describe(day=ls("cmd.daily.standings.day"))
    @app_commands.rename(day=ls("cmd.daily.standings.day.name"))
    async def standings(self, interaction: discord.Interaction[Any],
                        day: str | None = None) -> None:
        locale = _locale(interaction)
        chosen = utc_today() if day is None else parse_day(day)
        if chosen is None or chosen > utc_today() or chosen < utc_today() - timedelta(days=366):
            raise TableError("daily_bad_day")
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await standings_message(self.host, locale, chosen, _scope(interaction),
                                          interaction.user.id)
        await interaction.followup.send(ephemeral=True, **message)

    @app_commands.command(name=ls("cmd.daily.channel.name"),
                          description=ls("cmd.daily.channel.description"))
    @app_commands.describe(channel=ls("cmd.daily.channel.channel"))
    @app_commands.rename(channel=ls("cmd.daily.channel.channel.name"))
    async def channel(self, interaction: discord.Interaction[Any],
                      channel: discord.TextChannel | None = None) -> None:
        """Where yesterday's final standings are posted each day (who manages the server);
        without a channel, they are no longer posted."""
        if interaction.guild_id is None:
            raise TableError("server_only")
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            raise TableError("not_manager")
        repo = self.host.service.repo
        current = await repo.guild_settings(interaction.guild_id)
        current.daily_channel_id = None if channel is None else channel.id
        await repo.save_guild_settings(interaction.guild_id, current)
        locale = _locale(interaction)
        text = t(locale, "daily.channel_off") if channel is None else \
            t(locale, "daily.channel_on", channel=Text(channel.mention))
        await interaction.response.send_message(text, ephemeral=True)


async def post_yesterday(host: DailyHost, client: discord.Client, guild_id: int,
                         channel_id: int, locale: str, today: date) -> bool:
    """Post yesterday's final standings of the guild in its daily channel (once: the
    store remembers the day posted). Whether a message was posted."""
    repo = host.service.repo
    yesterday = today - timedelta(days=1)
    key = f"daily_posted:{guild_id}"
    if await repo.get_meta(key) == yesterday.isoformat():
        return False
    await repo.set_meta(key, yesterday.isoformat())
    message = await standings_message(host, locale, yesterday, guild_id, 0)
    if "embed" not in message:
        return False
    await client.get_partial_messageable(channel_id).send(**message)
    return True
