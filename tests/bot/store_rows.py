"""The rows of an SQLite store, table by table: what a refusal must leave as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def row_counts(database: Path) -> dict[str, int]:
    """How many rows each table of the SQLite store at ``database`` holds (read while the
    bot runs: SQLite's WAL lets a reader see the last committed state)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        return {name: int(db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0])
                for name in names}
