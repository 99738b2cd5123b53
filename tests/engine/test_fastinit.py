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


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class Wide:
    """Enough fields for the twin-class ``__init__``."""

    a: int
    b: str
    c: tuple[int, ...]
    d: float = 1.5
    e: int | None = None
    f: bool = False
    g: dict[int, int] | None = None


def test_wide_classes_build_the_same_instances() -> None:
    assert "twin_" in Wide.__init__.__code__.co_names  # the path under test
    w = Wide(1, "x", (2, 3))
    assert type(w) is Wide
    assert (w.a, w.b, w.c, w.d, w.e, w.f, w.g) == (1, "x", (2, 3), 1.5, None, False, None)
    assert w == Wide(a=1, b="x", c=(2, 3), d=1.5) and hash(w) == hash(Wide(1, "x", (2, 3)))
    assert w != Wide(1, "x", (2, 3), f=True)
    assert dataclasses.replace(w, e=4) == Wide(1, "x", (2, 3), e=4)
    assert dataclasses.astuple(w) == (1, "x", (2, 3), 1.5, None, False, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Wide(1, "x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Wide(1, "x", (), z=3)  # type: ignore[call-arg]


def test_subclasses_of_wide_classes_keep_their_class() -> None:
    class Plain(Wide):
        """Inherits the twin-class ``__init__``, which must not make it a Wide."""

        __slots__ = ("extra",)

    p = Plain(1, "x", (2,), g={1: 2})
    assert type(p) is Plain and p.a == 1 and p.c == (2,) and p.g == {1: 2}
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.b = "y"  # type: ignore[misc]

    @dataclasses.dataclass(frozen=True, slots=True)
    class Wider(Wide):
        h: int = 0

    w = fast_init(Wider)(1, "x", (2,), h=7)
    assert type(w) is Wider and w.h == 7 and w.a == 1 and w.c == (2,)


def test_fast_new_builds_what_the_constructor_builds() -> None:
    from engine.fastinit import fast_new

    new = fast_new(Wide)
    assert new is not Wide  # the quick path is the one under test
    w = new(1, "x", (2, 3), 2.5, None, True, {1: 2})
    assert type(w) is Wide and w == Wide(1, "x", (2, 3), 2.5, None, True, {1: 2})
    assert dataclasses.replace(w, a=3).a == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        new(1, "x")  # every field is required, in order

    class Sub(Wide):
        __slots__ = ("more",)

    assert fast_new(Point) is not None and fast_new(Sub) is Sub  # no twin: the class itself
