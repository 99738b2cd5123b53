"""The leaderboard image and the rating-history chart of ``/<game> stats``.

Both are embed images: Discord shows them within 400 × 300 pixels on desktop and
320 pixels wide on a phone (:mod:`bot.render.display`), so both are drawn 800 pixels
wide, twice that, with no text under :data:`SMALLEST` pixels (its capitals 23 pixels
tall: 11.5 on desktop, 9.2 on a phone). The embed carries what the image leaves out:
the title, the page and the footnotes.

Both take their words already translated (the caller owns the locale), so the
arguments are plain data that pickle for :func:`bot.workers.offload`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.render.draw import (
    GOLD,
    GREEN,
    MUTED,
    PANEL,
    PANEL_STRONG,
    RED,
    TEXT,
    Color,
    canvas,
    draw_fitted,
    draw_text,
    encode,
    number,
    panel,
    text_width,
)
from bot.render.fonts import Weight

BOARD_W = 800
"""The leaderboard's width (an embed image, shown at half of it on desktop)."""
BOARD_ROWS = 10
"""The most lines a leaderboard image holds, besides the header and the caller's own
line (about 12 lines fit the embed's 300 pixels of height at the legible size)."""
SMALLEST = 31
"""The least text size of these images."""
CELL = 32
"""Text size of a line (names shrink from it down to :data:`SMALLEST`, then are cut)."""
HEAD_H = 56
"""Height of the column titles' band."""
SCOPE_H = 50
"""Height of the band over the titles that says which board it is (this server's or the
global one), when the caller names it."""
ROW_H = 46
OWN_GAP = 16
"""The gap before the caller's own line when it is not among the lines."""
MARGIN = 26
"""Left and right margin of the texts."""
GAP = 24
"""Least room between two columns."""


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of the leaderboard: place, name, rating (ordinal), games, win rate."""

    rank: int
    name: str
    rating: float | None
    games: int
    win_rate: float
    mine: bool = False
    last: str | None = None
    """What the last column shows instead of the win rate (the daily standings' trend)."""


def _rating_text(rating: float | None) -> str:
    return "—" if rating is None else number(rating, 1)


def _cells(line: BoardLine) -> tuple[str, str, str]:
    """The texts of the figures' columns: rating, games, last column."""
    last = line.last if line.last is not None else f"{round(100 * line.win_rate)}%"
    return (_rating_text(line.rating), str(line.games), last)


TREND: dict[str, Color] = {"▲": GREEN, "▼": RED}
"""The marks of a trend (a board at 50% or more, or below), each in its colour."""
FIGURE_WEIGHTS: tuple[Weight, Weight, Weight] = ("bold", "regular", "regular")
"""The weight of each figures' column (the rating stands out)."""


HEAD_WEIGHT: Weight = "condensed-bold"
"""The column titles' weight (narrow: a title as long as "Classement" over a column of
figures leaves room for the names)."""
NAME_FLOOR = 200
"""The names' least room (about nine letters): titles of figures are cut before (a long
name is cut anyway; a title is a translator's word, and its language's longest fit)."""


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Where the columns of a leaderboard are: the rank's right edge, where the names
    start and how wide they may be, the right edge of each figures' column, and the room
    of each column title."""

    rank_right: float
    name_x: float
    name_room: float
    rights: tuple[float, float, float]
    """Right edges of the rating, games and last columns (all right-aligned)."""
    titles: tuple[float, float, float, float]
    """The room of the titles of the names and of the three figures' columns (the
    rating's may reach over the names' column, whose lines stop before its figures)."""


def board_layout(headers: Sequence[str], lines: Sequence[BoardLine]) -> BoardLayout:
    """The columns for ``headers`` and ``lines``: the figures' columns as wide as their
    widest text (title or figure) from the right edge, the ranks as wide as theirs from
    the left, and the names the rest, at least :data:`NAME_FLOOR` when the titles of
    the figures can give it up (they are then cut, never the figures)."""
    rank_w = max([text_width(headers[0], SMALLEST, HEAD_WEIGHT),
                  *(text_width(str(line.rank), CELL, "bold") for line in lines)])
    rank_right = MARGIN + rank_w
    name_x = rank_right + GAP
    figures = [_cells(line) for line in lines]
    widths = [max([0.0, *(text_width(cells[j], CELL, FIGURE_WEIGHTS[j]) for cells in figures)])
              for j in range(3)]
    heads = [text_width(headers[j + 2], SMALLEST, HEAD_WEIGHT) for j in range(3)]
    claims = [max(w, h) for w, h in zip(widths, heads, strict=True)]

    def rating_right() -> float:
        return BOARD_W - MARGIN - claims[2] - GAP - claims[1] - GAP

    short = NAME_FLOOR - (rating_right() - widths[0] - GAP - name_x)
    excess = [claims[j] - widths[j] for j in (1, 2)]
    if short > 0 and sum(excess) > 0:
        cut = min(1.0, short / sum(excess))
        claims[1], claims[2] = (claims[j] - cut * excess[j - 1] for j in (1, 2))
    rights = (rating_right(), BOARD_W - MARGIN - claims[2] - GAP, float(BOARD_W - MARGIN))
    name_room = rights[0] - widths[0] - GAP - name_x
    name_head = text_width(headers[1], SMALLEST, HEAD_WEIGHT)
    rating_title = max(widths[0], min(heads[0], rights[0] - name_x - GAP - name_head))
    return BoardLayout(rank_right, name_x, name_room, rights,
                       (rights[0] - rating_title - GAP - name_x, rating_title, claims[1],
                        claims[2]))


def board_height(count: int, own: bool, scope: bool = False) -> int:
    """The height of a leaderboard of ``count`` lines (and the caller's own line, and the
    band naming its scope)."""
    return ((SCOPE_H if scope else 0) + HEAD_H + ROW_H * max(count, 1)
            + (OWN_GAP + ROW_H if own else 0) + 20)


def render_leaderboard(headers: Sequence[str], lines: Sequence[BoardLine],
                       own: BoardLine | None = None, scope: str | None = None) -> bytes:
    """The leaderboard (an embed image, the embed holding its title and page): ``headers``
    are the five column titles (rank, name, rating, games, win rate); ``lines`` at most
    :data:`BOARD_ROWS`; ``own`` is the caller's line, drawn under a gap when not among
    ``lines``; ``scope``, if given, names the board over its titles (this server's, or
    the global one: issue 53). Names shrink, then are cut with an ellipsis, before the
    ratings."""
    if len(headers) != 5:
        raise ValueError(f"a leaderboard has five column titles, not {len(headers)}")
    if len(lines) > BOARD_ROWS:
        raise ValueError(f"a leaderboard image holds {BOARD_ROWS} lines, not {len(lines)}")
    every = [*lines, *([own] if own is not None else [])]
    at = board_layout(headers, every)
    height = board_height(len(lines), own is not None, scope is not None)
    img, d = canvas((BOARD_W, height))
    top = 0
    if scope is not None:
        top = SCOPE_H
        draw_fitted(d, (MARGIN, SCOPE_H / 2 + 4), scope, BOARD_W - 2 * MARGIN, CELL, "bold",
                    GOLD, "lm", min_size=SMALLEST)
    head_y = top + HEAD_H / 2 + 6
    draw_text(d, (at.rank_right, head_y), headers[0], SMALLEST, HEAD_WEIGHT, MUTED, "rm",
              shadow=False)
    draw_fitted(d, (at.name_x, head_y), headers[1], at.titles[0], SMALLEST, HEAD_WEIGHT,
                MUTED, "lm", shadow=False)
    for right, text, room in zip(at.rights, headers[2:], at.titles[1:], strict=True):
        draw_fitted(d, (right, head_y), text, room, SMALLEST, HEAD_WEIGHT, MUTED, "rm",
                    shadow=False)
    d.line((MARGIN - 8, top + HEAD_H, BOARD_W - MARGIN + 8, top + HEAD_H),
           fill=(255, 255, 255, 70), width=2)

    def row(y: float, line: BoardLine, stripe: bool) -> None:
        box = (14, y - ROW_H / 2 + 2, BOARD_W - 14, y + ROW_H / 2 - 2)
        if line.mine:
            panel(d, box, PANEL_STRONG, radius=12, outline=GOLD, width=3)
        elif stripe:
            panel(d, box, (255, 255, 255, 16), radius=10)
        draw_text(d, (at.rank_right, y), str(line.rank), CELL, "bold",
                  GOLD if line.rank <= 3 else TEXT, "rm")
        draw_fitted(d, (at.name_x, y), line.name, at.name_room, CELL, "bold", TEXT, "lm",
                    min_size=SMALLEST)
        for right, text, weight in zip(at.rights, _cells(line), FIGURE_WEIGHTS, strict=True):
            if text and set(text) <= set(TREND):
                trend(right, y, text)
            else:
                draw_text(d, (right, y), text, CELL, weight, TEXT, "rm")

    def trend(right: float, y: float, marks: str) -> None:
        x = right - text_width(marks, CELL)
        for mark in marks:
            draw_text(d, (x, y), mark, CELL, "regular", TREND[mark], "lm")
            x += text_width(mark, CELL)

    y = top + HEAD_H + ROW_H / 2 + 2
    for i, line in enumerate(lines):
        row(y, line, i % 2 == 1)
        y += ROW_H
    if own is not None:
        # the lines between are left out: a row of dots says so
        dots_y = y - ROW_H / 2 + OWN_GAP / 2 + 2
        for k in range(3):
            x = at.rank_right - 6 + 18 * (k - 1)
            d.ellipse((x - 3, dots_y - 3, x + 3, dots_y + 3), fill=MUTED)
        row(y + OWN_GAP, own, False)
    return encode(img)


CHART_W, CHART_H = 800, 560
"""The rating chart's size (an embed image, shown at half of it on desktop)."""


def render_rating_chart(title: str, values: Sequence[float], caption: str) -> bytes:
    """A line chart of a player's rating after each rated game (oldest first), starting
    from 0, the rating of a newcomer: ``title`` over it with the latest rating at its
    right (its point is ringed), ``caption`` (how many games) under its axis of games."""
    width, height = CHART_W, CHART_H
    img, d = canvas((width, height))
    series = [0.0, *values]
    last = number(series[-1], 1)
    draw_text(d, (width - MARGIN, 40), last, CELL + 4, "bold", TEXT, "rm")
    draw_fitted(d, (MARGIN, 40), title, width - 2 * MARGIN - text_width(last, CELL + 4, "bold")
                - GAP, CELL, "bold", GOLD, "lm", min_size=SMALLEST)
    lo, hi = min(series), max(series)
    if hi - lo < 4:
        middle = (hi + lo) / 2
        lo, hi = middle - 2, middle + 2
    ticks = [number(v, 1) for v in (lo, (lo + hi) / 2, hi)]
    label_w = max(text_width(tick, SMALLEST) for tick in ticks)
    px0 = MARGIN + label_w + 18
    px1 = width - MARGIN - 14
    py0, py1 = 112.0, height - 104.0
    panel(d, (px0 - 14, py0 - 30, px1 + 14, py1 + 14), PANEL)
    n = max(len(series) - 1, 1)

    def pt(i: int, v: float) -> tuple[float, float]:
        return (px0 + (px1 - px0) * i / n, py1 - (py1 - py0) * (v - lo) / (hi - lo))

    for v, tick in zip((lo, (lo + hi) / 2, hi), ticks, strict=True):
        y = pt(0, v)[1]
        d.line((px0, y, px1, y), fill=(255, 255, 255, 50), width=2)
        draw_text(d, (px0 - 18, y), tick, SMALLEST, "regular", MUTED, "rm", shadow=False)
    if lo < 0 < hi:
        y = pt(0, 0)[1]
        d.line((px0, y, px1, y), fill=(255, 255, 255, 110), width=3)
    points = [pt(i, v) for i, v in enumerate(series)]
    if len(points) > 1:
        d.line(points, fill=GREEN, width=6, joint="curve")
    if len(points) <= 40:  # a dot a game while they stay apart
        for x, y in points:
            d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=GREEN, outline=(20, 20, 20), width=2)
    x, y = points[-1]
    d.ellipse((x - 12, y - 12, x + 12, y + 12), outline=TEXT, width=3)
    # the axis of games: where it starts (no game yet) and ends, and how many
    axis_y = py1 + 48
    draw_text(d, (px0, axis_y), "0", SMALLEST, "regular", MUTED, "mm", shadow=False)
    draw_text(d, (px1, axis_y), str(len(values)), SMALLEST, "regular", MUTED, "rm",
              shadow=False)
    room = px1 - px0 - 2 * (text_width(str(len(values)), SMALLEST) + 30)
    draw_fitted(d, ((px0 + px1) / 2, axis_y), caption, room, SMALLEST, "regular", MUTED,
                "mm", shadow=False)
    return encode(img)
