"""Texts keep to their room: totals clear of team names in the table header, names cut
only when they do not fit the room they really have (measured with the font), out-order
medals wide enough for their ordinal, no place for the losers of a double or triple
victory, each seat's call on its row of the out order, the winners first on the
game-over sheet, a long game's first deals folded into one row, and true minus signs.

A spy on ``ImageDraw.text`` records every text drawn with its font and anchor, so the
tests measure the boxes the images really have."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.games.tysiacha.images import render_prikup
from bot.i18n import LANGUAGES, t
from bot.render import examples as ex
from bot.render.draw import (
    GREEN,
    RED,
    Box,
    fit,
    fit_names,
    fit_size,
    number,
    share,
    text_width,
    wrap_names,
)
from bot.render.draw import TEXT as TEXT_COLOR
from bot.render.french import CARD_W as FRENCH_CARD_W
from bot.render.french import SMALL as FRENCH_SMALL
from bot.render.french import draw_french_hand
from bot.render.hand import HAND_CARD_W, draw_exchange, draw_hand
from bot.render.labels import fit_label, label, ordinal, short_label
from bot.render.ratings import (
    BOARD_ROWS,
    BOARD_W,
    CELL,
    GAP,
    SCOPE_H,
    SMALLEST,
    BoardLine,
    board_height,
    board_layout,
    render_leaderboard,
    render_rating_chart,
)
from bot.render.summary import (
    LEAST,
    MAX_H,
    MEDAL_H,
    OUT_TOP,
    TEAM_HEADER_W,
    draw_deal_summary,
    draw_game_over,
    game_over_layout,
    medal_width,
    placings,
    sheet_rows,
    sheet_teams,
    team_header,
)
from bot.render.table import (
    HEADER_BOTTOM,
    HEADER_GAP,
    PANEL_W,
    SEAT_NAME_X,
    SEAT_PAD,
    SIZE,
    SMALL,
    TOTAL_SIZE,
    draw_table,
    header_middle,
    header_sides,
    layout,
)
from bot.render.trick import (
    GRID_TEXT,
    GRID_W,
    GRID_X,
    NOTE,
    NOTE_ROOM,
    SeatInfo,
    TrickLayout,
    draw_score_grid,
    draw_trick_table,
    grid_layout,
    needs_tall,
    note_fits,
    trick_layout,
)
from bot.render.trick import SMALL as SMALL_TRICK
from bot.render.trick import name_room as trick_name_room
from engine.tichu.view import Call, DealResult, TichuView
from engine.trick import by_suit

SHADOW = (0, 0, 0, 150)


@dataclass(frozen=True, slots=True)
class Drawn:
    """One text drawn on an image."""

    xy: tuple[float, float]
    text: str
    font: ImageFont.FreeTypeFont
    anchor: str
    fill: Any
    on: tuple[int, int] = (0, 0)
    """The size of the image it was drawn on."""

    @property
    def box(self) -> Box:
        left, top, right, bottom = self.font.getbbox(self.text, anchor=self.anchor)
        return (self.xy[0] + left, self.xy[1] + top, self.xy[0] + right, self.xy[1] + bottom)

    @property
    def size(self) -> int:
        return int(self.font.size)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every text drawn while the test runs (drop shadows left out)."""
    calls: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        fill = kwargs.get("fill", args[0] if args else None)
        if fill != SHADOW:
            calls.append(Drawn((float(xy[0]), float(xy[1])), str(text), kwargs["font"],
                               kwargs.get("anchor") or "la", fill, tuple(self.im.size)))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield calls


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def texts(calls: list[Drawn]) -> list[str]:
    return [c.text for c in calls]


# --- the helpers ----------------------------------------------------------------------

def test_fit_keeps_a_text_that_fits_exactly() -> None:
    name = "Maximilian Hohenstein"
    width = text_width(name, 24, "bold")
    assert fit(name, width, 24, "bold") == name
    assert fit_size(name, width, 24, "bold", 20) == (name, 24)
    cut = fit(name, width - 1, 24, "bold")
    assert cut.endswith("…") and text_width(cut, 24, "bold") <= width - 1


def test_fit_size_shrinks_before_it_cuts() -> None:
    name = "Maximilian Hohenstein"
    room = text_width(name, 21, "bold")
    assert fit_size(name, room, 24, "bold", 20) == (name, 21)
    text, size = fit_size(name, text_width(name, 20, "bold") - 1, 24, "bold", 20)
    assert size == 20 and text.endswith("…")
    assert text_width(text, size, "bold") <= text_width(name, 20, "bold") - 1
    assert fit_size(name, 10, 24, "bold", 8)[1] == 18  # never under the smallest text


def test_a_label_takes_its_short_form_before_anything_is_cut() -> None:
    full, short = label("el", "last_trick"), short_label("el", "last_trick")
    assert short is not None
    room = text_width(short, SMALL, "bold") + 1
    assert text_width(full, SMALL, "bold") > room
    assert fit_label("el", "last_trick", room, SMALL, "bold") == (short, SMALL, "bold")
    assert fit_label("el", "last_trick", 1000, SMALL, "bold").text == full
    # narrower before shorter, when the caller allows it
    condensed = text_width(full, SMALL, "condensed-bold")
    assert fit_label("el", "last_trick", condensed, SMALL, ("bold", "condensed-bold")) == (
        full, SMALL, "condensed-bold")


def test_a_label_cuts_the_name_in_it_never_its_own_words() -> None:
    name = "Maximilian Hohenstein-Eberstein"
    text, size, _ = fit_label("de", "leads", 400, 44, "bold", min_size=SMALL, free=("name",),
                              values={"name": name})
    assert text.endswith("… spielt aus") and text.startswith("Maxi") and size == SMALL
    assert text_width(text, SMALL, "bold") <= 400


def test_a_label_that_fits_nowhere_is_cut_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.render.labels"):
        text = fit_label("de", "exchange_hint", 120, SMALL, "bold").text
    assert text.endswith("…") and text_width(text, SMALL, "bold") <= 120
    assert "exchange_hint" in caplog.text


def test_a_title_cuts_the_names_in_it_first() -> None:
    title = "Runde 12 · Maximilian Hohenstein spielt allein für 120"
    room = text_width(title, SMALL, "bold") - 60
    text, size = fit_names(title, ["Maximilian Hohenstein", "Bob"], room, 44, "bold", SMALL)
    assert text.startswith("Runde 12 · Maximilian") and text.endswith("… spielt allein für 120")
    assert size == SMALL and text_width(text, size, "bold") <= room
    lines, whole = wrap_names("Mariagen: Maximilian Hohenstein ♥ 100", ["Maximilian Hohenstein"],
                              300, SMALL, "condensed-bold", 2)
    assert whole and lines[-1].endswith("♥ 100") and "…" in " ".join(lines)


def test_share_gives_a_long_name_the_room_a_short_one_leaves() -> None:
    assert share([10, 20], 100) == [10, 20]
    widths = share([30, 300, 200], 400)
    assert widths[0] == 30 and widths[1] == widths[2] == 185
    assert sum(share([500, 500, 5], 300)) == pytest.approx(300)


# --- the table header -----------------------------------------------------------------

HEADER_CASES = [
    (ex.table_view(), ex.NAMES, (1234, -1020)),
    (ex.table_view(), ex.LONG_NAMES, (1135, -140)),
    (ex.table_view(), ex.LONG_NAMES, (-1020, 10650)),
    (ex.table_view(), ("A", "B", "C", "D"), (0, 0)),
    (ex.six_table_view(), ex.LONG_NAMES6, (10650, -1435)),
    (ex.six_table_view(), ex.NAMES6, (1065, -435)),
]


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize(("view", "names", "scores"), HEADER_CASES)
def test_header_texts_never_overlap(drawn: list[Drawn], view: TichuView,
                                    names: tuple[str, ...], scores: tuple[int, int],
                                    locale: str) -> None:
    view = replace(view, scores=scores)
    draw_table(view, names, locale)
    header = [c for c in drawn if c.box[3] <= HEADER_BOTTOM and c.on == SIZE]
    totals = [c for c in header if c.text != header_middle(view, locale, None)]
    assert len(totals) == 2, texts(header)
    assert len(header) == 3, texts(header)  # the totals and the deal and target
    for a, b in combinations(header, 2):
        grown = (a.box[0] - HEADER_GAP + 2, a.box[1], a.box[2] + HEADER_GAP - 2, a.box[3])
        assert not overlap(grown, b.box), (a.text, b.text)
    for call in header:
        assert call.box[0] >= 12 and call.box[2] <= layout(view.n_seats).width - 12
    assert "".join(t.text for t in totals).count("-") == 0  # a true minus sign


def test_header_middle_gives_way_before_the_totals_shrink() -> None:
    view = replace(ex.table_view(), scores=(10650, -14350), target=10000)
    middle, width, left, right = header_sides(view, "fr", layout(4).width)
    assert left.total == "10650" and right.total == "−14350"
    assert left.total_size == right.total_size == TOTAL_SIZE
    assert text_width(middle, SMALL, "bold") == width


# --- seat names -----------------------------------------------------------------------

def widest_fitting(room: float, size: int) -> str:
    """A name as wide as can be under ``room`` pixels at ``size``, bold."""
    name = "Wilhelmina"
    while text_width(name + "x", size, "bold") <= room:
        name += "x"
    return name


@pytest.mark.parametrize("n_seats", [4, 6])
def test_a_seat_name_that_fits_its_panel_is_drawn_whole(drawn: list[Drawn],
                                                        n_seats: int) -> None:
    view = ex.table_views()["grand"] if n_seats == 4 else ex.six_table_views()["grand"]
    base = ex.NAMES if n_seats == 4 else ex.NAMES6
    room = PANEL_W - SEAT_NAME_X - SEAT_PAD
    full = widest_fitting(room, 44)
    smaller = widest_fitting(room, SMALL)  # drawn whole at a smaller size
    names = [full, smaller, *base[2:]]
    draw_table(view, names)
    lay = layout(n_seats)
    for seat, name in enumerate(names[:2]):
        [call] = [c for c in drawn if c.text == name]
        assert inside(call.box, lay.panel_box(seat)), (name, call.box)
    assert next(c for c in drawn if c.text == full).size == 44
    assert SMALL <= next(c for c in drawn if c.text == smaller).size < 44


def test_a_name_too_long_for_its_panel_is_cut_inside_it(drawn: list[Drawn]) -> None:
    names = ["W" * 40, *ex.NAMES[1:]]
    draw_table(ex.table_views()["grand"], names)
    [call] = [c for c in drawn if c.text.startswith("WWW") and c.xy[1] > HEADER_BOTTOM]
    assert call.text.endswith("…") and call.size == SMALL
    box = layout(4).panel_box(0)
    assert call.box[2] <= box[2] - SEAT_PAD + 1


# --- out order, double and triple victories -------------------------------------------

def test_placings() -> None:
    double = DealResult(3, (0, 2), (200, 0), (0, 0), (None,) * 4, 0)
    assert placings(double, 4) == [(0, 1), (2, 2), (1, None), (3, None)]
    normal = DealResult(1, (0, 3, 2), (70, 30), (0, 0), (None,) * 4, None)
    assert placings(normal, 4) == [(0, 1), (3, 2), (2, 3), (1, 4)]
    triple = DealResult(2, (4, 0, 2), (300, 0), (0, 0), (None,) * 6, None, 0)
    assert [p for _, p in placings(triple, 6)] == [1, 2, 3, None, None, None]


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_a_double_victory_shows_no_third_or_fourth(drawn: list[Drawn], locale: str) -> None:
    draw_deal_summary(ex.deal_over_view(), ex.NAMES, locale)
    shown = texts(drawn)
    assert ordinal(locale, 1) in shown and ordinal(locale, 2) in shown
    assert ordinal(locale, 3) not in shown and ordinal(locale, 4) not in shown
    assert {"Bob", "Dmitri"} <= set(shown)  # the losers are still named


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_a_triple_victory_shows_no_fourth_to_sixth(drawn: list[Drawn], locale: str) -> None:
    draw_deal_summary(ex.six_deal_over_view(), ex.NAMES6, locale)
    shown = texts(drawn)
    assert [ordinal(locale, p) in shown for p in range(1, 7)] == [True] * 3 + [False] * 3


def test_a_deal_without_a_sweep_places_everyone(drawn: list[Drawn]) -> None:
    deal = DealResult(3, (3, 2, 0), (35, 65), (0, 200), (None,) * 4, None)
    view = replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], deal))
    draw_deal_summary(view, ex.NAMES)
    assert {"1st", "2nd", "3rd", "4th"} <= set(texts(drawn))


MEDIUM = ("Maximilian", "xXDragonSlayerXx", "Анастасия", "bob")
MEDIUM6 = ("Wilhelmina", "xXDragonSlayerXx", "Анастасия", "bob", "Eve", "Jean-Luc")
NO_SWEEP = replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], DealResult(
    3, (3, 2, 0), (35, 65), (0, 200), (None,) * 4, None)))
CALLS = replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], DealResult(
    3, (1, 0, 2), (45, 55), (-300, 100), (Call.TICHU, Call.TICHU, Call.GRAND_TICHU, None),
    None)))
"""A deal where three of four seats called: Bob's Tichu made, Alice's and Chloé's lost."""


def out_rows(calls: list[Drawn]) -> list[Drawn]:
    """The texts of the out order, under the scoreboard."""
    return [c for c in calls if c.box[1] > OUT_TOP]


def condensed(call: Drawn) -> bool:
    return "Condensed" in str(call.font.path)


@pytest.mark.parametrize(("view", "names"), [
    (ex.deal_over_view(), MEDIUM), (NO_SWEEP, MEDIUM), (CALLS, ex.LONG_NAMES),
    (ex.deal_over_view(), ex.LONG_NAMES),
    (ex.six_deal_over_view(), ex.NAMES6), (ex.six_deal_over_view(), MEDIUM6),
    (ex.six_deal_over_view(), ex.LONG_NAMES6),
])
@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_out_order_names_that_fit_their_row_are_drawn_whole(
        drawn: list[Drawn], view: TichuView, names: tuple[str, ...], locale: str) -> None:
    img = draw_deal_summary(view, names, locale)
    shown = out_rows(drawn)
    for name in names[:view.n_seats]:
        [call] = [c for c in shown if c.text == name]
        assert call.size >= LEAST and not condensed(call), name
    for a, b in combinations(shown, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    for call in shown:
        assert call.box[0] >= 24 and call.box[2] <= img.width - 24, call.text
        assert call.box[3] <= img.height - 24, call.text


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_out_order_rows_are_in_order_with_each_seats_call(drawn: list[Drawn],
                                                          locale: str) -> None:
    draw_deal_summary(CALLS, ex.NAMES, locale)
    rows = out_rows(drawn)
    names = sorted((c for c in rows if c.text in ex.NAMES), key=lambda c: c.xy[1])
    assert [c.text for c in names] == ["Bob", "Alice", "Chloé", "Dmitri"]
    medals = sorted((c for c in rows if c.text in [ordinal(locale, p) for p in range(1, 5)]),
                    key=lambda c: c.xy[1])
    assert [c.text for c in medals] == [ordinal(locale, p) for p in range(1, 5)]
    tichu, grand = label(locale, "tichu"), label(locale, "grand_tichu")
    said = {c.text: next(n.text for n in names if n.xy[1] == c.xy[1])
            for c in rows if c.text not in ex.NAMES and c not in medals}
    assert said == {f"{tichu} ✓ +100": "Bob", f"{tichu} ✗ −100": "Alice",
                    f"{grand} ✗ −200": "Chloé"}
    for text in said:
        [call] = [c for c in rows if c.text == text]
        assert call.fill == (GREEN if "✓" in text else RED), text


@pytest.mark.parametrize(("view", "names"), [
    (CALLS, ("W" * 40, "Bob", "M" * 40, "Dmitri")),
    (ex.six_deal_over_view(), (*ex.NAMES6[:5], "Farid " + "Q" * 40))])
def test_out_order_cuts_a_name_only_when_its_row_is_full(
        drawn: list[Drawn], view: TichuView, names: tuple[str, ...]) -> None:
    img = draw_deal_summary(view, names, "fr")
    rows = out_rows(drawn)
    cut = [c for c in rows if c.text.endswith("…")]
    assert cut and all(c.size == LEAST and condensed(c) for c in cut)  # narrower first
    for a, b in combinations(rows, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    for c in cut:
        right = min((o.box[0] for o in rows if o.xy[1] == c.xy[1] and o.box[0] > c.box[2]),
                    default=img.width - 24)
        assert right - 80 <= c.box[2] <= right - 24, c.text  # little room lost


def test_the_scoreboard_gives_both_teams_every_figure(drawn: list[Drawn]) -> None:
    view = ex.deal_over_view()
    deal = view.last_deal
    assert deal is not None
    img = draw_deal_summary(view, ex.NAMES)
    board = [c for c in drawn if c.box[3] < OUT_TOP]
    for a, b in combinations(board, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    rows: dict[float, list[str]] = {}
    for c in board:
        rows.setdefault(c.xy[1], []).append(c.text)
    assert ["Alice & Chloé", "Bob & Dmitri"] in rows.values()
    assert ["+200", "0", "Card points"] in rows.values()
    assert ["+100", "−200", "Call bonus"] in rows.values()
    assert ["+300", "−200", "Deal score"] in rows.values()
    assert [str(view.scores[0]), "−15", "Total"] in rows.values()
    left = [c for c in board if c.text in ("+200", "+100", "+300", "715")]
    assert all(c.box[2] < img.width / 2 for c in left)  # the first team on the left


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize("n_seats", [4, 6])
def test_medals_hold_their_ordinal_clear_of_the_rim(locale: str, n_seats: int) -> None:
    width = medal_width(locale, n_seats)
    for place in range(1, n_seats + 1):
        assert text_width(ordinal(locale, place), LEAST, "bold") + 24 <= width


def test_summary_medal_ordinals_sit_inside_their_medals(drawn: list[Drawn]) -> None:
    draw_deal_summary(NO_SWEEP, ex.NAMES)
    width = medal_width("en", 4)
    medals = [c for c in drawn if c.text in ("1st", "2nd", "3rd", "4th")]
    assert len(medals) == 4
    for call in medals:
        assert call.box[2] - call.box[0] <= width - 24, call.text
        assert call.box[3] - call.box[1] <= MEDAL_H - 12, call.text


# --- game over ------------------------------------------------------------------------

def test_game_over_lists_the_winners_first(drawn: list[Drawn]) -> None:
    view = ex.six_game_over_second_view()
    assert view.winner == 1 and view.scores == (-60, 560)
    assert sheet_teams(view) == (1, 0)
    draw_game_over(view, ex.NAMES6)
    heads = {c.text: c.xy[0] for c in drawn}
    assert heads["Bob, Dmitri & Farid"] < heads["Alice, Chloé & Eve"]
    totals = [c for c in drawn if c.text in ("560", "−60") and c.size > LEAST + 10]
    assert [c.text for c in sorted(totals, key=lambda c: c.xy[0])] == ["560", "−60"]


def test_no_hyphen_for_a_minus_anywhere(drawn: list[Drawn]) -> None:
    draw_game_over(ex.six_game_over_second_view(), ex.NAMES6)
    draw_deal_summary(ex.deal_over_view(), ex.NAMES)
    draw_table(replace(ex.table_view(), scores=(1234, -1020)), ex.NAMES)
    draw_trick_table(ex.long_trick_seats(), ex.TRICK, leader=1)
    for call in drawn:
        assert not re.search(r"(^|[\s(])-\d", call.text), call.text


def test_game_over_team_headers_use_more_lines_rather_than_cut() -> None:
    lines, _, _ = team_header(ex.LONG_NAMES, 0, 4, TEAM_HEADER_W)
    assert lines == ["Maximilian Hohenstein", "& Анастасия Петрова"]
    assert team_header(ex.NAMES6, 0, 6, TEAM_HEADER_W) == (["Alice, Chloé & Eve"], 40, "bold")
    assert team_header(ex.LONG_NAMES6, 1, 6, TEAM_HEADER_W)[0] == [
        "xX_DragonSlayer_Xx,", "Jean-Christophe", "& Σωκράτης"]
    lines, size, weight = team_header(ex.LONG_NAMES6, 0, 6, TEAM_HEADER_W)
    assert len(lines) == 3 and size == LEAST and weight == "condensed-bold"
    assert lines[1] == "Анастасия Петрова"  # only the lines too long alone are cut
    for line in lines:
        assert text_width(line, LEAST, weight) <= TEAM_HEADER_W


@pytest.mark.parametrize(("view", "names", "locale"), [
    (ex.game_over_view(), ex.NAMES, "en"), (ex.game_over_view(), ex.LONG_NAMES, "fr"),
    (ex.six_game_over_view(), ex.LONG_NAMES6, "fr"), (ex.long_game_over_view(), ex.NAMES, "en"),
    (ex.six_game_over_second_view(), ex.NAMES6, "fr")])
def test_game_over_texts_keep_to_their_room(drawn: list[Drawn], view: TichuView,
                                            names: tuple[str, ...], locale: str) -> None:
    img = draw_game_over(view, names, locale)
    assert img.height <= MAX_H
    for a, b in combinations(drawn, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    for call in drawn:
        assert call.box[0] >= 24 and call.box[2] <= img.width - 24, call.text
        assert call.box[3] <= img.height - 24, call.text


def test_a_long_game_folds_its_first_deals_into_one_row(drawn: list[Drawn]) -> None:
    view = ex.long_game_over_view()
    assert len(view.history) == 20
    _, most, height = game_over_layout(view, ex.NAMES)
    assert most < 20 and height <= MAX_H
    rows = sheet_rows(view.history, most)
    assert len(rows) == most and rows[0].folded and not any(r.folded for r in rows[1:])
    assert [r.name for r in rows] == [f"1–{21 - most}", *map(str, range(22 - most, 21))]
    assert rows[0].totals == rows[0].scores  # the folded deals' total is their sum
    assert rows[-1].totals == view.scores
    for before, row in pairwise(rows):
        assert tuple(a + s for a, s in zip(before.totals, row.scores, strict=True)) \
            == row.totals
    draw_game_over(view, ex.NAMES)
    shown = texts(drawn)
    assert rows[0].name in shown and "20" in shown and "1715" in shown


def test_game_over_stars_the_deals_won_double(drawn: list[Drawn]) -> None:
    view = ex.game_over_view()
    draw_game_over(view, ex.NAMES)
    stars = [c for c in drawn if c.text == "★"]
    assert len(stars) == sum(d.sweep is not None for d in view.history) == 3
    scores = {c.xy[1]: c for c in drawn if c.text in ("+200", "+300", "+400")}
    for star in stars:
        assert scores[star.xy[1]].box[0] > star.box[2]  # just before the deal's score


# --- leaderboard, Chinois table, exchange ---------------------------------------------

def board_rows(calls: list[Drawn]) -> list[list[Drawn]]:
    """The texts of a leaderboard by line (the column titles first), left to right."""
    rows: dict[float, list[Drawn]] = {}
    for call in calls:
        rows.setdefault(call.xy[1], []).append(call)
    return [sorted(rows[y], key=lambda c: c.box[0]) for y in sorted(rows)]


def test_leaderboard_names_stop_before_the_ratings(drawn: list[Drawn]) -> None:
    render_leaderboard(ex.BOARD_HEADERS, ex.BOARD, ex.BOARD_OWN)
    head, *lines = board_rows(drawn)
    assert [c.text for c in head] == list(ex.BOARD_HEADERS)
    assert len(lines) == len(ex.BOARD) + 1  # and the caller's own line, under a gap
    for line, row in zip((*ex.BOARD, ex.BOARD_OWN), lines, strict=True):
        rank, name, rating, *_ = row
        assert rank.text == str(line.rank)
        assert name.box[2] + GAP <= rating.box[0], (name.text, rating.text)
        assert all(a.box[2] < b.box[0] for a, b in pairwise(row)), row
    shown = texts(drawn)
    assert "Γιώργος" in shown and "−1.8" in shown and "night_owl" in shown
    assert "Maximilian von Hohenstein-Eberstein" not in shown  # too long: cut, not clipped
    assert any(t.startswith("Maximilian") and t.endswith("…") for t in shown)
    assert min(c.size for c in drawn) >= SMALLEST


def test_leaderboard_name_that_fits_is_not_cut(drawn: list[Drawn]) -> None:
    lines = [BoardLine(1, "x", 3.1, 1, 1.0)]
    room = board_layout(ex.BOARD_HEADERS, lines).name_room
    name = widest_fitting(room, CELL)
    render_leaderboard(ex.BOARD_HEADERS, [BoardLine(1, name, 3.1, 1, 1.0)])
    shown = next(c for c in drawn if c.text == name)
    assert shown.size == CELL
    rating = next(c for c in drawn if c.text == "3.1")
    assert shown.box[2] + GAP <= rating.box[0]


def test_a_leaderboard_name_shrinks_before_it_is_cut(drawn: list[Drawn]) -> None:
    lines = [BoardLine(1, "x", 3.1, 1, 1.0)]
    room = board_layout(ex.BOARD_HEADERS, lines).name_room
    name = widest_fitting(room - 4, SMALLEST)
    assert text_width(name, CELL, "bold") > room
    render_leaderboard(ex.BOARD_HEADERS, [BoardLine(1, name, 3.1, 1, 1.0)])
    shown = next(c for c in drawn if c.text == name)
    assert SMALLEST <= shown.size < CELL


@pytest.mark.parametrize("headers", [
    ("#", "Joueur", "Classement", "Parties", "% gagnées"),
    ("#", "Spieler", "Wertung", "Spiele", "Siege %"),
    ex.DAILY_HEADERS,
])
def test_leaderboard_column_titles_never_overlap(drawn: list[Drawn],
                                                 headers: tuple[str, ...]) -> None:
    render_leaderboard(headers, ex.BOARD, ex.BOARD_OWN)
    head, *lines = board_rows(drawn)
    assert all(a.box[2] + 8 <= b.box[0] for a, b in pairwise(head)), head
    assert all(c.box[2] <= BOARD_W - 16 for c in drawn)
    names = [row[1] for row in lines]
    assert "Γιώργος" in texts(names)
    assert min(text_width(n.text, n.size, "bold") for n in names) > 0


@pytest.mark.parametrize(("lang", "board"), [(lang, board) for lang in LANGUAGES
                                             for board in ("global", "server")])
def test_a_leaderboard_names_its_scope_over_its_titles(drawn: list[Drawn], lang: str,
                                                       board: str) -> None:
    """The global board or a server's (issue 53): a band over the column titles says
    which, whole at the lines' size in every language; the titles and lines are those of
    the board without it, lower down."""
    scope = t(lang, f"leaderboard.scope.{board}")
    png = render_leaderboard(ex.BOARD_HEADERS, ex.BOARD, ex.BOARD_OWN, scope)
    band, head, *lines = board_rows(drawn)
    assert [c.text for c in band] == [scope] and band[0].size == CELL
    assert [c.text for c in head] == list(ex.BOARD_HEADERS)
    assert len(lines) == len(ex.BOARD) + 1
    assert band[0].box[3] < min(c.box[1] for c in head)
    height = Image.open(io.BytesIO(png)).height
    assert height == board_height(len(ex.BOARD), True, True) == \
        board_height(len(ex.BOARD), True) + SCOPE_H


def test_a_leaderboard_holds_a_page_and_the_callers_line() -> None:
    page = [BoardLine(i + 1, f"player{i}", 30.0 - i, 10, 0.5) for i in range(BOARD_ROWS)]
    render_leaderboard(ex.BOARD_HEADERS, page, ex.BOARD_OWN)
    with pytest.raises(ValueError, match="holds"):
        render_leaderboard(ex.BOARD_HEADERS, [*page, page[0]], None)


TYSIACHA_NOTES = [
    SeatInfo("Анастасия Петрова", tricks=8, points=-120, note="barrel: 2 left"),
    SeatInfo("Maximilian Hohenstein", tricks=0, points=1000, note="solo 120 · ♣",
             is_turn=True),
    SeatInfo("Γεώργιος", tricks=1, points=-35, note="passed"),
]
"""Tysiacha notes that need a fourth line of the side panels (each fits a panel whole, as
Tysiacha's table makes them, see :func:`note_fits`)."""
TRICK_TABLES: dict[str, tuple[list[SeatInfo], dict[str, Any]]] = {
    "four": (ex.trick_seats(), {"trick": ex.TRICK, "leader": 1, "winner": 2,
                                "trump_card": ex.TRICK_TRUMP_CARD,
                                "header": "Chinois · Round 5 (7 cards)"}),
    "three": (ex.three_seats(), {"trick": ex.THREE_TRICK, "leader": 1, "trump_suit": 2,
                                 "clockwise": True, "footer": "Contrat : 120 (Alice)"}),
    "long": (ex.long_trick_seats(), {"trick": ex.TRICK, "leader": 1,
                                     "trump_suit": ex.TRICK_TRUMP_SUIT}),
    "max": (ex.max_trick_seats(), {"trick": ex.MAX_TRICK, "leader": 1, "winner": 1,
                                   "trump_card": ex.cards("7s")[0], "clockwise": True,
                                   "header": "Donne 12/28 · cartes : 12 · montée",
                                   "footer": "Paris 13 pour 12 plis"}),
    "notes": ([replace(TYSIACHA_NOTES[0], is_dealer=True), *TYSIACHA_NOTES[1:]], {"trick": ex.THREE_TRICK, "leader": 1, "trump_suit": 0,
                               "clockwise": True, "header": "Deal 3 · Maximilian plays solo",
                               "footer": "Marriages: Maximilian ♣ 100, Анастасия ♥ 60"}),
    "notes-four": ([SeatInfo("Sits out", points=40, note="sits out", is_dealer=True),
                    *TYSIACHA_NOTES], {"trick": [(2, ex.cards("Ah")[0])], "leader": 2,
                                       "trump_suit": 3, "clockwise": True}),
}
"""Trick tables of three and four seats: short and long names, every tag and corner,
notes that need a fourth line."""


def trick_table(case: str, locale: str) -> tuple[Image.Image, list[SeatInfo], TrickLayout]:
    """The table of ``case`` drawn, its seats, and its layout."""
    seats, kwargs = TRICK_TABLES[case]
    kwargs = dict(kwargs)
    trick = kwargs.pop("trick")
    img = draw_trick_table(seats, trick, locale=locale, **kwargs)
    clockwise = bool(kwargs.get("clockwise"))
    lay = trick_layout(len(seats), clockwise, needs_tall(seats, locale, clockwise))
    return img, seats, lay


def table_texts(calls: list[Drawn], img: Image.Image) -> list[Drawn]:
    """The texts drawn on the table itself (not those of its card tiles)."""
    return [c for c in calls if c.on == img.size]


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize("case", sorted(TRICK_TABLES))
def test_trick_table_texts_never_overlap_nor_cover_a_card(drawn: list[Drawn], case: str,
                                                          locale: str) -> None:
    img, _, lay = trick_table(case, locale)
    shown = table_texts(drawn, img)
    for a, b in combinations(shown, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    for call in shown:
        assert inside(call.box, (12, 10, img.width - 12, img.height - 12)), call.text
        for place in lay.places:
            assert not overlap(call.box, place.card_box), call.text
    for a, b in combinations([p.panel_box for p in lay.places]
                             + [lay.trump_box, lay.footer_box], 2):
        assert not overlap(a, b)


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize("case", sorted(TRICK_TABLES))
def test_trick_table_seat_texts_stay_in_their_panel(drawn: list[Drawn], case: str,
                                                    locale: str) -> None:
    img, seats, lay = trick_table(case, locale)
    shown = table_texts(drawn, img)
    for seat, place in zip(seats, lay.places, strict=True):
        x0, y0, x1, y1 = place.panel_box
        mine = [c for c in shown if overlap(c.box, place.panel_box)]
        for call in mine:
            assert inside(call.box, (x0 + SEAT_PAD - 4, y0, x1 - SEAT_PAD + 1, y1)), call.text
        names = [c for c in mine if c.text == seat.name or (
            c.text.endswith("…") and seat.name.startswith(c.text[:-1]))]
        assert len(names) == 1, (seat.name, texts(mine))
        # the bid and the tricks, the points and the note: never left out nor cut
        shown_text = " ".join(texts(mine))
        points = label(locale, "points_n", n=number(seat.points or 0))
        assert points in shown_text, shown_text
        assert f" {seat.tricks}" in shown_text
        if seat.bid is not None:
            assert f" {seat.bid} " in f"{shown_text} ", shown_text
        if seat.note:
            assert note_fits(seat.note) and seat.note in texts(mine), shown_text


def test_chinois_names_keep_clear_of_the_dealer_tag(drawn: list[Drawn]) -> None:
    img = draw_trick_table(ex.long_trick_seats(), ex.TRICK, leader=1)
    shown = table_texts(drawn, img)
    dealer = next(c for c in shown if c.text == "D")
    name = next(c for c in shown if c.text.startswith("Maximilia"))
    assert name.text.endswith("…") and name.size == SMALL_TRICK
    assert name.box[2] + 12 <= dealer.box[0]
    assert abs((name.box[1] + name.box[3]) / 2 - (dealer.box[1] + dealer.box[3]) / 2) < 8
    assert "−21 pts" in texts(shown)


@pytest.mark.parametrize("n_seats", [3, 4])
@pytest.mark.parametrize("dealer", [False, True])
def test_trick_table_seat_name_that_fits_is_drawn_whole(drawn: list[Drawn], n_seats: int,
                                                        dealer: bool) -> None:
    lay = trick_layout(n_seats)
    seats = []
    for i, place in enumerate(lay.places):
        seat = SeatInfo("x", bid=1, tricks=0, points=3, is_dealer=dealer, is_turn=i == 1)
        _, room = trick_name_room(seat, "en", place.panel_box[2] - place.panel_box[0])
        size = 44 if i % 2 else SMALL_TRICK  # whole at full size, or whole made smaller
        name = f"{i} Wil"
        while text_width(name + "x", size, "bold") <= room:
            name += "x"
        seats.append(SeatInfo(name, bid=1, tricks=0, points=3, is_dealer=dealer,
                              is_turn=i == 1))
    img = draw_trick_table(seats, [], leader=None)
    shown = table_texts(drawn, img)
    for i, seat in enumerate(seats):
        [call] = [c for c in shown if c.text == seat.name]
        assert (call.size == 44) if i % 2 else (SMALL_TRICK <= call.size < 44), call.size


def test_a_note_that_fits_is_drawn_whole_in_every_panel(drawn: list[Drawn]) -> None:
    note = widest_fitting(NOTE_ROOM - 20, SMALL_TRICK)
    while not note_fits(note):
        note = note[:-1]
    assert not note_fits(note + "xx")
    for n_seats in (3, 4):
        seats = [SeatInfo(f"S{i}", tricks=10, points=-1000, note=note, is_dealer=i == 0)
                 for i in range(n_seats)]
        img = draw_trick_table(seats, [], leader=0)
        assert texts(table_texts(drawn, img)).count(note) == n_seats
        drawn.clear()


def test_six_seat_exchange_names_use_the_room_between_slots(drawn: list[Drawn]) -> None:
    names = list(ex.NAMES6)
    names[1] = names[5] = "Wilhelmina F."  # Dmitri's partners (seats 1 and 5)
    draw_exchange(ex.six_exchange_view(), None, None, None, names)
    whole = [c for c in drawn if c.text == "Wilhelmina F."]
    assert len(whole) == 2 and whole[0].size == 44
    assert whole[0].box[2] - whole[0].box[0] > HAND_CARD_W  # wider than its card
    assert not overlap(whole[0].box, whole[1].box)


# --- French hand and prikup -----------------------------------------------------------

@pytest.mark.parametrize("n", [1, 7, 10, 13])
def test_french_hand_numbers_every_card_under_its_index(drawn: list[Drawn], n: int) -> None:
    cards = ex.FRENCH_MAX[:n]
    img = draw_french_hand(cards, key=by_suit, playable=cards[:2], title="Atout : 7♠",
                           locale="fr")
    shown = [c for c in drawn if c.on == img.size]
    numbers = [c for c in shown if c.text.isdigit()]
    assert [c.text for c in numbers] == [str(i + 1) for i in range(n)]
    for a, b in pairwise(numbers):
        # a step wide enough that each card's corner index (a fifth of its width) shows
        assert b.xy[0] - a.xy[0] >= 0.25 * FRENCH_CARD_W, (a.text, b.text)
        assert a.box[2] < b.box[0]
    header = [c for c in shown if c.box[3] <= 72]
    assert len(header) == 1 and header[0].size >= FRENCH_SMALL
    assert header[0].text.startswith("Votre main · ") and not header[0].text.endswith("…")


def test_a_long_prikup_title_takes_two_lines_and_keeps_the_bid(drawn: list[Drawn]) -> None:
    prikup = tuple(int(c) for c in ex.cards("Ah Ts Qd"))
    title = "Donne 3 · le prikup, pris par Анастасия Петрова à 120"
    render_prikup(prikup, title)
    lines = [c for c in drawn if c.fill == TEXT_COLOR]
    assert len(lines) == 2 and " ".join(c.text for c in lines) == title
    assert all(c.size == FRENCH_SMALL for c in lines)
    assert lines[0].box[3] < lines[1].box[1]
    drawn.clear()
    render_prikup(prikup, "Prikup")
    assert [(c.text, c.size) for c in drawn if c.fill == TEXT_COLOR] == [("Prikup", 44)]


# --- score grid -------------------------------------------------------------------------

def grid_cells(calls: list[Drawn]) -> list[list[Drawn]]:
    """The texts of a score grid by row (title, column titles, rows, footer), left to
    right."""
    rows: dict[float, list[Drawn]] = {}
    for call in calls:
        rows.setdefault(call.xy[1], []).append(call)
    return [sorted(rows[y], key=lambda c: c.box[0]) for y in sorted(rows)]


def test_a_long_game_shows_its_latest_rounds_and_totals(drawn: list[Drawn]) -> None:
    columns, rows, exact = ex.chinois_sheet(ex.LONG_NAMES, ex.LONG_PLAYS)
    img = draw_score_grid(columns, rows, title="Final score sheet", highlight_cells=exact,
                          total_row=True, footer="Each cell: bid/tricks and the running total.")
    shown = texts(drawn)
    assert shown.count("Total") == 1 and "28" in shown
    folded = next(t for t in shown if t.startswith("1–"))
    first = int(folded[2:]) + 1  # the rounds after the folded ones are all drawn
    assert all(str(r) in shown for r in range(first, 29))
    assert str(first - 1) not in [c.text for c in drawn if c.xy[0] < 100]
    for total in rows[-1][1:]:  # the totals, and each cell's running total, whole
        assert total in shown
    assert all(c.size >= GRID_TEXT for c in drawn)
    assert img.width <= GRID_W and img.height <= 890


def test_grid_texts_keep_to_their_cells(drawn: list[Drawn]) -> None:
    columns, rows, exact = ex.chinois_sheet(ex.LONG_NAMES, ex.LONG_PLAYS)
    img = draw_score_grid(columns, rows, title="t" * 80, highlight_cells=exact,
                          total_row=True)
    for row in grid_cells(drawn):
        assert all(a.box[2] <= b.box[0] for a, b in pairwise(row)), texts(row)
        assert all(c.box[0] >= GRID_X and c.box[2] <= img.width - GRID_X for c in row), row
    # the long names are cut, and say so; a short one is whole
    heads = texts(drawn)
    assert "Анастасия" in heads and "Петрова" in heads
    assert any(t.endswith("…") for t in heads)


def test_grid_notes_are_left_out_before_a_figure_is_cut(drawn: list[Drawn]) -> None:
    wide = [f"{b}/{b}{NOTE}{-1000 * b - 999}".replace("-", "−") for b in (10, 11, 12, 13)]
    columns = ["Round", *ex.LONG_NAMES]
    at = grid_layout(columns, [["1", *wide]])
    assert not at.notes
    draw_score_grid(columns, [["1", *wide]], title="t")
    shown = texts(drawn)
    for cell in wide:
        note, figure = cell.split(NOTE)
        assert figure in shown and note not in shown
    at = grid_layout(columns, [["1", *(f"1/1{NOTE}5" for _ in range(4))]])
    assert at.notes


def test_grid_figures_are_never_cut(drawn: list[Drawn]) -> None:
    columns = [f"Player {i}" for i in range(12)]
    figures = [str(i * 1000 + 999) for i in range(12)]
    img = draw_score_grid(columns, [figures] * 3, title="t")
    shown = texts(drawn)
    assert all(f in shown for f in figures)
    assert img.width > GRID_W


def test_grid_folds_keep_the_highlights_of_the_rows_they_show(drawn: list[Drawn]) -> None:
    rows = [[str(i + 1), str(10 * i)] for i in range(30)] + [["Total", "290"]]
    draw_score_grid(["#", "Alice"], rows, title="t", highlight_cells={(29, 1), (0, 1)},
                    total_row=True)
    chips = [c for c in drawn if c.fill == (24, 24, 28)]  # ink on a gold chip
    assert texts(chips) == ["290"]
    assert "Total" in texts(drawn) and "0" not in texts(drawn)


# --- every language: German and Greek words are longer ---------------------------------

LOCALES = ["en", "fr", "de", "el"]
STATUS_CHIPS = ("grand_tichu", "tichu", "deciding", "decided", "choosing", "gave",
                "passed", "out_1", "out_2", "out_3")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_status_chip_fits_a_seat_panel_alone(locale: str) -> None:
    """A chip that does not fit is cut; alone on its line, each chip fits whole (as the
    table draws them: :data:`SMALL` condensed bold, 10 px of padding each side)."""
    for key in STATUS_CHIPS:
        width = text_width(label(locale, key), SMALL, "condensed-bold") + 20
        assert width <= PANEL_W - 28, (key, label(locale, key))


HAND_HEADERS = [
    ex.hand_view(),  # a bomb and three cards received: the widest legend
    replace(ex.hand_view(), calls=(None, None, Call.GRAND_TICHU, None)),
    ex.six_hand_view(),
]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("view", HAND_HEADERS)
def test_hand_header_and_legend_texts_never_overlap(drawn: list[Drawn], view: TichuView,
                                                    locale: str) -> None:
    """The title (smaller, then cut), the call and the legend keep apart and inside."""
    img = draw_hand(view, locale)
    top = [c for c in drawn if c.on == img.size and c.box[3] <= 124]
    assert len(top) >= 3, texts(top)
    for a, b in combinations(top, 2):
        assert not overlap(a.box, b.box), (a.text, a.box, b.text, b.box)
    for call in top:
        assert call.box[0] >= 12 and call.box[2] <= img.width - 12, call.text


@pytest.mark.parametrize("locale", LOCALES)
def test_rating_chart_texts_never_overlap(drawn: list[Drawn], locale: str) -> None:
    for title in (t(locale, "ratings.chart"), "W" * 60):
        drawn.clear()
        render_rating_chart(title, [1.0, 2.5, 3.1],
                            t(locale, "ratings.chart_caption", games=1234))
        for a, b in combinations(drawn, 2):
            assert not overlap(a.box, b.box), (a.text, b.text)


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize("giver", ["Bo", "Maximilian Hohenstein-Eberstein", "Ωραιότατος Αλέξανδρος"])
def test_the_dragon_trick_to_give_is_said_in_the_middle_whole_or_by_its_short_form(
        drawn: list[Drawn], caplog: pytest.LogCaptureFixture, locale: str,
        giver: str) -> None:
    """As the engine shows it, the Dragon's trick is taken before it is given: the middle
    of the table says whose it is to give, within the trick's zone. A short name keeps the
    sentence whole; a long one is cut in it, or shows alone (the label's short form), and
    nothing is logged as not fitting."""
    view = replace(ex.table_views()["gift"], trick=())
    names = ("Ann", "Cy", giver, "Dee")
    with caplog.at_level(logging.WARNING, logger="bot.render.labels"):
        draw_table(view, names, locale)
    assert "does not fit" not in caplog.text
    zone = layout(4).trick_zone
    middle = [c for c in drawn if c.on == SIZE and inside(c.box, zone)]
    assert {label(locale, "phase_gift"), short_label(locale, "phase_gift")} & set(texts(middle))
    sentence = label(locale, "phase_gift_detail", name=giver)
    if text_width(sentence, SMALL, "condensed-bold") <= zone[2] - zone[0] - 30:
        assert sentence in texts(middle)
    else:  # the name cut in the sentence, or the name alone
        assert any(c.text.startswith(giver[:4]) for c in middle), texts(middle)
    if locale == "en" and giver == "Bo":
        assert sentence in texts(middle)
    assert all(c.box[2] - c.box[0] <= zone[2] - zone[0] for c in middle)
