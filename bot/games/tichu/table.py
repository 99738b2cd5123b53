"""Tichu's public messages: the table, and the deal and game summaries."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.games.base import PublicMessage
from bot.games.shared import log_line, names_of, public_buttons, team_scores
from bot.games.tichu.alt import deal_summary_alt, game_over_alt, table_alt
from bot.games.ui import GameButton, view_of
from bot.i18n import t
from bot.i18n.text import CONTENT, cut
from bot.render import filename, render_deal_summary, render_game_over, render_table
from bot.store.models import TableStatus
from bot.tables import LogEntry, SeatKind, Table, ids
from bot.workers import offload
from engine.duplicate.play import BoardsGame
from engine.tichu.ai import pending_seats
from engine.tichu.view import Phase, TichuView

LOG_LINES = 6


async def table_message(table: Table, locale: str) -> PublicMessage:
    """The table message: the public image, the last plays, and the public buttons."""
    game = table.game
    public = game.view(None)
    names = names_of(table, locale)
    if isinstance(game, BoardsGame):
        number = min(len(game.history) + 1, len(game.boards))
        lines = [t(locale, "table.title_duplicate", id=table.id, number=number,
                   boards=len(game.boards), event=table.record.options.get("event", ""))]
    else:
        title = "table.title_six" if table.n_seats == 6 else "table.title"
        lines = [t(locale, title, id=table.id, target=table.target)]
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
    boards = len(game.boards) if isinstance(game, BoardsGame) else None
    image = await offload(render_table, public, names, locale=locale, boards=boards)
    view = view_of(*public_buttons(table, locale, bomb=True)) \
        if status is TableStatus.PLAYING else None
    return PublicMessage(cut("\n".join(lines), CONTENT), image, view,
                         alt=table_alt(public, names, locale, boards=boards))


async def announcement(table: Table, entry: LogEntry, locale: str) -> PublicMessage | None:
    """The deal summary or the final sheet that goes with a log entry."""
    game = table.game
    names = names_of(table, locale)
    view = game.view(None)
    if entry.key == "log.game_over":
        image = await offload(render_game_over, view, names, locale=locale)
        team = [names[s] for s in range(table.n_seats) if s % 2 == entry.values.get("team")]
        winners = " & ".join([", ".join(team[:-1]), team[-1]] if len(team) > 2 else team)
        text = t(locale, "table.game_over", names=winners,
                 scores=team_scores(locale, view.scores, first=entry.values.get("team")))
        return PublicMessage(text, image, None, filename("game-over"),
                             alt=game_over_alt(view, names, locale))
    if entry.key == "log.board_marks":
        return PublicMessage(t(locale, "table.board_marks", **entry.values), None, None)
    if entry.key == "log.event_standings":
        lines = [t(locale, "table.event_standings", event=entry.values.get("event", ""))]
        lines += [str(line) for line in entry.values.get("lines", [])]
        others = entry.values.get("others", 0)
        if isinstance(others, int) and others > 0:
            lines.append(t(locale, "daily.standings_others", count=others))
        return PublicMessage(cut("\n".join(lines), CONTENT), None, None)
    if entry.key == "log.deal_over":
        number = int(entry.values.get("number", 0))
        then = at_deal(view, number)
        image = await offload(render_deal_summary, then, names, locale=locale)
        text = t(locale, "table.deal_over", number=number + 1,
                 deal=team_scores(locale, entry.values.get("scores", ())),
                 scores=team_scores(locale, then.scores))
        people = any(table.kind(s) is SeatKind.HUMAN for s in range(table.n_seats))
        review = view_of(GameButton(ids.button(table.id, "review", str(number)),
                                    label=t(locale, "button.review"), emoji="🎓",
                                    style=discord.ButtonStyle.secondary)) if people else None
        return PublicMessage(text, image, review, filename("deal"),
                             alt=deal_summary_alt(then, names, locale))
    return None


def at_deal(view: TichuView, number: int) -> TichuView:
    """The public view as it stood when deal ``number`` ended (history and totals)."""
    history = view.history[: number + 1]
    totals = [0] * len(view.scores)
    for result in history:
        for team, points in enumerate(result.scores):
            totals[team] += points
    return replace(view, history=history, scores=tuple(totals))
