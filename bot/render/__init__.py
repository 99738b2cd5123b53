"""Images of the games: engine views (or plain data) in, image bytes out.

Every image is encoded as :data:`IMAGE_FORMAT` (WebP), but the live panels' pictures
(:func:`render_position`, :func:`render_stacked`, :func:`render_exchange`: JPEG, quicker to
encode); name attachments with :func:`filename` (``filename("table")`` ->
``"table.webp"``, ``filename("hand", data)`` in the bytes' format), never with a
hard-coded extension.

Every ``render_*`` function is pure and synchronous; the ``*_async`` twins run
it in a worker thread (``asyncio.to_thread``) so the bot's event loop never
blocks on drawing. Card art comes from ``assets/cards`` (regenerate it with
``python -m tools.make_art``), fonts from ``assets/fonts``.

Tichu: :func:`render_table` (public view only; 4 or 6 seats), :func:`render_hand`,
:func:`render_exchange`, :func:`render_deal_summary`, :func:`render_game_over`.
Trick-taking games: :func:`render_trick_table` with :class:`SeatInfo`, and
:func:`render_score_grid`. Labels are in :mod:`bot.render.labels` (en, fr).

The package is a one-way stack: ``fonts``, ``labels``, ``encoding`` ->
``draw`` -> ``cards``, ``tiles`` -> ``seats`` -> the images (``hand``, ``table``,
``summary``, ``trick``, ``french``, ``ratings``) -> ``position`` (the table and a
seat's hand as one picture) -> ``palette`` (the warm-up: the sprites the Tichu panels draw,
at their sizes) -> this facade -> ``examples`` (fixed inputs for docs, tests and
benchmarks). No module imports one beside or above it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence

from bot.render.encoding import IMAGE_EXT, IMAGE_FORMAT, IMAGE_MIME, PANEL_EXT, filename
from bot.render.hand import find_bombs, render_exchange, render_hand, sorted_hand
from bot.render.labels import label
from bot.render.palette import warm_up
from bot.render.position import render_position, render_stacked
from bot.render.seats import Side, side_of
from bot.render.summary import render_deal_summary, render_game_over
from bot.render.table import render_table
from bot.render.trick import SeatInfo, render_score_grid, render_trick_table
from engine.cards import Card
from engine.tichu.view import TichuView

__all__ = [
    "IMAGE_EXT",
    "IMAGE_FORMAT",
    "IMAGE_MIME",
    "PANEL_EXT",
    "SeatInfo",
    "Side",
    "filename",
    "find_bombs",
    "label",
    "render_deal_summary",
    "render_deal_summary_async",
    "render_exchange",
    "render_exchange_async",
    "render_game_over",
    "render_game_over_async",
    "render_hand",
    "render_hand_async",
    "render_position",
    "render_score_grid",
    "render_score_grid_async",
    "render_stacked",
    "render_table",
    "render_table_async",
    "render_trick_table",
    "render_trick_table_async",
    "side_of",
    "sorted_hand",
    "warm_up",
]


async def render_table_async(view: TichuView, names: Sequence[str], *,
                             locale: str = "en") -> bytes:
    """:func:`render_table` in a worker thread."""
    return await asyncio.to_thread(render_table, view, names, locale=locale)


async def render_hand_async(view: TichuView, *, locale: str = "en",
                            selected: Collection[Card] = ()) -> bytes:
    """:func:`render_hand` in a worker thread."""
    return await asyncio.to_thread(render_hand, view, locale=locale, selected=selected)


async def render_exchange_async(view: TichuView, left: Card | None, partner: Card | None,
                                right: Card | None, names: Sequence[str], *,
                                locale: str = "en") -> bytes:
    """:func:`render_exchange` in a worker thread."""
    return await asyncio.to_thread(render_exchange, view, left, partner, right, names,
                                   locale=locale)


async def render_deal_summary_async(view: TichuView, names: Sequence[str], *,
                                    locale: str = "en") -> bytes:
    """:func:`render_deal_summary` in a worker thread."""
    return await asyncio.to_thread(render_deal_summary, view, names, locale=locale)


async def render_game_over_async(view: TichuView, names: Sequence[str], *,
                                 locale: str = "en") -> bytes:
    """:func:`render_game_over` in a worker thread."""
    return await asyncio.to_thread(render_game_over, view, names, locale=locale)


async def render_trick_table_async(seats: Sequence[SeatInfo], trick: Sequence[tuple[int, Card]],
                                   *, leader: int | None, trump_card: Card | None = None,
                                   trump_suit: int | None = None, header: str = "",
                                   locale: str = "en", winner: int | None = None,
                                   clockwise: bool = False, footer: str | None = None) -> bytes:
    """:func:`render_trick_table` in a worker thread."""
    return await asyncio.to_thread(
        render_trick_table, seats, trick, leader=leader, trump_card=trump_card,
        trump_suit=trump_suit, header=header, locale=locale, winner=winner,
        clockwise=clockwise, footer=footer)


async def render_score_grid_async(columns: Sequence[str], rows: Sequence[Sequence[str]], *,
                                  title: str, locale: str = "en",
                                  highlight_rows: Collection[int] = (),
                                  highlight_columns: Collection[int] = (),
                                  highlight_cells: Collection[tuple[int, int]] = (),
                                  framed_cells: Collection[tuple[int, int]] = (),
                                  total_row: bool = False, footer: str | None = None) -> bytes:
    """:func:`render_score_grid` in a worker thread."""
    return await asyncio.to_thread(
        render_score_grid, columns, rows, title=title, locale=locale,
        highlight_rows=highlight_rows, highlight_columns=highlight_columns,
        highlight_cells=highlight_cells, framed_cells=framed_cells, total_row=total_row,
        footer=footer)
