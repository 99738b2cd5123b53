"""Chinois's public messages: the table, the round sheet and the final sheet."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PublicMessage
from bot.games.chinois.alt import sheet_alt, stage_key, table_alt
from bot.games.chinois.hand import round_text, trump_text
from bot.games.shared import log_line, names_of, public_buttons
from bot.games.ui import view_of
from bot.i18n import t
from bot.i18n.names import card_label
from bot.i18n.text import CONTENT, cut
from bot.render import filename
from bot.render.trick import NOTE, SeatInfo, render_score_grid, render_trick_table
from bot.store.models import TableStatus
from bot.tables import LogEntry, Table
from bot.workers import offload
from engine.cards import Card
from engine.chinois.deal import DECK
from engine.chinois.rules import ROUNDS, rating
from engine.chinois.view import Phase, RoundResult

LOG_LINES = 6
CARDS = {int(c): c for c in DECK}


def _last_trick(table: Table) -> tuple[list[tuple[int, Card]], int] | None:
    """The plays and the winner of the last finished trick, from the table log."""
    for entry in reversed(table.log):
        if entry.key == "log.chinois.trick":
            plays = [(seat, CARDS[card]) for seat, card in entry.values["plays"]]
            return plays, int(entry.values["seat"])
        if entry.key in ("log.chinois.round_over", "log.chinois.bids_done"):
            return None
    return None


def stage_text(round_: int, locale: str) -> str:
    """Where the round sits on the 1…13…1 staircase: going up, the 13s, going down."""
    return t(locale, stage_key(round_))


async def table_message(table: Table, locale: str) -> PublicMessage:
    """The table message: the public image, the last plays, and the public buttons."""
    game = table.game
    assert game is not None
    view = game.view(None)
    names = names_of(table, locale)
    lines = [t(locale, "chinois.table.title", id=table.id, round=round_text(view, locale),
               trump=trump_text(view, locale), dealer=names[view.dealer])]
    lines += [f"• {log_line(e, names, locale)}" for e in list(table.log)[-LOG_LINES:]]
    status = table.status
    if status is TableStatus.PLAYING and view.turn is not None:
        key = "chinois.table.to_bid" if view.phase is Phase.BID else "chinois.table.to_play"
        lines.append(t(locale, key, name=names[view.turn]))
    elif status is not TableStatus.PLAYING:
        lines.append(t(locale, f"lobby.status.{status.value}"))
    trick = [(p.seat, p.card) for p in view.trick.plays]
    leader = view.trick.leader
    winner = None
    if not trick and view.phase in (Phase.PLAY, Phase.GAME_OVER) and view.played:
        last = _last_trick(table)
        if last is not None:
            trick, winner = last
            leader = trick[0][0]
    elif not trick and view.phase is Phase.PLAY:
        leader = view.turn
    seats = [SeatInfo(name=names[s], bid=view.bids[s], tricks=view.tricks_won[s],
                      points=view.scores[s], is_turn=view.turn == s,
                      is_dealer=view.dealer == s)
             for s in range(view.n_seats)]
    header = t(locale, "chinois.image.header", round=round_text(view, locale),
               stage=stage_text(view.round, locale))
    bid_sum = sum(b for b in view.bids if b is not None)
    footer = t(locale, "chinois.image.footer", bids=bid_sum, tricks=view.cards_per_seat)
    image = await offload(render_trick_table, seats, trick, leader=leader,
                          trump_card=view.trump_card, header=header, locale=locale,
                          winner=winner, clockwise=True, footer=footer)
    buttons = view_of(*public_buttons(table, locale)) if status is TableStatus.PLAYING else None
    return PublicMessage(cut("\n".join(lines), CONTENT), image, buttons,
                         alt=table_alt(view, names, locale, trick=trick, winner=winner))


def _trump_said(game: object, result: RoundResult, locale: str) -> str:
    """The trump card of ``result``'s round, in words (for the sheet's description)."""
    card = None
    for deal, _ in getattr(game, "deal_log", []):
        if deal.round == result.round:
            card = deal.trump_card
    return card_label(locale, card) if card is not None else t(locale, "chinois.no_trump")


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def _total(n: int) -> str:
    return str(n).replace("-", "−")


def score_rows(history: Sequence[RoundResult], locale: str) -> list[list[str]]:
    """One row per round: its number, then per seat ``bid/tricks`` and the running total
    (a note and its figure, see :data:`bot.render.trick.NOTE`). The cards of a round and
    its trump are left out: the image has room for four names and their figures."""
    totals = [0] * 4
    rows = []
    for result in history:
        row = [str(result.round)]
        for s, points in enumerate(result.scores):
            totals[s] += points
            row.append(t(locale, "chinois.grid.cell", bid=result.bids[s],
                         tricks=result.tricks[s], points=_signed(points), total=totals[s])
                       + NOTE + _total(totals[s]))
        rows.append(row)
    return rows


def sheet(history: Sequence[RoundResult], names: list[str],
          locale: str) -> tuple[list[str], list[list[str]], set[tuple[int, int]]]:
    """Columns, rows (with a total row) and the cells of exact bids to mark. The image
    shows the latest rounds that fit and folds the earlier ones (every cell holds the
    running total)."""
    rows = score_rows(history, locale)
    exact = {(i, 1 + s) for i, result in enumerate(history)
             for s in range(len(result.bids)) if result.bids[s] == result.tricks[s]}
    totals = [sum(r.scores[s] for r in history) for s in range(len(names))]
    rows.append([t(locale, "chinois.grid.total"), *(_total(n) for n in totals)])
    columns = [t(locale, "chinois.grid.round"), *names]
    return columns, rows, exact


def rating_scale(locale: str) -> str:
    return t(locale, "chinois.rating.scale")


async def announcement(table: Table, entry: LogEntry, locale: str) -> PublicMessage | None:
    """The round sheet or the final sheet that goes with a log entry."""
    game = table.game
    assert game is not None
    names = names_of(table, locale)
    if entry.key == "log.chinois.round_over":
        number = int(entry.values.get("round", 0))
        history = game.history[:number]
        if not history or number == ROUNDS:
            return None  # the final sheet says it all
        columns, rows, exact = sheet(history, names, locale)
        title = t(locale, "chinois.grid.title", round=number, rounds=ROUNDS)
        image = await offload(render_score_grid, columns, rows, title=title, locale=locale,
                              highlight_rows={len(rows) - 2}, highlight_cells=exact,
                              total_row=True, footer=t(locale, "chinois.grid.footer"))
        result = history[-1]
        totals = [sum(r.scores[s] for r in history) for s in range(len(names))]
        text = t(locale, "chinois.round_over", round=number, rounds=ROUNDS,
                 scores=" · ".join(f"{names[s]} {_signed(result.scores[s])} ({totals[s]})"
                                   for s in range(len(names))))
        alt = sheet_alt(history, [_trump_said(game, r, locale) for r in history], names,
                        locale, final=False)
        return PublicMessage(cut(text, CONTENT), image, None, filename("round"), alt=alt)
    if entry.key in ("log.chinois.game_over", "log.chinois.game_over_shared"):
        history = game.history
        columns, rows, exact = sheet(history, names, locale)
        totals = [sum(r.scores[s] for r in history) for s in range(len(names))]
        winners = [s for s in range(len(names)) if totals[s] == max(totals)]
        title = t(locale, "chinois.grid.final_title")
        # the ratings are in the text, with their scale: the image keeps its rows for rounds
        image = await offload(render_score_grid, columns, rows, title=title, locale=locale,
                              highlight_cells={(len(rows) - 1, 1 + s) for s in winners} | exact,
                              total_row=True, footer=t(locale, "chinois.grid.footer"))
        lines = [t(locale, "chinois.game_over" if len(winners) == 1
                   else "chinois.game_over_shared",
                   names=" & ".join(names[s] for s in winners), score=max(totals))]
        lines += [t(locale, "chinois.final_line", name=names[s], score=totals[s],
                    rating=t(locale, f"chinois.rating.{rating(totals[s]).value}"))
                  for s in sorted(range(len(names)), key=lambda s: -totals[s])]
        lines.append(rating_scale(locale))
        alt = sheet_alt(history, [_trump_said(game, r, locale) for r in history], names,
                        locale, final=True)
        return PublicMessage(cut("\n".join(lines), CONTENT), image, None, filename("game-over"),
                             alt=alt)
    return None
