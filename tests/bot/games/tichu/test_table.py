"""The Tichu table's public messages: the deal summary says the deal's score and the
totals after it, each after its team's name and with a true minus; the game over
names the winners' score first."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.games.registry import all_specs
from bot.games.shared import seat_scores, signed, team_scores
from bot.games.tichu.table import announcement
from bot.i18n import LANGUAGES, t
from bot.store import SQLiteRepository
from bot.tables import LogEntry, TableService


async def test_the_deal_summary_gives_the_deal_and_the_totals(tmp_path: Path) -> None:
    repo = SQLiteRepository(str(tmp_path / "db.sqlite3"))
    await repo.open()
    service = TableService(repo, all_specs(), ai_delay=0.0)
    try:
        table = await service.lobby.open_lobby(game="tichu", guild_id=1, channel_id=2, host_id=11,
                                               host_name="host", locale="en",
                                               options={"target": 10_000})
        for seat in (1, 2, 3):
            await service.lobby.set_computer(table.id, 11, seat, "easy")
        await service.lobby.start(table.id, 11)
        await service.results.finish_for_people(table, "easy")  # four computers play two deals
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while len(table.game.view(None).history) < 2:
            assert loop.time() < end, "two deals not played"
            await asyncio.sleep(0.01)
        async with table.lock:
            first, second = table.game.view(None).history[:2]
            entry = LogEntry("log.deal_over", {"number": 1, "scores": second.scores})
            for locale in LANGUAGES:
                message = await announcement(table, entry, locale)
                assert message is not None
                totals = [a + b for a, b in zip(first.scores, second.scores, strict=True)]
                a, b = (t(locale, f"team.{team}") for team in (0, 1))
                assert message.content == t(
                    locale, "table.deal_over", number=2,
                    deal=f"{a} {signed(second.scores[0])} · {b} {signed(second.scores[1])}",
                    scores=f"{a} {signed(totals[0])} · {b} {signed(totals[1])}")
            # Whichever team wins, its score comes first.
            scores = table.game.view(None).scores
            over = await announcement(table, LogEntry("log.game_over", {"team": 1}), "en")
            assert over is not None
            assert f"{signed(scores[1])} · Team A {signed(scores[0])}" in over.content
    finally:
        await service.close()
        await repo.close()


def test_scores_read_without_a_dash_that_looks_like_a_minus() -> None:
    assert signed(-20) == "−20" and signed(0) == "0" and signed(120) == "120"
    assert team_scores("en", (120, -20)) == "Team A 120 · Team B −20"
    assert team_scores("fr", (120, -20), first=1) == "Équipe B −20 · Équipe A 120"
    assert team_scores("en", (-35, 1040), first=1) == "Team B 1040 · Team A −35"
    assert seat_scores(["Alice", "Bob", "Chloé"], (120, -60, 40)) \
        == "Alice 120 · Bob −60 · Chloé 40"
