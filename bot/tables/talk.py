"""Talk at a table (issue 53): a person says one of a fixed set of phrases
(:mod:`bot.tables.phrases`), a line of the table's log that every reader's panel shows in
the reader's own language. No free text: nothing to moderate.

A phrase is stored (:meth:`~bot.store.models.Repository.add_talk`) before it is
acknowledged, so a restart keeps the table's last lines. Its pace is kept from the stored
lines themselves, under the table's lock, before anything is written: a person says at
most one phrase every :data:`TALK_GAP` seconds and :data:`TALK_PER_GAME` at one table;
past either, one sentence and nothing written. The line rides on the presenter's next
pass (a quiet change: it never adds an edit of its own to a DM's budget).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from bot.store.models import TableStatus, TalkLine
from bot.tables.core import TableCore
from bot.tables.errors import TableError
from bot.tables.phrases import offered
from bot.tables.table import Table

TALK_GAP = 5.0
"""Seconds a person waits between two phrases at a table."""
TALK_PER_GAME = 30
"""Phrases a person may say at one table, in all."""
SPOKEN = (TableStatus.PLAYING, TableStatus.FINISHED)
"""Where people may talk: a game in play, and a game just over (thanks for the game)."""


def phrases_of(table: Table) -> tuple[str, ...]:
    """The phrases ``table`` offers (thanks, partner only where teams play)."""
    return offered(table.spec.team_size)


class Talk:
    """People's phrases at tables: checked, stored, put in the log, shown."""

    def __init__(self, core: TableCore, *, clock: Callable[[], float] = time.time) -> None:
        self.core = core
        self.clock = clock
        """The wall clock (seconds), injectable: the pace is kept on it."""

    async def say(self, table_id: int, user_id: int, phrase: str | None) -> Table:
        """``user_id`` says ``phrase`` at the table. Refused with nothing written:
        ``not_seated`` (a stranger), ``forged_direct`` (a phrase the table does not
        offer), ``not_playing``, ``talk_pace`` (too soon after their last phrase),
        ``talk_cap`` (they said all a game allows)."""
        table = await self.core.get(table_id)
        async with self.core.hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if phrase not in phrases_of(table):
                raise TableError("forged_direct" if table.direct else "forged")
            if table.game is None or table.status not in SPOKEN:
                raise TableError("not_playing")
            now = self.clock()
            mine = [line for line in table.talk if line.user_id == user_id]
            if len(mine) >= TALK_PER_GAME:
                raise TableError("talk_cap", limit=TALK_PER_GAME)
            if mine and now - mine[-1].created_at.timestamp() < TALK_GAP:
                raise TableError("talk_pace", seconds=int(TALK_GAP))
            line = TalkLine(seq=len(table.talk) + 1, seat=seat, user_id=user_id,
                            phrase=phrase, after=table.seq,
                            created_at=datetime.fromtimestamp(now, UTC))
            await self.core.repo.add_talk(table.id, line)
            table.said(line)  # stored: from here on nothing may fail it
            table.touch()
        self.core.notify(table, quiet=True)
        return table
