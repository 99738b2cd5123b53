"""Refusals of the table layer; ``code`` maps to ``error.<code>`` in the catalogs."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused table operation (not your seat, stale menu, no such table …)."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values


RECONNECTING = frozenset({"unavailable", "busy", "shard_lost"})
"""Store failure codes a person may simply try again after: the database is away, busy,
or this process is taking its shard's lock again."""


def store_refusal(code: str) -> str:
    """The refusal (``error.<it>``) for a store failure of code ``code``: the table is
    reconnecting, or the bot could not save the change."""
    return "store_unavailable" if code in RECONNECTING else "store_failed"
