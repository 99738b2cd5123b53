"""A pace for the bot's own REST writes, so one process stays under Discord's global limit.

Discord allows a bot 50 requests a second in all, but does not count the
interaction routes (the answer to a click and everything its token opens:
follow-ups, edits of ``@original``, hand panel redraws). Only the writes the
bot makes with its bot token — table and lobby edits, pings, summaries — are
spaced to ``rate`` a second (30 by default), leaving the rest of the budget to
other bot-token requests. With many busy tables the writes queue for a moment
instead of drawing 429s; interaction-token calls never take a turn here.
"""

from __future__ import annotations

import asyncio
import time


class Pacer:
    """Spaces callers of :meth:`wait` at least ``1 / rate`` seconds apart (0: no pace)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self._next = 0.0
        self.waited = 0.0
        """Seconds writes spent waiting for their turn, in all."""

    async def wait(self) -> None:
        if not self.interval:
            return
        now = time.monotonic()
        start = max(now, self._next)
        self._next = start + self.interval
        if start > now:
            self.waited += start - now
            await asyncio.sleep(start - now)
