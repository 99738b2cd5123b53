"""The public Tichu table of four or six seats: seats, card counts, calls, the play to
beat, who took the last trick, the wish, and the scores.

Drawn for the size Discord shows it at (:mod:`bot.render.display`): 1100 × 700, shown at
half size on desktop and about 0.29 on a phone, so every text is at least :data:`SMALL`
pixels and the trick's cards are tiles (:mod:`bot.render.tiles`) whose ranks are as tall.

Only public fields of a public view are read; a seat's view is refused, and
``hand``, ``given`` and ``received`` are never touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import back_sprite
from bot.render.draw import (
    GOLD,
    INK,
    MUTED,
    PANEL,
    PANEL_STRONG,
    TEXT,
    Box,
    Color,
    canvas,
    draw_fitted,
    draw_text,
    drawn,
    fit,
    fit_size,
    glow,
    paste,
    team_color,
    text_width,
)
from bot.render.encoding import encode
from bot.render.fonts import Weight, font
from bot.render.labels import fit_label, label, log, ordinal
from bot.render.seats import (
    check_names,
    combo_text,
    number,
    rank_text,
    seat_name,
    team_name,
)
from bot.render.tiles import card_tile, tile_height
from engine.tichu.cards import POINTS
from engine.tichu.view import Call, Phase, TichuView, TrickPlay

SIZE = (1100, 700)
"""The table's size: twice the 550 × 350 that Discord shows a lone image in on desktop."""
SMALL = 38
"""The smallest text: its cap height (28 px) shows 8 px tall on a phone, where the table is
shown 320 px wide, and 14 px on desktop."""
PANEL_W, PANEL_H = 340, 160
SEAT_NAME_X = 44
"""Where a seat's name starts in its panel (after the team dot or the turn arrow)."""
SEAT_PAD = 14
"""Room kept between a panel's text and its right edge."""
HEADER_BOTTOM = 76
"""Everything the header draws (both totals, the deal and the target) lies above."""
CORNER_H = 66
"""Height of the corner strips under the header (the wish, the trick's points or the
phase); the last trick taken, in the bottom-left corner, is two of its lines tall."""
LAST_H = 112


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go on the table of ``n`` seats."""

    size: tuple[int, int]
    panels: dict[int, tuple[int, int]]
    """Top-left corner of each seat's panel, by seat."""
    top_seats: frozenset[int]
    """Seats at the top edge."""
    trick_zone: Box
    last_trick_box: Box
    """The strip of the last trick taken (bottom-left corner)."""
    wish_box: Box
    """The wish (top-left corner)."""
    banner_box: Box
    """The trick's points or the phase (top-right corner)."""

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def panel_box(self, seat: int) -> Box:
        x0, y0 = self.panels[seat]
        return (x0, y0, x0 + PANEL_W, y0 + PANEL_H)


def _layout(n_seats: int) -> Layout:
    w, h = SIZE
    mid = (w - PANEL_W) // 2
    left, right = 14, w - 14 - PANEL_W
    top, bottom = HEADER_BOTTOM + 8, h - 12 - PANEL_H
    if n_seats == 4:
        side = (h - PANEL_H) // 2 + 14
        panels = {0: (mid, bottom), 1: (right, side), 2: (mid, top), 3: (left, side)}
        top_seat = 2
    else:
        upper, lower = 166, 368
        panels = {0: (mid, bottom), 1: (right, lower), 2: (right, upper), 3: (mid, top),
                  4: (left, upper), 5: (left, lower)}
        top_seat = 3
    corner_top = top
    return Layout(
        size=(w, h),
        panels=panels,
        top_seats=frozenset({top_seat}),
        trick_zone=(left + PANEL_W + 12, top + PANEL_H + 6, right - 12, bottom - 6),
        last_trick_box=(left, h - 12 - LAST_H, left + PANEL_W, h - 12),
        wish_box=(left, corner_top, left + PANEL_W, corner_top + CORNER_H),
        banner_box=(right, corner_top, right + PANEL_W, corner_top + CORNER_H),
    )


def layout(n_seats: int) -> Layout:
    """The layout of a table of ``n_seats`` (4 or 6; ValueError otherwise).

    Seat 0 sits at the bottom and play turns counter-clockwise: with four seats
    1 is on the right, 2 at the top (seat 0's partner) and 3 on the left; with
    six, 1 and 2 are on the right (lower, upper), 3 at the top (an opponent), 4
    and 5 on the left (upper, lower). Teams alternate seats (seat ``s`` plays
    for team ``s % 2``).
    """
    if n_seats == 4:
        return LAYOUT4
    if n_seats == 6:
        return LAYOUT6
    raise ValueError(f"the Tichu table seats 4 or 6 players, not {n_seats}")


LAYOUT4 = _layout(4)
LAYOUT6 = _layout(6)

CENTER_PHASES = frozenset({Phase.GRAND, Phase.EXCHANGE, Phase.GIFT, Phase.DEAL_OVER,
                           Phase.GAME_OVER})
"""Phases whose progress is announced in the middle of the table (no trick there: the
Dragon's trick is taken before it is given away)."""
BACK_W = 34
MEDALS = {1: (250, 204, 70), 2: (206, 214, 224), 3: (214, 140, 84)}
MEDAL_OTHER = (150, 150, 150)
TILE_W = 84
"""The width of a trick's card tiles (:mod:`bot.render.tiles`); narrower for a long play,
never under :data:`TILE_MIN`."""
TILE_MIN = 76
"""The narrowest tile: its ``10`` is 28 px tall, as :data:`SMALL` texts."""
TILE_STEP = 52
"""The least step between two overlapping tiles: a rank stays whole in view."""
TILE_WIDTHS = tuple(range(TILE_W, TILE_MIN - 1, -2))
"""Every width a trick's tiles are drawn at, widest first."""


@lru_cache(maxsize=2)
def _background(n_seats: int) -> Image.Image:
    """The static layer (cached): felt, the header band and the empty seat panels."""
    lay = layout(n_seats)
    w = lay.width
    img, d = canvas(lay.size)
    d.rounded_rectangle((12, 10, w - 12, HEADER_BOTTOM - 4), radius=14, fill=PANEL_STRONG)
    d.ellipse((30, 32, 52, 54), fill=team_color(0))
    d.ellipse((w - 52, 32, w - 30, 54), fill=team_color(1))
    for seat, (x0, y0) in lay.panels.items():
        color = team_color(seat % 2)
        d.rounded_rectangle((x0, y0, x0 + PANEL_W, y0 + PANEL_H), radius=16, fill=PANEL,
                            outline=(*color, 170), width=3)
    return img


TOTAL_SIZE = 52
"""The size of the team totals in the header."""
HEADER_GAP = 18
"""Least room between a total and the deal and target in the middle."""


@dataclass(frozen=True, slots=True)
class HeaderSide:
    """What the header shows for one team: its total, fitted to the room it has, and the
    room's outer edge."""

    total: str
    total_size: int
    total_edge: float
    """x of the total's inner edge (its right edge for team 0, its left edge for team 1)."""


def header_middle(view: TichuView, locale: str, boards: int | None) -> str:
    """The header's middle: the deal and the target, or at a table of duplicate boards
    (``boards`` of them, each from 0–0) the board's number."""
    if boards is not None:
        return label(locale, "board_n", n=view.deal_number + 1, total=boards)
    return (f"{label(locale, 'deal_n', n=view.deal_number + 1)} · "
            f"{label(locale, 'target_n', n=view.target)}")


def header_sides(view: TichuView, locale: str, width: int,
                 boards: int | None = None) -> tuple[str, float, HeaderSide, HeaderSide]:
    """The middle text (fitted), its width, and each team's total: a total keeps clear of the
    middle, which gives way first (the deal without the target), then the totals shrink."""
    middle = header_middle(view, locale, boards)
    totals = [number(view.scores[team]) if team < len(view.scores) else "0" for team in (0, 1)]
    widest = max(text_width(t, TOTAL_SIZE, "bold") for t in totals)
    room = width - 2 * (62 + widest + HEADER_GAP)
    if text_width(middle, SMALL, "bold") > room and boards is None:
        middle = label(locale, "deal_n", n=view.deal_number + 1)
    if text_width(middle, SMALL, "bold") > room:
        log.warning("the table's header has no room for %r", middle)
        middle = fit(middle, max(room, text_width("…", SMALL, "bold")), SMALL, "bold")
    middle_w = text_width(middle, SMALL, "bold")
    edge = width / 2 - middle_w / 2 - HEADER_GAP
    sides = []
    for team, total in enumerate(totals):
        text, size = fit_size(total, edge - 62, TOTAL_SIZE, "bold", SMALL)
        sides.append(HeaderSide(text, size, 62.0 if team == 0 else width - 62.0))
    return middle, middle_w, sides[0], sides[1]


def _header(d: ImageDraw.ImageDraw, view: TichuView, locale: str, width: int,
            boards: int | None = None) -> None:
    """Each team's total by its colour dot, and the deal and target in the middle."""
    middle, _, left, right = header_sides(view, locale, width, boards)
    y = (10 + HEADER_BOTTOM - 4) / 2
    draw_text(d, (left.total_edge, y), left.total, left.total_size, "bold", team_color(0), "lm")
    draw_text(d, (right.total_edge, y), right.total, right.total_size, "bold", team_color(1),
              "rm")
    draw_text(d, (width / 2, y), middle, SMALL, "bold", TEXT, "mm")


Chip = tuple[str, Color, Color]


def _status_chips(view: TichuView, seat: int, locale: str) -> list[Chip]:
    """(text, background, foreground) of the chips beside a seat's cards, most important
    first."""
    chips: list[Chip] = []
    phase = view.phase
    if phase is Phase.GRAND:
        done = view.grand_decided[seat]
        chips.append((label(locale, "decided" if done else "deciding"),
                      (110, 214, 120, 220) if done else (255, 255, 255, 40),
                      INK if done else TEXT))
    elif phase is Phase.EXCHANGE:
        done = view.exchanged[seat]
        chips.append((label(locale, "gave" if done else "choosing"),
                      (110, 214, 120, 220) if done else (255, 255, 255, 40),
                      INK if done else TEXT))
    elif phase is Phase.GIFT and view.turn == seat:
        chips.append((label(locale, "must_give_dragon"), (214, 40, 46, 235), (255, 255, 255)))
    if phase is Phase.PLAY and seat < len(view.passed) and view.passed[seat]:
        chips.append((label(locale, "passed"), (255, 255, 255, 60), TEXT))
    points = view.trick_points[seat] if seat < len(view.trick_points) else 0
    if points and phase in (Phase.PLAY, Phase.GIFT):
        chips.append((label(locale, "points_n", n=number(points)), (0, 0, 0, 110), MUTED))
    return chips


def _call_chip(view: TichuView, seat: int, locale: str) -> Chip | None:
    call = view.calls[seat] if seat < len(view.calls) else None
    if call is Call.GRAND_TICHU:
        return label(locale, "grand_tichu"), (214, 40, 46, 240), (255, 255, 255)
    if call is Call.TICHU:
        return label(locale, "tichu"), (250, 200, 70, 245), INK
    return None


CHIP_H = 42


def tag(d: ImageDraw.ImageDraw, x: float, cy: float, text: str, bg: Color, fg: Color, *,
        weight: Weight = "condensed-bold", height: int = CHIP_H, align: str = "left",
        outline: Color | None = None) -> Box:
    """A rounded label of :data:`SMALL` text whose capitals sit in its middle; ``x`` is its
    left edge (or its centre, ``align="center"``), ``cy`` its middle. Returns its box."""
    f = font(SMALL, weight)
    w = text_width(text, SMALL, weight) + 20
    x0 = x - w / 2 if align == "center" else x
    box = (x0, cy - height / 2, x0 + w, cy + height / 2)
    d.rounded_rectangle(box, radius=height / 2, fill=bg, outline=outline,
                        width=3 if outline else 0)
    _, top, _, _ = f.getbbox("H", anchor="ls")
    d.text((x0 + w / 2, cy - top / 2), drawn(text), font=f, fill=fg, anchor="ms")
    return box


def _chip(d: ImageDraw.ImageDraw, x: float, cy: float, chip: Chip, room: float) -> float:
    """Draw ``chip`` from ``x`` (its text cut to ``room``); returns its width."""
    text, bg, fg = chip
    box = tag(d, x, cy, fit(text, room - 20, SMALL, "condensed-bold"), bg, fg)
    return box[2] - box[0]


def _seat(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView, seat: int,
          names: Sequence[str], locale: str, lay: Layout) -> None:
    x0, y0 = lay.panels[seat]
    box = (x0, y0, x0 + PANEL_W, y0 + PANEL_H)
    color = team_color(seat % 2)
    is_turn = view.turn == seat and view.phase in (Phase.PLAY, Phase.GIFT)
    if is_turn:
        for i, alpha in enumerate((50, 90, 130)):
            grow = 10 - i * 3
            d.rounded_rectangle((box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow),
                                radius=18 + grow, outline=(*GOLD, alpha), width=3)
        d.rounded_rectangle(box, radius=16, fill=(250, 204, 70, 40), outline=GOLD, width=6)
        d.polygon([(x0 + 14, y0 + 16), (x0 + 14, y0 + 48), (x0 + 36, y0 + 32)], fill=GOLD)
    else:
        d.ellipse((x0 + 16, y0 + 22, x0 + 34, y0 + 40), fill=color)
    right = x0 + PANEL_W - SEAT_PAD
    draw_fitted(d, (x0 + SEAT_NAME_X, y0 + 32), seat_name(names, seat), right - x0 - SEAT_NAME_X,
                44, "bold", TEXT, "lm", min_size=SMALL)
    # line 2: the cards held (or the place this seat went out in), then the status chips
    cy = y0 + 82
    x: float = x0 + 14
    if seat in view.out:
        place = view.out.index(seat) + 1
        medal = MEDALS.get(place, MEDAL_OTHER)
        word = label(locale, f"out_{place}") if place <= 3 else ordinal(locale, place)
        x += _chip(d, x, cy, (word, (*medal, 250), INK), right - x) + 8
    else:
        count = view.hand_counts[seat] if seat < len(view.hand_counts) else 0
        back = back_sprite(BACK_W)
        paste(img, back, (x, cy - back.height / 2))
        x += BACK_W + 8
        draw_text(d, (x, cy), str(count), 44, "bold", TEXT, "lm")
        x += text_width(str(count), 44, "bold") + 14
    for chip in _status_chips(view, seat, locale):
        # A chip is drawn whole or not at all: a cut figure says nothing (the alt text has
        # every chip), and a shorter one after it may still fit.
        if text_width(chip[0], SMALL, "condensed-bold") + 20 <= right - x:
            x += _chip(d, x, cy, chip, right - x) + 8
    # line 3: the call
    call = _call_chip(view, seat, locale)
    if call is not None:
        _chip(d, x0 + 14, y0 + PANEL_H - 6 - CHIP_H / 2, call, PANEL_W - 28)


def _tile_rows(n: int, zone_w: float) -> tuple[int, int, float]:
    """(rows, tile width, step) for a play of ``n`` cards in a zone ``zone_w`` wide: one row
    while the step between tiles keeps a rank whole, else two."""
    for rows in (1, 2):
        per_row = -(-n // rows)
        for width in TILE_WIDTHS:
            step = (zone_w - width) / (per_row - 1) if per_row > 1 else 0
            if per_row == 1 or step >= TILE_STEP:
                return rows, width, min(step, width + 10.0)
    per_row = -(-n // 2)
    return 2, TILE_MIN, (zone_w - TILE_MIN) / max(per_row - 1, 1)


def _tiles(img: Image.Image, cards: Sequence[int], cx: float, top: float, zone_w: float) -> Box:
    """The cards of a play as tiles, centred on ``cx`` from ``top``; returns their box."""
    n = len(cards)
    rows, width, step = _tile_rows(n, zone_w)
    per_row = -(-n // rows)
    h = tile_height(width)
    box: Box = (cx, top, cx, top)
    for r in range(rows):
        row = cards[r * per_row:(r + 1) * per_row]
        total = width + step * (len(row) - 1)
        x = cx - total / 2
        y = top + r * (h + 8)
        for i, c in enumerate(row):
            paste(img, card_tile(c, width), (x + i * step, y))
        box = (min(box[0], x), box[1], max(box[2], x + total), y + h)
    return box


def _trick(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView, names: Sequence[str],
           locale: str, lay: Layout) -> None:
    x0, y0, x1, y1 = lay.trick_zone
    cx = (x0 + x1) / 2
    plays: tuple[TrickPlay, ...] = view.trick
    if not plays:
        cy = (y0 + y1) / 2
        if view.phase is Phase.PLAY and view.turn is not None:
            text, size, _ = fit_label(locale, "leads", x1 - x0, 44, "bold", min_size=SMALL,
                                      free=("name",), values={"name": seat_name(names, view.turn)})
            draw_text(d, (cx, cy), text, size, "bold", TEXT, "mm")
        elif view.phase in CENTER_PHASES:
            title, detail = _phase_words(view, names)
            d.rounded_rectangle((x0, cy - 80, x1, cy + 80), radius=18, fill=PANEL_STRONG)
            if title is not None:
                text, size, _ = fit_label(locale, title.key, x1 - x0 - 30, 44, "bold",
                                          min_size=SMALL, free=title.free, values=title.values)
                draw_text(d, (cx, cy - 30), text, size, "bold", TEXT, "mm")
            if detail is not None:
                text, size, weight = fit_label(locale, detail.key, x1 - x0 - 30, SMALL,
                                               ("bold", "condensed-bold"),
                                               free=detail.free,
                                               values=detail.values)
                draw_text(d, (cx, cy + 32), text, size, weight, GOLD, "mm")
        return
    last = plays[-1]
    color = team_color(last.seat % 2)
    bomb = last.combo.is_bomb
    name = fit(seat_name(names, last.seat), x1 - x0 - 24, SMALL, "bold")
    paste(img, glow((520, 300), (255, 80, 50) if bomb else GOLD, 120 if bomb else 80),
          (cx - 260, y0 + 20))
    if bomb:
        tag(d, cx, y0 + 22, name, (214, 40, 46, 240), TEXT, weight="bold", height=44,
            align="center", outline=(*color, 255))
    else:
        tag(d, cx, y0 + 22, name, (*color, 240), INK, weight="bold", height=44,
            align="center")
    row = _tiles(img, last.combo.cards, cx, y0 + 54, x1 - x0)
    notes = []
    if last.combo.phoenix is not None:
        notes.append(label(locale, "phoenix_as", rank=rank_text(last.combo.phoenix)))
    if last.out_of_turn:
        notes.append(label(locale, "out_of_turn"))
    y = row[3] + 26
    kind = combo_text(last.combo, locale)
    if text_width(kind, SMALL, "bold") > x1 - x0 + 16:  # the tiles show the length
        kind = fit_label(locale, f"kind_{last.combo.kind.value}", x1 - x0 + 16, SMALL,
                         "bold").text
    for line in (kind, " · ".join(notes)):
        if line and y + 14 <= y1 + 6:  # a two-row play leaves no room: the alt text has it
            draw_fitted(d, (cx, y), line, x1 - x0 + 16, SMALL, "bold", (255, 214, 150), "mm")
            y += 42


def _corner_panels(d: ImageDraw.ImageDraw, view: TichuView, names: Sequence[str],
                   locale: str, lay: Layout) -> None:
    """The wish (top left) and the trick's points or the phase (top right)."""
    if view.wish is not None:
        x0, y0, x1, y1 = lay.wish_box
        d.rounded_rectangle(lay.wish_box, radius=14, fill=PANEL_STRONG, outline=(*GOLD, 220),
                            width=3)
        wish = rank_text(view.wish)
        room = x1 - x0 - 36 - text_width(wish, 48, "bold")
        draw_text(d, (x0 + 18, (y0 + y1) / 2), fit_label(locale, "wish", room, SMALL,
                                                         "bold").text,
                  SMALL, "bold", MUTED, "lm")
        draw_text(d, (x1 - 18, (y0 + y1) / 2), wish, 48, "bold", GOLD, "rm")
    title, detail = _phase_words(view, names)
    if title is not None and not (view.phase in CENTER_PHASES and not view.trick):
        x0, y0, x1, y1 = lay.banner_box
        d.rounded_rectangle(lay.banner_box, radius=14, fill=PANEL_STRONG)
        # the figure (the trick's points, the progress) whole; the title gives way: the
        # trick's points lose their unit first ("Trick −15"), then the title takes its
        # short form
        weight: Weight = "condensed-bold"
        room = x1 - x0 - 28
        whole = label(locale, title.key, **title.values)
        tail = f" · {label(locale, detail.key, **detail.values)}" if detail else ""
        if view.trick and text_width(whole + tail, SMALL, weight) > room:
            tail = f" {number(trick_points(view))}"
        left = room - text_width(tail, SMALL, weight)
        text = fit_label(locale, title.key, left, SMALL, weight, free=title.free,
                         values=title.values).text + tail
        draw_fitted(d, ((x0 + x1) / 2, (y0 + y1) / 2), text, x1 - x0 - 28, SMALL, weight,
                    TEXT, "mm")


@dataclass(frozen=True, slots=True)
class Words:
    """A label to draw: its key, its values, and which of them are names (cut first)."""

    key: str
    values: dict[str, object]
    free: tuple[str, ...] = ()


def _phase_words(view: TichuView, names: Sequence[str]) -> tuple[Words | None, Words | None]:
    """The phase's title and its detail (the progress, who gives the Dragon's trick, the
    winners, the trick's points)."""
    n = view.n_seats
    if view.phase is Phase.GRAND:
        return (Words("phase_grand", {}),
                Words("phase_grand_detail", {"n": sum(view.grand_decided), "total": n}))
    if view.phase is Phase.EXCHANGE:
        return (Words("phase_exchange", {}),
                Words("phase_exchange_detail", {"n": sum(view.exchanged), "total": n}))
    if view.phase is Phase.GIFT:
        who = seat_name(names, view.turn) if view.turn is not None else "?"
        return Words("phase_gift", {}), Words("phase_gift_detail", {"name": who}, ("name",))
    if view.phase is Phase.DEAL_OVER:
        return Words("phase_deal_over", {}), None
    if view.phase is Phase.GAME_OVER:
        detail = None
        if view.winner is not None:
            detail = Words("wins", {"name": team_name(names, view.winner, n)}, ("name",))
        return Words("phase_game_over", {}), detail
    if view.trick:
        return Words("trick", {}), Words("points_n", {"n": number(trick_points(view))})
    return None, None


def trick_points(view: TichuView) -> int:
    """The card points in the trick on the table."""
    return sum(POINTS[c] for play in view.trick for c in play.combo.cards)


def _last_trick(d: ImageDraw.ImageDraw, view: TichuView, names: Sequence[str], locale: str,
                lay: Layout) -> None:
    """Who took the last trick, and its points, in the bottom-left corner: nothing before
    the first trick is taken."""
    plays = view.last_trick
    if not plays:
        return
    taker = view.last_trick_taker if view.last_trick_taker is not None else plays[-1].seat
    x0, y0, x1, y1 = lay.last_trick_box
    d.rounded_rectangle(lay.last_trick_box, radius=14, fill=PANEL_STRONG,
                        outline=(*team_color(taker % 2), 170), width=3)
    points = sum(POINTS[c] for play in plays for c in play.combo.cards)
    draw_text(d, (x0 + 16, y0 + 32), fit_label(locale, "last_trick", x1 - x0 - 32, SMALL,
                                               "bold").text, SMALL, "bold", MUTED, "lm")
    # the name, then the points at the right: the points whole, the name cut if need be
    cy = y1 - 34
    tail = label(locale, "points_n", n=number(points))
    tail_w = text_width(tail, SMALL, "condensed-bold")
    draw_text(d, (x1 - 16, cy), tail, SMALL, "condensed-bold", TEXT, "rm")
    draw_fitted(d, (x0 + 16, cy), seat_name(names, taker), x1 - x0 - 44 - tail_w, SMALL,
                "condensed-bold", team_color(taker % 2), "lm")


def draw_table(view: TichuView, names: Sequence[str], locale: str = "en",
               boards: int | None = None) -> Image.Image:
    """The table image of a public view, before encoding (``boards``: a table of that many
    duplicate boards, which its header names instead of the target)."""
    if view.seat is not None:
        raise ValueError("the table image is public: pass the public view (seat None)")
    check_names(view, names)
    lay = layout(view.n_seats)
    img = _background(view.n_seats).copy()
    d = ImageDraw.Draw(img, "RGBA")
    _header(d, view, locale, lay.width, boards)
    _corner_panels(d, view, names, locale, lay)
    for seat in range(view.n_seats):
        _seat(img, d, view, seat, names, locale, lay)
    _last_trick(d, view, names, locale, lay)
    _trick(img, d, view, names, locale, lay)
    return img


def render_table(view: TichuView, names: Sequence[str], *, locale: str = "en",
                 boards: int | None = None) -> bytes:
    """The public table (4 or 6 seats, see :func:`layout`): seats and names, cards
    held, Tichu and Grand Tichu calls, who is out and in what order, whose turn it
    is, the play to beat (its cards as tiles, its kind), who took the last trick and
    its points, the trick's points, the open wish, team totals, the deal and the target,
    and the phase's progress (Grand Tichu decisions, exchange, Dragon gift). Drawn at
    1100 × 700 for Discord's 550 × 350 box: no text is smaller than :data:`SMALL`. Bytes in :data:`bot.render.encoding.IMAGE_FORMAT`. At a table of
    duplicate boards (``boards`` of them, each from 0–0) the header names the board
    instead of the target.

    Reads only public fields; raises ValueError for a seat's view (``seat`` not None),
    for a seat count other than 4 or 6, or when ``names`` does not cover every seat.
    """
    return encode(draw_table(view, names, locale, boards))
