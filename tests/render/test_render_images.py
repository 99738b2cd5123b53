"""Every image decodes in the upload format, has its expected size, stays within its byte
budget, and refuses bad input."""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import bot.render as render
from bot.render import examples as ex
from bot.render.encoding import IMAGE_EXT, IMAGE_FORMAT, filename
from bot.render.hand import find_bombs, sorted_hand
from bot.render.seats import Side, seat_at, side_of
from bot.render.trick import SeatInfo
from engine.cards import parse_cards
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX

MAX_BYTES = 80 * 1024
"""Byte budget of every example image (the palette PNGs they replace weighed 100-180 KB)."""
TABLE_MAX_BYTES = 70 * 1024
"""The table image is re-uploaded after every action: it gets the tightest budget."""


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == IMAGE_FORMAT
    img.load()
    return img


def test_format_is_named_in_one_place() -> None:
    assert IMAGE_FORMAT == "WEBP" and IMAGE_EXT == "webp"
    assert filename("table") == "table.webp"
    assert render.filename is filename and render.IMAGE_EXT == IMAGE_EXT
    data = render.render_table(ex.table_view(), ex.NAMES)
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"


EXPECTED_SIZES = {
    "table": (1000, 860),
    "table-six": (1000, 1000),
    "hand": (1040, 470),
    "exchange": (1000, 540),
    "deal-summary": (1000, 660),
    "trick-table": (1000, 790),
}


@pytest.mark.parametrize("name", sorted(ex.gallery()))
def test_gallery_image_decodes_small_and_wide(name: str) -> None:
    data = ex.gallery()[name]()
    img = decode(data)
    assert img.width >= 800
    assert len(data) < MAX_BYTES, f"{name}: {len(data) // 1024} KB"
    if name.startswith("table"):
        assert len(data) < TABLE_MAX_BYTES, f"{name}: {len(data) // 1024} KB"
    stem = name.removesuffix("-fr").removesuffix("-de").removesuffix("-el")
    if stem in EXPECTED_SIZES:
        assert img.size == EXPECTED_SIZES[stem]


@pytest.mark.parametrize("phase", sorted(ex.table_views()))
@pytest.mark.parametrize("locale", ["en", "en-US", "fr", "fr_CA", "de", "el", "ja", ""])
def test_table_every_phase_and_locale(phase: str, locale: str) -> None:
    img = decode(render.render_table(ex.table_views()[phase], ex.NAMES, locale=locale))
    assert img.size == (1000, 860)


@pytest.mark.parametrize("phase", sorted(ex.six_table_views()))
@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_six_seat_table_every_phase(phase: str, locale: str) -> None:
    data = render.render_table(ex.six_table_views()[phase], ex.NAMES6, locale=locale)
    assert decode(data).size == (1000, 1000)
    assert len(data) < TABLE_MAX_BYTES


def test_table_needs_a_name_per_seat() -> None:
    with pytest.raises(ValueError):
        render.render_table(ex.table_view(), ex.NAMES[:3])
    with pytest.raises(ValueError):
        render.render_table(ex.six_table_view(), ex.NAMES)


@pytest.mark.parametrize("n_seats", [2, 3, 5, 8])
def test_table_refuses_other_seat_counts(n_seats: int) -> None:
    view = replace(ex.table_view(), n_seats=n_seats)
    with pytest.raises(ValueError):
        render.render_table(view, ex.NAMES6 + ex.NAMES6)


def test_table_survives_odd_names() -> None:
    names = ["", "A" * 80, "名前", "x\ny"]
    assert decode(render.render_table(ex.table_view(), names)).size == (1000, 860)


def test_hand_refuses_public_view() -> None:
    with pytest.raises(ValueError):
        render.render_hand(ex.table_view())


def test_exchange_refuses_public_view_and_short_names() -> None:
    left, partner, right = ex.EXCHANGE_CHOICE
    with pytest.raises(ValueError):
        render.render_exchange(ex.table_view(), left, partner, right, ex.NAMES)
    with pytest.raises(ValueError):
        render.render_exchange(ex.exchange_view(), left, partner, right, ex.NAMES[:2])


def test_six_seat_exchange_goes_to_the_two_partners_only() -> None:
    view = ex.six_exchange_view()
    card = view.hand[0]
    assert decode(render.render_exchange(view, card, None, None, ex.NAMES6)).size == (1000, 540)
    with pytest.raises(ValueError):
        render.render_exchange(view, None, card, None, ex.NAMES6)


def test_exchange_with_nothing_chosen() -> None:
    img = decode(render.render_exchange(ex.exchange_view(), None, None, None, ex.NAMES))
    assert img.size == (1000, 540)


def test_deal_summary_needs_a_finished_deal() -> None:
    with pytest.raises(ValueError):
        render.render_deal_summary(replace(ex.deal_over_view(), history=()), ex.NAMES)


def test_game_over_grows_with_history() -> None:
    short = decode(render.render_game_over(replace(ex.game_over_view(),
                                                   history=ex.HISTORY[:2]), ex.NAMES))
    long = decode(render.render_game_over(ex.game_over_view(), ex.NAMES))
    assert short.width == long.width == 1000
    assert long.height > short.height


def test_game_over_without_history_or_winner() -> None:
    view = replace(ex.game_over_view(), history=(), winner=None, scores=(0, 0))
    assert decode(render.render_game_over(view, ex.NAMES)).width == 1000


@given(st.lists(st.sampled_from(DECK), max_size=14, unique=True),
       st.lists(st.sampled_from(DECK), max_size=4, unique=True))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_hand_renders(cards: list, selected: list) -> None:
    view = replace(ex.hand_view(), hand=tuple(cards), received={})
    img = decode(render.render_hand(view, selected=selected))
    assert img.size == (1040, 470)


def test_sorted_hand_follows_the_menu_order() -> None:
    hand = parse_cards(["DRAGON", "As", "2c", "PHOENIX", "DOG", "MAHJONG", "2s", "Td"])
    assert [str(c) for c in sorted_hand(hand)] == [
        "DOG", "MAHJONG", "2c", "2s", "Td", "As", "PHOENIX", "DRAGON"]
    assert sorted_hand([DRAGON, PHOENIX, MAHJONG, DOG]) == [DOG, MAHJONG, PHOENIX, DRAGON]


def test_find_bombs() -> None:
    hand = parse_cards(["5c", "5d", "5h", "5s", "6s", "7s", "8s", "9s", "Ts", "2c", "3c", "4c",
                        "7c", "PHOENIX", "MAHJONG"])
    bombs = {(b.kind, frozenset(str(c) for c in b.cards)) for b in find_bombs(hand)}
    assert bombs == {
        ("four", frozenset({"5c", "5d", "5h", "5s"})),
        ("straight_flush", frozenset({"5s", "6s", "7s", "8s", "9s", "Ts"})),
    }
    assert find_bombs(parse_cards(["2c", "3c", "4c", "5c", "PHOENIX"])) == []


def test_sides_follow_play_order() -> None:
    assert side_of(0, 1) is Side.RIGHT
    assert side_of(0, 2) is Side.PARTNER
    assert side_of(0, 3) is Side.LEFT
    assert side_of(2, 1) is Side.LEFT
    for me in range(4):
        for side in (Side.LEFT, Side.PARTNER, Side.RIGHT):
            assert side_of(me, seat_at(me, side)) is side


def test_sides_with_six_seats() -> None:
    assert [side_of(0, s, 6) for s in range(6)] == [
        Side.SELF, Side.RIGHT, Side.PARTNER, Side.ACROSS, Side.PARTNER, Side.LEFT]
    assert [side_of(3, s, 6) for s in range(6)] == [
        Side.ACROSS, Side.PARTNER, Side.LEFT, Side.SELF, Side.RIGHT, Side.PARTNER]
    for me in range(6):
        for side in Side:
            assert side_of(me, seat_at(me, side, 6), 6) is side
        partners = {s for s in range(6) if side_of(me, s, 6) is Side.PARTNER}
        assert partners == {s for s in range(6) if s != me and s % 2 == me % 2}


def test_six_seat_hand_with_cards_from_both_partners() -> None:
    hand = ex.cards("DOG 3h 5c 5d 5h 5s 7s 8s 9s Ts Js PHOENIX")
    view = replace(ex.hand_view(), n_seats=6, hand=tuple(hand), hand_counts=(12,) * 6,
                   calls=(None,) * 6, received={0: hand[1], 4: hand[2]}, given={})
    assert decode(render.render_hand(view)).size == (1040, 470)


def test_trick_table_three_and_four_seats_only() -> None:
    seats = ex.trick_seats()
    assert decode(render.render_trick_table(seats, ex.TRICK, leader=1)).size == (1000, 790)
    assert decode(render.render_trick_table(seats[:3], [], leader=0, clockwise=True)).width == 1000
    with pytest.raises(ValueError):
        render.render_trick_table([*seats, SeatInfo("Eve")], [], leader=0)
    with pytest.raises(ValueError):
        render.render_trick_table(seats[:3], [(3, ex.TRICK[0][1])], leader=3)


def test_score_grid_width_follows_content() -> None:
    narrow = decode(render.render_score_grid(["a", "b"], [["1", "2"]], title="t"))
    wide = decode(render.render_score_grid([f"Player {i}" for i in range(12)],
                                           [[str(i * 100) for i in range(12)]] * 3, title="t"))
    assert narrow.width == 800
    assert 800 < wide.width <= 1600
    with pytest.raises(ValueError):
        render.render_score_grid([], [], title="t")


def test_async_wrappers_match_sync() -> None:
    async def both() -> tuple[bytes, bytes, bytes]:
        return (
            await render.render_table_async(ex.table_view(), ex.NAMES, locale="fr"),
            await render.render_hand_async(ex.hand_view(), selected=ex.HAND_SELECTED),
            await render.render_score_grid_async(ex.GRID_COLUMNS, ex.GRID_ROWS, title="x"),
        )

    table, hand, grid = asyncio.run(both())
    assert table == render.render_table(ex.table_view(), ex.NAMES, locale="fr")
    assert hand == render.render_hand(ex.hand_view(), selected=ex.HAND_SELECTED)
    assert grid == render.render_score_grid(ex.GRID_COLUMNS, ex.GRID_ROWS, title="x")


def test_concurrent_renders_match_sequential_ones() -> None:
    jobs = [lambda: render.render_table(ex.table_view(), ex.NAMES),
            lambda: render.render_hand(ex.hand_view(), selected=ex.HAND_SELECTED),
            lambda: render.render_table(ex.table_views()["grand"], ex.NAMES, locale="fr"),
            lambda: render.render_game_over(ex.game_over_view(), ex.NAMES)] * 3
    expected = [job() for job in jobs]
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda job: job(), jobs))
    assert results == expected


def test_renders_are_deterministic() -> None:
    for name in ("table", "hand", "game-over"):
        assert ex.gallery()[name]() == ex.gallery()[name]()
