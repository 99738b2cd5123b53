"""End-of-deal and end-of-game images: the deal's score breakdown and the final score sheet.

Both are drawn for the size Discord shows them (:mod:`bot.render.display`): 1100 px wide,
shown 550 px wide on desktop and 320 px on a phone, so no text is smaller than
:data:`LEAST` (a cap height of 28 px: 8 px on a phone) and neither image is taller than
:data:`MAX_H` (past it, desktop shows it smaller than half its size)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations, pairwise

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
    Box,
    Color,
    canvas,
    draw_text,
    encode,
    fit,
    pill,
    team_color,
    text_box,
    text_width,
)
from bot.render.fonts import Weight, font
from bot.render.labels import Fitted, fit_label, label, ordinal, short_label
from bot.render.seats import check_names, number, seat_name, signed, team_name
from engine.tichu.view import Call, DealResult, TichuView

SUMMARY_W = 1100
"""The width of both images: twice the 550 px Discord shows an attachment at on desktop."""
GAME_W = SUMMARY_W
LEAST = 38
"""The smallest text size: a cap height of 28 px, 8 px as a phone shows 1100 px in 320."""
MAX_H = 890
"""The tallest either image gets: desktop shows it in 350 px of height, and 28 px of cap
height stays 11 px as shown up to 350 * 28 / 11 = 890 px."""

CALL_VALUES = {Call.TICHU: 100, Call.GRAND_TICHU: 200}
MEDALS: dict[int, RGB] = {1: (250, 204, 70), 2: (206, 214, 224), 3: (214, 140, 84)}
MEDAL_OTHER: RGB = (150, 150, 150)
CONDENSED: dict[Weight, Weight] = {"regular": "condensed", "bold": "condensed-bold",
                                   "condensed": "condensed",
                                   "condensed-bold": "condensed-bold"}

EDGE = 20
"""Where the panels start, from the image's sides."""
PAD = 28
"""Where texts start inside a panel, from the image's sides (panel edge and padding)."""
HEAD_BOTTOM = 100
"""The bottom of the header band (title, sweep or winners, target)."""
GAP = 12
"""Room between two panels."""


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


def call_text(deal: DealResult, seat: int, locale: str,
              short: bool = False) -> tuple[str, bool] | None:
    """(``Tichu ✓ +100``, made) for the call of ``seat`` in ``deal``, or None; with
    ``short``, the call's short form if it has one (``Μεγάλο ✗ −200``)."""
    call = deal.calls[seat] if seat < len(deal.calls) else None
    if call is None:
        return None
    made = bool(deal.out) and deal.out[0] == seat
    value = CALL_VALUES.get(call, 0)
    word = (short and short_label(locale, call.value)) or label(locale, call.value)
    return f"{word} {'✓' if made else '✗'} {signed(value if made else -value)}", made


def fit_line(text: str, room: float, size: int, weight: Weight = "bold",
             least: int = LEAST) -> tuple[str, int, Weight]:
    """``text``, its size and weight so that it fits in ``room`` pixels: the largest size
    from ``size`` down to ``least`` at which it fits whole; then condensed at ``least``;
    only then cut with an ellipsis (condensed)."""
    for s in range(size, least - 1, -1):
        if text_width(text, s, weight) <= room:
            return text, s, weight
    narrow = CONDENSED[weight]
    return fit(text, room, least, narrow), least, narrow


def label_line(locale: str, key: str, room: float, size: int, weight: Weight = "bold",
               free: Sequence[str] = (), values: dict[str, object] | None = None) -> Fitted:
    """The label ``key`` as :func:`fit_line` fits a text, a label's words never cut: the
    largest size down to :data:`LEAST`, then condensed, then its short form; only a name
    in it (``free``) is cut."""
    return fit_label(locale, key, room, size, (weight, CONDENSED[weight]), min_size=LEAST,
                     free=free, values=values)


def _fitted(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, room: float,
            size: int, weight: Weight, fill: Color, anchor: str, shadow: bool = True) -> Box:
    """Draw ``text`` made to fit ``room`` (:func:`fit_line`); returns its ink box."""
    text, size, weight = fit_line(text, room, size, weight)
    draw_text(d, xy, text, size, weight, fill, anchor, shadow)
    return text_box(xy, text, size, weight, anchor)


def member_lines(members: Sequence[str], cuts: Sequence[int]) -> list[str]:
    """A team's name (``Alice, Chloé & Eve``) broken before the members at ``cuts``:
    ``["Alice,", "Chloé & Eve"]``, ``["Alice, Chloé", "& Eve"]``."""
    bounds = [0, *cuts, len(members)]
    lines = []
    for a, b in pairwise(bounds):
        group = list(members[a:b])
        if b == len(members) and len(members) > 1:
            head = ", ".join(group[:-1])
            lines.append(f"{head} & {group[-1]}" if head else f"& {group[-1]}")
        else:
            lines.append(", ".join(group))
    return [line if i == len(lines) - 1 or lines[i + 1].startswith("&") else f"{line},"
            for i, line in enumerate(lines)]


def team_header(names: Sequence[str], team: int, n_seats: int, room: float,
                size: int = 40) -> tuple[list[str], int, Weight]:
    """The lines of a team's name over its columns of the score sheet, their size and
    weight: one line when it fits whole (``size`` down to :data:`LEAST`, then condensed);
    else its members over the fewest lines that hold them whole (``Alice`` / ``& Chloé``),
    condensed if need be; else one member a line, each cut only if it still does not fit."""
    whole = team_name(names, team, n_seats)
    text, s, weight = fit_line(whole, room, size)
    if text == whole:
        return [text], s, weight
    members = [seat_name(names, seat) for seat in range(n_seats) if seat % 2 == team]
    for n_lines in range(2, len(members) + 1):
        best = min((member_lines(members, cuts)
                    for cuts in combinations(range(1, len(members)), n_lines - 1)),
                   key=lambda lines: max(text_width(line, LEAST, "bold") for line in lines))
        for weight in ("bold", "condensed-bold"):
            if all(text_width(line, LEAST, weight) <= room for line in best):
                return best, LEAST, weight
    lines = member_lines(members, range(1, len(members)))
    return [fit(line, room, LEAST, "condensed-bold") for line in lines], LEAST, \
        "condensed-bold"


MEDAL_H = 50
"""The height of an out-order medal (a rounded badge holding the ordinal)."""


def medal_width(locale: str, n_places: int) -> float:
    """The width of the medals: the widest ordinal of ``locale`` (``2nd`` is wider than
    ``2e``) at :data:`LEAST` with room on both sides."""
    widest = max(text_width(ordinal(locale, p), LEAST, "bold") for p in range(1, n_places + 1))
    return widest + 28


def _medal(d: ImageDraw.ImageDraw, x: float, cy: float, place: int | None, locale: str,
           width: float) -> None:
    """A medal from ``x`` with the ordinal of ``place``; for no place, an empty badge
    with a dash."""
    box = (x, cy - MEDAL_H / 2, x + width, cy + MEDAL_H / 2)
    if place is None:
        d.rounded_rectangle(box, radius=MEDAL_H / 2, fill=(0, 0, 0, 70),
                            outline=(*DIM, 200), width=3)
        d.line((x + width / 2 - 12, cy, x + width / 2 + 12, cy), fill=DIM, width=4)
        return
    d.rounded_rectangle(box, radius=MEDAL_H / 2, fill=MEDALS.get(place, MEDAL_OTHER),
                        outline=(255, 255, 255, 150), width=2)
    d.text((x + width / 2, cy + 1), ordinal(locale, place), font=font(LEAST, "bold"),
           fill=INK, anchor="mm")


def draw_centered(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  weight: Weight, fill: Color) -> Box:
    """:func:`draw_text` of ``text`` centred on ``xy``; returns its ink box."""
    draw_text(d, xy, text, size, weight, fill, "mm")
    return text_box(xy, text, size, weight, "mm")


def _header(d: ImageDraw.ImageDraw, width: int, title: tuple[str, str, dict[str, object]],
            title_fill: Color, right: str, locale: str) -> tuple[float, float]:
    """The header band: the label ``title`` (a prefix, its key and its values, names cut
    if need be) on the left, ``right`` (the target) on the right. Returns the free room
    between them (left, right)."""
    d.rounded_rectangle((EDGE - 6, EDGE - 6, width - EDGE + 6, HEAD_BOTTOM), radius=16,
                        fill=PANEL_STRONG)
    cy = (EDGE - 6 + HEAD_BOTTOM) / 2
    right_w = text_width(right, LEAST, "regular")
    draw_text(d, (width - PAD - 6, cy), right, LEAST, "regular", MUTED, "rm")
    room = width - 2 * PAD - 12 - right_w - 32
    prefix, key, values = title
    text, size, weight = label_line(locale, key, room - text_width(prefix, 48, "bold"), 48,
                                    free=("name",) if "name" in values else (), values=values)
    draw_text(d, (PAD + 6, cy), prefix + text, size, weight, title_fill, "lm")
    box = text_box((PAD + 6, cy), prefix + text, size, weight, "lm")
    return box[2] + 24, width - PAD - 6 - right_w - 24


# --- Deal summary ---------------------------------------------------------------------

BOARD_ROW = 56
"""The pitch of the scoreboard's rows."""
TEAM_LINE = 46
"""The pitch of the lines of a team's name."""
OUT_ROW = 60
"""The pitch of the out order's rows."""


@dataclass(frozen=True, slots=True)
class OutEntry:
    """One seat of the out order, as drawn: a row of its own."""

    seat: int
    place: int | None
    """1st, 2nd... or None for a seat that never went out after a double or triple victory."""
    cy: float
    """The middle of its row."""
    name: str
    """The name as drawn (condensed, then cut with an ellipsis, only when it does not fit)."""
    size: int
    weight: Weight
    room: float
    """The width the name may take: from the medal to the call, or to the panel's edge."""
    call: tuple[str, bool] | None


def out_order_layout(deal: DealResult, names: Sequence[str], locale: str, n_seats: int,
                     top: float) -> list[OutEntry]:
    """The out order from ``top``: one row per seat, a medal, the name in full when it
    fits, and the seat's call (Tichu or Grand Tichu, made or failed, and its points) on
    the right, in its short form when the whole one leaves the name too little room."""
    medal = medal_width(locale, n_seats)
    name_x = PAD + 12 + medal + 18
    out = []
    for i, (seat, place) in enumerate(placings(deal, n_seats)):
        for short in (False, True):  # the call's short form before the name is narrowed
            call = call_text(deal, seat, locale, short)
            right: float = SUMMARY_W - PAD - 12
            if call is not None:
                right -= text_width(call[0], LEAST, "bold") + 28
            room = right - name_x
            name, size, weight = fit_line(seat_name(names, seat), room, 40)
            if weight == "bold" and name == seat_name(names, seat):
                break
        out.append(OutEntry(seat, place, top + OUT_ROW * (i + 0.5), name, size, weight, room,
                            call))
    return out


BOARD_H = 12 + TEAM_LINE + 8 + 4 * BOARD_ROW + 10
"""The height of the scoreboard: the team names, then four rows."""
BOARD_NAME_ROOM = SUMMARY_W / 2 - PAD - 12 - 24
"""Room for a team's name at the top of the scoreboard (each from its side)."""
OUT_TOP = HEAD_BOTTOM + GAP + BOARD_H + GAP
"""The top of the out order's panel, under the scoreboard."""


def deal_summary_height(n_seats: int) -> int:
    """The height of the deal summary: the scoreboard and one row per seat."""
    return OUT_TOP + n_seats * OUT_ROW + 20 + EDGE


def draw_deal_summary(view: TichuView, names: Sequence[str], locale: str = "en") -> Image.Image:
    """The deal summary image, before encoding: a scoreboard of both teams (card points,
    call bonus, deal score, running total) and the out order with each seat's call."""
    deal = view.last_deal
    if deal is None:
        raise ValueError("no finished deal in this view (history is empty)")
    check_names(view, names)
    width = SUMMARY_W
    height = deal_summary_height(view.n_seats)
    img, d = canvas((width, height))
    left, right = _header(d, width, ("", "deal_n", {"n": deal.number + 1}), TEXT,
                          label(locale, "target_n", n=view.target), locale)
    if deal.sweep is not None:
        stars = text_width("★  ★", LEAST, "condensed-bold")
        text, size, weight = label_line(locale, sweep_label(view.n_seats),
                                        right - left - 36 - stars, LEAST)
        text = f"★ {text} ★"
        w = text_width(text, size, weight) + 36
        cx = min(max(width / 2, left + w / 2), right - w / 2)
        pill(d, cx, (EDGE - 6 + HEAD_BOTTOM) / 2 - 29, text, size, (*GOLD, 245), INK,
             weight=weight, pad=18, height=58, align="center")
    # the scoreboard: team names and values at the sides, what they are in the middle;
    # a team's name is cut if need be (the out order below names every player whole)
    top = HEAD_BOTTOM + GAP
    bottom = top + BOARD_H
    d.rounded_rectangle((EDGE, top, width - EDGE, bottom), radius=16, fill=PANEL)
    y = top + 12 + TEAM_LINE / 2
    for team in (0, 1):
        x, anchor = (PAD + 12, "lm") if team == 0 else (width - PAD - 12, "rm")
        _fitted(d, (x, y), team_name(names, team, view.n_seats), BOARD_NAME_ROOM, 40, "bold",
                team_color(team), anchor)
    y += TEAM_LINE / 2 + 8
    d.line((PAD, y, width - PAD, y), fill=(255, 255, 255, 60), width=2)
    totals = view.scores
    rows: list[tuple[str, Weight, tuple[int, int], int]] = [
        ("card_points", "regular", (deal.card_points[0], deal.card_points[1]), 40),
        ("call_points", "regular", (deal.call_points[0], deal.call_points[1]), 40),
        ("deal_score", "bold", (deal.scores[0], deal.scores[1]), 44),
        ("total", "bold", (totals[0] if totals else 0, totals[1] if len(totals) > 1 else 0),
         48),
    ]
    for i, (key, weight, values, size) in enumerate(rows):
        cy = y + BOARD_ROW * (i + 0.5)
        if i % 2 == 0:
            d.rectangle((PAD, cy - BOARD_ROW / 2, width - PAD, cy + BOARD_ROW / 2),
                        fill=(255, 255, 255, 14))
        widths = []
        for team, value in enumerate(values):
            text = number(value) if key == "total" else signed(value)
            fill: Color = (team_color(team) if key == "total" else
                           (GREEN if value > 0 else RED if value < 0 else TEXT)
                           if key == "deal_score" else TEXT)
            x, anchor = (PAD + 12, "lm") if team == 0 else (width - PAD - 12, "rm")
            draw_text(d, (x, cy), text, size, "bold", fill, anchor)
            widths.append(text_width(text, size, "bold"))
        room = width - 2 * (PAD + 12 + max(widths) + 28)
        text, size, narrow = label_line(locale, key, room, LEAST, weight)
        draw_text(d, (width / 2, cy), text, size, narrow, TEXT if weight == "bold" else MUTED,
                  "mm")
    # the out order: one row per seat, in order, with its call
    top = OUT_TOP
    d.rounded_rectangle((EDGE, top, width - EDGE, top + view.n_seats * OUT_ROW + 20),
                        radius=16, fill=PANEL)
    medal = medal_width(locale, view.n_seats)
    for e in out_order_layout(deal, names, locale, view.n_seats, top + 10):
        _medal(d, PAD + 12, e.cy, e.place, locale, medal)
        draw_text(d, (PAD + 12 + medal + 18, e.cy), e.name, e.size, e.weight,
                  team_color(e.seat % 2), "lm")
        if e.call is not None:
            text, made = e.call
            draw_text(d, (width - PAD - 12, e.cy), text, LEAST, "bold", GREEN if made else RED,
                      "rm")
    return img


def render_deal_summary(view: TichuView, names: Sequence[str], *, locale: str = "en") -> bytes:
    """Image of the last finished deal (``view.last_deal``): card points and call bonuses
    per team, the deal's score and the running totals, the double or triple victory if
    any, and the out order with each seat's call, made or failed.

    Raises ValueError when the view has no finished deal.
    """
    return encode(draw_deal_summary(view, names, locale))


# --- Game over ------------------------------------------------------------------------

SHEET_ROW = 48
"""The pitch of the score sheet's rows."""
TOTAL_ROW = 66
"""The height of the sheet's total row."""
DEAL_COL = 150
"""The right end of the deal numbers' column."""
HEAD_GAP = 12
"""Least room between the names of the teams over their columns."""
STAR = "★"
"""The mark of a double or triple victory, before the deal score of the team that made it."""
STAR_GAP = 12
SCORE_AT = 0.48
"""Where a team's deal scores end, as a share of its pair of columns (the running totals
end at its right)."""


def sheet_teams(view: TichuView) -> tuple[int, int]:
    """The teams in the order of the score sheet's columns: the winners first."""
    return (1, 0) if view.winner == 1 else (0, 1)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of the score sheet: a deal, or the first deals folded into one."""

    name: str
    """``7``, or ``1–9`` for folded deals."""
    scores: tuple[int, int]
    """Per team: the deal's score (folded: the sum of the deals' scores)."""
    totals: tuple[int, int]
    """Per team: the running total after the row."""
    folded: bool
    sweep: int | None = None
    """The team of the deal's double or triple victory, if any (marked with a star)."""


def sheet_rows(history: Sequence[DealResult], most: int) -> list[SheetRow]:
    """The sheet's rows, at most ``most``: every deal, or when there are more, the first
    deals folded into one row (their summed scores and the total after them) and the
    last ``most - 1`` deals one by one."""
    running = [list(accumulate(deal.scores[t] for deal in history)) for t in (0, 1)]
    rows = []
    folded = len(history) - (most - 1) if len(history) > most else 0
    if folded:
        first, last = history[0].number + 1, history[folded - 1].number + 1
        rows.append(SheetRow(f"{first}–{last}",
                             (running[0][folded - 1], running[1][folded - 1]),
                             (running[0][folded - 1], running[1][folded - 1]), True))
    for i in range(folded, len(history)):
        rows.append(SheetRow(str(history[i].number + 1),
                             (history[i].scores[0], history[i].scores[1]),
                             (running[0][i], running[1][i]), False, history[i].sweep))
    return rows


def _sheet_columns(width: int) -> list[tuple[float, float]]:
    """The (left, right) of both teams' pairs of columns (deal score, running total)."""
    room = (width - PAD - 12 - DEAL_COL) / 2
    return [(DEAL_COL + room * i, DEAL_COL + room * (i + 1)) for i in (0, 1)]


def _sheet_top() -> float:
    return HEAD_BOTTOM + GAP


TEAM_HEADER_W = (GAME_W - PAD - 12 - DEAL_COL) / 2 - HEAD_GAP
"""Room for a team's name over its pair of columns of the score sheet."""


def game_over_layout(view: TichuView, names: Sequence[str]) -> tuple[int, int, int]:
    """(lines of the team headers, rows of the sheet, height of the image): as many rows
    as there are deals, up to what fits under :data:`MAX_H`."""
    lines = max(len(team_header(names, t, view.n_seats, TEAM_HEADER_W)[0]) for t in (0, 1))
    fixed = _sheet_top() + 12 + lines * TEAM_LINE + 10 + TOTAL_ROW + 12 + EDGE
    most = max(1, int((MAX_H - fixed) // SHEET_ROW))
    rows = min(len(view.history), most)
    return lines, most, int(fixed + rows * SHEET_ROW)


def draw_game_over(view: TichuView, names: Sequence[str], locale: str = "en") -> Image.Image:
    """The final score sheet, before encoding: the winners, each deal's score and the
    running totals, winners' columns first, and the final totals."""
    check_names(view, names)
    lines, most, height = game_over_layout(view, names)
    width = GAME_W
    img, d = canvas((width, height))
    if view.winner is not None:
        words: tuple[str, str, dict[str, object]] = (
            "★ ", "wins", {"name": team_name(names, view.winner, view.n_seats)})
        fill: Color = team_color(view.winner)
    else:
        words, fill = ("", "game_over", {}), TEXT
    _header(d, width, words, fill, label(locale, "target_n", n=view.target), locale)
    top = _sheet_top()
    d.rounded_rectangle((EDGE, top, width - EDGE, height - EDGE), radius=16, fill=PANEL)
    teams = sheet_teams(view)
    cols = _sheet_columns(width)
    first = cols[0][0]
    score_right = first + (cols[0][1] - first) * SCORE_AT
    x = PAD + 12  # the first column: "Deal", the deal numbers and "Total", from the left
    y = top + 12
    head_mid = y + lines * TEAM_LINE / 2
    lefts = []
    for (x0, x1), team in zip(cols, teams, strict=True):
        text_lines, size, weight = team_header(names, team, view.n_seats, TEAM_HEADER_W)
        for i, line in enumerate(text_lines):
            cy = head_mid + (i - (len(text_lines) - 1) / 2) * TEAM_LINE
            box = draw_centered(d, ((x0 + x1) / 2, cy), line, size, weight, team_color(team))
            if x0 == first:
                lefts.append(box[0])
    deal = label(locale, "deal")  # over the deal numbers, when long team names leave room
    text, size, weight = fit_line(deal, min(lefts) - 24 - x, LEAST)
    if text == deal:
        draw_text(d, (x, head_mid), text, size, weight, MUTED, "lm")
    y += lines * TEAM_LINE + 10
    for i, row in enumerate(sheet_rows(view.history, most)):
        cy = y + SHEET_ROW * (i + 0.5)
        if i % 2 == 0:
            d.rectangle((PAD, cy - SHEET_ROW / 2, width - PAD, cy + SHEET_ROW / 2),
                        fill=(255, 255, 255, 14))
        if row.folded:
            d.line((PAD, cy + SHEET_ROW / 2, width - PAD, cy + SHEET_ROW / 2),
                   fill=(255, 255, 255, 60), width=2)
        for (x0, x1), team in zip(cols, teams, strict=True):
            score = row.scores[team]
            right = x0 + (x1 - x0) * SCORE_AT
            draw_text(d, (right, cy), signed(score), LEAST, "regular",
                      MUTED if row.folded else GREEN if score > 0 else RED if score < 0
                      else MUTED, "rm", shadow=False)
            if row.sweep == team:
                draw_text(d, (right - text_width(signed(score), LEAST) - STAR_GAP, cy), STAR,
                          LEAST, "bold", GOLD, "rm", shadow=False)
            draw_text(d, (x1 - 20, cy), number(row.totals[team]), 40, "bold",
                      team_color(team), "rm", shadow=False)
        lead = text_width(signed(row.scores[teams[0]]), LEAST, "regular")
        if row.sweep == teams[0]:
            lead += STAR_GAP + text_width(STAR, LEAST, "bold")
        _fitted(d, (x, cy), row.name, score_right - lead - 24 - x, LEAST, "bold",
                MUTED if row.folded else TEXT, "lm", shadow=False)
    y += SHEET_ROW * min(len(view.history), most)
    d.line((PAD, y + 2, width - PAD, y + 2), fill=(255, 255, 255, 80), width=2)
    cy = y + TOTAL_ROW / 2 + 2
    text, size, weight = label_line(locale, "total", score_right - x, LEAST)
    draw_text(d, (x, cy), text, size, weight, TEXT, "lm")
    for (_, x1), team in zip(cols, teams, strict=True):
        total = view.scores[team] if team < len(view.scores) else 0
        draw_text(d, (x1 - 20, cy), number(total), 52, "bold", team_color(team), "rm")
    return img


def render_game_over(view: TichuView, names: Sequence[str], *, locale: str = "en") -> bytes:
    """Image of the finished game: the winners, the score sheet deal by deal (each deal's
    score and the running totals, from ``view.history``; past what fits, the first deals
    folded into one row) and the final totals.
    """
    return encode(draw_game_over(view, names, locale))
