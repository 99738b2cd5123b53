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
    glow,
    number,
    paste,
    pill,
    share,
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
    draw_text(d, (x0 + 16, y0 + 56), fit(text, SEAT_W - 32, 20, "bold"), 20, "bold", state, "lm")
    _pips(d, x0 + 16, y0 + 88, seat.bid, seat.tricks)
    chips = []
    if seat.points is not None:
        chips.append(label(locale, "points_n", n=number(seat.points)))
    if seat.note:
        chips.append(seat.note)
    x = box[2] - 10
    for chip in chips:
        b = pill(d, x, y0 + SEAT_H - 40, fit(chip, 150, 18, "bold"), 18, (0, 0, 0, 110), TEXT,
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
# A lone attachment: Discord shows it within 550 × 350 pixels on desktop and 320 pixels
# wide on a phone. Its texts are never under GRID_TEXT pixels (capitals 28 pixels tall),
# so that up to GRID_W pixels of width and GRID_H of height they read at 8 pixels or more
# on a phone and 11 or more on desktop: about 45 figures across, GRID_ROWS rows down.

_NUMBER = re.compile(r"^[+\-−]?\d+([.,]\d+)?[^\w\s]*$")
"""A figure (right-aligned): a number, its marks after it (``880■``, ``42%``)."""
GRID_TEXT = 38
"""The size of every text of the grid (the title may be larger)."""
GRID_TITLE = 40
GRID_W = 1100
"""The widest the grid is drawn (wider only if its figures would not fit whole)."""
GRID_MIN_W = 800
GRID_MAX_W = 1600
GRID_H = 890
"""The tallest the grid may be and stay legible on desktop."""
GRID_ROWS = 12
"""The most rows drawn under the column titles; the earliest of more are folded into
one row that names them (``1–8``): every cell holds a running total, so none is lost."""
GRID_ROW_H = 50
GRID_HEAD_H = 54
GRID_TOP = 96
"""Where the column titles' row starts (under the title band)."""
GRID_X = 28
"""Where the first column starts; the last ends as far from the right edge."""
CELL_PAD = 9
"""Room left and right of a cell's text."""
NOTE_GAP = 14
"""Least room between a cell's note and its figure."""
TEXT_FLOOR = 170
"""The least width of a column of words (a longer word is cut, not the figures)."""
CELL_WEIGHT: Weight = "condensed"
STRONG_WEIGHT: Weight = "condensed-bold"
NOTE = "\t"
"""A cell ``"4/3\\t−12"`` is a note (left) and a figure (right-aligned); when the grid is
too narrow for every note, the notes are left out and the figures stay."""


def _parts(text: str) -> tuple[str | None, str]:
    note, tab, figure = text.partition(NOTE)
    return (note, figure) if tab else (None, text)


@dataclass(frozen=True, slots=True)
class GridLayout:
    """The columns of a grid: their left edges (and the last one's right edge), whether
    their cells' notes are drawn, each column title's lines, and the image's width."""

    xs: tuple[float, ...]
    notes: bool
    heads: tuple[tuple[str, ...], ...]
    width: int

    @property
    def title_lines(self) -> int:
        return max((len(lines) for lines in self.heads), default=1)


_BREAKS = re.compile(r"(?<=[\s_\-/])")


def head_lines(title: str, room: float, two: bool = True) -> tuple[str, ...]:
    """A column title in ``room`` pixels: whole on one line; else, if ``two``, on two,
    broken after a space, hyphen, underscore or slash where its first line fits whole
    (the second cut if need be); else cut on one line."""
    if text_width(title, GRID_TEXT, STRONG_WEIGHT) <= room:
        return (title,)
    best: tuple[str, str] | None = None
    for m in _BREAKS.finditer(title) if two else ():
        first, second = title[:m.start()].rstrip(), title[m.start():].lstrip()
        if not first or not second or text_width(first, GRID_TEXT, STRONG_WEIGHT) > room:
            continue
        if best is None or _wider(best) > _wider((first, second)):
            best = (first, second)
    if best is None:
        return (fit(title, room, GRID_TEXT, STRONG_WEIGHT),)
    return (best[0], fit(best[1], room, GRID_TEXT, STRONG_WEIGHT))


def _wider(lines: tuple[str, str]) -> float:
    return max(text_width(line, GRID_TEXT, STRONG_WEIGHT) for line in lines)


def _two_lines(title: str) -> float:
    """The width ``title`` needs on at most two lines (broken where :func:`head_lines`
    may break it)."""
    widths = [text_width(title, GRID_TEXT, STRONG_WEIGHT)]
    for m in _BREAKS.finditer(title):
        first, second = title[:m.start()].rstrip(), title[m.start():].lstrip()
        if first and second:
            widths.append(_wider((first, second)))
    return min(widths)


def grid_layout(columns: Sequence[str], rows: Sequence[Sequence[str]],
                least: int = GRID_MIN_W) -> GridLayout:
    """The columns' widths: each as wide as its cells (notes and figures whole), then the
    room left to the column titles (the shorter whole first, a long name on two lines).
    When the cells are wider than :data:`GRID_W` allows, the notes are left out; words
    (not figures) are cut to share what is left, down to :data:`TEXT_FLOOR`; the grid
    grows wider only if its figures still do not fit. The grid is at least ``least``
    pixels wide."""
    full, bare, words = [], [], []
    for j in range(len(columns)):
        note_ws, figures, numeric = [0.0], [0.0], True
        for row in rows:
            if j >= len(row) or not row[j]:
                continue
            note, figure = _parts(row[j])
            figures.append(text_width(figure, GRID_TEXT, STRONG_WEIGHT))
            if note is not None:
                note_ws.append(text_width(note, GRID_TEXT, STRONG_WEIGHT))
            numeric = numeric and (j == 0 or bool(_NUMBER.match(figure.strip())))
        note_w = max(note_ws)
        bare.append(max(figures) + 2 * CELL_PAD)
        full.append(bare[-1] + (note_w + NOTE_GAP if note_w else 0))
        words.append(not numeric)
    avail = float(GRID_W - 2 * GRID_X)

    def floors(needs: list[float]) -> list[float]:
        return [min(w, TEXT_FLOOR) if words[j] else w for j, w in enumerate(needs)]

    notes = sum(floors(full)) <= avail
    cells = full if notes else bare
    widths = floors(cells)
    if sum(widths) > avail:  # the figures alone are too wide: the grid grows
        avail = min(sum(widths), GRID_MAX_W - 2 * GRID_X)
    left = avail - sum(widths)
    # what each column would like beyond its figures: its title whole, its words whole
    one = [text_width(title, GRID_TEXT, STRONG_WEIGHT) + 2 * CELL_PAD for title in columns]
    if sum(max(h, c) - w for h, c, w in zip(one, cells, widths, strict=True)) > left:
        one = [min(h, _two_lines(title) + 2 * CELL_PAD) for h, title in zip(one, columns,
                                                                              strict=True)]
    # first the titles of one word (a word cut reads worst), the shorter first, in full
    # while they fit; then the rest (names, which may take two lines, and words) shares
    for j in sorted(range(len(columns)), key=lambda j: one[j]):
        if not _BREAKS.search(columns[j].strip()):
            extra = min(max(0.0, one[j] - widths[j]), left)
            widths[j] += extra
            left -= extra
    wants = [max(0.0, max(h, c) - w) for h, c, w in zip(one, cells, widths, strict=True)]
    widths = [w + extra for w, extra in zip(widths, share(wants, left), strict=True)]
    inner = sum(widths)
    if inner + 2 * GRID_X < least:  # a small grid: its columns share the rest
        widths = [w + (least - 2 * GRID_X - inner) / len(widths) for w in widths]
    xs = [float(GRID_X)]
    for w in widths:
        xs.append(xs[-1] + w)
    rooms = [w - 2 * CELL_PAD for w in widths]
    # two lines of titles take a row's room: only if a title is then whole
    two = any(_two_lines(title) <= room < text_width(title, GRID_TEXT, STRONG_WEIGHT)
              for title, room in zip(columns, rooms, strict=True))
    heads = tuple(head_lines(title, room, two) for title, room in zip(columns, rooms,
                                                                      strict=True))
    return GridLayout(tuple(xs), notes, heads, max(least, round(xs[-1] + GRID_X)))


def fold_rows(rows: Sequence[Sequence[str]], total_row: bool,
              limit: int = GRID_ROWS) -> tuple[list[list[str]], int]:
    """``rows`` as drawn: at most ``limit``, the earliest folded into one row (its first
    cell names them, ``1–8``; the rest is empty), the total row kept. Also how many rows
    were folded (0: none): row ``i`` of ``rows`` is then drawn as row ``i - folded + 1``."""
    tail = 1 if total_row and rows else 0
    body = [list(r) for r in rows[:len(rows) - tail]]
    if len(body) + tail <= limit:
        return [list(r) for r in rows], 0
    cut = len(body) - max(limit - 1 - tail, 1)
    first, last = (body[0][0] if body[0] else ""), (body[cut - 1][0] if body[cut - 1] else "")
    fold = [f"{first}–{last}", *([""] * (max(len(r) for r in rows) - 1))]
    return [fold, *body[cut:], *[list(r) for r in rows[len(rows) - tail:]]], cut


def _wrap(text: str, width: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels (the last cut if need be)."""
    out: list[str] = []
    words = text.split(" ")
    while words and len(out) < lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", GRID_TEXT, FOOT_WEIGHT) <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line.strip())
    if words:
        out[-1] = f"{out[-1]} {' '.join(words)}"
    return [fit(line, width, GRID_TEXT, FOOT_WEIGHT) for line in out]


FOOT_LINE = 46
"""Height of a line of the footer."""
FOOT_WEIGHT: Weight = "condensed"


def grid_height(rows: int, head_lines: int, foot_lines: int) -> int:
    """The height of a grid of ``rows`` rows under titles of ``head_lines`` lines, with a
    footer of ``foot_lines`` lines."""
    head = GRID_HEAD_H + (head_lines - 1) * 40
    foot = FOOT_LINE * foot_lines + 12 if foot_lines else 0
    return GRID_TOP + head + GRID_ROW_H * rows + 16 + foot + 8


def draw_score_grid(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str,
                    locale: str = "en", highlight_rows: Collection[int] = (),
                    highlight_columns: Collection[int] = (),
                    highlight_cells: Collection[tuple[int, int]] = (),
                    framed_cells: Collection[tuple[int, int]] = (),
                    total_row: bool = False, footer: str | None = None) -> Image.Image:
    """The score grid image, before encoding (see :func:`render_score_grid`)."""
    if not columns:
        raise ValueError("a score grid needs at least one column")
    n = len(columns)
    shown, folded = fold_rows(rows, total_row)
    at = grid_layout(columns, shown)
    notes = [] if footer is None else _wrap(footer, at.width - 2 * GRID_X, 2)
    if notes and notes[-1].endswith("…") and at.width < GRID_W:  # a wider grid for the footer
        at = grid_layout(columns, shown, GRID_W)
        notes = _wrap(footer or "", at.width - 2 * GRID_X, 2)
    least = at.width
    fits = GRID_ROWS
    while fits > 3 and grid_height(fits, at.title_lines, len(notes)) > GRID_H:
        fits -= 1
    if len(shown) > fits:  # two-line titles or footer: fewer rows fit
        shown, folded = fold_rows(rows, total_row, fits)
        at = grid_layout(columns, shown, least)
    tail = 1 if total_row and rows else 0

    def moved(i: int) -> int | None:
        if not folded:
            return i
        if i >= len(rows) - tail:
            return len(shown) - (len(rows) - i)
        return i - folded + 1 if i >= folded else None

    marked_rows = {m for i in highlight_rows if (m := moved(i)) is not None}
    cells = {(m, j) for i, j in highlight_cells if (m := moved(i)) is not None}
    framed = {(m, j) for i, j in framed_cells if (m := moved(i)) is not None}
    last = len(shown) - 1 if tail else None
    xs, width = at.xs, at.width
    right = xs[-1]
    height = grid_height(len(shown), at.title_lines, len(notes))
    img, d = canvas((width, height))
    d.rounded_rectangle((12, 12, width - 12, 82), radius=14, fill=PANEL_STRONG)
    draw_fitted(d, (GRID_X, 47), title, width - 2 * GRID_X, GRID_TITLE, "bold", TEXT, "lm",
                min_size=GRID_TEXT)
    body_top = GRID_TOP + GRID_HEAD_H + (at.title_lines - 1) * 40
    grid_bottom = body_top + GRID_ROW_H * len(shown)
    d.rounded_rectangle((20, GRID_TOP - 6, width - 20, grid_bottom + 8), radius=14, fill=PANEL)
    for j in highlight_columns:
        if 0 <= j < n:
            d.rectangle((xs[j], GRID_TOP, xs[j + 1], grid_bottom), fill=(*GOLD, 36))
    for j, lines in enumerate(at.heads):
        top = (body_top + GRID_TOP) / 2 - 20 * (len(lines) - 1)
        for k, line in enumerate(lines):
            _cell(d, xs[j], xs[j + 1], top + 40 * k, line, STRONG_WEIGHT, MUTED, j,
                  header=True)
    d.line((28, body_top, right + 4, body_top), fill=(255, 255, 255, 90), width=2)
    for i, row in enumerate(shown):
        y = body_top + GRID_ROW_H * (i + 0.5)
        band = (28, y - GRID_ROW_H / 2 + 2, right + 4, y + GRID_ROW_H / 2 - 2)
        if i in marked_rows:
            d.rectangle(band, fill=(*GOLD, 60))
        elif i % 2 == 1:
            d.rectangle(band, fill=(255, 255, 255, 14))
        if i == last:
            d.line((28, y - GRID_ROW_H / 2, right + 4, y - GRID_ROW_H / 2),
                   fill=(255, 255, 255, 90), width=2)
        if folded and i == 0:
            _cell(d, xs[0], xs[1], y, row[0], STRONG_WEIGHT, MUTED, 0)
            continue
        for j in range(n):
            text = row[j] if j < len(row) else ""
            weight = STRONG_WEIGHT if i == last or j == 0 else CELL_WEIGHT
            if (i, j) in framed:
                d.rounded_rectangle((xs[j] + 4, y - GRID_ROW_H / 2 + 5, xs[j + 1] - 4,
                                     y + GRID_ROW_H / 2 - 5), radius=10, outline=RED, width=4)
            if (i, j) in cells:
                d.rounded_rectangle((xs[j] + 4, y - GRID_ROW_H / 2 + 5, xs[j + 1] - 4,
                                     y + GRID_ROW_H / 2 - 5), radius=10, fill=(*GOLD, 235))
                _cell(d, xs[j], xs[j + 1], y, text, STRONG_WEIGHT, INK, j, at.notes,
                      shadow=False)
            else:
                _cell(d, xs[j], xs[j + 1], y, text, weight, TEXT, j, at.notes)
    for k, line in enumerate(notes):
        draw_text(d, (GRID_X, grid_bottom + 16 + FOOT_LINE * k + 29), line, GRID_TEXT,
                  FOOT_WEIGHT, MUTED, "lm", shadow=False)
    return img


def _cell(d: ImageDraw.ImageDraw, x0: float, x1: float, y: float, text: str, weight: Weight,
          fill: Color, column: int, notes: bool = True, shadow: bool = False,
          header: bool = False) -> None:
    """One cell: a figure right-aligned (with its note left-aligned, if ``notes``), a
    word centred, the first column's texts left-aligned; cut to the cell's room."""
    room = x1 - x0 - 2 * CELL_PAD
    note, figure = _parts(text)
    if note is not None and notes and not header:
        figure = fit(figure, room, GRID_TEXT, weight)
        note = fit(note, room - text_width(figure, GRID_TEXT, weight) - NOTE_GAP,
                   GRID_TEXT, weight)
        if note and note != "…":
            draw_text(d, (x0 + CELL_PAD, y), note, GRID_TEXT, weight,
                      fill if fill == INK else MUTED, "lm", shadow)
    text = fit(figure, room, GRID_TEXT, weight)
    if column > 0 and not header and _NUMBER.match(text.strip()):
        draw_text(d, (x1 - CELL_PAD, y), text, GRID_TEXT, weight, fill, "rm", shadow)
    elif column > 0:
        draw_text(d, ((x0 + x1) / 2, y), text, GRID_TEXT, weight, fill, "mm", shadow)
    else:
        draw_text(d, (x0 + CELL_PAD, y), text, GRID_TEXT, weight, fill, "lm", shadow)


def render_score_grid(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str,
                      locale: str = "en", highlight_rows: Collection[int] = (),
                      highlight_columns: Collection[int] = (),
                      highlight_cells: Collection[tuple[int, int]] = (),
                      framed_cells: Collection[tuple[int, int]] = (),
                      total_row: bool = False, footer: str | None = None) -> bytes:
    """Image of a score sheet (a lone attachment): ``columns`` titles over ``rows`` of
    cell texts, ``footer`` under them (up to two lines).

    Figures are right-aligned, words centred, the first column left-aligned; a cell
    ``"note\tfigure"`` has its note left-aligned (see :data:`NOTE`). Of more than
    :data:`GRID_ROWS` rows the earliest are folded into one (every cell is a running
    total). ``highlight_rows`` / ``highlight_columns`` (0-based, rows not counting the
    header) get a gold band, ``highlight_cells`` ((row, column) pairs) a gold chip,
    ``framed_cells`` a red frame;
    ``total_row`` sets the last row apart. The width follows the content up to
    :data:`GRID_W`; a title, name or word too long for its room is cut with an ellipsis,
    never a figure. ``locale`` is accepted for symmetry; the texts are the caller's.
    """
    return encode(draw_score_grid(columns, rows, title=title, locale=locale,
                                  highlight_rows=highlight_rows,
                                  highlight_columns=highlight_columns,
                                  highlight_cells=highlight_cells,
                                  framed_cells=framed_cells, total_row=total_row,
                                  footer=footer))
