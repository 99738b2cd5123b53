"""The public Tichu table of four or six seats: seats, card counts, calls, the trick, the
last trick taken, the wish, and the scores with each team's score in the last deal.

Only public fields of a public view are read; a seat's view is refused, and
``hand``, ``given`` and ``received`` are never touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import SHADOW_PAD, back_sprite, card_height, card_sprite, shadowed_sprite
from bot.render.draw import (
    DIM,
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
    fit,
    fit_size,
    glow,
    paste,
    pill,
    team_color,
    text_width,
)
from bot.render.encoding import encode
from bot.render.fonts import font
from bot.render.labels import label, ordinal
from bot.render.seats import (
    check_names,
    combo_text,
    number,
    rank_text,
    seat_name,
    signed,
    team_name,
)
from engine.tichu.cards import MAHJONG, POINTS
from engine.tichu.view import Call, Phase, TichuView, TrickPlay

PANEL_W, PANEL_H = 250, 172
SEAT_NAME_X = 36
"""Where a seat's name starts in its panel (after the team dot)."""
SEAT_PAD = 14
"""Room kept between a panel's text and its right edge."""
LAST_H = 150
"""Height of the last-trick strip."""
HEADER_BOTTOM = 76
"""Everything the header draws (team names, totals, last deal, deal and target) lies above."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go on the table of ``n`` seats."""

    size: tuple[int, int]
    panels: dict[int, tuple[int, int]]
    """Top-left corner of each seat's panel, by seat."""
    top_seats: frozenset[int]
    """Seats at the top edge: their turn tag hangs below the panel, not above."""
    trick_zone: Box
    last_trick_box: Box
    """The strip of the last trick taken (bottom-left corner)."""

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def panel_box(self, seat: int) -> Box:
        x0, y0 = self.panels[seat]
        return (x0, y0, x0 + PANEL_W, y0 + PANEL_H)


def _layout4() -> Layout:
    w, h = 1000, 860
    return Layout(
        size=(w, h),
        panels={0: ((w - PANEL_W) // 2, h - 18 - PANEL_H), 1: (w - 16 - PANEL_W, 380),
                2: ((w - PANEL_W) // 2, 84), 3: (16, 380)},
        top_seats=frozenset({2}),
        trick_zone=(282, 278, 718, 664),
        last_trick_box=(26, h - 26 - LAST_H, 356, h - 26),
    )


def _layout6() -> Layout:
    w, h = 1000, 1000
    return Layout(
        size=(w, h),
        panels={0: ((w - PANEL_W) // 2, h - 18 - PANEL_H), 1: (w - 16 - PANEL_W, 540),
                2: (w - 16 - PANEL_W, 276), 3: ((w - PANEL_W) // 2, 84),
                4: (16, 276), 5: (16, 540)},
        top_seats=frozenset({3}),
        trick_zone=(282, 300, 718, 740),
        last_trick_box=(26, h - 26 - LAST_H, 356, h - 26),
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


LAYOUT4 = _layout4()
LAYOUT6 = _layout6()

CENTER_PHASES = frozenset({Phase.GRAND, Phase.EXCHANGE, Phase.DEAL_OVER, Phase.GAME_OVER})
"""Phases whose progress is announced in the middle of the table (no trick there)."""
BACK_W = 46
MEDALS = {1: (250, 204, 70), 2: (206, 214, 224), 3: (214, 140, 84)}
MEDAL_OTHER = (150, 150, 150)


@lru_cache(maxsize=16)
def _fan(count: int) -> Image.Image:
    """``count`` card backs fanned like a held hand (cached)."""
    back = back_sprite(BACK_W)
    size = (190, 90)
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    if count <= 0:
        return img
    step = min(16.0, (size[0] - BACK_W - 24) / max(count - 1, 1))
    spread = min(5.0, 40.0 / max(count, 1))
    width = BACK_W + step * (count - 1)
    x0 = (size[0] - width) / 2
    for i in range(count):
        angle = (i - (count - 1) / 2) * spread
        rotated = back.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        lift = abs(i - (count - 1) / 2) * spread * 0.35
        x = x0 + i * step - (rotated.width - BACK_W) / 2
        y = 10 + lift - (rotated.height - back.height) / 2
        img.alpha_composite(rotated, (round(x), max(0, round(y))))
    return img


@lru_cache(maxsize=2)
def _background(n_seats: int) -> Image.Image:
    """The static layer (cached): felt, the header band and the empty seat panels."""
    lay = layout(n_seats)
    w = lay.width
    img, d = canvas(lay.size)
    d.rounded_rectangle((12, 12, w - 12, 72), radius=14, fill=PANEL_STRONG)
    d.ellipse((28, 33, 46, 51), fill=team_color(0))
    d.ellipse((w - 46, 33, w - 28, 51), fill=team_color(1))
    for seat, (x0, y0) in lay.panels.items():
        color = team_color(seat % 2)
        d.rounded_rectangle((x0, y0, x0 + PANEL_W, y0 + PANEL_H), radius=16, fill=PANEL,
                            outline=(*color, 150), width=2)
        d.ellipse((x0 + 14, y0 + 17, x0 + 28, y0 + 31), fill=color)
    return img


SCORE_EDGE = 420
"""How far from its side of the header a team's total may reach (its far edge)."""
NAME_X = 56
"""Where a team's name starts, from its side of the header (after the team dot)."""
HEADER_GAP = 18
"""Least room between a team's name and its total, and between a total and the middle."""


@dataclass(frozen=True, slots=True)
class HeaderSide:
    """What the header shows for one team: its name, its total and its last deal's score,
    each already fitted, with its size; ``name_width`` is the room the name had."""

    name: str
    name_size: int
    total: str
    total_size: int
    last: str | None
    name_width: float
    total_edge: float
    """x of the total's outer edge (its right edge for team 0, its left edge for team 1)."""


def header_middle(view: TichuView, locale: str, boards: int | None) -> tuple[str, str]:
    """The header's middle: the deal and the target, or at a table of duplicate boards
    (``boards`` of them, each from 0–0) the board's number."""
    if boards is not None:
        return (label(locale, "board_n", n=view.deal_number + 1, total=boards),
                label(locale, "duplicate"))
    return label(locale, "deal_n", n=view.deal_number + 1), label(locale, "target_n",
                                                                  n=view.target)


def header_sides(view: TichuView, names: Sequence[str], locale: str,
                 width: int, boards: int | None = None) -> tuple[HeaderSide, HeaderSide]:
    """Lay out both teams of the header: each total keeps clear of the deal number and
    target in the middle, and each name gets all the room left between its team dot and
    its total (a long name first shrinks a little, then is cut)."""
    top, below = header_middle(view, locale, boards)
    middle = max(text_width(top, 20, "bold"), text_width(below, 18))
    edge = min(float(SCORE_EDGE), width / 2 - middle / 2 - HEADER_GAP)
    last = view.last_deal
    sides = []
    for team in (0, 1):
        total = number(view.scores[team]) if team < len(view.scores) else "0"
        total, total_size = fit_size(total, edge - NAME_X - 120, 34, "bold", 24)
        room = edge - text_width(total, total_size, "bold") - HEADER_GAP - NAME_X
        name, name_size = fit_size(team_name(names, team, view.n_seats), room, 22, "bold", 18)
        deal_text = None
        if last is not None and team < len(last.scores):
            deal_text = fit(label(locale, "last_deal_score", n=last.number + 1,
                                  score=signed(last.scores[team])), room, 18, "bold")
        sides.append(HeaderSide(name, name_size, total, total_size, deal_text, room,
                                edge if team == 0 else width - edge))
    return sides[0], sides[1]


def _header(d: ImageDraw.ImageDraw, view: TichuView, names: Sequence[str], locale: str,
            width: int, boards: int | None = None) -> None:
    """Team names and totals; under each name, that team's score in the last deal."""
    last = view.last_deal
    name_y = 32 if last is not None else 42
    for team, side in enumerate(header_sides(view, names, locale, width, boards)):
        color = team_color(team)
        left = team == 0
        name_x = NAME_X if left else width - NAME_X
        anchor = "lm" if left else "rm"
        draw_text(d, (name_x, name_y), side.name, side.name_size, "bold", TEXT, anchor)
        draw_text(d, (side.total_edge, 42), side.total, side.total_size, "bold", color,
                  "rm" if left else "lm")
        if last is not None and side.last is not None:
            points = last.scores[team]
            draw_text(d, (name_x, 57), side.last, 18, "bold",
                      GREEN if points > 0 else RED if points < 0 else MUTED, anchor)
    top, below = header_middle(view, locale, boards)
    draw_text(d, (width / 2, 30), top, 20, "bold", TEXT, "mm")
    draw_text(d, (width / 2, 55), below, 18, "regular", MUTED, "mm")


def medal_radius(locale: str, size: int, n_places: int, least: float) -> float:
    """The radius of the out-order medals of a table or sheet: ``least``, or more when an
    ordinal of ``locale`` (1st..``n_places``th) would not sit clear inside it."""
    widest = max(text_width(ordinal(locale, p), size, "bold") for p in range(1, n_places + 1))
    return max(least, widest / 2 + 8)


def _medal(d: ImageDraw.ImageDraw, cx: float, cy: float, place: int, locale: str,
           radius: float) -> None:
    color = MEDALS.get(place, MEDAL_OTHER)
    r = radius
    d.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=(0, 0, 0, 90))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=(255, 255, 255, 160),
              width=3)
    d.text((cx, cy + 1), ordinal(locale, place), font=font(22, "bold"), fill=INK, anchor="mm")


Chip = tuple[str, Color, Color]


def _status_chips(view: TichuView, seat: int, locale: str) -> list[Chip]:
    """(text, background, foreground) of the chips under a seat, most important first."""
    chips: list[Chip] = []
    call = view.calls[seat] if seat < len(view.calls) else None
    if call is Call.GRAND_TICHU:
        chips.append((label(locale, "grand_tichu"), (214, 40, 46, 235), (255, 255, 255)))
    elif call is Call.TICHU:
        chips.append((label(locale, "tichu"), (250, 200, 70, 240), INK))
    phase = view.phase
    if phase is Phase.GRAND:
        done = view.grand_decided[seat]
        chips.append((label(locale, "decided" if done else "deciding"),
                      (110, 214, 120, 200) if done else (255, 255, 255, 40),
                      INK if done else TEXT))
    elif phase is Phase.EXCHANGE:
        done = view.exchanged[seat]
        chips.append((label(locale, "gave" if done else "choosing"),
                      (110, 214, 120, 200) if done else (255, 255, 255, 40),
                      INK if done else TEXT))
    elif phase is Phase.GIFT and view.turn == seat:
        chips.append((label(locale, "must_give_dragon"), (214, 40, 46, 235), (255, 255, 255)))
    points = view.trick_points[seat] if seat < len(view.trick_points) else 0
    if points and phase in (Phase.PLAY, Phase.GIFT):
        chips.append((label(locale, "points_n", n=points), (0, 0, 0, 90), MUTED))
    return chips


def _seat(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView, seat: int,
          names: Sequence[str], locale: str, lay: Layout) -> None:
    x0, y0 = lay.panels[seat]
    box = (x0, y0, x0 + PANEL_W, y0 + PANEL_H)
    color = team_color(seat % 2)
    is_turn = view.turn == seat and view.phase in (Phase.PLAY, Phase.GIFT)
    if is_turn:
        for i, alpha in enumerate((40, 70, 110)):
            grow = 9 - i * 3
            d.rounded_rectangle((box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow),
                                radius=18 + grow, outline=(*GOLD, alpha), width=3)
    if is_turn:  # the panel itself is part of the cached background
        d.rounded_rectangle(box, radius=16, outline=GOLD, width=4)
    draw_fitted(d, (x0 + SEAT_NAME_X, y0 + 24), seat_name(names, seat),
                PANEL_W - SEAT_NAME_X - SEAT_PAD, 24, "bold", TEXT, "lm", min_size=20)
    # cards held, or the place this seat went out in
    count = view.hand_counts[seat] if seat < len(view.hand_counts) else 0
    fan_y = y0 + 44
    if seat in view.out:
        place = view.out.index(seat) + 1
        radius = medal_radius(locale, 22, view.n_seats, 30)
        _medal(d, x0 + 60, fan_y + 40, place, locale, radius)
        word_x = x0 + 60 + radius + 14
        draw_fitted(d, (word_x, fan_y + 40), label(locale, "out"),
                    x0 + PANEL_W - SEAT_PAD - word_x, 24, "bold", TEXT, "lm", min_size=18)
    else:
        fan = _fan(count)
        paste(img, fan, (x0 + 4, fan_y - 4))
        if view.phase is Phase.PLAY and seat < len(view.passed) and view.passed[seat]:
            d.rounded_rectangle((x0 + 10, fan_y + 6, x0 + 190, fan_y + 78), radius=10,
                                fill=(10, 30, 20, 150))
            pill(d, x0 + 100, fan_y + 26, label(locale, "passed"), 20, (255, 255, 255, 60),
                 TEXT, height=32, align="center")
        cx, cy = x0 + PANEL_W - 30, fan_y + 42
        d.ellipse((cx - 23, cy - 23, cx + 23, cy + 23), fill=(250, 248, 240),
                  outline=(*color, 255), width=3)
        d.text((cx, cy + 1), str(count), font=font(24, "bold"), fill=INK, anchor="mm")
    # chips
    x: float = x0 + 12
    y = y0 + PANEL_H - 40
    for text, bg, fg in _status_chips(view, seat, locale):
        width = text_width(text, 18, "bold") + 18
        if x + width > x0 + PANEL_W - 10:
            break
        pill(d, x, y, text, 18, bg, fg, height=30)
        x += width + 6
    if is_turn:
        tag = label(locale, "turn")
        tw = text_width(tag, 20, "bold") + 40
        ty = y0 + PANEL_H - 14 if seat in lay.top_seats else y0 - 30
        pill(d, x0 + PANEL_W / 2, ty, "▶ " + tag, 20, GOLD, INK, height=32,
             align="center", pad=int((tw - text_width(tag, 20, "bold")) / 2))


def _cards_row(img: Image.Image, cards: Sequence[int], cx: float, top: float, width: int,
               max_w: float, max_step: float, shadow: bool = True) -> Box:
    """A centred row of overlapping cards; returns its box."""
    n = len(cards)
    step = min(max_step, (max_w - width) / (n - 1)) if n > 1 else 0
    total = width + step * (n - 1)
    x = cx - total / 2
    for i, c in enumerate(cards):
        if shadow:
            paste(img, shadowed_sprite(c, width), (x + i * step - SHADOW_PAD, top - SHADOW_PAD))
        else:
            paste(img, card_sprite(c, width), (x + i * step, top))
    return (x, top, x + total, top + card_height(width))


def _trick(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView, names: Sequence[str],
           locale: str, lay: Layout) -> None:
    x0, y0, x1, y1 = lay.trick_zone
    cx = (x0 + x1) / 2
    plays: tuple[TrickPlay, ...] = view.trick
    if not plays:
        cy = (y0 + y1) / 2
        if view.phase is Phase.PLAY and view.turn is not None:
            text = label(locale, "leads", name=seat_name(names, view.turn))
            draw_text(d, (cx, cy), fit(text, x1 - x0, 28, "bold"), 28, "bold", MUTED, "mm")
        elif view.phase in CENTER_PHASES:
            title, detail = _phase_texts(view, names, locale)
            d.rounded_rectangle((x0 + 10, cy - 62, x1 - 10, cy + 62), radius=18,
                                fill=PANEL_STRONG)
            draw_text(d, (cx, cy - 22), fit(title, x1 - x0 - 50, 32, "bold"), 32, "bold", TEXT,
                      "mm")
            if detail:
                draw_text(d, (cx, cy + 26), fit(detail, x1 - x0 - 50, 22), 22, "regular", GOLD,
                          "mm")
        return
    last = plays[-1]
    earlier = plays[:-1]
    shown = earlier[-3:]
    hidden = len(earlier) - len(shown)
    if shown:
        slot = (x1 - x0) / len(shown)
        for i, play in enumerate(shown):
            scx = x0 + slot * (i + 0.5)
            _cards_row(img, play.combo.cards, scx, y0, 58, slot - 16, 22, shadow=False)
            name = fit(seat_name(names, play.seat), slot - 12, 18, "bold")
            draw_text(d, (scx, y0 + 82 + 14), name, 18, "bold", team_color(play.seat % 2), "mm")
            if i:
                draw_text(d, (x0 + slot * i, y0 + 40), "›", 30, "bold", DIM, "mm")
        if hidden:
            pill(d, x0, y0 - 6, label(locale, "earlier_plays", n=hidden), 18,
                 (0, 0, 0, 120), MUTED, height=28, align="center")
    top = y0 + (130 if shown else 70)
    # the play to beat: big, with a glow and a label
    color = team_color(last.seat % 2)
    caption = f"{seat_name(names, last.seat)} · {combo_text(last.combo, locale)}"
    caption = fit(caption, x1 - x0 - 20, 20, "bold")
    bomb = last.combo.is_bomb
    paste(img, glow((460, 260), (255, 80, 50) if bomb else GOLD, 110 if bomb else 70),
          (cx - 230, top - 4))
    if bomb:
        pill(d, cx, top - 4, caption, 20, (214, 40, 46, 240), TEXT, height=32, align="center",
             outline=(*color, 255))
    else:
        pill(d, cx, top - 4, caption, 20, (*color, 235), INK, height=32, align="center")
    row = _cards_row(img, last.combo.cards, cx, top + 36, 120, x1 - x0, 40)
    notes = []
    if last.combo.phoenix is not None:
        notes.append(label(locale, "phoenix_as", rank=rank_text(last.combo.phoenix)))
    if last.out_of_turn:
        notes.append(label(locale, "out_of_turn"))
    if notes:
        draw_text(d, (cx, row[3] + 16), fit(" · ".join(notes), x1 - x0, 18, "bold"), 18, "bold",
                  (255, 190, 110), "mm")


def _corner_panels(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView,
                   names: Sequence[str], locale: str, table_w: int) -> None:
    if view.wish is not None:
        box = (26, 92, 250, 172)
        d.rounded_rectangle(box, radius=14, fill=PANEL_STRONG, outline=(*GOLD, 200), width=2)
        paste(img, card_sprite(MAHJONG, 46), (38, 99))
        draw_text(d, (98, 116), label(locale, "wish"), 20, "bold", MUTED, "lm")
        draw_text(d, (98, 150), rank_text(view.wish), 36, "bold", GOLD, "lm")
    title, detail = _phase_texts(view, names, locale)
    if title and not (view.phase in CENTER_PHASES and not view.trick):
        right = table_w - 26
        width = max(text_width(title, 22, "bold"), text_width(detail, 18)) + 32
        width = min(max(width, 180), 330)
        banner: Box = (right - width, 92, right, 172 if detail else 134)
        d.rounded_rectangle(banner, radius=14, fill=PANEL_STRONG)
        draw_text(d, (banner[0] + 16, 114), fit(title, width - 28, 22, "bold"), 22, "bold", TEXT,
                  "lm")
        if detail:
            draw_text(d, (banner[0] + 16, 148), fit(detail, width - 28, 18), 18, "regular", MUTED,
                      "lm")


def _phase_texts(view: TichuView, names: Sequence[str], locale: str) -> tuple[str, str]:
    n = view.n_seats
    if view.phase is Phase.GRAND:
        return (label(locale, "phase_grand"),
                label(locale, "phase_grand_detail", n=sum(view.grand_decided), total=n))
    if view.phase is Phase.EXCHANGE:
        return (label(locale, "phase_exchange"),
                label(locale, "phase_exchange_detail", n=sum(view.exchanged), total=n))
    if view.phase is Phase.GIFT:
        who = seat_name(names, view.turn) if view.turn is not None else "?"
        return label(locale, "phase_gift"), label(locale, "phase_gift_detail", name=who)
    if view.phase is Phase.DEAL_OVER:
        return label(locale, "phase_deal_over"), ""
    if view.phase is Phase.GAME_OVER:
        detail = ""
        if view.winner is not None:
            detail = label(locale, "wins", name=team_name(names, view.winner, n))
        return label(locale, "phase_game_over"), detail
    if view.trick:
        points = sum(POINTS[c] for play in view.trick for c in play.combo.cards)
        shown = f"−{-points}" if points < 0 else str(points)
        return label(locale, "trick"), label(locale, "points_n", n=shown)
    return "", ""


def _last_trick(img: Image.Image, d: ImageDraw.ImageDraw, view: TichuView,
                names: Sequence[str], locale: str, lay: Layout) -> None:
    """The last trick taken, small, in the bottom-left corner: who took it, the play
    that won it, its kind and the points in the whole trick. Nothing before the first."""
    plays = view.last_trick
    if not plays:
        return
    taker = view.last_trick_taker if view.last_trick_taker is not None else plays[-1].seat
    x0, y0, x1, y1 = lay.last_trick_box
    d.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=PANEL_STRONG,
                        outline=(*team_color(taker % 2), 160), width=2)
    title = label(locale, "last_trick")
    draw_text(d, (x0 + 14, y0 + 20), title, 18, "bold", MUTED, "lm")
    tx = x0 + 14 + text_width(title, 18, "bold") + 10
    draw_text(d, (tx, y0 + 20), fit(seat_name(names, taker), x1 - tx - 12, 20, "bold"), 20,
              "bold", team_color(taker % 2), "lm")
    win = plays[-1]
    _cards_row(img, win.combo.cards, (x0 + x1) / 2, y0 + 38, 52, x1 - x0 - 28, 34,
               shadow=False)
    points = sum(POINTS[c] for play in plays for c in play.combo.cards)
    caption = f"{combo_text(win.combo, locale)} · {label(locale, 'points_n', n=number(points))}"
    draw_text(d, ((x0 + x1) / 2, y1 - 18), fit(caption, x1 - x0 - 24, 18, "bold"), 18, "bold",
              TEXT, "mm")


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
    _header(d, view, names, locale, lay.width, boards)
    _corner_panels(img, d, view, names, locale, lay.width)
    for seat in range(view.n_seats):
        _seat(img, d, view, seat, names, locale, lay)
    _last_trick(img, d, view, names, locale, lay)
    _trick(img, d, view, names, locale, lay)
    return img


def render_table(view: TichuView, names: Sequence[str], *, locale: str = "en",
                 boards: int | None = None) -> bytes:
    """The public table (4 or 6 seats, see :func:`layout`): seats and names, cards
    held, Tichu and Grand Tichu calls, who is out and in what order, whose turn it
    is, the trick with the last play most prominent, the last trick taken (who took
    it, with what), the open wish, team totals with each team's score in the last
    deal, the target, and the phase's progress (Grand Tichu decisions, exchange,
    Dragon gift). Bytes in :data:`bot.render.encoding.IMAGE_FORMAT`. At a table of
    duplicate boards (``boards`` of them, each from 0–0) the header names the board
    instead of the target.

    Reads only public fields; raises ValueError for a seat's view (``seat`` not None),
    for a seat count other than 4 or 6, or when ``names`` does not cover every seat.
    """
    return encode(draw_table(view, names, locale, boards))
