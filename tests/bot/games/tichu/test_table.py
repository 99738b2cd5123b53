"""The Tichu table's public messages: the deal summary says the deal's score and the
totals after it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.games.registry import all_specs
from bot.games.tichu.table import announcement
from bot.i18n import t
from bot.store import SQLiteRepository
from bot.tables import LogEntry, TableService


async def test_the_deal_summary_gives_the_deal_and_the_totals(tmp_path: Path) -> None:
    repo = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await repo.open()
    service = TableService(repo, all_specs(), ai_delay=0.0)
    try:
        table = await service.open_lobby(game="tichu", guild_id=1, channel_id=2, host_id=11,
                                         host_name="host", locale="en",
                                         options={"target": 10_000})
        for seat in (1, 2, 3):
            await service.set_computer(table.id, 11, seat, "easy")
        await service.start(table.id, 11)
        await service.takeover(table.id, 11, 0)  # four computers play two deals
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while len(table.game.view(None).history) < 2:
            assert loop.time() < end, "two deals not played"
            await asyncio.sleep(0.01)
        async with table.lock:
            first, second = table.game.view(None).history[:2]
            entry = LogEntry("log.deal_over", {"number": 1, "scores": second.scores})
            for locale in ("en", "fr"):
                message = await announcement(table, entry, locale)
                assert message is not None
                totals = [a + b for a, b in zip(first.scores, second.scores, strict=True)]
                assert message.content == t(
                    locale, "table.deal_over", number=2,
                    deal=" – ".join(str(s) for s in second.scores),
                    scores=" – ".join(str(s) for s in totals))
    finally:
        await service.close()
        await repo.close()
