"""The pace of the bot's own writes."""

from __future__ import annotations

import asyncio
import time

from bot.views.pacing import Pacer


async def test_writes_are_spaced_to_the_rate() -> None:
    pacer = Pacer(rate=100)
    before = time.monotonic()
    await asyncio.gather(*(pacer.wait() for _ in range(11)))
    # Eleven writes at 100 a second: each took the next hundredth of a second.
    assert pacer._next >= before + 11 * 0.01
    assert pacer.waited >= sum(i * 0.01 for i in range(11)) - 0.01


async def test_no_pace_at_rate_zero() -> None:
    pacer = Pacer(rate=0)
    await asyncio.gather(*(pacer.wait() for _ in range(100)))
    assert pacer.waited == 0
