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
import contextlib
import ctypes
import functools
import heapq
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from engine import mlp

T = TypeVar("T")
_executor: Executor | None = None
_background: ProcessPoolExecutor | None = None
"""Long work no table waits for (a duplicate board's computer field): its own process,
at the lowest CPU priority, so the workers of live tables always come first."""
_lowered: set[int] = set()
"""The background processes already put at the lowest priority (by pid)."""
BACKGROUND_NICE = 19

#: How often a worker checks that its parent is still alive (seconds).
PARENT_CHECK_INTERVAL = 0.2
_PR_SET_PDEATHSIG = 1


def start(processes: int) -> None:
    """Use ``processes`` worker processes from now on (0: threads)."""
    global _executor, _live
    stop()
    if processes > 0:
        _live = Gate(processes)
        context = multiprocessing.get_context("spawn")
        _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                        initializer=_init_worker,
                                        initargs=(os.getpid(), mlp.chosen_directory()))
        for _ in range(processes):
            _executor.submit(_warm_up)


def start_background(processes: int) -> None:
    """Run background work (:func:`offload_background`) in ``processes`` processes at the
    lowest CPU priority from now on (0: in a thread)."""
    global _background, _gate
    stop_background()
    if processes > 0:
        _gate = Gate(processes)
        context = multiprocessing.get_context("spawn")
        _background = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                          initializer=_init_background,
                                          initargs=(os.getpid(), mlp.chosen_directory()))


LIVE_HOLD = 0.5
"""Seconds after the last live work (a click, a drawing, a computer's thinking) during
which the background processes stay stopped (:func:`hold_background`)."""
LONGEST_HOLD = 10.0
"""The background is held at most this long in a row; then it runs for
:data:`LIVE_HOLD` seconds even if live work goes on, so that fields and reviews finish
on a server that is never quiet (about 5% of the time)."""
_held: set[int] = set()
"""Background processes stopped (SIGSTOP) while live work is under way, by pid."""
_held_since: float | None = None
_release: asyncio.TimerHandle | None = None
_free_until = 0.0
"""The background runs until then whatever the live work (its turn after a long hold)."""


def hold_background() -> None:
    """Live work is under way: stop the background processes until :data:`LIVE_HOLD`
    seconds pass without live work. On a small machine even a SCHED_IDLE process slows
    the live tables (it shares the cores' caches and, on a virtual machine, the host's
    cores): measured with ``python -m tools.bench_duplicate``, the click p99 of 50 live
    tables was 1.5 times its figure without fields under SCHED_IDLE alone."""
    global _held_since, _release, _free_until
    if _background is None or not hasattr(signal, "SIGSTOP"):
        return
    loop = asyncio.get_running_loop()
    now = loop.time()
    if now < _free_until:
        return  # its turn to run
    if _held_since is not None and now - _held_since > LONGEST_HOLD:
        release_background()
        _free_until = now + LIVE_HOLD
        return
    for pid in list(_background._processes):
        if pid not in _held:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
            _held.add(pid)
    if _held_since is None:
        _held_since = now
    if _release is not None:
        _release.cancel()
    _release = loop.call_later(LIVE_HOLD, release_background)


def release_background() -> None:
    """Let the stopped background processes run again."""
    global _held_since, _release
    if _release is not None:
        _release.cancel()
        _release = None
    for pid in _held:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)
    _held.clear()
    _held_since = None


def stop_background() -> None:
    """Stop the background processes at once: queued work is dropped and work under way
    is killed, so a stopping bot never waits for a field table or a review (neither is
    stored until it is done, and both are made again when next needed)."""
    global _background, _gate
    release_background()
    if _gate is not None:
        _gate.drop()
        _gate = None
    if _background is not None:
        pool, _background = _background, None
        for process in list(pool._processes.values()):
            with contextlib.suppress(OSError):
                process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
    _lowered.clear()


class Gate:
    """Background work waits here for a free process, the work a person waits for
    first: a review queued behind a duplicate field (a dozen tables of computers) would
    otherwise wait for all of it. In the order of ``rank``, then of arrival."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, future in self._waiting if not future.done())

    async def enter(self, rank: int) -> None:
        """Wait for a free slot (then call :meth:`leave` when done)."""
        if self.busy < self.slots and not self.waiting:
            self.busy += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (rank, next(self._arrivals), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.leave()  # handed the slot just as it was cancelled: pass it on
            raise

    def leave(self) -> None:
        """Free a slot: the first waiting work takes it."""
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return
        self.busy -= 1

    def drop(self) -> None:
        """Cancel all the waiting work (the background is stopping)."""
        for _, _, future in self._waiting:
            future.cancel()
        self._waiting.clear()


FOR_A_PERSON = 0
"""Rank of background work a person waits for (a review they asked for)."""
UNATTENDED = 1
"""Rank of background work nobody is waiting on (a duplicate board's field)."""
_gate: Gate | None = None


async def offload_background(fn: Callable[..., T], /, *args: Any, rank: int = UNATTENDED,
                             **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in the background processes if configured, else in a
    thread: work that must never slow a live table. With processes, the work waits for
    a free one, in the order of ``rank`` (:data:`FOR_A_PERSON` first), then of arrival."""
    if _background is None or _gate is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    gate = _gate
    await gate.enter(rank)
    try:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(_background, functools.partial(fn, *args, **kwargs))
        _lower_new_background()
        return await future
    finally:
        gate.leave()


def _lower_new_background() -> None:
    """Put background processes the pool has just started at the lowest priority, from
    here: a spawned process imports the bot's main module (discord.py, aiohttp,
    pydantic: half a second of CPU) before its initializer runs, and that must not compete
    with live tables either. The pool starts its processes as work is submitted, so
    right after a submit each new one is still starting its interpreter."""
    if _background is None:
        return
    for pid in list(_background._processes):
        if pid not in _lowered:
            lowest_priority(pid)
            _lowered.add(pid)


def lowest_priority(pid: int = 0) -> None:
    """Give a process (0: this one) the lowest CPU priority: nice 19 and, on Linux, the
    SCHED_IDLE policy. Nice alone is not enough on a small machine: a waking process
    looks for an idle core, and a core running a nice-19 process is not one, so the bot
    or a worker often waits behind another busy process of the bot while the field's
    core is there to be taken; a core running only SCHED_IDLE work counts as idle. On
    the 2-core machine (``python -m tools.bench_duplicate``) nice alone put the p99 of
    live tables 35-40% above its figure without fields, SCHED_IDLE within noise of it."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, pid, BACKGROUND_NICE)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))


def _init_background(parent_pid: int, model_dir: Path | None) -> None:
    """In each background process: die with the parent, and yield the CPU to everything
    else on the machine (done from the parent already as it started, and again here);
    read every game's models from the bot's folder."""
    lowest_priority()
    die_with_parent(parent_pid)
    _read_models_from(model_dir)


def stop() -> None:
    """Stop the worker processes: queued work is dropped, the work under way finishes.

    It waits for them: left running (``wait=False``), the pool's manager thread may close
    its wake-up pipe just before the interpreter's exit hook writes to it, which prints
    an OSError traceback as the bot stops."""
    global _executor, _live
    if _live is not None:
        _live.drop()
        _live = None
    if _executor is not None:
        _executor.shutdown(wait=True, cancel_futures=True)
        _executor = None


CLICKED = 0
"""Rank of live work a person waits for as they click: the drawing of their own panel."""
LIVE = 1
"""Rank of the rest of the live work: the others' panels, the table messages, the
computers' thinking."""
_rank: ContextVar[int] = ContextVar("offload_rank", default=LIVE)
_live: Gate | None = None
"""The worker processes' slots: live work waits here for a free worker, a click's own
drawing first (:func:`clicked`), then in the order of arrival."""


@contextlib.contextmanager
def clicked() -> Iterator[None]:
    """The work offloaded within is a click's own answer (the clicker's panel): it goes
    to the first free worker ahead of the others' panels and the computers' thinking
    queued before it. A worker busy drawing four panels a move for a hundred tables in
    DMs otherwise made a click wait behind every panel of every table (``python -m
    tools.bench_direct``). Only the code inside: tasks it starts are not clicks."""
    token = _rank.set(CLICKED)
    try:
        yield
    finally:
        _rank.reset(token)


async def until_free() -> None:
    """Wait until a worker is free for work of this rank (a click's own first,
    :func:`clicked`), without keeping it: whoever reads the state to draw it just after
    draws it as it is once a worker could take it, not as it was when the drawing was
    queued. With a hundred tables in DMs the others' panels waited a minute and more
    behind the clicks, and were drawn from the state they were queued with (``python -m
    tools.bench_direct``). The worker is not held meanwhile (the drawing's own
    :func:`offload` waits for it again, a click that came meanwhile first): with one
    worker, holding it while the event loop reads the state and builds the panel's
    controls left it idle that long."""
    gate = _live
    if _executor is None or gate is None:
        return
    await gate.enter(_rank.get())
    gate.leave()


async def offload(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` off the event loop, in a worker process if configured
    (live work: the background processes are held meanwhile, :func:`hold_background`).
    With processes, the work waits for a free one, a click's own first (:func:`clicked`)."""
    hold_background()
    if _executor is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    executor, gate = _executor, _live
    loop = asyncio.get_running_loop()
    if gate is None:
        return await loop.run_in_executor(executor, functools.partial(fn, *args, **kwargs))
    await gate.enter(_rank.get())
    try:
        return await loop.run_in_executor(executor, functools.partial(fn, *args, **kwargs))
    finally:
        gate.leave()


def _init_worker(parent_pid: int, model_dir: Path | None) -> None:
    """In each worker: die with the parent, read every game's models from the bot's folder,
    then warm up."""
    die_with_parent(parent_pid)
    _read_models_from(model_dir)
    _warm_up()


def _read_models_from(model_dir: Path | None) -> None:
    """Read every game's models from the bot's ``MODEL_DIR`` (None: the shipped ones)."""
    mlp.use_directory(model_dir)


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
