"""Trick-taking kit for the French-deck games (Chinois, Tysiacha), on plain data.

:func:`render_trick_table` draws 3 or 4 seats around a trick with who led and who takes
it, the trump (or "no trump"), each seat's bid against its tricks and its points;
:func:`render_score_grid` draws any score sheet.

The table is drawn for the size Discord shows it at (:mod:`bot.render.display`): 1100 px
wide (1100 × 800 with four seats, 1100 × 700 with three), shown at about 0.44 and 0.5 of
its size on desktop and 0.29 on a phone, so every text is at least :data:`SMALL` pixels
and the trick's cards are tiles (:mod:`bot.render.tiles`) whose ranks are taller still.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.art.suits import suit_icon
from bot.render.cards import Deck
from bot.render.draw import (
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PANEL_STRONG,
    RED,
    TEXT,
    Box,
    Color,
    canvas,
    draw_fitted,
    draw_text,
    drawn,
    encode,
    fit,
    fit_names,
    glow,
    number,
    paste,
    share,
    team_color,
    text_width,
    wrap_names,
)
from bot.render.fonts import Weight, font
from bot.render.labels import fit_label, label
from bot.render.tiles import card_tile, tile_height
from engine.cards import Card

__all__ = ["SeatInfo", "note_fits", "render_score_grid", "render_trick_table", "trick_layout"]


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
    """A short extra chip, e.g. a Tysiacha marriage (see :func:`note_fits`)."""


SMALL = 38
"""The smallest text: its cap height (28 px) shows 8 px tall on a phone, where the table is
shown 320 px wide, and 12 px on desktop."""
NAME_SIZE = 44
"""A seat's name, shrunk down to :data:`SMALL` before it is cut."""
CHIP: Weight = "condensed-bold"
"""The weight of chips and tags (points, notes, led, takes, the dealer's mark)."""
CHIP_H = 42
CHIP_PAD = 10
"""Room on either side of a chip's text."""
PANEL_W, PANEL_H = 340, 160
"""A seat's panel on the left or the right."""
WIDE_W = 440
"""A seat's panel at the bottom or the top."""
CORNER_W = 300
"""The trump's corner (bottom left) and the footer's (bottom right)."""
SEAT_PAD = 14
"""Room kept between a panel's texts and its left and right edges."""
NAME_X = 44
"""Where a seat's name starts in its panel after the turn arrow or the team dot (else at
:data:`SEAT_PAD` + 4)."""
LINE_Y = (32, 84, 134, 184)
"""The middle of a panel's lines, from its top: the name, then the bid and tricks, the
points and the note, flowing over the next lines (two, or three in a tall panel)."""
TALL_H = 210
"""A panel on the left or the right when one of them needs a fourth line (a Tysiacha
note that its second and third lines leave no room for)."""
TILE_W = 96
"""The trick's tiles: their ``10`` is 36 px tall."""
TRUMP_TILE_W = 84
HEADER_BOTTOM = 72


@dataclass(frozen=True, slots=True)
class Place:
    """Where one seat sits: its panel, its card of the trick, and the tag under or over it."""

    panel_box: Box
    """The seat's panel."""
    card: tuple[int, int]
    """Centre of the seat's card of the trick."""
    tag_side: Literal["above", "below"]
    tag_room: tuple[int, int]
    """The span of x a tag of this card may use (clear of the other cards and panels)."""
    tall_box: Box | None = None
    """The panel of a narrow seat when the side panels are tall (None: a wide panel)."""

    @property
    def card_box(self) -> Box:
        cx, cy = self.card
        h = tile_height(TILE_W)
        return (cx - TILE_W / 2, cy - h / 2, cx + TILE_W / 2, cy + h / 2)

    def tag_y(self) -> float:
        """The middle of the tag's line."""
        box = self.card_box
        return box[1] - 4 - CHIP_H / 2 if self.tag_side == "above" else box[3] + 4 + CHIP_H / 2


@dataclass(frozen=True, slots=True)
class TrickLayout:
    """Where things go on a table of 3 or 4 seats; ``places`` is in seat order."""

    size: tuple[int, int]
    places: tuple[Place, ...]
    zone: Box
    """The middle, between the panels: the trick, or who leads."""
    trump_box: Box
    footer_box: Box

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]


# Places counter-clockwise from the bottom (seat 0): four seats bottom, right, top, left;
# three seats bottom, upper right, upper left. The panels at the bottom and the top are
# wider (their names have the room the corners leave); a card's tag goes on the side of
# its seat, or under it when a panel is beside it.
_FOUR = (
    Place((330, 628, 330 + WIDE_W, 788), (550, 509), "below", (366, 734)),
    Place((746, 300, 746 + PANEL_W, 460), (668, 436), "below", (604, 1086),
          (746, 250, 746 + PANEL_W, 250 + TALL_H)),
    Place((330, 84, 330 + WIDE_W, 244), (550, 363), "above", (366, 734)),
    Place((14, 300, 14 + PANEL_W, 460), (432, 436), "below", (14, 496),
          (14, 250, 14 + PANEL_W, 250 + TALL_H)),
)
_THREE = (
    Place((330, 528, 330 + WIDE_W, 688), (550, 404), "below", (366, 734)),
    Place((746, 84, 746 + PANEL_W, 244), (662, 300), "below", (602, 1086),
          (746, 84, 746 + PANEL_W, 84 + TALL_H)),
    Place((14, 84, 14 + PANEL_W, 244), (438, 300), "below", (14, 498),
          (14, 84, 14 + PANEL_W, 84 + TALL_H)),
)
SIZE4 = (1100, 800)
SIZE3 = (1100, 700)


def trick_layout(n_seats: int, clockwise: bool = False, tall: bool = False) -> TrickLayout:
    """The layout of a table of ``n_seats`` (3 or 4; ValueError otherwise). Seat 0 sits at
    the bottom; seat 1 on its right (counter-clockwise play) or, ``clockwise``, on its left.
    ``tall``: the panels on the left and the right have four lines."""
    if n_seats not in (3, 4):
        raise ValueError(f"the trick table shows 3 or 4 seats, not {n_seats}")
    places = [replace(p, panel_box=p.tall_box) if tall and p.tall_box else p
              for p in (_FOUR if n_seats == 4 else _THREE)]
    if clockwise:
        places = [places[0], *reversed(places[1:])]
    w, h = SIZE4 if n_seats == 4 else SIZE3
    bottom = h - 12 - PANEL_H
    zone = (366, 250, 734, 622) if n_seats == 4 else (366, HEADER_BOTTOM + 12, 734, bottom - 12)
    return TrickLayout(
        size=(w, h), places=tuple(places), zone=zone,
        trump_box=(14, bottom, 14 + CORNER_W, h - 12),
        footer_box=(w - 14 - CORNER_W, bottom, w - 14, h - 12))


def tag(d: ImageDraw.ImageDraw, x: float, cy: float, text: str, bg: Color, fg: Color, *,
        align: str = "left", height: int = CHIP_H, weight: Weight = CHIP,
        min_width: float = 0) -> Box:
    """A rounded label of :data:`SMALL` text whose capitals sit in its middle; ``x`` is its
    left edge (its centre with ``align="center"``, its right edge with ``"right"``), ``cy``
    its middle. Returns its box."""
    f = font(SMALL, weight)
    w = max(text_width(text, SMALL, weight) + 2 * CHIP_PAD, min_width)
    x0 = x - w / 2 if align == "center" else x - w if align == "right" else x
    box = (x0, cy - height / 2, x0 + w, cy + height / 2)
    d.rounded_rectangle(box, radius=height / 2, fill=bg)
    _, top, _, _ = f.getbbox("H", anchor="ls")
    d.text((x0 + w / 2, cy - top / 2), drawn(text), font=f, fill=fg, anchor="ms")
    return box


def chip_width(text: str) -> float:
    """The width of a chip holding ``text``."""
    return text_width(text, SMALL, CHIP) + 2 * CHIP_PAD


def line_room(width: float) -> float:
    """The room of a line of a panel ``width`` pixels wide."""
    return width - 2 * SEAT_PAD - 2


NOTE_ROOM = line_room(PANEL_W)
"""The widest chip every seat's panel holds: a note wider than this may be cut."""


def note_fits(note: str) -> bool:
    """Whether a seat's note fits its panel whole (a longer one is cut with an ellipsis)."""
    return chip_width(note) <= NOTE_ROOM


Item = tuple[str, Color, Color | None, bool]
"""A text of a seat's panel: (text, its colour, its chip's background or None: plain
text, whether it starts a line)."""


def _items(seat: SeatInfo, locale: str, room: float) -> list[Item]:
    """The bid and tricks, the points and the note, in the order they flow in a panel
    whose lines are ``room`` pixels long."""
    items: list[Item] = []
    if seat.bid is not None:
        state = GREEN if seat.tricks == seat.bid else RED if seat.tricks > seat.bid else MUTED
        both = label(locale, "bid_tricks", bid=seat.bid, tricks=seat.tricks)
        if text_width(both, SMALL, CHIP) <= room:
            items.append((both, state, None, False))
        else:  # too wide for one line: the bid, then the tricks on the next line
            items.append((label(locale, "bid_only", bid=seat.bid), state, None, False))
            items.append((label(locale, "tricks_only", tricks=seat.tricks), state, None, True))
    else:
        items.append((label(locale, "tricks_only", tricks=seat.tricks), MUTED, None, False))
    if seat.points is not None:
        items.append((label(locale, "points_n", n=number(seat.points)), TEXT, (0, 0, 0, 120),
                      False))
    if seat.note:
        items.append((seat.note, TEXT, (255, 255, 255, 46), False))
    return items


Placed = tuple[int, float, str, Color, Color | None]
"""An item as the panel draws it: (line, x from the line's start, text, colour, chip)."""


def _plan(items: list[Item], room: float, lines: int) -> tuple[list[Placed], bool]:
    """Where the items go on ``lines`` lines of ``room`` pixels: each on the line it
    starts or on the next when that one has no room left; on the last line, an item too
    wide is cut (a chip) or left out. Also whether every item is drawn whole."""
    placed: list[Placed] = []
    line, x = 0, 0.0
    for text, fg, bg, new_line in items:
        w = chip_width(text) if bg is not None else text_width(text, SMALL, CHIP)
        if x > 0 and (new_line or x + w > room) and line + 1 < lines:
            line, x = line + 1, 0.0
        if x + w > room:
            if bg is None or room - x < chip_width("Ab…"):
                return placed, False
            text = fit(text, room - x - 2 * CHIP_PAD, SMALL, CHIP)
            placed.append((line, x, text, fg, bg))
            return placed, False
        placed.append((line, x, text, fg, bg))
        x += w + 12
    return placed, True


def _flow(d: ImageDraw.ImageDraw, items: list[Item], box: Box) -> None:
    """The items in the panel ``box``, from its second line on (see :func:`_plan`)."""
    x0, y0, x1, y1 = box
    lines = 3 if y1 - y0 > PANEL_H else 2
    placed, _ = _plan(items, line_room(x1 - x0), lines)
    f = font(SMALL, CHIP)
    _, top, _, _ = f.getbbox("H", anchor="ls")
    for line, dx, text, fg, bg in placed:
        x, cy = x0 + SEAT_PAD + 2 + dx, y0 + LINE_Y[1 + line]
        if bg is None:
            d.text((x + 1, cy - top / 2 + 2), drawn(text), font=f, fill=(0, 0, 0, 150),
                   anchor="ls")
            d.text((x, cy - top / 2), drawn(text), font=f, fill=fg, anchor="ls")
        else:
            tag(d, x, cy, text, bg, fg)


def needs_tall(seats: Sequence[SeatInfo], locale: str, clockwise: bool = False) -> bool:
    """Whether the texts of a seat on the left or the right need a fourth line."""
    places = trick_layout(len(seats), clockwise).places
    return any(place.tall_box is not None
               and not _plan(_items(seat, locale, NOTE_ROOM), NOTE_ROOM, 2)[1]
               for seat, place in zip(seats, places, strict=True))


def name_room(seat: SeatInfo, locale: str, width: float) -> tuple[float, float]:
    """Where a seat's name starts in its panel (``width`` pixels wide) and the room it has,
    up to the dealer's mark, if any."""
    x = NAME_X if seat.is_turn or seat.team is not None else SEAT_PAD + 4
    end = width - SEAT_PAD
    if seat.is_dealer:
        end -= max(chip_width(label(locale, "dealer_mark")), CHIP_H) + 10
    return x, end - x


def _seat_panel(d: ImageDraw.ImageDraw, seat: SeatInfo, place: Place, locale: str) -> None:
    x0, y0, x1, y1 = box = place.panel_box
    color = team_color(seat.team) if seat.team is not None else (200, 210, 220)
    if seat.is_turn:
        for i, alpha in enumerate((50, 90, 130)):
            grow = 10 - i * 3
            d.rounded_rectangle((x0 - grow, y0 - grow, x1 + grow, y1 + grow), radius=18 + grow,
                                outline=(*GOLD, alpha), width=3)
        d.rounded_rectangle(box, radius=16, fill=(250, 204, 70, 40), outline=GOLD, width=6)
        d.polygon([(x0 + 14, y0 + 16), (x0 + 14, y0 + 48), (x0 + 36, y0 + 32)], fill=GOLD)
    else:
        d.rounded_rectangle(box, radius=16, fill=PANEL, outline=(*color, 150), width=3)
        if seat.team is not None:
            d.ellipse((x0 + 16, y0 + 23, x0 + 34, y0 + 41), fill=color)
    if seat.is_dealer:
        tag(d, x1 - SEAT_PAD, y0 + LINE_Y[0], label(locale, "dealer_mark"), (250, 248, 240),
            INK, align="right", height=CHIP_H, weight="bold", min_width=CHIP_H)
    nx, room = name_room(seat, locale, x1 - x0)
    draw_fitted(d, (x0 + nx, y0 + LINE_Y[0]), seat.name, room, NAME_SIZE, "bold", TEXT, "lm",
                min_size=SMALL)
    _flow(d, _items(seat, locale, line_room(x1 - x0)), box)


def _trump(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, trump_card: Card | None,
           trump_suit: int | None, locale: str) -> None:
    """The trump card as a tile, and the trump suit when no card shows it; or "no trump"."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=16, fill=PANEL_STRONG)
    cy = (y0 + y1) / 2
    if trump_card is None and trump_suit is None:
        text, size, weight = fit_label(locale, "no_trump", x1 - x0 - 2 * SEAT_PAD, SMALL,
                                       ("bold", "condensed-bold"))
        draw_text(d, ((x0 + x1) / 2, cy), text, size, weight, MUTED, "mm")
        return
    x = x1 - SEAT_PAD
    if trump_suit is not None and (trump_card is None or trump_card.suit != trump_suit):
        size = 84
        d.ellipse((x - size - 16, cy - size / 2 - 8, x, cy + size / 2 + 8),
                  fill=(255, 255, 255, 235))
        paste(img, suit_icon(Deck.FRENCH, trump_suit, size), (x - size - 8, cy - size / 2))
        x -= size + 16 + 12
    if trump_card is not None:
        paste(img, card_tile(trump_card, TRUMP_TILE_W, Deck.FRENCH),
              (x - TRUMP_TILE_W, cy - tile_height(TRUMP_TILE_W) / 2))
        x -= TRUMP_TILE_W + 12
    text, size, weight = fit_label(locale, "trump", x - x0 - SEAT_PAD - 4, SMALL,
                                   ("bold", "condensed-bold"))
    draw_text(d, (x0 + SEAT_PAD + 4, cy), text, size, weight, TEXT, "lm")


def _footer(d: ImageDraw.ImageDraw, box: Box, footer: str | Sequence[str],
            names: Sequence[str]) -> None:
    """The game's footer: the first of its forms (the longest first) that shows whole in
    the corner, the seats' ``names`` in it cut if need be; else its last form, cut."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=16, fill=PANEL_STRONG)
    for form in [footer] if isinstance(footer, str) else footer:
        lines, whole = wrap_names(form, names, x1 - x0 - 2 * SEAT_PAD, SMALL, CHIP, 3)
        if whole:
            break
    step = 46
    y = (y0 + y1) / 2 - step * (len(lines) - 1) / 2
    for line in lines:
        draw_text(d, (x0 + SEAT_PAD + 4, y), line, SMALL, CHIP, MUTED, "lm")
        y += step


def _card_tag(d: ImageDraw.ImageDraw, place: Place, text: str, bg: Color, fg: Color) -> None:
    """A tag by a card of the trick, on its side, kept to its room."""
    lo, hi = place.tag_room
    text = fit(text, hi - lo - 2 * CHIP_PAD, SMALL, CHIP)
    w = chip_width(text)
    x = min(max(place.card[0] - w / 2, lo), hi - w)
    tag(d, x, place.tag_y(), text, bg, fg)


def draw_trick_table(seats: Sequence[SeatInfo], trick: Sequence[tuple[int, Card]], *,
                     leader: int | None, trump_card: Card | None = None,
                     trump_suit: int | None = None, header: str = "", locale: str = "en",
                     winner: int | None = None, clockwise: bool = False,
                     footer: str | Sequence[str] | None = None) -> Image.Image:
    """The trick table image, before encoding (see :func:`render_trick_table`)."""
    lay = trick_layout(len(seats), clockwise, needs_tall(seats, locale, clockwise))
    for who, _ in trick:
        if not 0 <= who < len(seats):
            raise ValueError(f"seat {who} is not at this table")
    img, d = canvas(lay.size)
    w = lay.width
    d.rounded_rectangle((12, 10, w - 12, HEADER_BOTTOM), radius=14, fill=PANEL_STRONG)
    names = [seat.name for seat in seats]
    if header:
        text, size = fit_names(header, names, w - 64, NAME_SIZE, "bold", SMALL)
        draw_text(d, (w / 2, (10 + HEADER_BOTTOM) / 2), text, size, "bold", TEXT, "mm")
    for seat, place in zip(seats, lay.places, strict=True):
        _seat_panel(d, seat, place, locale)
    _trump(img, d, lay.trump_box, trump_card, trump_suit, locale)
    if footer:
        _footer(d, lay.footer_box, footer, names)
    # the trick, one tile by each seat that played; the winner's glows
    th = tile_height(TILE_W)
    for who, card in trick:
        place = lay.places[who]
        x0, y0, x1, y1 = place.card_box
        if who == winner:
            paste(img, glow((TILE_W + 120, th + 120), GOLD, 190), (x0 - 60, y0 - 60))
        d.rounded_rectangle((x0 + 3, y0 + 6, x1 + 3, y1 + 6), radius=TILE_W // 8,
                            fill=(0, 0, 0, 90))
        paste(img, card_tile(card, TILE_W, Deck.FRENCH), (x0, y0))
        if who == winner:
            d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=TILE_W // 8 + 4,
                                outline=GOLD, width=5)
    played = {who for who, _ in trick}
    for who in sorted(played):
        words = []
        if who == leader:
            words.append(label(locale, "led"))
        if who == winner:
            words.append(label(locale, "takes"))
        if words:
            bg: Color = (*GOLD, 250) if who == winner else (250, 248, 240, 240)
            _card_tag(d, lay.places[who], " · ".join(words), bg, INK)
    if not trick and leader is not None and 0 <= leader < len(seats):
        x0, y0, x1, y1 = lay.zone
        text, size, _ = fit_label(locale, "leads", x1 - x0, NAME_SIZE, "bold", min_size=SMALL,
                                  free=("name",), values={"name": seats[leader].name})
        draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2), text, size, "bold", TEXT, "mm")
    return img


def render_trick_table(seats: Sequence[SeatInfo], trick: Sequence[tuple[int, Card]], *,
                       leader: int | None, trump_card: Card | None = None,
                       trump_suit: int | None = None, header: str = "", locale: str = "en",
                       winner: int | None = None, clockwise: bool = False,
                       footer: str | Sequence[str] | None = None) -> bytes:
    """Image of a trick-taking table with 3 or 4 seats (seat 0 at the bottom; see
    :func:`trick_layout`), drawn at 1100 px wide for Discord's 550 × 350 box: no text is
    smaller than :data:`SMALL`.

    ``trick`` lists (seat, card) in play order, each card a tile by its seat; ``leader``
    is the seat that led (tagged "led"), ``winner`` optionally the seat taking the trick
    (glowing, tagged "takes"). ``trump_card`` (a tile) and/or ``trump_suit`` (0..3, c d h
    s) name the trump in the bottom-left corner; with neither it says "no trump". Each
    seat shows its name (shrunk, then cut), the dealer's mark, whose turn it is, its bid
    against its tricks (green when equal, red when over), its points and its note;
    ``footer`` is wrapped in the bottom-right corner (a sequence: its forms, the longest
    first, the first that shows whole drawn), ``header`` heads the image. Seat 1
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
    text, size = fit_names(title, columns[1:], width - 2 * GRID_X, GRID_TITLE, "bold", GRID_TEXT)
    draw_text(d, (GRID_X, 47), text, size, "bold", TEXT, "lm")
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
