"""The export bench's player (issue 51) on tiny settings: the games and reviews it writes
through the store, and the export made from them. Nothing here is timed: figures are
printed by the bench, never asserted."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store import open_repository
from tools import bench_export as bench


def test_the_player_has_the_games_and_reviews_asked_for(tmp_path: Path) -> None:
    store = tmp_path / "player.sqlite3"
    asyncio.run(bench.stock(store, games=2, reviews=3, real_reviews=1))
    assert asyncio.run(bench.counted(store)).startswith("2 games, 3 reviews, 2 tables")

    async def read() -> dict[str, list[dict[str, object]]]:
        repo = open_repository(str(store))
        await repo.open()
        try:
            return await repo.export_rows(bench.PLAYER)
        finally:
            await repo.close()

    rows = asyncio.run(read())
    # Deal 0 of both games, then deal 1 of the first: each review holds its own deal.
    assert [(r["deal"], r["seat"]) for r in rows["reviews"]] == [(0, 0), (1, 0), (0, 0)]
    assert len({r["review"] for r in rows["reviews"]}) == 3
    assert [p["name"] for p in rows["players"][:4]] == bench.NAMES
    line = asyncio.run(bench.alone(store))
    assert line.startswith("the export alone: store read ") and "sent as it is" in line
