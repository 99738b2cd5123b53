"""Every image decodes, has its expected size, stays small, and refuses bad input."""

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
from bot.render.hand import find_bombs, sorted_hand
from bot.render.seats import Side, seat_at, side_of
from bot.render.trick import SeatInfo
from engine.cards import parse_cards
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 200 * 1024


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


EXPECTED_SIZES = {
    "table": (1000, 860),
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
    stem = name.removesuffix("-fr")
    if stem in EXPECTED_SIZES:
        assert img.size == EXPECTED_SIZES[stem]


@pytest.mark.parametrize("phase", sorted(ex.table_views()))
@pytest.mark.parametrize("locale", ["en", "en-US", "fr", "fr_CA", "de", ""])
def test_table_every_phase_and_locale(phase: str, locale: str) -> None:
    img = decode(render.render_table(ex.table_views()[phase], ex.NAMES, locale=locale))
    assert img.size == (1000, 860)


def test_table_needs_a_name_per_seat() -> None:
    with pytest.raises(ValueError):
        render.render_table(ex.table_view(), ex.NAMES[:3])


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
