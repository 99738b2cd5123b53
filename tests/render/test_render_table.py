"""The table image's layout: each seat's name in its own panel (four and six seats), the
last-trick strip only when a trick was taken, the last deal's score in the header, and
the six-seat deal summary and game-over sheet naming all three players of a team."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image, ImageChops

from bot.render import examples as ex
from bot.render import render_deal_summary, render_game_over
from bot.render.draw import Box
from bot.render.summary import deal_summary_height, draw_deal_summary, draw_game_over
from bot.render.table import HEADER_BOTTOM, Layout, _background, draw_table, layout
from engine.tichu.view import TichuView, TrickPlay


def changed(a: Image.Image, b: Image.Image, region: Box | None = None) -> Box | None:
    """The bounding box of the pixels that differ between ``a`` and ``b`` (in ``region``)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    if region is not None:
        mask = Image.new("L", diff.size, 0)
        mask.paste(255, tuple(round(v) for v in region))
        diff = ImageChops.multiply(diff, Image.merge("RGB", [mask] * 3))
    box = diff.getbbox()
    return None if box is None else tuple(float(v) for v in box)  # type: ignore[return-value]


def inside(inner: Box, outer: Box, margin: float = 1) -> bool:
    """Whether ``inner`` lies in ``outer`` (one pixel of slack: boxes are drawn inclusive)."""
    return (inner[0] >= outer[0] - margin and inner[1] >= outer[1] - margin
            and inner[2] <= outer[2] + margin and inner[3] <= outer[3] + margin)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def below_header(lay: Layout) -> Box:
    return (0, HEADER_BOTTOM, lay.width, lay.height)


@pytest.mark.parametrize("n_seats", [4, 6])
def test_layout_is_consistent(n_seats: int) -> None:
    lay = layout(n_seats)
    boxes = [lay.panel_box(s) for s in range(n_seats)]
    assert sorted(lay.panels) == list(range(n_seats))
    canvas: Box = (0, HEADER_BOTTOM, lay.width, lay.height)
    for box in [*boxes, lay.trick_zone, lay.last_trick_box]:
        assert inside(box, canvas, margin=0)
    for a, b in combinations([*boxes, lay.trick_zone, lay.last_trick_box], 2):
        assert not overlap(a, b), (a, b)
    # seat 0 at the bottom; play turns counter-clockwise (next seat on the right first)
    xs = [(b[0] + b[2]) / 2 for b in boxes]
    ys = [(b[1] + b[3]) / 2 for b in boxes]
    assert ys[0] == max(ys) and xs[1] > xs[0] and xs[-1] < xs[0]
    assert ys[n_seats // 2] == min(ys)


@pytest.mark.parametrize(("views", "names"), [
    (ex.table_views, ex.NAMES), (ex.six_table_views, ex.NAMES6)])
def test_each_seat_name_is_drawn_in_its_own_panel(views, names) -> None:  # type: ignore[no-untyped-def]
    view: TichuView = views()["grand"]  # no trick: names show only in panels and header
    lay = layout(view.n_seats)
    base = draw_table(view, names)
    for seat in range(view.n_seats):
        renamed = list(names)
        renamed[seat] = "Zoë Quill"
        box = changed(base, draw_table(view, renamed), below_header(lay))
        assert box is not None, f"seat {seat}'s name is not drawn"
        assert inside(box, lay.panel_box(seat)), (seat, box)


def test_last_trick_strip_only_when_a_trick_was_taken() -> None:
    view = ex.table_view()
    lay = layout(4)
    assert view.last_trick
    without = draw_table(replace(view, last_trick=(), last_trick_taker=None), ex.NAMES)
    strip = lay.last_trick_box
    empty = _background(4).crop(tuple(round(v) for v in strip))
    assert without.crop(tuple(round(v) for v in strip)).tobytes() == empty.tobytes()
    with_it = draw_table(view, ex.NAMES)
    box = changed(without, with_it)
    assert box is not None and inside(box, strip), box


def test_last_trick_strip_names_the_taker_and_the_tricks_points() -> None:
    view = ex.table_view()
    strip = layout(4).last_trick_box
    base = draw_table(view, ex.NAMES)
    other_taker = draw_table(replace(view, last_trick_taker=1), ex.NAMES)
    other_play = draw_table(replace(view, last_trick=(
        *view.last_trick[:-1], TrickPlay(3, ex.combo("Kd Kc")))), ex.NAMES)
    for other in (other_taker, other_play):
        box = changed(base, other)
        assert box is not None and inside(box, strip), box


def test_six_seat_last_trick_strip() -> None:
    view = ex.six_table_view()
    lay = layout(6)
    without = draw_table(replace(view, last_trick=(), last_trick_taker=None), ex.NAMES6)
    box = changed(without, draw_table(view, ex.NAMES6))
    assert box is not None and inside(box, lay.last_trick_box), box


@pytest.mark.parametrize(("view", "names"), [
    (ex.table_view(), ex.NAMES), (ex.six_table_view(), ex.NAMES6)])
def test_header_shows_the_totals(view: TichuView, names: tuple[str, ...]) -> None:
    """The totals change the header alone; the last deal's score is in the deal's summary
    (and the table's alt text), not on the table."""
    assert view.history
    lay = layout(view.n_seats)
    base = draw_table(view, names)
    box = changed(base, draw_table(replace(view, scores=(view.scores[0] + 100,
                                                         view.scores[1])), names))
    assert box is not None and box[3] <= HEADER_BOTTOM, box
    assert changed(base, draw_table(replace(view, history=view.history[:-1]), names),
                   below_header(lay)) is None


def _decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("draw", [draw_deal_summary, draw_game_over])
def test_six_seat_sheets_name_every_player(draw) -> None:  # type: ignore[no-untyped-def]
    view = ex.six_deal_over_view() if draw is draw_deal_summary else ex.six_game_over_view()
    base = draw(view, ex.NAMES6)
    for seat in range(6):
        renamed = list(ex.NAMES6)
        renamed[seat] = "Zoë Quill"
        assert changed(base, draw(view, renamed)) is not None, seat


def test_six_seat_deal_summary_out_order_of_five() -> None:
    deal = replace(ex.HISTORY6[0], out=(1, 0, 2, 4, 5))
    view = replace(ex.six_deal_over_view(), history=(*ex.HISTORY6[:2], deal))
    assert _decoded(render_deal_summary(view, ex.NAMES6)).size == (1100, deal_summary_height(6))
    over = replace(ex.six_game_over_view(), winner=None)
    assert _decoded(render_game_over(over, ex.NAMES6)).width == 1100


def test_a_table_of_duplicate_boards_names_the_board_instead_of_the_target() -> None:
    from bot.render.table import header_middle

    view = ex.table_view()
    assert header_middle(view, "en", None) == (f"Deal {view.deal_number + 1} · "
                                               f"Target {view.target}")
    assert header_middle(view, "en", 4) == f"Board {view.deal_number + 1} of 4"
    assert header_middle(view, "fr", 4) == f"Donne {view.deal_number + 1} sur 4"
    # Only the header's middle changes.
    base, boards = draw_table(view, ex.NAMES), draw_table(view, ex.NAMES, boards=4)
    box = ImageChops.difference(base.convert("RGB"), boards.convert("RGB")).getbbox()
    assert box is not None and box[3] <= 80
