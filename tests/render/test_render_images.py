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
from bot.render.encoding import IMAGE_EXT, IMAGE_FORMAT, PANEL_EXT, PANEL_FORMAT, filename
from bot.render.french import HAND_W as FRENCH_W
from bot.render.french import HEIGHT as FRENCH_H
from bot.render.french import render_french_hand
from bot.render.hand import EX_H, EX_W, H_HAND, HAND_W, find_bombs, sorted_hand
from bot.render.seats import Side, seat_at, side_of
from bot.render.table import SIZE
from bot.render.trick import GRID_MAX_W, GRID_MIN_W, GRID_W, SIZE3, SIZE4, SeatInfo
from engine.cards import parse_cards
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX
from engine.trick import by_suit
from tests.render.test_render_legibility import LEGIBLE

MAX_BYTES = 80 * 1024
"""Byte budget of every example image (the palette PNGs they replace weighed 100-180 KB)."""
PANEL_MAX_BYTES = 200 * 1024
"""Byte budget of a live panel's picture (JPEG: 2.6 times WebP's bytes, for a fifth of its
CPU)."""
TABLE_MAX_BYTES = 70 * 1024
"""The table image is re-uploaded after every action: it gets the tightest budget."""


PANELS = frozenset({"exchange", "exchange-six", "exchange-partial", "exchange-de",
                    "exchange-el", "position", "position-full"})
"""The examples that are live panels' pictures (JPEG: :func:`bot.render.encoding.encode_panel`)."""


def decode(data: bytes, *, panel: bool = False) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == (PANEL_FORMAT if panel else IMAGE_FORMAT)
    img.load()
    return img


def test_format_is_named_in_one_place() -> None:
    assert IMAGE_FORMAT == "WEBP" and IMAGE_EXT == "webp"
    assert PANEL_FORMAT == "JPEG" and PANEL_EXT == "jpg"
    assert filename("table") == "table.webp"
    assert render.filename is filename and render.IMAGE_EXT == IMAGE_EXT
    data = render.render_table(ex.table_view(), ex.NAMES)
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    assert filename("table", data) == "table.webp"
    panel = render.render_position(ex.table_view(), ex.position_view(), ex.NAMES)
    assert panel[:3] == b"\xff\xd8\xff" and filename("hand", panel) == "hand.jpg"


def test_an_attachment_is_named_in_its_bytes_format() -> None:
    """A panel's picture sent under the name of the usual format is renamed to its own."""
    from bot.games.base import image_file
    panel = render.render_position(ex.table_view(), ex.position_view(), ex.NAMES)
    table = render.render_table(ex.table_view(), ex.NAMES)
    assert image_file(panel, filename("hand"), "a hand").filename == "hand.jpg"
    assert image_file(table, filename("table"), "a table").filename == "table.webp"
    assert image_file(b"{}", "replay.json", "a replay").filename == "replay.json"


TABLE_SIZE = SIZE
HAND_SIZE = (HAND_W, H_HAND)
EXCHANGE_SIZE = (EX_W, EX_H)
EXPECTED_SIZES = {
    "table": TABLE_SIZE,
    "table-six": TABLE_SIZE,
    "hand": HAND_SIZE,
    "exchange": EXCHANGE_SIZE,
    "deal-summary": (1100, 704),
    "deal-summary-six": (1100, 824),
    "trick-table": SIZE4,
    "trick-table-3": SIZE3,
    "trick-table-max": SIZE4,
    "french-hand-max": (FRENCH_W, FRENCH_H),
}


@pytest.mark.parametrize("name", sorted(ex.gallery()))
def test_gallery_image_decodes_small_and_wide(name: str) -> None:
    data = ex.gallery()[name]()
    img = decode(data, panel=name in PANELS)
    assert img.width >= 800
    # a kind drawn for Discord's size has its own
    budget = LEGIBLE.get(name, PANEL_MAX_BYTES if name in PANELS else MAX_BYTES)
    assert len(data) < budget, f"{name}: {len(data) // 1024} KB"
    if name.startswith("table"):
        assert len(data) < TABLE_MAX_BYTES, f"{name}: {len(data) // 1024} KB"
    stem = name.removesuffix("-fr").removesuffix("-de").removesuffix("-el")
    if stem in EXPECTED_SIZES:
        assert img.size == EXPECTED_SIZES[stem]


@pytest.mark.parametrize("phase", sorted(ex.table_views()))
@pytest.mark.parametrize("locale", ["en", "en-US", "fr", "fr_CA", "de", "el", "ja", ""])
def test_table_every_phase_and_locale(phase: str, locale: str) -> None:
    img = decode(render.render_table(ex.table_views()[phase], ex.NAMES, locale=locale))
    assert img.size == TABLE_SIZE


@pytest.mark.parametrize("phase", sorted(ex.six_table_views()))
@pytest.mark.parametrize("locale", ["en", "fr", "de", "el"])
def test_six_seat_table_every_phase(phase: str, locale: str) -> None:
    data = render.render_table(ex.six_table_views()[phase], ex.NAMES6, locale=locale)
    assert decode(data).size == TABLE_SIZE
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
    assert decode(render.render_table(ex.table_view(), names)).size == TABLE_SIZE


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
    assert decode(render.render_exchange(view, card, None, None, ex.NAMES6), panel=True).size == EXCHANGE_SIZE
    with pytest.raises(ValueError):
        render.render_exchange(view, None, card, None, ex.NAMES6)


def test_exchange_with_nothing_chosen() -> None:
    img = decode(render.render_exchange(ex.exchange_view(), None, None, None, ex.NAMES),
                 panel=True)
    assert img.size == EXCHANGE_SIZE


def test_deal_summary_needs_a_finished_deal() -> None:
    with pytest.raises(ValueError):
        render.render_deal_summary(replace(ex.deal_over_view(), history=()), ex.NAMES)


def test_game_over_grows_with_history() -> None:
    short = decode(render.render_game_over(replace(ex.game_over_view(),
                                                   history=ex.HISTORY[:2]), ex.NAMES))
    long = decode(render.render_game_over(ex.game_over_view(), ex.NAMES))
    assert short.width == long.width == 1100
    assert long.height > short.height


def test_a_long_game_over_stays_within_the_height_discord_shows_legibly() -> None:
    from bot.render.summary import MAX_H

    view = ex.long_game_over_view()
    sixty = tuple(replace(deal, number=i) for i, deal in enumerate(ex.HISTORY_LONG * 3))
    for history in (ex.HISTORY_LONG[:12], ex.HISTORY_LONG, sixty):
        img = decode(render.render_game_over(replace(view, history=history), ex.NAMES))
        assert img.width == 1100 and img.height <= MAX_H


def test_game_over_without_history_or_winner() -> None:
    view = replace(ex.game_over_view(), history=(), winner=None, scores=(0, 0))
    assert decode(render.render_game_over(view, ex.NAMES)).width == 1100


@given(st.lists(st.sampled_from(DECK), max_size=14, unique=True),
       st.lists(st.sampled_from(DECK), max_size=4, unique=True))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_hand_renders(cards: list, selected: list) -> None:
    view = replace(ex.hand_view(), hand=tuple(cards), received={})
    img = decode(render.render_hand(view, selected=selected))
    assert img.size == HAND_SIZE


FRENCH_DECK = parse_cards([f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"])


@given(st.lists(st.sampled_from(FRENCH_DECK), min_size=0, max_size=13, unique=True),
       st.booleans())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_french_hand_renders(cards: list, some_playable: bool) -> None:
    playable = cards[::2] if some_playable else None
    img = decode(render_french_hand(cards, key=by_suit, playable=playable, title="Round 5"))
    assert img.size == (FRENCH_W, FRENCH_H)


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
    assert decode(render.render_hand(view)).size == HAND_SIZE


def test_trick_table_three_and_four_seats_only() -> None:
    seats = ex.trick_seats()
    assert decode(render.render_trick_table(seats, ex.TRICK, leader=1)).size == SIZE4
    assert decode(render.render_trick_table(seats[:3], [], leader=0, clockwise=True)).size == SIZE3
    with pytest.raises(ValueError):
        render.render_trick_table([*seats, SeatInfo("Eve")], [], leader=0)
    with pytest.raises(ValueError):
        render.render_trick_table(seats[:3], [(3, ex.TRICK[0][1])], leader=3)


def test_score_grid_width_follows_content() -> None:
    narrow = decode(render.render_score_grid(["a", "b"], [["1", "2"]], title="t"))
    four = decode(render.render_score_grid(ex.GRID_COLUMNS, ex.GRID_ROWS, title="t"))
    long = decode(render.render_score_grid(["#", *ex.LONG_NAMES], ex.GRID_ROWS, title="t"))
    wide = decode(render.render_score_grid([f"Player {i}" for i in range(12)],
                                           [[str(i * 100) for i in range(12)]] * 3, title="t"))
    assert narrow.width == GRID_MIN_W
    assert GRID_MIN_W <= four.width < long.width == GRID_W  # long names: as wide as legible
    assert GRID_W < wide.width <= GRID_MAX_W  # wider only for its figures to fit
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
