"""The public table image is built from the public view only: no hand can reach it.

Three checks: a seat's view is refused; a view whose private fields raise on
*any* access renders exactly like the clean public view (so they are never
read, not even to be ignored); and random private contents never change a byte.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NoReturn

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render import examples as ex
from bot.render import render_table
from engine.tichu.cards import DECK
from engine.tichu.view import TichuView


class Leak(AssertionError):
    pass


def _leak(*_: Any, **__: Any) -> NoReturn:
    raise Leak("a private field was read")


class PoisonTuple(tuple):  # type: ignore[type-arg]
    """A hand that explodes when looked at in any way."""

    __iter__ = __len__ = __getitem__ = __bool__ = __contains__ = _leak
    __eq__ = __hash__ = __repr__ = __reversed__ = _leak  # type: ignore[assignment]


class PoisonDict(dict):  # type: ignore[type-arg]
    """Exchange gifts that explode when looked at in any way."""

    __iter__ = __len__ = __getitem__ = __bool__ = __contains__ = _leak
    keys = values = items = get = __repr__ = _leak  # type: ignore[assignment]


def poisoned(view: TichuView) -> TichuView:
    """``view`` whose private fields (the hand, the gifts given and received) explode when
    anything reads them: what is drawn or said from it must come out the same."""
    return replace(view, hand=PoisonTuple(), given=PoisonDict(), received=PoisonDict())


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_table_refuses_a_seat_view(seat: int) -> None:
    with pytest.raises(ValueError):
        render_table(replace(ex.table_view(), seat=seat, hand=ex.hand_view().hand), ex.NAMES)


def test_poison_is_live() -> None:
    with pytest.raises(Leak):
        list(PoisonTuple())
    with pytest.raises(Leak):
        bool(PoisonDict())


@pytest.mark.parametrize("seat", [0, 3, 5])
def test_six_seat_table_refuses_a_seat_view(seat: int) -> None:
    with pytest.raises(ValueError):
        render_table(replace(ex.six_table_view(), seat=seat, hand=ex.hand_view().hand[:10]),
                     ex.NAMES6)


@pytest.mark.parametrize("phase", sorted(ex.table_views()))
def test_private_fields_are_never_read(phase: str) -> None:
    view = ex.table_views()[phase]
    assert render_table(poisoned(view), ex.NAMES) == render_table(view, ex.NAMES)


@pytest.mark.parametrize("phase", sorted(ex.six_table_views()))
def test_six_seat_private_fields_are_never_read(phase: str) -> None:
    view = ex.six_table_views()[phase]
    assert render_table(poisoned(view), ex.NAMES6) == render_table(view, ex.NAMES6)


@given(st.lists(st.sampled_from(DECK), max_size=14, unique=True),
       st.dictionaries(st.integers(0, 3), st.sampled_from(DECK), max_size=3),
       st.dictionaries(st.integers(0, 3), st.sampled_from(DECK), max_size=3))
@settings(max_examples=10, deadline=None)
def test_private_contents_never_change_a_byte(hand: list, gifts: dict, received: dict) -> None:
    clean = ex.table_view()
    dirty = replace(clean, hand=tuple(hand), given=gifts, received=received)
    assert render_table(dirty, ex.NAMES) == render_table(clean, ex.NAMES)


def test_public_fields_do_change_the_image() -> None:
    """Guards the checks above against an image that ignores everything."""
    view = ex.table_view()
    assert render_table(replace(view, hand_counts=(0, 4, 7, 9)), ex.NAMES) != render_table(
        view, ex.NAMES)
