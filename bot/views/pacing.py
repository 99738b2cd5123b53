"""A pace for the bot's own REST writes, so one process stays under Discord's global limit.

Discord allows a bot 50 requests a second in all, but does not count the
interaction routes (the answer to a click and everything its token opens:
follow-ups, edits of ``@original``, hand panel redraws). Only the writes the
bot makes with its bot token — table and lobby edits, pings, summaries — are
spaced to ``rate`` a second (30 by default), leaving the rest of the budget to
other bot-token requests. With many busy tables the writes queue for a moment
instead of drawing 429s; interaction-token calls never take a turn here.

The turns go in the order asked, except the writes someone is waiting on against a
clock (``first``: a ready check's DM, the panel of the seat due to act), which take the
next turn ahead of the others queued (the other seats' panels, which fold their changes
while they wait). With a hundred tables in DMs, the others' panel edits filled the
queue, and the ready checks' DMs waited past their 30 s.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time


class Pacer:
    """Spaces callers of :meth:`wait` at least ``1 / rate`` seconds apart (0: no pace),
    in the order they came, a ``first`` caller ahead of the others waiting."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self._next = 0.0
        """When the next turn may begin (``time.monotonic()``)."""
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.waited = 0.0
        """Seconds writes spent waiting for their turn, in all."""

    async def wait(self, first: bool = False) -> None:
        """Wait for a turn to write (``first``: ahead of the writes waiting already)."""
        if not self.interval:
            return
        now = time.monotonic()
        if now >= self._next and not self._waiting:
            self._next = now + self.interval
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if first else 1, next(self._arrivals), future))
        self._arm()
        await future  # a cancelled waiter is skipped; a turn given to it is spent
        self.waited += time.monotonic() - now

    def _arm(self) -> None:
        if self._timer is None and self._waiting:
            delay = max(0.0, self._next - time.monotonic())
            self._timer = asyncio.get_running_loop().call_later(delay, self._turn)

    def _turn(self) -> None:
        """Give the next turn to the first waiting write, then wait for the one after."""
        self._timer = None
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                self._next = max(time.monotonic(), self._next) + self.interval
                break
        self._arm()
