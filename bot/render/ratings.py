"""The leaderboard image and the rating-history chart of ``/<game> stats``.

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
    PANEL_STRONG,
    TEXT,
    canvas,
    draw_fitted,
    draw_text,
    encode,
    fit_size,
    number,
    panel,
    text_width,
)

BOARD_W = 900
ROW_H = 46
TOP = 118


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


NAME_X = 120
"""Where the names start."""
RATING_X = 560
"""Where the ratings end (they are right-aligned)."""
CELL = 24
"""Text size of a line."""


def _rating_text(rating: float | None) -> str:
    return "—" if rating is None else number(rating, 1)


def name_room(lines: Sequence[BoardLine]) -> float:
    """The width the names may take: up to the widest rating of ``lines``, less a gap."""
    widest = max((text_width(_rating_text(line.rating), CELL) for line in lines), default=0.0)
    return RATING_X - widest - 28 - NAME_X


def render_leaderboard(title: str, headers: Sequence[str], lines: Sequence[BoardLine],
                       own: BoardLine | None, footer: str) -> bytes:
    """The leaderboard: ``headers`` are the five column titles (rank, name, rating, games,
    win rate); ``own`` is the caller's line, drawn under a gap when not among ``lines``."""
    count = len(lines) + (2 if own is not None else 0)
    height = TOP + ROW_H * max(count, 1) + 70
    img, d = canvas((BOARD_W, height))
    draw_text(d, (BOARD_W / 2, 44), title, 34, "bold", GOLD, "mm")
    cols = (60, NAME_X, RATING_X, 690, 820)
    room = name_room([*lines, *([own] if own is not None else [])])
    anchors = ("mm", "lm", "rm", "rm", "rm")
    for i, (x, anchor, text) in enumerate(zip(cols, anchors, headers, strict=True)):
        # the last two columns end 130 px apart: a longer title is made smaller, then cut
        title_room = x - cols[i - 1] - 12 if i >= 3 else float(BOARD_W)
        fitted, size = fit_size(text, title_room, 20, "bold", 18)
        draw_text(d, (x, 92), fitted, size, "bold", MUTED, anchor, shadow=False)

    def row(y: float, line: BoardLine) -> None:
        if line.mine:
            panel(d, (24, y - ROW_H / 2 + 3, BOARD_W - 24, y + ROW_H / 2 - 3), PANEL_STRONG,
                  radius=12, outline=GOLD)
        color = GOLD if line.rank <= 3 else TEXT
        cells = (str(line.rank), "", _rating_text(line.rating),
                 str(line.games),
                 line.last if line.last is not None else f"{round(100 * line.win_rate)}%")
        for x, anchor, text in zip(cols, anchors, cells, strict=True):
            if x == NAME_X:
                draw_fitted(d, (x, y), line.name, room, CELL, "bold", TEXT, anchor, min_size=20)
                continue
            draw_text(d, (x, y), text, CELL, "bold" if x < 600 else "regular",
                      color if x < 100 else TEXT, anchor)

    y = TOP + ROW_H / 2
    for line in lines:
        row(y, line)
        y += ROW_H
    if own is not None:
        draw_text(d, (BOARD_W / 2, y), "⋯", 24, "bold", MUTED, "mm", shadow=False)
        row(y + ROW_H, own)
        y += 2 * ROW_H
    draw_text(d, (BOARD_W / 2, height - 34), footer, 20, "regular", MUTED, "mm", shadow=False)
    return encode(img)


def render_rating_chart(title: str, values: Sequence[float], caption: str) -> bytes:
    """A small line chart of a player's rating after each rated game (oldest first),
    starting from 0, the rating of a newcomer."""
    width, height = 720, 320
    img, d = canvas((width, height))
    draw_text(d, (width - 24, 30), caption, 20, "regular", MUTED, "rm", shadow=False)
    room = width - 48 - text_width(caption, 20) - 16  # the title keeps clear of the caption
    title, size = fit_size(title, room, 24, "bold", 18)
    draw_text(d, (24, 30), title, size, "bold", GOLD, "lm")
    series = [0.0, *values]
    px0, py0, px1, py1 = 80.0, 64.0, width - 30.0, height - 40.0
    panel(d, (px0 - 64, py0 - 12, px1 + 16, py1 + 28))
    lo, hi = min(series), max(series)
    if hi - lo < 4:
        middle = (hi + lo) / 2
        lo, hi = middle - 2, middle + 2
    n = max(len(series) - 1, 1)

    def pt(i: int, v: float) -> tuple[float, float]:
        return (px0 + (px1 - px0) * i / n, py1 - (py1 - py0) * (v - lo) / (hi - lo))

    for v in (lo, (lo + hi) / 2, hi):
        y = pt(0, v)[1]
        d.line((px0, y, px1, y), fill=(255, 255, 255, 50), width=1)
        draw_text(d, (px0 - 10, y), number(v, 1), 18, "regular", MUTED, "rm", shadow=False)
    if lo < 0 < hi:
        y = pt(0, 0)[1]
        d.line((px0, y, px1, y), fill=(255, 255, 255, 110), width=2)
    points = [pt(i, v) for i, v in enumerate(series)]
    if len(points) > 1:
        d.line(points, fill=GREEN, width=4, joint="curve")
    for x, y in points[-40:]:
        d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=GREEN, outline=(20, 20, 20), width=1)
    x, y = points[-1]
    draw_text(d, (x - 6, y - 8), number(series[-1], 1), 20, "bold", TEXT, "rb")
    return encode(img)
