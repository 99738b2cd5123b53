"""Worker processes die with the bot, even when it is killed with SIGKILL."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot import workers

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")

ROOT = Path(__file__).resolve().parents[2]

# A process that starts its workers like the bot does, has them do a task, says so, and waits.
BOT_LIKE = """
import asyncio, sys
from bot import workers
workers.start(2)
assert asyncio.run(workers.offload(pow, 2, 10)) == 1024
print("ready", flush=True)
sys.stdin.read()
"""


def stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a live process, None if gone (or a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return None if state in ("Z", "X") else (state, int(ppid))


def descendants(root: int) -> set[int]:
    """Every live process below ``root``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (info := stat(int(entry.name))) is not None:
            children.setdefault(info[1], []).append(int(entry.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def start_bot_like() -> tuple[subprocess.Popen[str], set[int]]:
    proc = subprocess.Popen([sys.executable, "-c", BOT_LIKE], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    readable, _, _ = select.select([proc.stdout], [], [], 120)
    if not readable:
        kill(proc)
        raise AssertionError("the bot-like process did not start its workers")
    assert proc.stdout.readline().strip() == "ready"
    return proc, descendants(proc.pid)


def wait_gone(pids: set[int], timeout: float = 20.0) -> set[int]:
    """Poll until none of ``pids`` is alive or the deadline passes; the survivors."""
    deadline = time.monotonic() + timeout
    alive = {p for p in pids if stat(p) is not None}
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = {p for p in alive if stat(p) is not None}
    return alive


def kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


def test_kill_9_leaves_nothing_behind_even_in_a_crash_loop() -> None:
    proc, below = start_bot_like()
    # Two pool workers and the multiprocessing resource tracker.
    assert len(below) >= 3, below
    kill(proc)
    assert wait_gone(below) == set()
    started: set[int] = set()
    for _ in range(2):  # restarted at once, killed again: nothing piles up
        proc, below = start_bot_like()
        assert len(below) >= 3, below
        started |= below
        kill(proc)
    assert wait_gone(started) == set()


def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    code = "from bot import workers; workers.die_with_parent(1); print('alive')"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 1 and "alive" not in result.stdout


async def test_offload_runs_in_a_worker_process_and_stops_cleanly() -> None:
    workers.start(1)
    try:
        assert await workers.offload(os.getpid) != os.getpid()
    finally:
        workers.stop()
    assert await workers.offload(os.getpid) == os.getpid()  # threads again


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="needs SCHED_IDLE (Linux)")
async def test_background_work_runs_at_nice_19_under_sched_idle() -> None:
    workers.start_background(1)
    try:
        assert await workers.offload_background(os.getpid) != os.getpid()
        assert await workers.offload_background(os.getpriority, os.PRIO_PROCESS, 0) == 19
        assert await workers.offload_background(os.sched_getscheduler, 0) == os.SCHED_IDLE
    finally:
        workers.stop_background()
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot itself is untouched


def start_and_sleep(path: str) -> None:
    Path(path).touch()
    time.sleep(3600)


async def test_stopping_the_background_kills_the_work_under_way(tmp_path: Path) -> None:
    """A bot that stops never waits for a field table or a review: the background
    process is killed (work under way is made again when next needed)."""
    workers.start_background(1)
    try:
        pid = await workers.offload_background(os.getpid)
        started = tmp_path / "started"
        sleeping = asyncio.ensure_future(workers.offload_background(start_and_sleep,
                                                                    str(started)))
        while not started.exists():  # the job has reached the process
            await asyncio.sleep(0.01)
        assert not sleeping.done()
    finally:
        workers.stop_background()  # with a wait, this would last an hour
    with pytest.raises(BrokenProcessPool):
        await sleeping
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def process_state(pid: int) -> str:
    """The kernel's one-letter state of a process (``T``: stopped)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
async def test_live_work_holds_the_background_until_it_is_done() -> None:
    """A click or a drawing stops the background processes (fields, reviews) and a
    quiet moment lets them run again; a stopping bot kills them held or not."""
    workers.start_background(1)
    try:
        pid = await workers.offload_background(os.getpid)
        workers.hold_background()
        while process_state(pid) != "T":
            await asyncio.sleep(0.01)
        await workers.offload(os.getpid)  # live work while held: still held
        assert process_state(pid) == "T"
        workers.release_background()
        while process_state(pid) == "T":
            await asyncio.sleep(0.01)
        workers.hold_background()
        while process_state(pid) != "T":
            await asyncio.sleep(0.01)
    finally:
        workers.stop_background()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def wait_for_file(started: str, go: str) -> None:
    Path(started).touch()
    while not Path(go).exists():
        time.sleep(0.01)


def append_line(path: str, line: str) -> None:
    with open(path, "a") as file:
        file.write(line + "\n")


async def test_a_review_does_not_wait_behind_a_duplicate_field(tmp_path: Path) -> None:
    """The background's one process is busy; a field's tables are queued, then a
    review: the review runs next, the field's tables after it, in their order."""
    workers.start_background(1)
    try:
        started, go, log = (str(tmp_path / name) for name in ("started", "go", "log"))
        busy = asyncio.ensure_future(workers.offload_background(wait_for_file, started, go))
        while not Path(started).exists():
            await asyncio.sleep(0.01)
        field = [asyncio.ensure_future(workers.offload_background(append_line, log, f"field {i}"))
                 for i in range(3)]
        review = asyncio.ensure_future(workers.offload_background(
            append_line, log, "review", rank=workers.FOR_A_PERSON))
        await asyncio.sleep(0)  # every job has reached the gate
        Path(go).touch()
        await asyncio.gather(busy, review, *field)
    finally:
        workers.stop_background()
    assert Path(log).read_text().split("\n") == ["review", "field 0", "field 1", "field 2", ""]


async def test_the_gate_skips_work_cancelled_while_waiting() -> None:
    gate = workers.Gate(1)
    await gate.enter(workers.UNATTENDED)  # the slot is taken
    order: list[str] = []

    async def job(name: str, rank: int) -> None:
        await gate.enter(rank)
        order.append(name)
        gate.leave()

    tasks = {name: asyncio.ensure_future(job(name, rank))
             for name, rank in (("field", workers.UNATTENDED), ("gone", workers.FOR_A_PERSON),
                                ("review", workers.FOR_A_PERSON))}
    await asyncio.sleep(0)
    assert gate.waiting == 3
    tasks["gone"].cancel()
    await asyncio.sleep(0)
    assert gate.waiting == 2
    gate.leave()
    await asyncio.gather(tasks["field"], tasks["review"])
    assert order == ["review", "field"] and gate.busy == 0 and gate.waiting == 0
    with pytest.raises(asyncio.CancelledError):
        await tasks["gone"]


async def test_a_clicks_own_drawing_goes_to_the_first_free_worker() -> None:
    """Live work waits for a free worker in the order of arrival, except a click's own
    drawing (``workers.clicked``), which goes first: one busy worker, three others' panels
    queued, then a click; the click's work is the next to run."""
    workers.start(1)
    try:
        done: list[str] = []

        async def work(name: str, seconds: float, click: bool = False) -> None:
            if click:
                with workers.clicked():
                    await workers.offload(time.sleep, seconds)
            else:
                await workers.offload(time.sleep, seconds)
            done.append(name)

        busy = asyncio.create_task(work("busy", 0.3))
        await asyncio.sleep(0)  # it holds the one worker
        others = [asyncio.create_task(work(f"panel {i}", 0.01)) for i in range(3)]
        await asyncio.sleep(0)
        click = asyncio.create_task(work("click", 0.01, click=True))
        await asyncio.gather(busy, *others, click)
        assert done == ["busy", "click", "panel 0", "panel 1", "panel 2"]
    finally:
        workers.stop()


async def test_a_drawing_reads_the_state_once_a_worker_is_free() -> None:
    """A drawing that waits ``until_free`` reads the state once a worker could take it
    (not when it was queued), and the worker is not kept meanwhile."""
    workers.start(1)
    try:
        gate = workers._live
        assert gate is not None
        state = {"move": 1}

        async def panel() -> tuple[int, int]:
            await workers.until_free()
            seen = state["move"]
            return seen, await workers.offload(pow, seen, 2)

        await gate.enter(workers.LIVE)  # the one worker is busy
        drawing = asyncio.create_task(panel())
        await asyncio.sleep(0)
        assert gate.waiting == 1
        state["move"] = 3  # the table moved on while the drawing waited
        gate.leave()
        assert await asyncio.wait_for(drawing, 60) == (3, 9)
        assert gate.busy == 0 and gate.waiting == 0
    finally:
        workers.stop()
