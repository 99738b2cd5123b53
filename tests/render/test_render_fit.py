"""Texts keep to their room: totals clear of team names in the table header, names cut
only when they do not fit the room they really have (measured with the font), out-order
medals wide enough for their ordinal, no place for the losers of a double or triple
victory, the winners first on the game-over sheet, and true minus signs.

A spy on ``ImageDraw.text`` records every text drawn with its font and anchor, so the
tests measure the boxes the images really have."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import pytest
from PIL import ImageDraw, ImageFont

from bot.i18n import t
from bot.render import examples as ex
from bot.render.draw import Box, fit, fit_size, share, text_width
from bot.render.hand import draw_exchange, draw_hand
from bot.render.labels import label, ordinal
from bot.render.ratings import BoardLine, name_room, render_leaderboard, render_rating_chart
from bot.render.summary import (
    draw_deal_summary,
    draw_game_over,
    medal_radius,
    placings,
    sheet_teams,
    team_header,
)
from bot.render.table import (
    HEADER_BOTTOM,
    PANEL_W,
    SEAT_NAME_X,
    SEAT_PAD,
    draw_table,
    header_sides,
    layout,
)
from bot.render.trick import SeatInfo, draw_trick_table
from engine.tichu.view import Call, DealResult, TichuView

SHADOW = (0, 0, 0, 150)


@dataclass(frozen=True, slots=True)
class Drawn:
    """One text drawn on an image."""

    xy: tuple[float, float]
    text: str
    font: ImageFont.FreeTypeFont
    anchor: str
    fill: Any

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
                               kwargs.get("anchor") or "la", fill))
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
    header = [c for c in drawn if c.box[3] <= HEADER_BOTTOM]
    totals = [c for c in header if c.size >= 24]
    assert len(totals) == 2, texts(header)
    for a, b in combinations(header, 2):
        assert not overlap(a.box, b.box), (a.text, a.box, b.text, b.box)
    for total in totals:  # at least a gap between a total and any other header text
        for other in header:
            if other is not total:
                grown = (total.box[0] - 12, total.box[1], total.box[2] + 12, total.box[3])
                assert not overlap(grown, other.box), (total.text, other.text)
    assert "".join(t.text for t in totals).count("-") == 0  # a true minus sign


def test_four_digit_total_clears_the_team_name_box() -> None:
    """The layout itself: the name's room ends before the total begins."""
    view = replace(ex.table_view(), scores=(1234, -1020))
    lay = layout(4)
    left, right = header_sides(view, ex.LONG_NAMES, "en", lay.width)
    left_total = left.total_edge - text_width(left.total, left.total_size, "bold")
    assert 56 + left.name_width < left_total
    assert text_width(left.name, left.name_size, "bold") <= left.name_width
    right_total = right.total_edge + text_width(right.total, right.total_size, "bold")
    assert lay.width - 56 - right.name_width > right_total
    assert right.total == "−1020"


def test_a_team_name_that_fits_beside_its_total_is_not_cut() -> None:
    names = ("Maximilian", "Bob", "Jean-Christophe", "Dmitri")
    side, _ = header_sides(replace(ex.table_view(), scores=(5, 0)), names, "en", 1000)
    assert side.name == "Maximilian & Jean-Christophe"  # wider than the former 290 px cut
    assert text_width(side.name, side.name_size, "bold") > 290


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
    full = widest_fitting(room, 24)
    smaller = widest_fitting(room, 20)  # drawn whole at a smaller size
    names = [full, smaller, *base[2:]]
    draw_table(view, names)
    lay = layout(n_seats)
    for seat, name in enumerate(names[:2]):
        [call] = [c for c in drawn if c.text == name]
        assert inside(call.box, lay.panel_box(seat)), (name, call.box)
    assert next(c for c in drawn if c.text == full).size == 24


def test_a_name_too_long_for_its_panel_is_cut_inside_it(drawn: list[Drawn]) -> None:
    names = ["W" * 40, *ex.NAMES[1:]]
    draw_table(ex.table_views()["grand"], names)
    [call] = [c for c in drawn if c.text.startswith("WWW") and c.xy[1] > HEADER_BOTTOM]
    assert call.text.endswith("…") and call.size == 20
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
"""Names the former fixed slots cut (``xXDragonSlayerXx``), that fit the line shared."""
MEDIUM6 = ("Wilhelmina", "xXDragonSlayerXx", "Анастасия", "bob", "Eve", "Jean-Luc")
NO_SWEEP = replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], DealResult(
    3, (3, 2, 0), (35, 65), (0, 200), (None,) * 4, None)))


def out_line(calls: list[Drawn]) -> list[Drawn]:
    """The texts of the out-order line, under the team panels."""
    return [c for c in calls if c.box[1] > 520]


@pytest.mark.parametrize(("view", "names"), [
    (ex.deal_over_view(), MEDIUM), (NO_SWEEP, MEDIUM),
    (ex.six_deal_over_view(), ex.NAMES6), (ex.six_deal_over_view(), MEDIUM6),
])
@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_out_order_names_that_fit_the_line_are_drawn_whole(
        drawn: list[Drawn], view: TichuView, names: tuple[str, ...], locale: str) -> None:
    img = draw_deal_summary(view, names, locale)
    shown = out_line(drawn)
    for name in names[:view.n_seats]:
        assert name in texts(shown), (name, texts(shown))
    for a, b in combinations(shown, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    for call in shown:
        assert call.box[0] >= 24 and call.box[2] <= img.width - 24, call.text


@pytest.mark.parametrize(("view", "names"), [
    (ex.deal_over_view(), ex.LONG_NAMES), (ex.six_deal_over_view(), ex.LONG_NAMES6)])
def test_out_order_cuts_names_only_when_the_line_is_full(
        drawn: list[Drawn], view: TichuView, names: tuple[str, ...]) -> None:
    img = draw_deal_summary(view, names, "fr")
    shown = [c for c in out_line(drawn) if c.text.rstrip("…") in " ".join(names)
             or c.text.endswith("…")]
    assert any(c.text.endswith("…") for c in shown)
    assert all(c.size == 18 for c in shown)  # every name made smaller before any is cut
    for a, b in combinations(shown, 2):
        assert not overlap(a.box, b.box), (a.text, b.text)
    left = min(c.box[0] for c in shown)
    right = max(c.box[2] for c in shown)
    used = sum(c.box[2] - c.box[0] for c in shown)
    assert right <= img.width - 24
    assert used >= 0.85 * (right - left) - 12 * len(shown), texts(shown)  # little room lost


@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
@pytest.mark.parametrize("n_seats", [4, 6])
def test_medals_hold_their_ordinal_clear_of_the_rim(locale: str, n_seats: int) -> None:
    radius = medal_radius(locale, n_seats)
    for place in range(1, n_seats + 1):
        assert text_width(ordinal(locale, place), 18, "bold") + 12 <= 2 * radius


def test_summary_medal_ordinals_sit_inside_their_medals(drawn: list[Drawn]) -> None:
    deal = DealResult(3, (3, 2, 0), (35, 65), (0, 200), (None,) * 4, None)
    view = replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], deal))
    draw_deal_summary(view, ex.NAMES)
    radius = medal_radius("en", 4)
    for call in drawn:
        if call.text in ("1st", "2nd", "3rd", "4th"):
            assert call.box[2] - call.box[0] <= 2 * radius - 12, call.text


# --- game over ------------------------------------------------------------------------

def test_game_over_lists_the_winners_first(drawn: list[Drawn]) -> None:
    view = ex.six_game_over_second_view()
    assert view.winner == 1 and view.scores == (-60, 560)
    assert sheet_teams(view) == (1, 0)
    draw_game_over(view, ex.NAMES6)
    heads = {c.text: c.xy[0] for c in drawn}
    assert heads["Bob, Dmitri & Farid"] < heads["Alice, Chloé & Eve"]
    totals = [c for c in drawn if c.text in ("560", "−60") and c.size == 26]
    assert [c.text for c in sorted(totals, key=lambda c: c.xy[0])] == ["560", "−60"]


def test_no_hyphen_for_a_minus_anywhere(drawn: list[Drawn]) -> None:
    draw_game_over(ex.six_game_over_second_view(), ex.NAMES6)
    draw_table(replace(ex.table_view(), scores=(1234, -1020)), ex.NAMES)
    draw_trick_table(ex.long_trick_seats(), ex.TRICK, leader=1)
    for call in drawn:
        assert not re.search(r"(^|[\s(])-\d", call.text), call.text


def test_game_over_team_headers_use_a_second_line_rather_than_cut() -> None:
    lines, _, _ = team_header(ex.LONG_NAMES, 0, 4)
    assert lines == ["Maximilian Hohenstein", "& Анастасия Петрова"]
    assert team_header(ex.NAMES6, 0, 6) == (["Alice, Chloé & Eve"], 20, "bold")


# --- leaderboard, Chinois table, exchange ---------------------------------------------

def test_leaderboard_names_stop_before_the_ratings(drawn: list[Drawn]) -> None:
    render_leaderboard("Tichu leaderboard", ex.BOARD_HEADERS, ex.BOARD, ex.BOARD_OWN, "p")
    rows: dict[float, list[Drawn]] = {}
    for call in drawn:
        rows.setdefault(call.xy[1], []).append(call)
    for line in (*ex.BOARD, ex.BOARD_OWN):
        row = next(r for r in rows.values() if any(c.text == str(line.rank) for c in r)
                   and len(r) == 5)
        name, rating = row[1], row[2]
        assert name.box[2] + 20 <= rating.box[0], (name.text, rating.text)
    shown = texts(drawn)
    assert "Γιώργος" in shown and "−1.8" in shown
    assert "Maximilian von Hohenstein-Eberstein" not in shown  # too long: cut, not clipped


def test_leaderboard_name_that_fits_is_not_cut(drawn: list[Drawn]) -> None:
    lines = [BoardLine(1, "x", 3.1, 1, 1.0)]
    room = name_room(lines)
    name = widest_fitting(room, 24)
    render_leaderboard("t", ex.BOARD_HEADERS, [BoardLine(1, name, 3.1, 1, 1.0)], None, "f")
    shown = next(c for c in drawn if c.text == name)
    assert shown.size == 24
    rating = next(c for c in drawn if c.text == "3.1")
    assert shown.box[2] + 20 <= rating.box[0]


def test_chinois_names_keep_clear_of_the_dealer_tag(drawn: list[Drawn]) -> None:
    draw_trick_table(ex.long_trick_seats(), ex.TRICK, leader=1)
    dealer = next(c for c in drawn if c.text == "Dealer")
    name = next(c for c in drawn if c.text.startswith("Maximilia"))
    assert name.box[2] + 12 <= dealer.box[0]
    shown = texts(drawn)
    assert "Jean-Christophe" in shown and "Анастасия Петрова" in shown
    assert "−21 pts" in shown


def test_trick_table_seat_name_that_fits_is_drawn_whole(drawn: list[Drawn]) -> None:
    name = widest_fitting(260 - 16 - 14, 24)
    seats = [SeatInfo(name), *ex.trick_seats()[1:]]
    draw_trick_table(seats, ex.TRICK, leader=1)
    assert name in texts(drawn)


def test_six_seat_exchange_names_use_the_room_between_slots(drawn: list[Drawn]) -> None:
    names = list(ex.NAMES6)
    names[1] = names[5] = "Wilhelmina Fairweather"  # Dmitri's partners (seats 1 and 5)
    draw_exchange(ex.six_exchange_view(), None, None, None, names)
    whole = [c for c in drawn if c.text == "Wilhelmina Fairweather"]
    assert len(whole) == 2 and whole[0].size == 22
    assert not overlap(whole[0].box, whole[1].box)


# --- every language: German and Greek words are longer ---------------------------------

LOCALES = ["en", "fr", "de", "el"]
STATUS_CHIPS = ("grand_tichu", "tichu", "deciding", "decided", "choosing", "gave",
                "must_give_dragon")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_status_chip_fits_a_seat_panel_alone(locale: str) -> None:
    """A seat's chips that do not fit beside the first are left out: the first always fits
    (as the table draws them: 18 px bold, 9 px of padding each side, 12 and 10 px in)."""
    for key in STATUS_CHIPS:
        assert text_width(label(locale, key), 18, "bold") + 18 <= PANEL_W - 22, key


HAND_HEADERS = [
    ex.hand_view(),  # a bomb and three cards received: the widest legend
    replace(ex.hand_view(), calls=(None, None, Call.GRAND_TICHU, None)),
    ex.six_hand_view(),
]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("view", HAND_HEADERS)
def test_hand_header_texts_never_overlap(drawn: list[Drawn], view: TichuView,
                                         locale: str) -> None:
    """The title (smaller, then cut) and the call keep clear of the legend."""
    img = draw_hand(view, locale)
    header = [c for c in drawn if c.box[3] <= 68]
    assert len(header) >= 3, texts(header)
    for a, b in combinations(header, 2):
        assert not overlap(a.box, b.box), (a.text, a.box, b.text, b.box)
    for call in header:
        assert call.box[0] >= 12 and call.box[2] <= img.width - 12, call.text
    title = min(header, key=lambda c: c.box[0])
    grown = (title.box[0], title.box[1], title.box[2] + 12, title.box[3])  # clear of chips
    assert not any(overlap(grown, c.box) for c in header if c is not title), title.text


@pytest.mark.parametrize("locale", LOCALES)
def test_trick_table_chips_stay_inside_their_panel(drawn: list[Drawn], locale: str) -> None:
    """A seat's note is cut to the room its points chip leaves in the panel."""
    note = "Wilhelmina Fairweather · ♥ ♦ ♣ ♠"
    seats = [SeatInfo(name, tricks=1, points=1000, note=note)
             for name in ("Alice", "Bob", "Chloé")]
    draw_trick_table(seats, ex.THREE_TRICK, leader=1, locale=locale)
    for seat in seats:
        name = next(c for c in drawn if c.text == seat.name)
        below = [c for c in drawn if name.box[0] - 30 < c.box[0] < name.box[0] + 260
                 and name.box[1] + 60 < c.box[1] < name.box[1] + 140]
        cut = next(c for c in below if c.text.endswith("…"))
        assert cut.box[0] >= name.box[0], (cut.text, cut.box, name.box)
        for a, b in combinations(below, 2):
            assert not overlap(a.box, b.box), (a.text, b.text)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_seats_bid_and_tricks_are_drawn_whole(drawn: list[Drawn], locale: str) -> None:
    """The longest line of bid and tricks (13 and 13) is drawn whole, smaller if need be."""
    seats = [SeatInfo(name, bid=13, tricks=13, points=-120) for name in ex.NAMES]
    draw_trick_table(seats, [], leader=0, locale=locale)
    line = label(locale, "bid_tricks", bid=13, tricks=13)
    assert [c.size for c in drawn if c.text == line] in ([20] * 4, [18] * 4), texts(drawn)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("family", "columns"), [
    ("ratings.col", ("rank", "name", "rating", "games", "rate")),
    ("daily.col", ("rank", "name", "score", "boards", "trend")),
])
def test_leaderboard_column_titles_never_overlap(drawn: list[Drawn], locale: str, family: str,
                                                 columns: tuple[str, ...]) -> None:
    """The column titles the bot writes (``Παρτίδες``, ``Ergebnis %`` …) keep apart."""
    headers = [t(locale, f"{family}.{column}") for column in columns]
    render_leaderboard("t", headers, ex.BOARD, None, "f")
    titles = [c for c in drawn if c.xy[1] == 92]
    assert len(titles) == 5, texts(titles)
    for a, b in combinations(titles, 2):
        grown = (a.box[0] - 6, a.box[1], a.box[2] + 6, a.box[3])
        assert not overlap(grown, b.box), (a.text, b.text)


@pytest.mark.parametrize("locale", LOCALES)
def test_rating_chart_title_keeps_clear_of_its_caption(drawn: list[Drawn], locale: str) -> None:
    for title in (t(locale, "ratings.chart"), "W" * 60):
        drawn.clear()
        render_rating_chart(title, [1.0, 2.5, 3.1],
                            t(locale, "ratings.chart_caption", games=1234))
        head = next(c for c in drawn if c.xy == (24.0, 30.0))
        caption = next(c for c in drawn if c.xy == (696.0, 30.0))
        assert head.box[2] + 16 <= caption.box[0], (head.text, caption.text)
        assert head.text == title or head.text.endswith("…")
