"""Where the heavy work runs: drawing images and computer players' thinking.

By default in threads. The bot configures worker processes at start-up, so that
Pillow and a searching computer player never compete with the event loop for
the interpreter lock: the loop only answers Discord. Functions sent to workers
are plain module-level functions on immutable views, so they pickle.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
_executor: Executor | None = None


def start(processes: int) -> None:
    """Use ``processes`` worker processes from now on (0: threads)."""
    global _executor
    stop()
    if processes > 0:
        context = multiprocessing.get_context("spawn")
        _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                        initializer=_warm_up)
        for _ in range(processes):
            _executor.submit(_warm_up)


def stop() -> None:
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


async def offload(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` off the event loop, in a worker process if configured."""
    if _executor is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor, functools.partial(fn, *args, **kwargs))


def _warm_up() -> None:
    """Load fonts, card sprites and the palette once per worker, before the first table."""
    from bot.render import palette

    palette.warm_up()
