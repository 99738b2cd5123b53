"""Trick-taking kit for the French-deck games (Chinois, Tysiacha), on plain data.

:func:`render_trick_table` draws 3 or 4 seats around a trick with who led,
the trump (or "no trump"), each seat's bid against its tricks and its points;
:func:`render_score_grid` draws any score sheet. Both use the French card art.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.art.suits import suit_icon
from bot.render.cards import Deck, card_height, card_sprite, shadow_sprite
from bot.render.draw import (
    GOLD,
    GREEN,
    INK,
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
    fit,
    fit_size,
    glow,
    number,
    paste,
    pill,
    team_color,
    text_width,
)
from bot.render.fonts import Weight
from bot.render.labels import label
from engine.cards import Card

__all__ = ["SeatInfo", "render_score_grid", "render_trick_table"]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a trick-taking table, as the image shows it."""

    name: str
    bid: int | None = None
    """Tricks announced (None: no bid in this game or not yet bid)."""
    tricks: int = 0
    """Tricks taken so far in this round."""
    points: int | None = None
    """Score or points to show (None: hidden)."""
    is_turn: bool = False
    is_dealer: bool = False
    team: int | None = None
    """Team index for a colour mark (None: no teams)."""
    note: str | None = None
    """A short extra chip, e.g. a Tysiacha marriage."""


TRICK_W, TRICK_H = 1000, 790
CENTER = (500, 434)
CARD_W_TRICK = 112
SEAT_W, SEAT_H = 260, 148

# seat panel centres and the trick card's offset from the centre, by position
_POS4 = (((500, 700), (0, 100)), ((858, 434), (132, 0)), ((500, 168), (0, -100)),
         ((142, 434), (-132, 0)))
_POS3 = (((500, 700), (0, 100)), ((790, 214), (118, -70)), ((210, 214), (-118, -70)))
_TILT = (-3.0, 4.0, -5.0, 3.0)


def _positions(n: int, clockwise: bool) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    if n not in (3, 4):
        raise ValueError(f"the trick table shows 3 or 4 seats, not {n}")
    base = list(_POS4 if n == 4 else _POS3)
    if clockwise:  # seat 1 sits on the left of seat 0
        base = [base[0], *reversed(base[1:])]
    return base


def _pips(d: ImageDraw.ImageDraw, x: float, y: float, bid: int | None, tricks: int) -> None:
    """Trick markers: taken tricks filled, the bid's outstanding ones hollow, overtricks red."""
    total = max(bid or 0, tricks)
    step = 22 if total <= 9 else max(8, 198 / total)
    for i in range(total):
        cx = x + i * step + 8
        taken = i < tricks
        over = bid is not None and i >= bid
        color = RED if over else GREEN if taken else (255, 255, 255)
        if taken:
            d.ellipse((cx - 8, y - 8, cx + 8, y + 8), fill=color)
        else:
            d.ellipse((cx - 8, y - 8, cx + 8, y + 8), outline=(*color, 200), width=3)


def _seat_panel(d: ImageDraw.ImageDraw, seat: SeatInfo, center: tuple[int, int],
                locale: str) -> None:
    cx, cy = center
    box = (cx - SEAT_W / 2, cy - SEAT_H / 2, cx + SEAT_W / 2, cy + SEAT_H / 2)
    color = team_color(seat.team) if seat.team is not None else (200, 210, 220)
    if seat.is_turn:
        for i, alpha in enumerate((40, 70, 110)):
            g = 9 - i * 3
            d.rounded_rectangle((box[0] - g, box[1] - g, box[2] + g, box[3] + g), radius=18 + g,
                                outline=(*GOLD, alpha), width=3)
    d.rounded_rectangle(box, radius=16, fill=PANEL,
                        outline=GOLD if seat.is_turn else (*color, 140),
                        width=4 if seat.is_turn else 2)
    x0, y0 = box[0], box[1]
    name_end = box[2] - 14
    if seat.is_dealer:
        tag = label(locale, "dealer")
        tag_box = pill(d, box[2] - 10, y0 + 9, tag, 18, (255, 255, 255, 50), TEXT, height=28,
                       align="right")
        name_end = tag_box[0] - 8
    if seat.team is not None:
        d.ellipse((x0 + 14, y0 + 16, x0 + 28, y0 + 30), fill=color)
    nx = x0 + (36 if seat.team is not None else 16)
    draw_fitted(d, (nx, y0 + 23), seat.name, name_end - nx, 24, "bold", TEXT, "lm", min_size=20)
    if seat.bid is not None:
        text = label(locale, "bid_tricks", bid=seat.bid, tricks=seat.tricks)
    else:
        text = label(locale, "tricks_only", tricks=seat.tricks)
    state = MUTED
    if seat.bid is not None:
        state = GREEN if seat.tricks == seat.bid else RED if seat.tricks > seat.bid else MUTED
    text, size = fit_size(text, SEAT_W - 32, 20, "bold", 18)  # smaller before it is cut
    draw_text(d, (x0 + 16, y0 + 56), text, size, "bold", state, "lm")
    _pips(d, x0 + 16, y0 + 88, seat.bid, seat.tricks)
    chips = []
    if seat.points is not None:
        chips.append(label(locale, "points_n", n=number(seat.points)))
    if seat.note:
        chips.append(seat.note)
    x = box[2] - 10
    for chip in chips:  # right to left, each cut to the room left inside the panel
        room = min(150.0, x - (box[0] + 10) - 2 * 9)
        b = pill(d, x, y0 + SEAT_H - 40, fit(chip, room, 18, "bold"), 18, (0, 0, 0, 110), TEXT,
                 height=30, align="right")
        x = b[0] - 6
    if seat.is_turn:
        tag = "▶ " + label(locale, "turn")
        ty = box[3] - 14 if cy < CENTER[1] - 100 else box[1] - 30
        pill(d, cx, ty, tag, 20, GOLD, INK, height=32, align="center")


def _trump_panel(img: Image.Image, d: ImageDraw.ImageDraw, trump_card: Card | None,
                 trump_suit: int | None, locale: str) -> None:
    box = (24, 594, 232, 770)
    d.rounded_rectangle(box, radius=16, fill=PANEL_STRONG)
    if trump_card is None and trump_suit is None:
        draw_text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label(locale, "no_trump"),
                  24, "bold", MUTED, "mm")
        return
    draw_text(d, (box[0] + 16, box[1] + 24), label(locale, "trump"), 22, "bold", TEXT, "lm")
    x = box[0] + 16
    if trump_card is not None:
        paste(img, card_sprite(trump_card, 88, Deck.FRENCH), (x, box[1] + 44))
        x += 100
    suit = trump_suit if trump_suit is not None else (
        trump_card.suit if trump_card is not None else None)
    if suit is not None:
        size = 64 if trump_card is not None else 96
        icon = suit_icon(Deck.FRENCH, suit, size)
        cx = (x + box[2] - 10) / 2 if trump_card is not None else (box[0] + box[2]) / 2
        d.ellipse((cx - size / 2 - 10, box[1] + 104 - size / 2 - 10, cx + size / 2 + 10,
                   box[1] + 104 + size / 2 + 10), fill=(255, 255, 255, 230))
        paste(img, icon, (cx - size / 2, box[1] + 104 - size / 2))


def draw_trick_table(seats: Sequence[SeatInfo], trick: Sequence[tuple[int, Card]], *,
                     leader: int | None, trump_card: Card | None = None,
                     trump_suit: int | None = None, header: str = "", locale: str = "en",
                     winner: int | None = None, clockwise: bool = False,
                     footer: str | None = None) -> Image.Image:
    """The trick table image, before encoding (see :func:`render_trick_table`)."""
    positions = _positions(len(seats), clockwise)
    img, d = canvas((TRICK_W, TRICK_H))
    d.rounded_rectangle((12, 12, TRICK_W - 12, 76), radius=14, fill=PANEL_STRONG)
    draw_text(d, (32, 44), fit(header, TRICK_W - 80, 26, "bold"), 26, "bold", TEXT, "lm")
    for i, seat in enumerate(seats):
        _seat_panel(d, seat, positions[i][0], locale)
    _trump_panel(img, d, trump_card, trump_suit, locale)
    # the trick, in play order; the leader's card is marked, the winner's glows
    ch = card_height(CARD_W_TRICK)
    for who, card in trick:
        if not 0 <= who < len(seats):
            raise ValueError(f"seat {who} is not at this table")
        dx, dy = positions[who][1]
        cx, cy = CENTER[0] + dx, CENTER[1] + dy
        sprite = card_sprite(card, CARD_W_TRICK, Deck.FRENCH)
        tilted = sprite.rotate(_TILT[who % 4], resample=Image.Resampling.BICUBIC, expand=True)
        if who == winner:
            paste(img, glow((CARD_W_TRICK + 110, ch + 110), GOLD, 190),
                  (cx - (CARD_W_TRICK + 110) / 2, cy - (ch + 110) / 2))
        shadow = shadow_sprite(CARD_W_TRICK, 5, 110)
        paste(img, shadow, (cx - shadow.width / 2 + 3, cy - shadow.height / 2 + 5))
        paste(img, tilted, (cx - tilted.width / 2, cy - tilted.height / 2))
        tag_y = cy + ch / 2 - 8
        if who == leader:
            pill(d, cx, tag_y, label(locale, "led"), 18, (255, 255, 255, 230), INK, height=28,
                 align="center")
        if who == winner:
            pill(d, cx, cy - ch / 2 - 20, label(locale, "takes"), 18, (*GOLD, 245), INK,
                 height=28, align="center")
    if not trick and leader is not None and 0 <= leader < len(seats):
        draw_fitted(d, CENTER, label(locale, "leads", name=seats[leader].name),
                    2 * (CENTER[0] - SEAT_W - 40), 26, "bold", MUTED, "mm", min_size=20)
    if footer:
        draw_text(d, (TRICK_W - 32, TRICK_H - 36), fit(footer, 330, 20), 20, "regular", MUTED,
                  "rm")
    return img


def render_trick_table(seats: Sequence[SeatInfo], trick: Sequence[tuple[int, Card]], *,
                       leader: int | None, trump_card: Card | None = None,
                       trump_suit: int | None = None, header: str = "", locale: str = "en",
                       winner: int | None = None, clockwise: bool = False,
                       footer: str | None = None) -> bytes:
    """Image of a trick-taking table with 3 or 4 seats (seat 0 at the bottom).

    ``trick`` lists (seat, card) in play order; ``leader`` is the seat that led
    (marked "led"), ``winner`` optionally the seat taking the trick (glowing).
    ``trump_card`` (shown face up) and/or ``trump_suit`` (0..3, c d h s) name
    the trump; with neither the image says "no trump". Each seat shows its name,
    bid against tricks taken (with markers), points, dealer and turn. Seat 1
    sits on the right of seat 0 (counter-clockwise play) unless ``clockwise``.
    """
    return encode(draw_trick_table(seats, trick, leader=leader, trump_card=trump_card,
                                   trump_suit=trump_suit, header=header, locale=locale,
                                   winner=winner, clockwise=clockwise, footer=footer))


# --- Score grid -----------------------------------------------------------------------

_NUMBER = re.compile(r"^[+\-−]?\d+([.,]\d+)?$")
GRID_ROW_H = 44
GRID_MIN_W = 800
GRID_MAX_W = 1600


def draw_score_grid(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str,
                    locale: str = "en", highlight_rows: Collection[int] = (),
                    highlight_columns: Collection[int] = (),
                    highlight_cells: Collection[tuple[int, int]] = (),
                    total_row: bool = False, footer: str | None = None) -> Image.Image:
    """The score grid image, before encoding (see :func:`render_score_grid`)."""
    if not columns:
        raise ValueError("a score grid needs at least one column")
    n = len(columns)
    widths = []
    for j, head in enumerate(columns):
        w = text_width(head, 20, "bold")
        for row in rows:
            if j < len(row):
                w = max(w, text_width(row[j], 22, "bold"))
        widths.append(max(70.0, w + 36))
    inner = sum(widths)
    avail_min, avail_max = GRID_MIN_W - 64, GRID_MAX_W - 64
    if inner < avail_min:
        widths = [w * avail_min / inner for w in widths]
    elif inner > avail_max:
        widths = [w * avail_max / inner for w in widths]
    width = int(sum(widths) + 64)
    top = 96
    height = top + GRID_ROW_H * (len(rows) + 1) + 28 + (40 if footer else 0)
    img, d = canvas((width, height))
    d.rounded_rectangle((12, 12, width - 12, 76), radius=14, fill=PANEL_STRONG)
    draw_text(d, (32, 44), fit(title, width - 80, 26, "bold"), 26, "bold", TEXT, "lm")
    d.rounded_rectangle((20, top - 8, width - 20, top + GRID_ROW_H * (len(rows) + 1) + 8),
                        radius=14, fill=PANEL)
    xs = [32.0]
    for w in widths:
        xs.append(xs[-1] + w)
    for j in highlight_columns:
        if 0 <= j < n:
            d.rectangle((xs[j], top, xs[j + 1], top + GRID_ROW_H * (len(rows) + 1)),
                        fill=(*GOLD, 36))
    cells = set(highlight_cells)
    for j, head in enumerate(columns):
        _cell(d, xs[j], xs[j + 1], top + GRID_ROW_H / 2, head, 20, "bold", MUTED, j)
    d.line((28, top + GRID_ROW_H, width - 28, top + GRID_ROW_H), fill=(255, 255, 255, 90),
           width=2)
    for i, row in enumerate(rows):
        y = top + GRID_ROW_H * (i + 1.5)
        last = total_row and i == len(rows) - 1
        if i in highlight_rows:
            d.rectangle((28, y - GRID_ROW_H / 2 + 2, width - 28, y + GRID_ROW_H / 2 - 2),
                        fill=(*GOLD, 60))
        elif i % 2 == 1:
            d.rectangle((28, y - GRID_ROW_H / 2 + 2, width - 28, y + GRID_ROW_H / 2 - 2),
                        fill=(255, 255, 255, 14))
        if last:
            d.line((28, y - GRID_ROW_H / 2, width - 28, y - GRID_ROW_H / 2),
                   fill=(255, 255, 255, 90), width=2)
        for j in range(n):
            text = row[j] if j < len(row) else ""
            if (i, j) in cells:
                d.rounded_rectangle((xs[j] + 4, y - GRID_ROW_H / 2 + 5, xs[j + 1] - 4,
                                     y + GRID_ROW_H / 2 - 5), radius=10, fill=(*GOLD, 235))
                _cell(d, xs[j], xs[j + 1], y, text, 22, "bold", INK, j, shadow=False)
            else:
                _cell(d, xs[j], xs[j + 1], y, text, 22 if last else 20,
                      "bold" if last or j == 0 else "regular", TEXT, j)
    if footer:
        draw_text(d, (32, height - 34), fit(footer, width - 64, 20), 20, "regular", MUTED, "lm")
    return img


def _cell(d: ImageDraw.ImageDraw, x0: float, x1: float, y: float, text: str, size: int,
          weight: Weight, fill: Color, column: int, shadow: bool = True) -> None:
    text = fit(text, x1 - x0 - 20, size, weight)
    if column > 0 and _NUMBER.match(text.strip()):
        draw_text(d, (x1 - 14, y), text, size, weight, fill, "rm", shadow)
    elif column > 0:
        draw_text(d, ((x0 + x1) / 2, y), text, size, weight, fill, "mm", shadow)
    else:
        draw_text(d, (x0 + 12, y), text, size, weight, fill, "lm", shadow)


def render_score_grid(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str,
                      locale: str = "en", highlight_rows: Collection[int] = (),
                      highlight_columns: Collection[int] = (),
                      highlight_cells: Collection[tuple[int, int]] = (),
                      total_row: bool = False, footer: str | None = None) -> bytes:
    """Image of a score sheet: ``columns`` headers over ``rows`` of cell texts.

    Numbers are right-aligned, other cells centred, the first column left-aligned.
    ``highlight_rows`` / ``highlight_columns`` (0-based, rows not counting the
    header) get a gold band, ``highlight_cells`` ((row, column) pairs) a gold
    chip; ``total_row`` sets the last row apart. Width grows with the content
    (800 to 1600 px). ``locale`` is accepted for symmetry; the texts are the
    caller's.
    """
    return encode(draw_score_grid(columns, rows, title=title, locale=locale,
                                  highlight_rows=highlight_rows,
                                  highlight_columns=highlight_columns,
                                  highlight_cells=highlight_cells, total_row=total_row,
                                  footer=footer))
