"""Tysiacha's public messages: the table, the prikup reveal, the score sheets.

Only public information is drawn here: the public view (no hand), the prikup
(shown to all once the bidding is over) and the score history.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import PublicMessage
from bot.games.shared import log_line, names_of, public_buttons, seat_scores
from bot.games.tysiacha.alt import marks_of, prikup_alt, seat_part, sheet_alt, table_alt
from bot.games.tysiacha.images import render_prikup
from bot.games.ui import view_of
from bot.i18n import plain, t
from bot.i18n.names import SUIT_SYMBOLS, card_labels
from bot.i18n.text import CONTENT, cut
from bot.render import filename
from bot.render.trick import NOTE, SeatInfo, note_fits, render_score_grid, render_trick_table
from bot.store.models import TableStatus
from bot.tables import LogEntry, Table
from bot.workers import offload
from engine.tysiacha.actions import Bid
from engine.tysiacha.cards import MARRIAGE_VALUES
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.scoring import TARGET
from engine.tysiacha.view import DealKind, DealResult, Phase, TysiachaView

LOG_LINES = 6
NOTE_KEYS = {"sits_out": "tysiacha.note.sits_out", "passed": "tysiacha.note.passed",
             "bid": "tysiacha.note.bid", "solo": "tysiacha.note.contract"}
"""A seat's part in the deal (:func:`~bot.games.tysiacha.alt.seat_part`) in its note."""
MARKS = {"barrel": "■", "fell": "↓", "missed": "○", "penalty": "!"}
"""The marks of a score sheet's cell (:func:`bot.games.tysiacha.alt.marks_of`)."""


# ------------------------------------------------------------------ the table
def seat_infos(view: TysiachaView, names: list[str], locale: str) -> list[SeatInfo]:
    """Each seat as the table image shows it: game total, tricks, turn, dealer, and a
    note with the bid, the contract, the marriages or the barrel badge."""
    seats = []
    for s in range(view.n_seats):
        # By priority: the barrel badge, the seat's part in the deal, its marriages; as
        # many as fit in the seat's note chip (the header names the contract in full).
        notes = []
        if view.barrel[s] is not None:
            notes.append(t(locale, "tysiacha.note.barrel", left=view.barrel[s]))
        role = seat_part(view, s)
        if role is not None:
            notes.append(t(locale, NOTE_KEYS[role[0]], **role[1]))
        marriages = [suit for who, suit in view.marriages if who == s]
        if marriages:
            notes.append(" ".join(SUIT_SYMBOLS[m] for m in marriages))
        note = ""
        for part in notes:
            longer = f"{note} · {part}" if note else part
            if note and not note_fits(longer):
                break
            note = longer
        seats.append(SeatInfo(
            name=names[s], tricks=view.tricks_taken[s], points=view.scores[s],
            is_turn=view.turn == s, is_dealer=view.dealer == s, note=note or None))
    return seats


def header(view: TysiachaView, names: list[str], locale: str) -> str:
    """The table image's header (as it reads: a picture draws names as written)."""
    return plain(_header(view, names, locale))


def _header(view: TysiachaView, names: list[str], locale: str) -> str:
    number = view.deal_number + 1
    if view.phase is Phase.BIDDING:
        if view.high_bid is None:
            return t(locale, "tysiacha.header.bidding_open", number=number)
        return t(locale, "tysiacha.header.bidding", number=number, bid=view.high_bid)
    if view.soloist is None or view.contract is None:
        return t(locale, "tysiacha.header.deal", number=number)
    return t(locale, "tysiacha.header.contract", number=number, name=names[view.soloist],
             contract=view.contract)


def footer(view: TysiachaView, names: list[str], locale: str) -> tuple[str, str] | None:
    """The marriages of the deal: who declared which (the image draws this form when it
    fits its corner), and the suits and values alone (the seats' notes show whose)."""
    if not view.marriages:
        return None
    return marriages_footer([(names[s], suit) for s, suit in view.marriages], locale)


def marriages_footer(marriages: list[tuple[str, int]], locale: str) -> tuple[str, str]:
    """The footer's two forms for ``marriages`` (name, suit): with the names, without."""
    return (plain(t(locale, "tysiacha.footer.marriages", marriages=", ".join(
                f"{name} {SUIT_SYMBOLS[suit]} {MARRIAGE_VALUES[suit]}"
                for name, suit in marriages))),
            plain(t(locale, "tysiacha.footer.marriages", marriages=", ".join(
                f"{SUIT_SYMBOLS[suit]} {MARRIAGE_VALUES[suit]}" for _, suit in marriages))))


async def table_message(table: Table, locale: str) -> PublicMessage:
    """The table message: the public image, the last plays in words, the public buttons."""
    game = table.game
    public = game.view(None)
    names = names_of(table, locale)
    lines = [t(locale, "tysiacha.table.title", id=table.id, target=TARGET)]
    lines += [f"• {log_line(e, names, locale)}" for e in list(table.log)[-LOG_LINES:]]
    status = table.status
    if status is TableStatus.PLAYING and public.turn is not None:
        key = {Phase.BIDDING: "tysiacha.table.turn_bid",
               Phase.PRIKUP: "tysiacha.table.turn_prikup"}.get(public.phase, "table.turn")
        lines.append(t(locale, key, name=names[public.turn]))
    elif status is not TableStatus.PLAYING:
        lines.append(t(locale, f"lobby.status.{status.value}"))
    trick = [(p.seat, p.card) for p in public.trick.plays]
    image = await offload(render_trick_table, seat_infos(public, names, locale), trick,
                          leader=public.trick.leader if trick else
                          public.turn if public.phase is Phase.PLAY else None,
                          trump_suit=public.trump, header=header(public, names, locale),
                          locale=locale, clockwise=True, footer=footer(public, names, locale))
    view = view_of(*public_buttons(table, locale)) if status is TableStatus.PLAYING else None
    return PublicMessage(cut("\n".join(lines), CONTENT), image, view,
                         alt=table_alt(public, names, locale))


# ------------------------------------------------------------- announcements
async def announcement(table: Table, entry: LogEntry, locale: str) -> PublicMessage | None:
    game: TysiachaGame = table.game
    names = names_of(table, locale)
    if entry.key == "tysiacha.log.prikup":
        found = prikup_of(game, entry.values.get("action"))
        if found is None:
            return None
        number, prikup, bid = found
        name = names[entry.values["seat"]]
        title = plain(t(locale, "tysiacha.prikup.title", number=number + 1, name=name, bid=bid))
        image = await offload(render_prikup, tuple(int(c) for c in prikup), title)
        text = t(locale, "tysiacha.prikup.text", name=name, bid=bid,
                 cards=card_labels(locale, prikup))
        return PublicMessage(text, image, None, filename("prikup"),
                             alt=prikup_alt(locale, number, name, bid, prikup))
    if entry.key == "tysiacha.log.deal_over":
        number = int(entry.values.get("number", 0))
        history = tuple(game.history[: number + 1])
        columns, rows, made, lost = sheet(history, names, game.n_seats, locale)
        title = t(locale, "tysiacha.sheet.title", number=number + 1)
        image = await offload(render_score_grid, columns, rows, title=title, locale=locale,
                              highlight_cells=made, framed_cells=lost, total_row=True,
                              footer=t(locale, "tysiacha.sheet.legend"))
        totals = totals_after(history, game.n_seats)
        text = t(locale, "tysiacha.table.deal_over", number=number + 1,
                 scores=seat_scores(names, totals))
        alt = sheet_alt(history, names, game.n_seats, locale)
        return PublicMessage(cut(text, CONTENT), image, None, filename("sheet"), alt=alt)
    if entry.key == "tysiacha.log.game_over":
        history = tuple(game.history)
        columns, rows, made, lost = sheet(history, names, game.n_seats, locale)
        winner = entry.values.get("seat")
        title = plain(t(locale, "tysiacha.sheet.final", name=names[winner] if winner is not None
                        else "—"))
        image = await offload(render_score_grid, columns, rows, title=title, locale=locale,
                              highlight_cells=made, framed_cells=lost, total_row=True,
                              highlight_columns=(2 + winner,) if winner is not None else (),
                              footer=t(locale, "tysiacha.sheet.legend"))
        text = t(locale, "tysiacha.table.game_over",
                 name=names[winner] if winner is not None else "—",
                 scores=seat_scores(names, game.scores))
        alt = sheet_alt(history, names, game.n_seats, locale, winner=winner, final=True)
        return PublicMessage(cut(text, CONTENT), image, None, filename("final"), alt=alt)
    return None


def prikup_of(game: TysiachaGame, action: Any) -> tuple[int, tuple[int, ...], int | None] | None:
    """The deal number, prikup and winning bid of the deal whose bidding ``action`` closed."""
    for number, (deal, actions) in enumerate(game.deal_log):
        if any(a is action for a in actions):
            bids = [a.bid for a in actions if isinstance(a, Bid)]
            return (number, tuple(int(c) for c in deal.prikup), max(bids) if bids else None)
    return None


def totals_after(history: tuple[DealResult, ...], n: int) -> list[int]:
    totals = [0] * n
    for result in history:
        for s in range(n):
            totals[s] += result.scores[s]
    return totals


def sheet(history: tuple[DealResult, ...], names: list[str], n: int,
          locale: str) -> tuple[list[str], list[list[str]], list[tuple[int, int]],
                                list[tuple[int, int]]]:
    """The score sheet: a row per deal (the contract and how it went, then each player's
    change and running total with the marks: ■ on the barrel, ↓ fell off it, ○ no trick,
    ! a penalty), then the totals; the cells of the contract's player, gold when it was
    made, framed when it was lost or conceded. The image shows the latest deals that fit
    and folds the earlier ones (every cell holds the running total)."""
    columns = [t(locale, "tysiacha.sheet.deal"), t(locale, "tysiacha.sheet.contract"),
               *names[:n]]
    rows: list[list[str]] = []
    made: list[tuple[int, int]] = []
    lost: list[tuple[int, int]] = []
    totals = [0] * n
    for i, result in enumerate(history):
        row = [str(result.number + 1), contract_cell(result, locale)]
        for s in range(n):
            totals[s] += result.scores[s]
            row.append(score_cell(result, s, totals[s]))
        rows.append(row)
        if result.soloist is not None and result.kind is not DealKind.REDEAL:
            (made if result.made else lost).append((i, 2 + result.soloist))
    rows.append([t(locale, "tysiacha.sheet.total"), "", *(_minus(x) for x in totals)])
    return columns, rows, made, lost


def _minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def contract_cell(result: DealResult, locale: str) -> str:
    """The contract and how it went (✓ made, ✗ lost, ⚐ conceded); its player's cell is
    marked on the sheet."""
    if result.kind is DealKind.REDEAL:
        return t(locale, "tysiacha.sheet.redeal")
    if result.kind is DealKind.CONCEDED:
        return t(locale, "tysiacha.sheet.conceded", contract=result.contract)
    return f"{result.contract} {'✓' if result.made else '✗'}"


def score_cell(result: DealResult, seat: int, total: int) -> str:
    """``+120<tab>560■``: the change (a note, see :data:`bot.render.trick.NOTE`), then the
    running total and its marks; a redeal changes nothing: the total alone."""
    if result.kind is DealKind.REDEAL:
        return _minus(total)
    change = result.scores[seat]
    marks = "".join(MARKS[mark] for mark in marks_of(result, seat, total))
    return f"{'+' if change > 0 else ''}{_minus(change)}{NOTE}{_minus(total)}{marks}"
