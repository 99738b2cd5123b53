"""Refusals of the table layer; ``code`` maps to ``error.<code>`` in the catalogs."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused table operation (not your seat, stale menu, no such table …)."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values
