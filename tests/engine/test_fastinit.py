"""A draft of a frozen slotted dataclass, filled and sealed, is the same instance its
constructor builds."""

from __future__ import annotations

import dataclasses

import pytest

from engine.fastinit import draft_class, seal


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 5
    tags: dict[str, int] | None = None


PointDraft = draft_class(Point)


def _point(x: int, y: int, tags: dict[str, int] | None = None) -> Point:
    draft = PointDraft()
    draft.x = x
    draft.y = y
    draft.tags = tags
    return seal(draft, Point)


def test_a_sealed_draft_is_what_the_constructor_builds() -> None:
    p = _point(1, 2, {"a": 1})
    assert type(p) is Point
    assert p == Point(1, 2, {"a": 1}) and repr(p) == repr(Point(1, 2, {"a": 1}))
    assert dataclasses.replace(p, y=9) == Point(1, 9, {"a": 1})
    assert dataclasses.astuple(p) == (1, 2, {"a": 1})
    assert hash(_point(1, 2)) == hash(Point(1, 2))


def test_a_sealed_draft_is_frozen() -> None:
    p = _point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2  # type: ignore[misc]


def test_only_slotted_dataclasses_on_object_have_drafts() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Sub(Point):
        z: int = 0

    class Plain:
        __slots__ = ("x",)

    for cls in (NoSlots, Sub, Plain):
        with pytest.raises(TypeError):
            draft_class(cls)


def test_the_engine_builds_its_views_and_results_complete() -> None:
    """Every field of a view and of an applied result is set (a draft has no defaults)."""
    from engine.tichu.actions import DeclineGrand
    from engine.tichu.game import TichuGame

    game = TichuGame(seed=1)
    done = game.apply(DeclineGrand(0))
    for record in (game.view(0), game.view(None), done):
        for f in dataclasses.fields(record):
            getattr(record, f.name)
        assert dataclasses.replace(record) == record
