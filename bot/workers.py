"""Where the heavy work runs: drawing images and computer players' thinking.

By default in threads. The bot configures worker processes at start-up, so that
Pillow and a searching computer player never compete with the event loop for
the interpreter lock: the loop only answers Discord. Functions sent to workers
are plain module-level functions on immutable views, so they pickle.

Workers die with the bot. A bot killed with SIGKILL cannot shut its pool down,
and an idle worker would wait for work forever (it holds both ends of its
task pipe, so it never sees the pipe close). Each worker therefore asks the
kernel for SIGKILL when its parent dies (Linux), and a watchdog thread exits
it as soon as it has been handed to another parent (everywhere). The
multiprocessing resource tracker exits by itself once no process holds its
pipe any more, that is once the bot and its workers are gone.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
_executor: Executor | None = None
_background: Executor | None = None
"""Long work no table waits for (a duplicate board's computer field): its own process,
at the lowest CPU priority, so the workers of live tables always come first."""
BACKGROUND_NICE = 19

#: How often a worker checks that its parent is still alive (seconds).
PARENT_CHECK_INTERVAL = 0.2
_PR_SET_PDEATHSIG = 1


def start(processes: int) -> None:
    """Use ``processes`` worker processes from now on (0: threads)."""
    global _executor
    stop()
    if processes > 0:
        context = multiprocessing.get_context("spawn")
        _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                        initializer=_init_worker, initargs=(os.getpid(),))
        for _ in range(processes):
            _executor.submit(_warm_up)


def start_background(processes: int) -> None:
    """Run background work (:func:`offload_background`) in ``processes`` processes at the
    lowest CPU priority from now on (0: in a thread)."""
    global _background
    stop_background()
    if processes > 0:
        context = multiprocessing.get_context("spawn")
        _background = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                          initializer=_init_background,
                                          initargs=(os.getpid(),))


def stop_background() -> None:
    """Stop the background processes (queued work is dropped)."""
    global _background
    if _background is not None:
        _background.shutdown(wait=True, cancel_futures=True)
        _background = None


async def offload_background(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in the background processes if configured, else in a
    thread: work that must never slow a live table."""
    if _background is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_background, functools.partial(fn, *args, **kwargs))


def _init_background(parent_pid: int) -> None:
    """In each background process: die with the parent, and yield the CPU to everything
    else on the machine."""
    die_with_parent(parent_pid)
    os.nice(BACKGROUND_NICE)


def stop() -> None:
    """Stop the worker processes: queued work is dropped, the work under way finishes.

    It waits for them: left running (``wait=False``), the pool's manager thread may close
    its wake-up pipe just before the interpreter's exit hook writes to it, which prints
    an OSError traceback as the bot stops."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=True, cancel_futures=True)
        _executor = None


async def offload(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` off the event loop, in a worker process if configured."""
    if _executor is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor, functools.partial(fn, *args, **kwargs))


def _init_worker(parent_pid: int) -> None:
    """In each worker: die with the parent, then warm up."""
    die_with_parent(parent_pid)
    _warm_up()


def die_with_parent(parent_pid: int) -> None:
    """End this process when ``parent_pid`` (its parent) dies, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still covers it
    if os.getppid() != parent_pid:  # the parent died before we got here
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog",
                     daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_INTERVAL)
    os._exit(1)


def _warm_up() -> None:
    """Load fonts, card sprites and the palette once per worker, before the first table."""
    from bot.render import palette

    palette.warm_up()
