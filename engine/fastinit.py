"""Building frozen slotted dataclasses quickly: fill a draft, then seal it.

A frozen dataclass's ``__init__`` stores every field through
``object.__setattr__``, one call per field: for a game view of 27 fields, most
of the time it takes to build one. The engine builds its views and applied
results on every action, so it builds them another way:

* :func:`draft_class` makes, once, a plain class with the same slots as the
  frozen class (a *draft*), whose fields are ordinary attribute stores;
* the engine fills a draft field by field (every field: a draft has no
  defaults);
* :func:`seal` turns the draft into an instance of the frozen class by
  assigning its ``__class__``, which Python allows between two classes with
  the same slots and no ``__dict__``.

What comes out is an ordinary instance of the frozen dataclass: its equality,
``repr``, ``dataclasses.replace`` and immutability are the dataclass's own, and
``cls(...)`` still builds the same thing the slow way.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, cast

T = TypeVar("T")


def draft_class(cls: type) -> type:
    """A plain class with the slots of the frozen slotted dataclass ``cls``.

    Raises ``TypeError`` if an instance could not become a ``cls`` (``cls`` has a
    base class other than ``object``, or a ``__dict__`` or ``__weakref__`` slot).
    """
    slots = cls.__dict__.get("__slots__")
    if not dataclasses.is_dataclass(cls) or cls.__bases__ != (object,) or \
            not isinstance(slots, tuple) or {"__dict__", "__weakref__"} & set(slots):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass built on object alone")
    draft = type(f"{cls.__name__}Draft", (), {"__slots__": slots, "__module__": cls.__module__,
                                              "__doc__": f"A {cls.__name__} being filled in."})
    seal(draft(), cls)  # raises TypeError now if the layouts differ
    return draft


def seal(draft: Any, cls: type[T]) -> T:
    """The filled ``draft`` (an instance of ``draft_class(cls)``), now a ``cls``."""
    draft.__class__ = cls
    return cast(T, draft)
