"""A faster ``__init__`` for frozen, slotted dataclasses built on hot paths.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__``; :func:`fast_init` replaces it with one that writes each
slot through its descriptor, with the same signature and defaults. Everything
else (``fields``, ``replace``, equality, immutability after construction) is
the dataclass's own.

A class with many fields (a game view) goes one step further: during
``__init__`` the new instance briefly belongs to a plain twin class with the
same slots, whose ordinary attribute stores the interpreter handles without a
call each, and then gets its own class back. Only the exact class does this
(a subclass may add slots, so it takes the descriptor path), and only if the
twin's layout was checked compatible when the class was decorated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

TWIN_FROM = 6
"""From this many fields on, the twin-class ``__init__`` beats one descriptor call
per field (its two class switches cost about as much as four descriptor calls)."""


def _twin(cls: type) -> type | None:
    """A plain class with the same slots as ``cls`` whose instances may switch to
    ``cls`` and back, or None if the layouts differ."""
    slots = cls.__dict__.get("__slots__")
    if cls.__bases__ != (object,) or not isinstance(slots, tuple) or "__dict__" in slots or \
            "__weakref__" in slots:
        return None
    twin = type(f"_{cls.__name__}Twin", (object,), {"__slots__": slots,
                                                    "__module__": cls.__module__})
    try:
        probe: object = object.__new__(cls)
        object.__setattr__(probe, "__class__", twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen slotted dataclass ``cls`` a descriptor-writing ``__init__``."""
    params = []
    env: dict[str, object] = {}
    body = []
    plain = []
    names = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.default is not dataclasses.MISSING:
            env[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            raise TypeError("fast_init does not take default factories")
        else:
            params.append(f.name)
        env[f"set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    set_{f.name}(self, {f.name})\n")
        plain.append(f"        self.{f.name} = {f.name}\n")
        names.append(f.name)
    lines = "".join(body) or "    pass\n"
    twin = _twin(cls) if len(names) >= TWIN_FROM else None
    if twin is not None and not {"self", "cls_", "twin_", "set_class_"} & set(names):
        env.update(cls_=cls, twin_=twin, set_class_=object.__setattr__)
        source = (f"def __init__(self, {', '.join(params)}):\n"
                  "    if self.__class__ is cls_:\n"
                  "        set_class_(self, '__class__', twin_)\n"
                  f"{''.join(plain)}"
                  "        self.__class__ = cls_\n"
                  "        return\n"
                  f"{lines}")
    else:
        source = f"def __init__(self, {', '.join(params)}):\n{lines}"
    exec(source, env)  # generated from the dataclass's own field names
    init = env["__init__"]
    setattr(init, "__qualname__", f"{cls.__qualname__}.__init__")  # noqa: B010
    setattr(cls, "__init__", init)  # noqa: B010
    return cls


def fast_new(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` (decorated with :func:`fast_init`) taking every field,
    positionally and in order, for the hottest paths: the twin-class build without
    the call machinery of ``cls(...)``. Falls back to ``cls`` itself when the class
    has no compatible twin."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    twin = _twin(cls)
    if twin is None or {"cls_", "twin_", "self"} & set(names):
        return cls
    stores = "".join(f"    self.{n} = {n}\n" for n in names)
    source = (f"def new({', '.join(names)}):\n"
              "    self = twin_()\n"
              f"{stores}"
              "    self.__class__ = cls_\n"
              "    return self\n")
    env: dict[str, Any] = {"cls_": cls, "twin_": twin}
    exec(source, env)  # generated from the dataclass's own field names
    new: Callable[..., T] = env["new"]
    new.__qualname__ = f"{cls.__qualname__}.fast_new"
    return new
