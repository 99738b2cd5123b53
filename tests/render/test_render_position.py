"""The panel of a table in DMs: the table with the seat's hand under it. The seats of one
table share one drawing of the table, and the picture is the one drawn without it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.render import examples as ex
from bot.render import position
from bot.render.position import TableCache, draw_position
from engine.tichu.view import TichuView

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> TableCache:
    cache = TableCache(position.TABLES_KEPT)
    monkeypatch.setattr(position, "tables", cache)
    return cache


def drawn_anew(public: TichuView, seat: TichuView, **options: Any) -> Image.Image:
    """The position drawn with no table kept (a cache that keeps nothing)."""
    kept = position.tables
    position.tables = TableCache(0)
    try:
        return draw_position(public, seat, NAMES, **options)
    finally:
        position.tables = kept


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_the_seats_of_one_table_share_one_drawing_of_it(fresh: TableCache) -> None:
    public = ex.table_view()
    bob = ex.position_view()
    chloe = replace(public, seat=2, hand=ex.hand_view().hand)
    first = draw_position(public, bob, NAMES)
    second = draw_position(public, chloe, NAMES, selected=ex.HAND_SELECTED)
    assert (fresh.hits, fresh.misses) == (1, 1)
    assert same(first, drawn_anew(public, bob))
    assert same(second, drawn_anew(public, chloe, selected=ex.HAND_SELECTED))
    assert not same(first, second)  # each its own hand under the one table
    draw_position(public, bob, NAMES, locale="fr")  # another language: another drawing
    assert (fresh.hits, fresh.misses) == (1, 2)


def test_a_move_is_a_new_drawing_of_the_table(fresh: TableCache) -> None:
    before = ex.table_view()
    after = replace(before, turn=(before.turn + 1) % 4 if before.turn is not None else 0)
    bob = ex.position_view()
    old = draw_position(before, bob, NAMES)
    new = draw_position(after, replace(bob, turn=after.turn), NAMES)
    assert (fresh.hits, fresh.misses) == (0, 2)
    assert not same(old, new)
    assert same(new, drawn_anew(after, replace(bob, turn=after.turn)))


def test_the_cache_keeps_its_latest_tables() -> None:
    cache = TableCache(limit=2)
    views = [replace(ex.table_view(), deal_number=n) for n in (1, 2, 3)]
    for view in views:
        cache.table(view, NAMES, "en", None)
    cache.table(views[2], NAMES, "en", None)
    assert (cache.hits, cache.misses) == (1, 3)
    cache.table(views[0], NAMES, "en", None)  # the oldest went out
    assert (cache.hits, cache.misses) == (1, 4)
