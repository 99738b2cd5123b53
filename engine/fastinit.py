"""A faster ``__init__`` for frozen, slotted dataclasses built on hot paths.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__``; :func:`fast_init` replaces it with one that writes each
slot through its descriptor, with the same signature and defaults. Everything
else (``fields``, ``replace``, equality, immutability after construction) is
the dataclass's own.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen slotted dataclass ``cls`` a descriptor-writing ``__init__``."""
    params = []
    env: dict[str, object] = {}
    body = []
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
    lines = "".join(body) or "    pass\n"
    source = f"def __init__(self, {', '.join(params)}):\n{lines}"
    exec(source, env)  # generated from the dataclass's own field names
    init = env["__init__"]
    setattr(init, "__qualname__", f"{cls.__qualname__}.__init__")  # noqa: B010
    setattr(cls, "__init__", init)  # noqa: B010
    return cls
