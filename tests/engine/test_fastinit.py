"""fast_init gives a frozen slotted dataclass a quicker __init__ with the same behaviour."""

from __future__ import annotations

import dataclasses

import pytest

from engine.fastinit import fast_init


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 5
    label: str | None = None


def test_positional_keyword_and_default_arguments() -> None:
    assert Point(1) == Point(x=1, y=5, label=None)
    assert Point(1, 2, "a") == Point(label="a", y=2, x=1)
    assert dataclasses.replace(Point(1), y=9) == Point(1, 9)


def test_still_frozen_and_checked() -> None:
    p = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=3)  # type: ignore[call-arg]


def test_default_factories_are_refused() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Bag:
        items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        fast_init(Bag)
