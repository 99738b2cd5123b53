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


async def test_a_write_someone_waits_on_takes_the_next_turn() -> None:
    """Writes take their turns in the order they came, except a ``first`` one (a ready
    check's DM), which goes ahead of those already waiting; a write cancelled while it
    waits takes no turn."""
    pacer = Pacer(rate=50)
    order: list[str] = []

    async def write(name: str, first: bool = False) -> None:
        await pacer.wait(first=first)
        order.append(name)

    before = time.monotonic()
    await write("now")  # the first turn, at once
    panels = [asyncio.create_task(write(f"panel {i}")) for i in range(3)]
    gone = asyncio.create_task(write("gone"))
    await asyncio.sleep(0)
    gone.cancel()
    check = asyncio.create_task(write("ready check", first=True))
    await asyncio.gather(*panels, check, gone, return_exceptions=True)
    assert order == ["now", "ready check", "panel 0", "panel 1", "panel 2"]
    assert time.monotonic() - before >= 4 * 0.02 - 0.005  # one turn each, 1/50 s apart
