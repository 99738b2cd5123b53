"""End-of-deal and end-of-game images: the deal's score breakdown, the score sheet
and a chart of both teams' running totals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from PIL import Image, ImageDraw

from bot.render.draw import (
    DIM,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PANEL_STRONG,
    RED,
    RGB,
    TEXT,
    canvas,
    draw_fitted,
    draw_text,
    encode,
    fit,
    fit_size,
    pill,
    share,
    team_color,
    text_width,
)
from bot.render.fonts import Weight, font
from bot.render.labels import label, ordinal
from bot.render.seats import check_names, number, seat_name, signed, team_name
from engine.tichu.view import Call, DealResult, TichuView

SUMMARY_W, SUMMARY_H = 1000, 660
CALL_VALUES = {Call.TICHU: 100, Call.GRAND_TICHU: 200}
MEDALS: dict[int, RGB] = {1: (250, 204, 70), 2: (206, 214, 224), 3: (214, 140, 84)}
MEDAL_OTHER: RGB = (150, 150, 150)


def sweep_label(n_seats: int) -> str:
    """The label key of a team going out first: a double victory with four seats, a
    triple victory with six (``DealResult.sweep`` holds that team)."""
    return "triple_victory" if n_seats == 6 else "double_victory"


def full_order(deal: DealResult, n_seats: int) -> list[int]:
    """The out order completed with the seats that never went out."""
    return list(deal.out) + [s for s in range(n_seats) if s not in deal.out]


def placings(deal: DealResult, n_seats: int) -> list[tuple[int, int | None]]:
    """(seat, place) in out order. Every seat has a place (the last one out is implied),
    except after a double or triple victory: then only the winners went out, in order,
    and the other team's seats, which never did, have None (they are not 3rd and 4th)."""
    order = full_order(deal, n_seats)
    if deal.sweep is None:
        return [(seat, i + 1) for i, seat in enumerate(order)]
    return [(seat, i + 1 if seat in deal.out else None) for i, seat in enumerate(order)]


def call_lines(deal: DealResult, team: int, names: Sequence[str],
               locale: str) -> list[tuple[str, bool]]:
    """(text, made) for each call of ``team`` in ``deal``."""
    lines = []
    first = deal.out[0] if deal.out else None
    for seat, call in enumerate(deal.calls):
        if call is None or seat % 2 != team:
            continue
        made = seat == first
        value = CALL_VALUES.get(call, 0)
        text = (f"{seat_name(names, seat)} · {label(locale, call.value)} "
                f"{'✓' if made else '✗'} {signed(value if made else -value)}")
        lines.append((text, made))
    return lines


MEDAL_SIZE = 18
"""Text size of the ordinals in the out-order medals."""


def medal_radius(locale: str, n_places: int) -> float:
    """The medals' radius: 22 px, or more when an ordinal of ``locale`` would not sit
    clear inside (``2nd`` is wider than ``2e``)."""
    widest = max(text_width(ordinal(locale, p), MEDAL_SIZE, "bold")
                 for p in range(1, n_places + 1))
    return max(22.0, widest / 2 + 8)


def _medal(d: ImageDraw.ImageDraw, cx: float, cy: float, place: int | None, locale: str,
           radius: float) -> None:
    """A medal with the ordinal of ``place``; for no place, an empty ring with a dash."""
    r = radius
    if place is None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(0, 0, 0, 70),
                  outline=(*DIM, 200), width=2)
        d.line((cx - 8, cy, cx + 8, cy), fill=DIM, width=3)
        return
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MEDALS.get(place, MEDAL_OTHER),
              outline=(255, 255, 255, 150), width=2)
    d.text((cx, cy + 1), ordinal(locale, place), font=font(MEDAL_SIZE, "bold"), fill=INK,
           anchor="mm")


OUT_RIGHT = SUMMARY_W - 36
"""Where the out-order line ends."""
OUT_GAP = 22
"""Least room between two entries of the out-order line."""


def _row_size(texts: Sequence[str], room: float, size: int, least: int,
              floor: float = 0.0, weight: Weight = "bold") -> int | None:
    """The largest size from ``size`` down to ``least`` at which ``texts`` fit side by
    side in ``room`` pixels, each taking at least ``floor``; None if they do not even
    at ``least``."""
    for s in range(size, least - 1, -1):
        if sum(max(text_width(t, s, weight), floor) for t in texts) <= room:
            return s
    return None


@dataclass(frozen=True, slots=True)
class OutEntry:
    """One seat of the out-order line, as drawn."""

    seat: int
    place: int | None
    """1st, 2nd... or None for a seat that never went out after a double or triple victory."""
    cx: float
    """Centre of the medal."""
    name: str
    """The name as drawn (cut with an ellipsis only when the line is full)."""
    size: int
    room: float
    """The width the name may take."""
    under: bool
    """Whether the name is centred under the medal (else it follows it on the right)."""


def out_order_layout(deal: DealResult, names: Sequence[str], locale: str, n_seats: int,
                     left: float) -> list[OutEntry]:
    """The out-order line from ``left`` to :data:`OUT_RIGHT`.

    Medals and names in one line when the names fit whole at 20 px or more (four seats);
    otherwise names under the medals. Either way names share the line by need: a short
    one leaves its spare room to a long one, and a name is cut only when the whole line
    is full (all the names then drawn at 18 px)."""
    entries = placings(deal, n_seats)
    texts = [seat_name(names, seat) for seat, _ in entries]
    radius = medal_radius(locale, n_seats)
    n = len(entries)
    room = OUT_RIGHT - left
    out = []
    medal = 2 * radius + 8  # a medal and the room before its name
    inline_room = room - n * medal - (n - 1) * OUT_GAP
    size = _row_size(texts, inline_room, 22, 20) if n <= 4 else None
    if size is not None:
        widths = [text_width(t, size, "bold") for t in texts]
        spare = (inline_room - sum(widths)) / n
        x = left
        for (seat, place), text, w in zip(entries, texts, widths, strict=True):
            out.append(OutEntry(seat, place, x + radius, text, size, w + spare, False))
            x += medal + w + OUT_GAP + spare
        return out
    gap = 12
    names_room = room - (n - 1) * gap
    size = _row_size(texts, names_room, 20, 18, 2 * radius) or 18
    needs = [max(text_width(t, size, "bold"), 2 * radius) for t in texts]
    widths = share(needs, names_room)
    spare = (names_room - sum(widths)) / n
    x = left
    for (seat, place), text, w in zip(entries, texts, widths, strict=True):
        slot = w + spare
        out.append(OutEntry(seat, place, x + slot / 2, fit(text, w, size, "bold"), size, w,
                            True))
        x += slot + gap
    return out


def draw_deal_summary(view: TichuView, names: Sequence[str], locale: str = "en") -> Image.Image:
    """The deal summary image, before encoding."""
    deal = view.last_deal
    if deal is None:
        raise ValueError("no finished deal in this view (history is empty)")
    check_names(view, names)
    img, d = canvas((SUMMARY_W, SUMMARY_H))
    d.rounded_rectangle((12, 12, SUMMARY_W - 12, 76), radius=14, fill=PANEL_STRONG)
    draw_text(d, (SUMMARY_W / 2, 44), label(locale, "deal_n", n=deal.number + 1), 32, "bold",
              TEXT, "mm")
    draw_text(d, (SUMMARY_W - 32, 44), label(locale, "target_n", n=view.target), 20, "regular",
              MUTED, "rm")
    top = 92
    if deal.sweep is not None:
        team = deal.sweep
        winners = team_name(names, team, view.n_seats)
        text = f"★ {label(locale, sweep_label(view.n_seats))} · {winners} ★"
        pill(d, SUMMARY_W / 2, top, fit(text, 900, 24, "bold"), 24, (*GOLD, 245), INK,
             height=44, align="center")
        top += 60
    totals = view.scores
    for team in (0, 1):
        x0 = 28 if team == 0 else SUMMARY_W / 2 + 10
        x1 = SUMMARY_W / 2 - 10 if team == 0 else SUMMARY_W - 28
        color = team_color(team)
        box = (x0, top, x1, top + 372)
        d.rounded_rectangle(box, radius=16, fill=PANEL, outline=(*color, 200), width=3)
        d.ellipse((x0 + 18, top + 22, x0 + 36, top + 40), fill=color)
        draw_fitted(d, (x0 + 46, top + 31), team_name(names, team, view.n_seats),
                    x1 - x0 - 64, 24, "bold", TEXT, "lm", min_size=20)
        y = top + 76
        draw_text(d, (x0 + 20, y), label(locale, "card_points"), 22, "regular", MUTED, "lm")
        draw_text(d, (x1 - 20, y), signed(deal.card_points[team]), 26, "bold", TEXT, "rm")
        y += 42
        draw_text(d, (x0 + 20, y), label(locale, "call_points"), 22, "regular", MUTED, "lm")
        draw_text(d, (x1 - 20, y), signed(deal.call_points[team]), 26, "bold", TEXT, "rm")
        y += 32
        lines = call_lines(deal, team, names, locale) or [(label(locale, "no_calls"), True)]
        for text, made in lines[:3]:  # one call per seat: up to three with six seats
            fg = DIM if text == label(locale, "no_calls") else GREEN if made else RED
            draw_text(d, (x0 + 36, y), fit(text, x1 - x0 - 56, 20), 20, "regular", fg, "lm")
            y += 27
        y = top + 250
        d.line((x0 + 20, y - 22, x1 - 20, y - 22), fill=(255, 255, 255, 60), width=2)
        score = deal.scores[team]
        draw_text(d, (x0 + 20, y), label(locale, "deal_score"), 22, "bold", TEXT, "lm")
        draw_text(d, (x1 - 20, y), signed(score), 30, "bold",
                  GREEN if score > 0 else RED if score < 0 else TEXT, "rm")
        y += 48
        total = totals[team] if team < len(totals) else 0
        draw_text(d, (x0 + 20, y), label(locale, "total"), 22, "bold", TEXT, "lm")
        draw_text(d, (x1 - 20, y), number(total), 32, "bold", color, "rm")
        # progress towards the target
        bar = (x0 + 20, y + 30, x1 - 20, y + 44)
        d.rounded_rectangle(bar, radius=7, fill=(0, 0, 0, 120))
        frac = max(0.0, min(1.0, total / view.target)) if view.target else 0.0
        if frac > 0:
            d.rounded_rectangle((bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * frac, bar[3]),
                                radius=7, fill=color)
    # out order: one line of medals and names with four seats; with six, names under
    y = top + 412
    title = label(locale, "out_order")
    draw_text(d, (40, y), title, 22, "bold", MUTED, "lm")
    left = max(240.0, 40 + text_width(title, 22, "bold") + 28)
    radius = medal_radius(locale, view.n_seats)
    entries = out_order_layout(deal, names, locale, view.n_seats, left)
    for e in entries:
        _medal(d, e.cx, y, e.place, locale, radius)
        color = team_color(e.seat % 2)
        if e.under:
            draw_text(d, (e.cx, y + radius + 18), e.name, e.size, "bold", color, "mm")
        else:
            draw_text(d, (e.cx + radius + 8, y), e.name, e.size, "bold", color, "lm")
    return img


def render_deal_summary(view: TichuView, names: Sequence[str], *, locale: str = "en") -> bytes:
    """Image of the last finished deal (``view.last_deal``): card points and call bonuses
    per team, each call made or failed, the double victory if any, the out order,
    the deal's score and the running totals against the target.

    Raises ValueError when the view has no finished deal.
    """
    return encode(draw_deal_summary(view, names, locale))


# --- Game over ------------------------------------------------------------------------

GAME_W = 1000
ROW_H = 36
CHART_H = 330


def _notes(deal: DealResult, names: Sequence[str], locale: str, n_seats: int) -> str:
    parts = []
    if deal.sweep is not None:
        parts.append(label(locale, sweep_label(n_seats)))
    first = deal.out[0] if deal.out else None
    for seat, call in enumerate(deal.calls):
        if call is not None:
            parts.append(f"{seat_name(names, seat)} {label(locale, call.value)} "
                         f"{'✓' if seat == first else '✗'}")
    return " · ".join(parts)


def _nice_step(span: float) -> int:
    for step in (50, 100, 200, 250, 500, 1000, 2000):
        if span / step <= 6:
            return step
    return 5000


def _chart(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
           series: list[list[int]], target: int, locale: str,
           on_top: Sequence[int] = (0, 1)) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=16, fill=PANEL)
    draw_text(d, (x0 + 20, y0 + 24), label(locale, "chart"), 22, "bold", TEXT, "lm")
    px0, py0, px1, py1 = x0 + 80, y0 + 52, x1 - 30, y1 - 44
    values = [v for s in series for v in s] + [target, 0]
    lo, hi = min(values), max(values)
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    if hi == lo:
        hi = lo + step
    n = max(len(series[0]) - 1, 1)

    def pt(i: int, v: float) -> tuple[float, float]:
        return (px0 + (px1 - px0) * i / n, py1 - (py1 - py0) * (v - lo) / (hi - lo))

    v = lo
    while v <= hi:
        y = pt(0, v)[1]
        d.line((px0, y, px1, y), fill=(255, 255, 255, 40 if v else 90), width=1 if v else 2)
        draw_text(d, (px0 - 12, y), number(v), 18, "regular", MUTED, "rm", shadow=False)
        v += step
    label_every = max(1, n // 12)
    for i in range(n + 1):
        if i % label_every == 0 or i == n:
            draw_text(d, (pt(i, lo)[0], py1 + 22), str(i), 18, "regular", MUTED, "mm",
                      shadow=False)
    ty = pt(0, target)[1]
    x = px0
    while x < px1:
        d.line((x, ty, min(x + 14, px1), ty), fill=GOLD, width=3)
        x += 24
    # on the left, where every line starts at 0: on the right the winners' line ends
    # at the target and would run through it
    draw_text(d, (px0 + 10, ty - 16), label(locale, "target_n", n=target), 18, "bold", GOLD,
              "lm")
    for team in reversed(on_top):  # the first of ``on_top`` is drawn last, over the other
        values_ = series[team]
        color = team_color(team)
        points = [pt(i, val) for i, val in enumerate(values_)]
        if len(points) > 1:
            d.line(points, fill=color, width=5, joint="curve")
        for x, y in points:
            d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=color, outline=(20, 20, 20), width=2)


TEAM_HEADER_W = 224
"""Room for a team's name over its two columns of the score sheet."""


def team_header(names: Sequence[str], team: int,
                n_seats: int) -> tuple[list[str], int, Weight]:
    """The lines of a team's name over its columns of the score sheet, their size and
    weight: one line when it fits whole (20 px, or down to 18), else its members over two
    lines (``Alice`` / ``& Chloé``), condensed if need be, each cut only if it still does
    not fit."""
    whole = team_name(names, team, n_seats)
    text, size = fit_size(whole, TEAM_HEADER_W, 20, "bold", 18)
    if text == whole:
        return [text], size, "bold"
    members = [seat_name(names, s) for s in range(n_seats) if s % 2 == team]
    best: list[str] = [text]
    widest = float("inf")
    for k in range(1, len(members)):
        if k == len(members) - 1:
            split = [", ".join(members[:k]), f"& {members[-1]}"]
        else:
            split = [", ".join(members[:k]) + ",",
                     f"{', '.join(members[k:-1])} & {members[-1]}"]
        wide = max(text_width(line, 18, "bold") for line in split)
        if wide < widest:
            best, widest = split, wide
    weight: Weight = "bold" if widest <= TEAM_HEADER_W else "condensed-bold"
    return [fit(line, TEAM_HEADER_W, 18, weight) for line in best], 18, weight


def sheet_teams(view: TichuView) -> tuple[int, int]:
    """The teams in the order of the score sheet's columns: the winners first."""
    return (1, 0) if view.winner == 1 else (0, 1)


def draw_game_over(view: TichuView, names: Sequence[str], locale: str = "en") -> Image.Image:
    """The final score sheet and chart, before encoding."""
    check_names(view, names)
    history = view.history
    rows = len(history)
    sheet_top = 96 + (0 if view.winner is None else 56)
    sheet_h = 48 + ROW_H * (rows + 1) + 16
    height = sheet_top + sheet_h + 24 + CHART_H + 24
    img, d = canvas((GAME_W, height))
    d.rounded_rectangle((12, 12, GAME_W - 12, 76), radius=14, fill=PANEL_STRONG)
    draw_text(d, (GAME_W / 2, 44), label(locale, "game_over"), 32, "bold", TEXT, "mm")
    draw_text(d, (GAME_W - 32, 44), label(locale, "target_n", n=view.target), 20, "regular",
              MUTED, "rm")
    if view.winner is not None:
        text = f"★ {label(locale, 'wins', name=team_name(names, view.winner, view.n_seats))} ★"
        pill(d, GAME_W / 2, 92, fit(text, 900, 26, "bold"), 26, (*team_color(view.winner), 245),
             INK, height=46, align="center")
    # score sheet
    box = (24, sheet_top, GAME_W - 24, sheet_top + sheet_h)
    d.rounded_rectangle(box, radius=16, fill=PANEL)
    cols = (70, 190, 300, 430, 540)
    header_y = sheet_top + 30
    draw_text(d, (cols[0], header_y), label(locale, "deal"), 20, "bold", MUTED, "mm")
    teams = sheet_teams(view)
    for col, team in enumerate(teams):
        cx = (cols[1 + 2 * col] + cols[2 + 2 * col]) / 2
        lines, size, weight = team_header(names, team, view.n_seats)
        for i, line in enumerate(lines):
            dy = (i - (len(lines) - 1) / 2) * 21
            draw_text(d, (cx, header_y + dy), line, size, weight, team_color(team), "mm")
    draw_text(d, (610, header_y), label(locale, "calls"), 20, "bold", MUTED, "lm")
    running = [list(accumulate(deal.scores[t] for deal in history)) for t in (0, 1)]
    y = header_y + 44
    for i, deal in enumerate(history):
        if i % 2 == 0:
            d.rectangle((36, y - ROW_H / 2, GAME_W - 36, y + ROW_H / 2), fill=(255, 255, 255, 14))
        draw_text(d, (cols[0], y), str(deal.number + 1), 20, "bold", TEXT, "mm", shadow=False)
        for col, team in enumerate(teams):
            score = deal.scores[team]
            draw_text(d, (cols[1 + 2 * col] + 30, y), signed(score), 20, "regular",
                      GREEN if score > 0 else RED if score < 0 else MUTED, "rm", shadow=False)
            draw_text(d, (cols[2 + 2 * col] + 40, y), number(running[team][i]), 22, "bold",
                      team_color(team), "rm", shadow=False)
        notes = _notes(deal, names, locale, view.n_seats)
        if notes:
            draw_text(d, (610, y), fit(notes, GAME_W - 660, 18), 18, "regular", MUTED, "lm",
                      shadow=False)
        y += ROW_H
    d.line((40, y - ROW_H / 2 + 2, GAME_W - 40, y - ROW_H / 2 + 2), fill=(255, 255, 255, 80),
           width=2)
    draw_text(d, (cols[0], y + 4), label(locale, "total"), 20, "bold", TEXT, "mm")
    for col, team in enumerate(teams):
        total = view.scores[team] if team < len(view.scores) else 0
        draw_text(d, (cols[2 + 2 * col] + 40, y + 4), number(total), 26, "bold", team_color(team),
                  "rm")
    series = [[0, *running[t]] for t in (0, 1)]
    chart_top = sheet_top + sheet_h + 24
    _chart(d, (24, chart_top, GAME_W - 24, chart_top + CHART_H), series, view.target, locale,
           teams)
    return img


def render_game_over(view: TichuView, names: Sequence[str], *, locale: str = "en") -> bytes:
    """Image of the finished game: the winner, the score sheet deal by deal (each deal's
    score, running totals, calls and double victories, from ``view.history``) and a
    line chart of both teams' running totals with the target line.
    """
    return encode(draw_game_over(view, names, locale))
