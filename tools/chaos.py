"""When the database blinks: two bot processes, people clicking, and PostgreSQL failing.

``python -m tools.chaos`` starts a PostgreSQL cluster of its own (``ControlledPostgres``
from ``tests/postgres.py``), the local Discord with two gateway shards, and two bot
processes (``python -m bot`` with ``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``, one
``WORKER_PROCESSES`` each, ``DATABASE=postgresql://...``). It opens six Tichu tables,
three per shard, each of one person and three computer players of varied levels. Every
person keeps their hand panel open and, whenever it shows them a decision, thinks a
short while (a seeded random time) and decides, before, during and after the fault.
The tables' deal seeds are seeded too (``secrets.token_hex`` in the bot processes).

The scenarios (``--scenario``, all by default):

- ``restart``: the database stops (``pg_ctl -m fast stop``), stays away ``--outage``
  seconds, and starts again.
- ``kill``: the postmaster and all its children get SIGKILL; ``--outage`` seconds later
  the database starts again, with crash recovery.
- ``freeze``: every process of the database gets SIGSTOP for ``--outage`` seconds, then
  SIGCONT (a hung host: connections stay open and nothing answers).
- ``duplicate``: a third bot process with the ``SHARD_IDS`` of one of the two is
  started before a database restart, and a fourth with the other's right after it. They
  must wait (or stop, refused) and never drive: no table restored, no interaction
  answered, nothing written to Discord.
- ``click-kill``: the bot process of shard 1 gets SIGKILL in the middle of a person's
  click, twice: once after it stored the decision but before it showed the result (the
  emulator holds the result back), once after it acknowledged the click but before it
  did anything with it (the emulator holds back its answer to the acknowledgement). Each
  time it is started again with the same ``SHARD_IDS`` and the people go on.

For each it prints one row of figures, then the refusals the people read, notes, the
CPU used and every check that failed:

- ``recover s``: from the database's return (its start or thaw returned; for
  ``click-kill`` the new process's launch) until every table has stored a new action
  (the action log polled every 0.2 s).
- ``refused``: clicks refused from the fault until every table moved again.
- ``decisions``: decisions the people saw accepted (the panel redrawn, no refusal).
- ``lost``: accepted decisions missing from the stored action log; ``doubled``: stored
  actions of a person that no click accounts for (a click stored twice); ``unknown``:
  decisions whose outcome the person never learned (the process died under them), and of
  those how many were stored: once or not at all is right; ``ghost``: decisions refused
  but stored all the same (shown, not a failure). Moves are matched by the seat's move
  count their control carries, the once-a-deal decisions by time (:func:`reconcile`).
- ``twice``: interactions answered more than once, and messages edited by two processes
  in turn (every request to the emulated Discord is traced back to the bot process whose
  socket sent it).
- ``slowest s``: the longest a click waited for its answer (a result or a refusal).
- ``next deal``: tables that played on to a new deal after the fault.

A check fails when a table never moved again or took more than 10 s (``click-kill``: 30
s, since after a relaunch people see their open panels as the killed process left them
until the table's next change, and some wait before opening a new one); when a click waited
longer than twice ``DATABASE_TIMEOUT`` and 3 s; when a decision is lost or doubled; when
a duplicate process restored a table, answered or wrote anything while the process it
duplicates ran; when an interaction was answered twice or a message edited by two
processes in turn; when a bot process died, exited uncleanly or logged a traceback
(asyncpg's own "Failed to restore the pool connection floor" warnings excepted); when a
click was answered with the "something went wrong" sentence; when the emulator recorded
a broken Discord rule (an interaction the killed process never answered excepted); or
when a table did not reach its next deal. ``--scenario calm`` runs the same without any
fault, for comparison. ``tests/bot/test_chaos.py`` runs each scenario with a 3 s outage
(10 s for the freeze) and asserts that no check failed; ``--bot-root`` (the tests:
``CHAOS_BOT_ROOT``) runs the bot of another checkout, e.g. from before a fix.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import resource
import shutil
import tempfile
import textwrap
import time
import warnings
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
import psutil
from aiohttp import web

from bot.config import Settings
from bot.i18n import t
from bot.tables import ids
from engine.cards import format_cards
from tests.bot.driver import actionable, component
from tests.bot.processes import ROOT, BotProcess, bot_environment, table_message
from tests.emulator.errors import UserActionError
from tests.emulator.fixtures import fixture_rate_limits
from tests.emulator.models import InteractionRecord, MessageRecord
from tests.emulator.server import DiscordEmulator

if TYPE_CHECKING:
    # What the scenarios need of a PostgreSQL cluster (imported at run time only when
    # one is started).
    from tests.postgres import ControlledPostgres as Database

SCENARIOS = ("restart", "kill", "freeze", "duplicate", "click-kill")
CONTROL = "calm"
"""No fault at all, for comparison (``--scenario calm``): the same measures over a pause
as long as the outage."""
SHARDS = 2
RECOVERY_BOUND = 10.0
"""Seconds within which every table must store a new action once the database is back."""
ANSWER_MARGIN = 3.0
"""A click is answered (its result, or a refusal) within two database timeouts and this."""
LEVELS = ("easy", "normal", "hard")
DECISIONS = {"nogrand": "decline_grand", "exok": "exchange", "gift": "gift", "pass": "pass",
             "play": "play", "wish": "play", "phx": "play"}
"""The clicks that make a decision, and the stored action (``payload.do``) each makes."""
MOVES = frozenset({"play", "pass", "gift"})
"""Stored actions that count as a seat's moves (the seq in their controls' custom IDs)."""
WAITING_LINE = re.compile(r"held by another bot process|lease", re.IGNORECASE)
"""What a process logs while another one runs its shards."""
RESTORED_LINE = re.compile(r"restored (\d+) active tables")
TRACEBACK = "Traceback (most recent call last)"
LOG_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")
EXPECTED_TRACEBACKS = (
    # asyncpg's pool logs, with the traceback, each failed try at reopening its idle
    # connections while the server is away, and tries again by itself: the library's
    # account of the outage, not the bot's.
    "WARNING asyncpg.pool: Failed to restore the pool connection floor",
)
"""Log records whose traceback is expected during an outage."""

SITECUSTOMIZE = '''\
"""Written by tools/chaos.py: the bot process's ``secrets.token_hex`` (the tables' deal
seeds) drawn from a generator seeded by ``CHAOS_SEED``, so every run deals the same."""
import hashlib as _hashlib
import os as _os
import random as _random
import secrets as _secrets

_seed = _os.environ.get("CHAOS_SEED")
if _seed:
    _rng = _random.Random(_hashlib.sha256(_seed.encode()).digest())

    def _token_hex(nbytes=None):
        return _rng.randbytes(32 if nbytes is None else nbytes).hex()

    _secrets.token_hex = _token_hex

if _os.environ.get("CHAOS_QUICK_IMAGES"):
    # libwebp's least effort, as tests/bot/conftest.py's quick_webp does in process.
    try:
        import bot.render.encoding as _encoding

        _encoding.WEBP_METHOD = 0
    except Exception:
        pass
'''


@dataclass(frozen=True)
class ChaosConfig:
    """The knobs of a run. The defaults are the benchmark's (10 s outages)."""

    outage: float = 10.0
    tables: int = 6
    seed: int = 1
    think: tuple[float, float] = (0.3, 1.5)
    """A person's think time before each decision, min and max seconds."""
    ai_delay: float = 0.3
    edit_interval: float = 1.0
    """``TABLE_EDIT_INTERVAL`` of the bots."""
    workers: int = 1
    database_timeout: float = Settings.model_fields["database_timeout"].default
    watch_interval: float = Settings.model_fields["watch_interval"].default
    """``DATABASE_TIMEOUT`` and ``WATCH_INTERVAL`` of the bots: the benchmark runs the
    production defaults (10 s, 2 s); the tests shorter ones."""
    shard_lease: float = Settings.model_fields["shard_lease"].default
    warmup: int = 3
    """Decisions every person has seen accepted before the fault."""
    click_timeout: float = 30.0
    """Seconds a person waits for the answer to a click before giving up on it."""
    stall: float = 6.0
    """Seconds a person waits for their panel to ask something before opening a new one."""
    next_deal_timeout: float = 240.0
    """Seconds every table has, after the fault, to reach its next deal."""
    start_timeout: float = 60.0
    bot_root: Path = ROOT
    """Where the bot processes import ``bot`` from (another checkout, to measure it)."""
    quick_images: bool = False
    """The bots encode images with libwebp's least effort (the tests' setting)."""


# ---------------------------------------------------------------- the wire
@dataclass
class Hold:
    """A request to the emulated Discord that the tap holds back until ``release``:
    ``before`` it is applied (the bot's answer never arrives) or after it is applied but
    before the bot hears back (the bot waits for it)."""

    matches: Callable[[str, str, InteractionRecord | None, str], bool]
    before: bool
    caught: asyncio.Future[InteractionRecord] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())
    release: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Write:
    at: float
    wall: float
    process: str
    method: str
    path: str
    status: int


class Wiretap:
    """Every REST request of the bots to the emulated Discord, traced back to the bot
    process whose socket sent it (the emulator's peer port, looked up among the
    processes' connections), and requests held back on demand (:class:`Hold`).

    Install it before the emulator starts: it wraps the emulator's middleware."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.processes: dict[str, int] = {}
        self.ports: dict[int, str] = {}
        self.writes: list[Write] = []
        self.answers: dict[int, list[str]] = {}
        """Interaction id -> the processes that sent its initial response, in order."""
        self.edits: dict[int, list[str]] = {}
        """Message id -> the processes that edited it, in order."""
        self.cut: set[int] = set()
        """Interactions whose bot process was killed under them."""
        self.hold: Hold | None = None
        self._inner = emu.rest.middleware

    def install(self) -> None:
        assert self.emu._runner is None, "install the tap before the emulator starts"
        # Replacing a bound method is what a tap is; mypy only allows it to be silenced.
        self.emu.rest.middleware = self.middleware  # type: ignore[method-assign]

    def watch(self, name: str, pid: int) -> None:
        self.processes[name] = pid

    def forget(self, name: str) -> None:
        """The process is gone: its ports may serve another one now."""
        self.processes.pop(name, None)
        self.ports = {port: owner for port, owner in self.ports.items() if owner != name}

    def owner(self, request: web.Request) -> str:
        peer = request.transport.get_extra_info("peername") if request.transport else None
        if not peer or len(peer) < 2:
            return "?"
        port = int(peer[1])
        name = self.ports.get(port)
        if name is not None:
            return name
        for name, pid in list(self.processes.items()):
            try:
                connections = psutil.Process(pid).net_connections(kind="tcp")
            except psutil.Error:
                continue
            for conn in connections:
                if conn.raddr and conn.raddr.port == self.emu.port:
                    self.ports[conn.laddr.port] = name
        return self.ports.get(port, "?")

    def interaction_of(self, path: str) -> InteractionRecord | None:
        parts = path.split("/")
        if "interactions" in parts:
            i = parts.index("interactions")
            return self.emu.interaction_by_id(parts[i + 1]) if len(parts) > i + 1 else None
        if "webhooks" in parts:
            i = parts.index("webhooks")
            return self.emu.interaction_by_token(parts[i + 2]) if len(parts) > i + 2 else None
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        process = self.owner(request)
        method, path = request.method, request.path
        record = self.interaction_of(path)
        hold = self.hold
        if hold is not None and not hold.caught.done() and hold.matches(
                method, path, record, process):
            assert record is not None
            self.hold = None
            response: web.StreamResponse | None = None
            if not hold.before:
                response = await self._inner(request, handler)
                self._note(process, method, path, record, response.status)
            hold.caught.set_result(record)
            await hold.release.wait()
            if response is not None:
                return response
            return web.json_response({"message": "held back by the chaos harness", "code": 0},
                                     status=503)
        response = await self._inner(request, handler)
        self._note(process, method, path, record, response.status)
        return response

    def _note(self, process: str, method: str, path: str, record: InteractionRecord | None,
              status: int) -> None:
        if method == "GET":
            return
        self.writes.append(Write(time.monotonic(), time.time(), process, method, path, status))
        if record is not None and path.endswith("/callback"):
            self.answers.setdefault(record.id, []).append(process)
        if method == "PATCH" and "/messages/" in path:
            target = path.rsplit("/", 1)[1]
            if target == "@original" and record is not None:
                target = str(record.original_message_id or record.source_message_id or "")
            if target.isdigit():
                self.edits.setdefault(int(target), []).append(process)


# ---------------------------------------------------------------- people
@dataclass
class Attempt:
    """One decision a person clicked, and what they learned of it."""

    table: int
    kind: str
    """The stored action it makes (``payload.do``)."""
    token: int | None
    """The seat's move count in the control's custom ID (moves only)."""
    cards: tuple[str, ...] | None
    interaction: int
    at: float
    """Wall-clock time of the click."""
    mono: float
    outcome: str = "unknown"
    """``accepted``, ``refused`` or ``unknown``."""
    text: str = ""


@dataclass
class Click:
    """Any click of a person (decisions, steps, "My hand") and its outcome."""

    table: int
    action: str
    interaction: int
    mono: float
    outcome: str
    text: str = ""
    answer_s: float | None = None
    """Seconds from the click to its answer (None: no answer)."""


def card_names(encoded: str | None) -> tuple[str, ...] | None:
    cards = ids.decode_cards(encoded)
    return None if cards is None else tuple(sorted(format_cards(cards)))


class ChaosPerson:
    """A person at one table who keeps their hand panel open and decides from it whenever
    it asks (after a seeded think time), as :class:`tests.bot.driver.Person` does, and
    notes every click: the decisions with what they learned of each (:attr:`attempts`),
    and every click's outcome (:attr:`clicks`). The database may be down, the bot
    process dead: they keep trying, as people do."""

    def __init__(self, emu: DiscordEmulator, tap: Wiretap, user: Any, table: int,
                 rng: random.Random, config: ChaosConfig) -> None:
        self.emu = emu
        self.tap = tap
        self.user = user
        self.table = table
        self.rng = rng
        self.config = config
        self.panel: MessageRecord | None = None
        self.attempts: list[Attempt] = []
        self.clicks: list[Click] = []
        self.no_bot = 0
        """Clicks Discord could not deliver (the shard's process was down)."""
        self.reopened = 0
        self.failures: list[str] = []

    @property
    def accepted(self) -> int:
        return sum(1 for a in self.attempts if a.outcome == "accepted")

    async def run(self, stop: asyncio.Event) -> None:
        try:
            await self._run(stop)
        except Exception as error:  # noted as a failure of the harness, shown with the figures
            self.failures.append(f"table {self.table}: {type(error).__name__}: {error}"[:300])

    async def _run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            panel = self.panel
            if panel is None or panel.deleted:
                await self._open(stop)
                continue
            def asks(p: MessageRecord = panel) -> bool:
                return stop.is_set() or p.deleted or actionable(p)

            try:
                await self.emu.wait_for(asks, self.config.stall, what="a decision",
                                        channel=panel.channel_id)
            except TimeoutError:
                self.panel = None  # nothing asked for a while: open a fresh panel
                self.reopened += 1
                continue
            if stop.is_set() or panel.deleted:
                continue
            await self.think()
            if not stop.is_set() and not panel.deleted and actionable(panel):
                await self.decide(panel)

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.config.think))

    async def _open(self, stop: asyncio.Event) -> None:
        message = table_message(self.emu, self.table)
        button = None if message is None else component(message, "hand")
        if message is None or button is None:
            await self.think()
            return
        outcome, answer = await self.click(message, button.custom_id, None)
        if outcome == "accepted" and answer is not None:
            self.panel = answer
        elif not stop.is_set():
            await self.think()

    async def click(self, message: MessageRecord, custom_id: str,
                    values: list[str] | None, attempt: Attempt | None = None
                    ) -> tuple[str, MessageRecord | None]:
        """Click (or pick ``values``) and wait for the answer: ``accepted`` (the panel
        redrawn, or a new panel for "My hand"), ``refused`` (a sentence), ``unknown`` (no
        answer: the process died or gave none in time), ``no_bot`` or ``gone``."""
        parsed = ids.parse(custom_id)
        action = parsed.action if parsed is not None else custom_id
        wall = time.time()
        try:
            if values is None:
                handle = await self.emu.click(self.user, message, custom_id)
            else:
                handle = await self.emu.select(self.user, message, custom_id, values)
        except RuntimeError:  # no bot shard of this guild connected: the process is down
            self.no_bot += 1
            await self.think()
            return "no_bot", None
        except (UserActionError, LookupError):  # the message or control changed under them
            self.panel = None
            return "gone", None
        record = handle.record
        if attempt is not None:
            attempt.interaction, attempt.at, attempt.mono = record.id, wall, time.monotonic()
            self.attempts.append(attempt)
        tap = self.tap

        def settled() -> bool:
            return (record.result_message_id is not None or record.id in tap.cut
                    or (record.expired and not record.acknowledged))

        with contextlib.suppress(TimeoutError):
            await self.emu.wait_for(settled, self.config.click_timeout, what="an answer",
                                    channel=record.channel_id)
        answer = None if record.result_message_id is None else \
            self.emu.messages.get(record.result_message_id)
        mono = record.dispatched_at or time.monotonic()
        if answer is None:
            outcome, text = "unknown", ""
            self.panel = None
        elif answer.id == message.id or (action == "hand" and answer.buttons):
            outcome, text = "accepted", ""
        else:
            outcome, text = "refused", answer.content
        took = None if answer is None or record.settled_at is None else \
            record.settled_at - mono
        self.clicks.append(Click(self.table, action, record.id, mono, outcome, text, took))
        if attempt is not None:
            attempt.outcome, attempt.text = outcome, text
        return outcome, answer

    def _attempt(self, custom_id: str, kind: str, cards: tuple[str, ...] | None) -> Attempt:
        parsed = ids.parse(custom_id)
        token = parsed.seq if parsed is not None and kind in MOVES else None
        return Attempt(self.table, kind, token, cards, 0, 0.0, 0.0)

    async def decision(self, panel: MessageRecord, custom_id: str, values: list[str] | None,
                       cards: tuple[str, ...] | None = None) -> str:
        parsed = ids.parse(custom_id)
        assert parsed is not None
        kind = DECISIONS[parsed.action]
        outcome, _ = await self.click(panel, custom_id, values,
                                      self._attempt(custom_id, kind, cards))
        return outcome

    async def step(self, panel: MessageRecord, custom_id: str, values: list[str]) -> bool:
        outcome, _ = await self.click(panel, custom_id, values)
        return outcome == "accepted"

    async def decide(self, panel: MessageRecord) -> None:
        """One decision from the panel as it stands (several clicks for an exchange, or a
        play and its wish); a refused step ends the try, and the person comes back."""
        if (b := component(panel, "nogrand")) is not None:
            await self.decision(panel, b.custom_id, None)
            return
        if component(panel, "ex", "s") is not None:
            used: set[str] = set()
            for slot in range(3):
                select = component(panel, "ex", "s", arg=str(slot))
                if select is None:
                    return
                value = next((o.value for o in select.options if o.value not in used), None)
                if value is None:
                    return
                used.add(value)
                if not await self.step(panel, select.custom_id, [value]):
                    return
            ok = component(panel, "exok")
            if ok is not None and not ok.disabled:
                await self.decision(panel, ok.custom_id, None)
            return
        if (b := component(panel, "gift")) is not None:
            await self.decision(panel, b.custom_id, None)
            return
        kinds = component(panel, "kind", "s")
        if kinds is not None and self.rng.random() < 0.5:
            choice = self.rng.choice(kinds.options)
            if not await self.step(panel, kinds.custom_id, [choice.value]):
                return
        play = component(panel, "play", "s")
        passing = component(panel, "pass")
        if passing is not None and (play is None or self.rng.random() < 0.3):
            await self.decision(panel, passing.custom_id, None)
            return
        if play is None:
            return
        option = self.rng.choice(play.options)
        cards = card_names(option.value)
        outcome = await self.decision(panel, play.custom_id, [option.value], cards)
        if outcome != "accepted":
            return
        # A play that asks a question (the Mahjong's wish, the Phoenix's reading) was a
        # step: the decision is the answer.
        follow = component(panel, "wish", "s") or component(panel, "phx", "s")
        if follow is None:
            return
        self.attempts.pop()
        parsed = ids.parse(follow.custom_id)
        cards = card_names(parsed.arg if parsed is not None else None) or cards
        choice = self.rng.choice(follow.options)
        await self.decision(panel, follow.custom_id, [choice.value], cards)


# ---------------------------------------------------------------- the log
@dataclass
class Snapshot:
    at: float
    top: dict[int, int]
    before: dict[int, int]
    deals: dict[int, int]


class Monitor:
    """Polls the action log every ``interval`` s on a connection of its own (reconnecting
    through outages, never waiting more than a second): each table's last seq, its last
    seq stored before :attr:`cut`, and its deals begun."""

    QUERY = """
        SELECT table_id, max(seq) AS top,
               coalesce(max(seq) FILTER (WHERE created_at < $1), 0) AS before,
               count(*) FILTER (WHERE payload->>'do' IN ('grand_tichu', 'decline_grand'))
                   AS grands
        FROM actions WHERE table_id = ANY($2::bigint[]) GROUP BY table_id"""

    def __init__(self, url: str, tables: list[int], interval: float = 0.2) -> None:
        self.url = url
        self.tables = tables
        self.interval = interval
        self.cut = datetime.now(UTC)
        self.last: Snapshot | None = None
        self.moved: dict[int, float] = {}
        """Table -> when it was first seen with an action stored after :attr:`cut`."""
        self.watching = False
        self.changed = asyncio.Event()
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop polling: the loop ends by itself after its current query (a cancellation
        that lands inside asyncpg can leave the connection mid-operation, or be
        swallowed by a connect's wait on Python 3.11); cancelled only if it hangs."""
        self._stopping = True
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 5.0)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

    async def _run(self) -> None:
        while not self._stopping:
            try:
                if self._conn is None:
                    self._conn = await asyncpg.connect(self.url, timeout=1.0)
                rows = await self._conn.fetch(self.QUERY, self.cut, self.tables, timeout=1.0)
            except Exception:  # any failure of the poll: poll on a new connection
                # (an outage gives OSError, timeouts, PostgresError, InterfaceError; a
                # connection left mid-operation, asyncpg's InternalClientError)
                await self._drop()
            else:
                now = time.monotonic()
                shot = Snapshot(now, {r["table_id"]: r["top"] for r in rows},
                                {r["table_id"]: r["before"] for r in rows},
                                {r["table_id"]: (r["grands"] + 3) // 4 for r in rows})
                self.last = shot
                if self.watching:
                    for table in self.tables:
                        if table not in self.moved and shot.top.get(table, 0) > \
                                shot.before.get(table, 0):
                            self.moved[table] = now
                self.changed.set()
            await asyncio.sleep(self.interval)

    def watch(self, since: datetime) -> None:
        """From now on, note when each table stores an action made after ``since``."""
        self.cut = since
        self.moved = {}
        self.watching = True

    async def fresh(self) -> Snapshot:
        """A snapshot taken after this call."""
        now = time.monotonic()
        while self.last is None or self.last.at < now:
            self.changed.clear()
            await self.changed.wait()
        return self.last

    async def wait(self, done: Callable[[Snapshot], bool], timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if self.last is not None and done(self.last):
                return True
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), max(deadline - loop.time(), 0.01))
        return self.last is not None and done(self.last)

    async def wait_moved(self, tables: set[int], timeout: float) -> bool:
        """Until each of ``tables`` stored an action after the cut (see :meth:`watch`)."""
        return await self.wait(lambda _: set(self.moved) >= tables, timeout)


@dataclass
class Row:
    seq: int
    do: str
    by: str
    seat: int | None
    cards: tuple[str, ...] | None
    created: float
    moves_before: int


async def stored_rows(url: str, tables: Iterable[int], seat: int = 0) -> dict[int, list[Row]]:
    """Each table's stored actions of ``seat``, in order, with the seat's move count
    before each (all of them, whoever made them: the person, a computer, the timer)."""
    conn = await asyncpg.connect(url, timeout=10.0)
    try:
        records = await conn.fetch(
            "SELECT table_id, seq, payload::text AS payload, created_at FROM actions "
            "WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, seq", list(tables))
    finally:
        await conn.close()
    import json

    out: dict[int, list[Row]] = {table: [] for table in tables}
    moves: Counter[int] = Counter()
    for record in records:
        payload = json.loads(record["payload"])
        if payload.get("seat") != seat:
            continue
        table = int(record["table_id"])
        do = str(payload.get("do"))
        cards = payload.get("cards")
        out[table].append(Row(int(record["seq"]), do, str(payload.get("by", "human")), seat,
                              None if cards is None else tuple(sorted(cards)),
                              record["created_at"].timestamp(), moves[table]))
        if do in MOVES:
            moves[table] += 1
    return out


@dataclass
class Reconciled:
    """One seat's (or, summed with :meth:`add`, a scenario's) decisions matched with
    the stored actions."""

    decisions: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    ghost: list[str] = field(default_factory=list)
    unknown: int = 0
    unknown_stored: int = 0

    def add(self, other: Reconciled, table: int) -> None:
        """Count ``other`` (one seat of ``table``) in these figures."""
        self.decisions += other.decisions
        self.lost += other.lost
        self.doubled += [d.replace("table ?", f"table {table}") for d in other.doubled]
        self.ghost += other.ghost
        self.unknown += other.unknown
        self.unknown_stored += other.unknown_stored


def reconcile(attempts: list[Attempt], rows: list[Row]) -> Reconciled:
    """Match one seat's decisions with its stored actions.

    A move (a play, a pass, a gift) is matched by the seat's move count its control
    carried, which is the count of the seat's moves stored before it, and must be the
    same kind of action with the same cards. The other decisions (the Grand Tichu
    choice, the exchange) come once a deal: each stored one goes to the last click of
    that kind made before it was stored. Then an accepted decision matched by nothing is
    lost, a stored action of the person that no click accounts for is doubled, and a
    refused one that was stored all the same is a ghost."""
    result = Reconciled()
    human = [r for r in rows if r.by == "human"]
    claimed: dict[int, list[Row]] = {id(a): [] for a in attempts}
    unclaimed: list[Row] = []
    by_move = {r.moves_before: r for r in rows if r.do in MOVES}
    move_attempts: dict[int, list[Attempt]] = {}
    for attempt in attempts:
        if attempt.kind in MOVES and attempt.token is not None:
            move_attempts.setdefault(attempt.token, []).append(attempt)
    for row in human:
        if row.do in MOVES:
            candidates = [a for a in move_attempts.get(row.moves_before, [])
                          if a.kind == row.do and (a.cards is None or a.cards == row.cards)]
            # Several clicks with one token: the one made last before the row was stored.
            before = [a for a in candidates if a.at <= row.created + 0.5] or candidates
            if before:
                claimed[id(before[-1])].append(row)
            else:
                unclaimed.append(row)
        else:
            same = [a for a in attempts if a.kind == row.do and a.at <= row.created + 0.5]
            if same:
                claimed[id(same[-1])].append(row)
            else:
                unclaimed.append(row)
    for attempt in attempts:
        got = claimed[id(attempt)]
        where = f"table {attempt.table} {attempt.kind}" + (
            f" #{attempt.token}" if attempt.token is not None else "") + (
            f" {' '.join(attempt.cards)}" if attempt.cards else "")
        if attempt.outcome == "accepted":
            result.decisions += 1
            if not got:
                slot = by_move.get(attempt.token) if attempt.token is not None else None
                also = f" (move stored by {slot.by}: {slot.do})" if slot is not None else ""
                result.lost.append(where + also)
        elif attempt.outcome == "refused" and got:
            result.ghost.append(f"{where}, refused with {attempt.text!r}")
        elif attempt.outcome == "unknown":
            result.unknown += 1
            result.unknown_stored += bool(got)
        for extra in got[1:]:
            result.doubled.append(f"{where}: stored again as seq {extra.seq}")
    for row in unclaimed:
        result.doubled.append(f"table ? seq {row.seq}: {row.do} by the person, no click for it")
    return result


def logged_at(line: str) -> float | None:
    """The time (``time.time()``) of a log record, from its local-time stamp."""
    match = LOG_RECORD.match(line)
    if match is None:
        return None
    try:
        return datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
    except ValueError:
        return None


def tracebacks(lines: list[str]) -> tuple[list[str], list[str]]:
    """The tracebacks of a process's log, each as "the log record -> the exception"
    (chained ones count once): those not expected, and the expected ones."""
    errors: list[str] = []
    expected: list[str] = []
    record = ""
    for i, line in enumerate(lines):
        if LOG_RECORD.match(line):
            record = line
            continue
        if TRACEBACK not in line:
            continue
        previous = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        if previous.startswith(("During handling of the above exception",
                                "The above exception was the direct cause")):
            continue
        j = i + 1
        while j < len(lines) and (lines[j].startswith((" ", "\t")) or not lines[j].strip()):
            j += 1
        error = lines[j] if j < len(lines) else "?"
        # The last exception of a chain is the one raised.
        k = j
        while k + 1 < len(lines) and not LOG_RECORD.match(lines[k + 1]):
            k += 1
            if lines[k] and not lines[k].startswith((" ", "\t", "Traceback", "During",
                                                     "The above")):
                error = lines[k]
        message = LOG_RECORD.sub("", record, count=1)[:120] if record else "(no log record)"
        text = f"{message} -> {error[:160]}"
        if record and any(pattern in record for pattern in EXPECTED_TRACEBACKS):
            expected.append(text)
        else:
            errors.append(text)
    return errors, expected


# ---------------------------------------------------------------- figures
@dataclass
class Figures:
    """What one scenario measured, and the checks that failed (:attr:`problems`)."""

    scenario: str
    outage: float
    tables: int
    recover_s: float | None = None
    never_moved: list[int] = field(default_factory=list)
    refused: int = 0
    refused_total: int = 0
    refusal_texts: Counter[str] = field(default_factory=Counter)
    matched: Reconciled = field(default_factory=Reconciled)
    """The people's decisions matched with the stored actions."""
    twice: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    """What the duplicate processes did that they must not."""
    deaths: list[str] = field(default_factory=list)
    tracebacks: dict[str, list[str]] = field(default_factory=dict)
    next_deal: int = 0
    violations: Counter[str] = field(default_factory=Counter)
    no_bot: int = 0
    slowest_s: float = 0.0
    """The longest a click waited for its answer."""
    answer_bound: float = 0.0
    recovery_bound: float = RECOVERY_BOUND
    """The database scenarios' bound (the issue's 10 s from the database's return). A
    relaunched bot process (``click-kill``) is held to moving again at all: after its
    start its people see their open panels as the killed process left them until the
    table's next change, and some wait before they open a new one."""
    cpu_s: float = 0.0
    cpu_split: dict[str, float] = field(default_factory=dict)
    """CPU seconds of the bot processes (with their workers), PostgreSQL and this process."""
    wall_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    harness: list[str] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """Every check that failed, in words (empty: the scenario passed)."""
        out = list(self.harness)
        if self.recover_s is None:
            out.append(f"tables {self.never_moved} never stored a new action after the fault")
        elif self.recover_s > self.recovery_bound:
            out.append(f"the tables took {self.recover_s:.1f} s to move again "
                       f"(bound {self.recovery_bound:g} s)")
        if self.slowest_s > self.answer_bound:
            out.append(f"a click waited {self.slowest_s:.1f} s for its answer (bound "
                       f"{self.answer_bound:g} s: the database's timeout twice and "
                       f"{ANSWER_MARGIN:g} s)")
        matched = self.matched
        if matched.lost:
            out.append(f"{len(matched.lost)} accepted decisions lost: {matched.lost[:5]}")
        if matched.doubled:
            out.append(f"{len(matched.doubled)} decisions stored twice: {matched.doubled[:5]}")
        if self.twice:
            out.append(f"driven twice: {self.twice[:5]}")
        if self.duplicates:
            out.append(f"a duplicate process acted: {self.duplicates[:5]}")
        if self.deaths:
            out.append(f"bot processes died or stopped badly: {self.deaths}")
        for name, found in self.tracebacks.items():
            out.append(f"{name} logged {len(found)} tracebacks: {found[:3]}")
        internal = t("en", "error.internal")
        if self.refusal_texts.get(internal):
            out.append(f"{self.refusal_texts[internal]} clicks answered {internal!r}")
        if self.next_deal < self.tables:
            out.append(f"only {self.next_deal} of {self.tables} tables reached their next deal")
        if self.violations:
            out.append(f"Discord rules broken: {dict(self.violations)}")
        return out

    def describe(self) -> str:
        """The figures, the refusals, the failed checks and the bot processes' logs (the
        tail of each), for a failed test."""
        lines = [header(), row(self)]
        lines += [f"  refused with: {text!r} x{n}" for text, n in self.refusal_texts.items()]
        lines += [f"  note: {note}" for note in self.notes]
        split = ", ".join(f"{k} {v:.0f}" for k, v in self.cpu_split.items())
        lines.append(f"  {self.wall_s:.0f} s, CPU s: {split}")
        lines += [f"  FAILED: {problem}" for problem in self.problems()]
        for name, log in self.logs.items():
            tail = log.splitlines()[-60:]
            lines.append(f"--- {name} (last {len(tail)} lines)")
            lines += tail
        return "\n".join(lines)


def header() -> str:
    return (f"{'scenario':<11} {'outage':>6} {'recover s':>9} {'refused':>7} {'decisions':>9} "
            f"{'lost':>4} {'doubled':>7} {'unknown':>7} {'ghost':>5} {'twice':>5} "
            f"{'slowest s':>9} {'next deal':>9} {'CPU s':>6} {'result':>7}")


def row(f: Figures) -> str:
    recover = "never" if f.recover_s is None else f"{f.recover_s:.1f}"
    m = f.matched
    unknown = f"{m.unknown}/{m.unknown_stored}" if m.unknown else "0"
    result = "ok" if not f.problems() else "FAILED"
    return (f"{f.scenario:<11} {f.outage:>5g}s {recover:>9} {f.refused:>7} {m.decisions:>9} "
            f"{len(m.lost):>4} {len(m.doubled):>7} {unknown:>7} {len(m.ghost):>5} "
            f"{len(f.twice):>5} {f.slowest_s:>9.1f} {f.next_deal:>5}/{f.tables:<3} "
            f"{f.cpu_s:>6.0f} {result:>7}")


def preamble(config: ChaosConfig) -> str:
    return (f"{config.tables} Tichu tables of one person and three computers over two bot "
          f"processes (SHARD_COUNT=2, WORKER_PROCESSES={config.workers}) on PostgreSQL; "
          f"outage {config.outage:g} s; people think {config.think[0]:g}-{config.think[1]:g} s; "
          f"AI_DELAY={config.ai_delay:g}, DATABASE_TIMEOUT={config.database_timeout:g}, "
          f"WATCH_INTERVAL={config.watch_interval:g}, SHARD_LEASE={config.shard_lease:g}; "
          f"{psutil.cpu_count()} CPU cores shared")


def report(rows: list[Figures]) -> None:
    """What goes with the table of figures: the refusals, notes, CPU and failed checks of
    each scenario, and what the columns mean."""
    for f in rows:
        for text, n in f.refusal_texts.most_common():
            print(f"  {f.scenario}: refused {n}x {text!r}")
        for note in f.notes:
            print(f"  {f.scenario}: {note}")
        split = ", ".join(f"{k} {v:.0f}" for k, v in f.cpu_split.items())
        print(f"  {f.scenario}: {f.wall_s:.0f} s, CPU s: {split}")
        for problem in f.problems():
            print(f"  {f.scenario} FAILED: {textwrap.shorten(problem, 400)}")
    print("recover s: from the database's return (start or thaw returned; click-kill: the "
          "new process's launch) until every table stored a new action, bound "
          f"{RECOVERY_BOUND:g} s (click-kill: {RECOVERY_BOUND * 3:g} s). slowest s: the longest a click waited for its answer, bound "
          f"2 x DATABASE_TIMEOUT + {ANSWER_MARGIN:g} s. refused: clicks refused from the "
          "fault until every table moved again. lost: accepted decisions not stored; doubled: stored actions of a "
          "person no click accounts for; unknown: decisions whose outcome the person never "
          "learned / of them stored; ghost: refused but stored; twice: interactions answered "
          "twice, messages edited by two processes in turn. CPU s: bots, their workers, "
          "PostgreSQL and this process.")


# ---------------------------------------------------------------- the world
@dataclass
class Launched:
    name: str
    shard: int
    process: BotProcess
    killed: bool = False
    duplicate: bool = False
    launched_at: float = 0.0
    ended_at: float | None = None
    """When the process ended (``time.time()``), if it did."""
    original: Launched | None = None
    """For a duplicate: the process that runs its shard."""

    def alive_at(self, moment: float) -> bool:
        return self.ended_at is None or moment < self.ended_at

    @property
    def original_name(self) -> str:
        return self.original.name if self.original is not None else "another process"


class Chaos:
    """One scenario's world: the database, the local Discord (with the tap), the bot
    processes, the tables and their people."""

    def __init__(self, scenario: str, pg: Database, config: ChaosConfig, workdir: Path) -> None:
        self.scenario = scenario
        self.pg = pg
        self.config = config
        self.workdir = workdir
        self.url = ""
        self.emu = DiscordEmulator(shard_count=SHARDS, rate_limits=fixture_rate_limits())
        self.tap = Wiretap(self.emu)
        self.bots: list[Launched] = []
        self.people: list[ChaosPerson] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.stop = asyncio.Event()
        self.tables: list[int] = []
        self.shard_of: dict[int, int] = {}
        self.monitor: Monitor | None = None
        self.figures = Figures(scenario, config.outage, config.tables)
        self.expected_silence: set[int] = set()
        self.dark: list[list[float | int]] = []
        """[shard, killed at, seen down at]: a click made in between is dispatched to the
        dead process's socket, before the emulator sees it closed."""
        """Interactions that may go unanswered: their process was killed under them."""
        self.hook = workdir / "chaos-hook"
        self.pg_cpu: dict[int, float] = {}
        self.on_return: Callable[[], Awaitable[None]] | None = None
        self.waiters: list[asyncio.Task[None]] = []
        """What the scenario does the moment the database is back."""
        self.fault_at = 0.0
        self.back_at = 0.0
        self.window = (0.0, 0.0)
        """From the fault until every table moved again: the clicks refused in it count."""

    # -- processes
    async def launch(self, name: str, shard: int, *, duplicate: bool = False,
                     **settings: Any) -> Launched:
        config = self.config
        env = bot_environment(
            self.emu, self.url, shard_count=SHARDS, shard_ids=shard,
            worker_processes=config.workers, ai_delay=config.ai_delay,
            table_edit_interval=config.edit_interval,
            database_timeout=config.database_timeout, watch_interval=config.watch_interval,
            shard_lease=config.shard_lease, **settings)
        env["PYTHONPATH"] = os.pathsep.join([str(self.hook), str(config.bot_root)])
        env["TICHU_ASSETS_DIR"] = str(ROOT / "assets")
        env["CHAOS_SEED"] = f"{config.seed}:{self.scenario}:{name}"
        if config.quick_images:
            env["CHAOS_QUICK_IMAGES"] = "1"
        cwd = self.workdir / name
        cwd.mkdir(parents=True, exist_ok=True)
        process = await BotProcess(name, env, cwd).start()
        launched = Launched(name, shard, process, duplicate=duplicate,
                            launched_at=time.monotonic())
        if duplicate:
            launched.original = next((b for b in self.bots if b.shard == shard and not
                                      b.duplicate and b.process.proc.returncode is None), None)
        self.tap.watch(name, process.proc.pid)
        self.bots.append(launched)
        self.waiters.append(asyncio.create_task(self._ended(launched)))
        return launched

    @staticmethod
    async def _ended(bot: Launched) -> None:
        await bot.process.proc.wait()
        bot.ended_at = time.time()

    async def ready(self, bot: Launched) -> None:
        await bot.process.wait_line("restored", timeout=self.config.start_timeout)
        await self.emu.wait_for(lambda: self.emu.is_ready(bot.shard), self.config.start_timeout,
                                what=f"shard {bot.shard} ready")

    def describe(self, interaction_id: int | None) -> str:
        """An interaction, for a failure's note: its control, shard and timing against
        the kills."""
        record = next((r for r in self.emu.interactions if r.id == interaction_id), None)
        if record is None:
            return f"interaction {interaction_id}"
        shard = None if record.guild_id is None else self.emu.shard_of(record.guild_id)
        kills = ", ".join(f"shard {w[0]} killed {record.created_at - w[1]:+.2f} s, seen down "
                          f"{record.created_at - w[2]:+.2f} s" for w in self.dark)
        return (f"interaction {record.id} ({record.data.get('custom_id') or record.name}) "
                f"on shard {shard}, acknowledged {record.acknowledged}, dispatched "
                f"{record.dispatched_at is not None}; made vs {kills or 'no kill'}")

    def silent(self, interaction_id: int) -> bool:
        """Whether an unanswered interaction is one a killed process took with it: not
        acknowledged when it was killed, or sent to its socket before the emulator saw
        that socket closed."""
        if interaction_id in self.expected_silence:
            return True
        record = next((r for r in self.emu.interactions if r.id == interaction_id), None)
        if record is None or record.guild_id is None:
            return False
        shard = self.emu.shard_of(record.guild_id)
        return any(window[0] == shard and window[1] <= record.created_at <= window[2]
                   for window in self.dark)

    async def kill(self, bot: Launched) -> None:
        """SIGKILL: interactions of its shard not yet acknowledged may go unanswered."""
        for record in self.emu.interactions:
            if record.guild_id is not None and self.emu.shard_of(record.guild_id) == bot.shard \
                    and not record.acknowledged:
                self.expected_silence.add(record.id)
        bot.killed = True
        window: list[float | int] = [bot.shard, time.monotonic(), math.inf]
        self.dark.append(window)
        self.sample_pg_cpu()
        await bot.process.kill()
        # Until the emulator sees the socket closed, it still dispatches to it.
        with contextlib.suppress(TimeoutError, AssertionError):
            await self.emu.wait_for(lambda: not self.emu.is_ready(bot.shard), 10.0,
                                    what=f"shard {bot.shard} seen down")
        window[2] = time.monotonic()
        self.tap.forget(bot.name)

    def sample_pg_cpu(self) -> None:
        with contextlib.suppress(Exception):
            root = psutil.Process(self.pg.pid())
            for proc in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    times = proc.cpu_times()
                    self.pg_cpu[proc.pid] = max(self.pg_cpu.get(proc.pid, 0.0),
                                                times.user + times.system)

    # -- setup
    async def setup(self) -> None:
        from tests.postgres import fresh_database

        self.hook.mkdir(parents=True, exist_ok=True)
        (self.hook / "sitecustomize.py").write_text(SITECUSTOMIZE)
        self.url = self.pg.url(await fresh_database(self.pg))
        self.tap.install()
        await self.emu.start()
        main = [await self.launch(f"shard{shard}", shard) for shard in range(SHARDS)]
        for bot in main:
            await self.ready(bot)
        await self.emu.wait_for_commands(["tichu"], timeout=self.config.start_timeout)
        guilds = [self.emu.add_guild(f"Chaos {shard}", shard=shard) for shard in range(SHARDS)]
        for i in range(self.config.tables):
            shard = i % SHARDS
            guild = guilds[shard]
            channel = self.emu.add_text_channel(guild, f"table-{i}")
            user = self.emu.add_user(f"person{i}")
            self.emu.add_member(guild, user)
            levels = LEVELS[i % 3:] + LEVELS[:i % 3]
            table = await self.open_table(channel, user, levels)
            self.tables.append(table)
            self.shard_of[table] = shard
            rng = random.Random(f"{self.config.seed}:{self.scenario}:{i}")
            self.people.append(ChaosPerson(self.emu, self.tap, user, table, rng, self.config))
        self.monitor = Monitor(self.url, self.tables)
        self.monitor.start()
        self.tasks = [asyncio.create_task(p.run(self.stop)) for p in self.people]

    async def open_table(self, channel: Any, user: Any, levels: tuple[str, ...]) -> int:
        """``/tichu new`` by the person, three computers of ``levels``, start; the table id."""
        emu = self.emu
        lobby = await (await emu.slash(user, channel, "tichu new", target=1000)).response()
        start = component(lobby, "start")
        assert start is not None, f"no lobby: {lobby.content!r}"
        parsed = ids.parse(start.custom_id)
        assert parsed is not None
        for seat, level in zip((1, 2, 3), levels, strict=True):
            cpu = component(lobby, "cpu", "s")
            assert cpu is not None, f"no computer menu: {lobby.content!r}"
            await (await emu.select(user, lobby, cpu.custom_id, [f"{seat}.{level}"])).response()
        await (await emu.click(user, lobby, start.custom_id)).response()
        await emu.wait_for(lambda: table_message(emu, parsed.table),
                           self.config.start_timeout, what=f"table {parsed.table}'s message")
        return parsed.table

    async def warm_up(self) -> None:
        """Until every person has seen ``warmup`` decisions accepted."""
        await self._until(lambda: all(p.accepted >= self.config.warmup for p in self.people),
                          self.config.next_deal_timeout, "the warm-up decisions")

    async def _until(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            failures = [f for p in self.people for f in p.failures]
            if failures:
                raise AssertionError(f"a person failed: {failures[0]}")
            await asyncio.sleep(0.2)

    # -- the fault and what follows
    async def recovery(self, back: float, cut: datetime, deals: dict[int, int]) -> None:
        """Measure until every table moved (bound: ``RECOVERY_BOUND`` and a margin), then
        until every table reached its next deal."""
        assert self.monitor is not None
        monitor = self.monitor
        monitor.watch(cut)
        moved = await monitor.wait_moved(set(self.tables), RECOVERY_BOUND * 3)
        f = self.figures
        if moved:
            f.recover_s = max(0.0, max(monitor.moved.values()) - back)
            end = max(monitor.moved.values())
        else:
            f.never_moved = [t for t in self.tables if t not in monitor.moved]
            end = time.monotonic()
        self.window = (self.fault_at, end)
        # A table that never moved again will not reach its next deal: wait for the others.
        going = [t for t in self.tables if t in monitor.moved]
        await monitor.wait(lambda s: all(s.deals.get(t, 0) > deals.get(t, 0) for t in going),
                           self.config.next_deal_timeout)
        last = monitor.last
        f.next_deal = sum(1 for t in self.tables
                          if last is not None and last.deals.get(t, 0) > deals.get(t, 0))

    async def before_fault(self) -> tuple[datetime, dict[int, int]]:
        """Wait for a moment when a person has a decision to make (so that at least one
        click meets the fault), then the cut: the time and each table's deals begun."""
        assert self.monitor is not None
        with contextlib.suppress(AssertionError):
            await self._until(lambda: any(p.panel is not None and not p.panel.deleted
                                          and actionable(p.panel) for p in self.people),
                              30.0, "a decision to make")
        shot = await self.monitor.fresh()
        self.fault_at = time.monotonic()
        return datetime.now(UTC), dict(shot.deals)

    async def blink(self, fault: str) -> None:
        """The database fails (``restart``, ``kill`` or ``freeze``) for the outage."""
        pg = self.pg
        cut, deals = await self.before_fault()
        self.sample_pg_cpu()
        if fault == "restart":
            await asyncio.to_thread(pg.stop, "fast")
        elif fault == "kill":
            await asyncio.to_thread(pg.kill)
        else:
            await asyncio.to_thread(pg.freeze)
        await asyncio.sleep(self.config.outage)
        if fault == "freeze":
            await asyncio.to_thread(pg.thaw)
        else:
            await asyncio.to_thread(pg.start)
        back = self.back_at = time.monotonic()
        if self.on_return is not None:
            await self.on_return()
        await self.recovery(back, cut, deals)

    # -- the end
    async def finish(self) -> Figures:
        """Stop the people, compare what they saw with the stored log, stop the bots and
        read their logs."""
        f = self.figures
        self.stop.set()
        self.emu.notify()
        _, late = await asyncio.wait(self.tasks, timeout=self.config.click_timeout + 10)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        f.harness += [failure for p in self.people for failure in p.failures]
        rows = await stored_rows(self.url, self.tables)
        for person in self.people:
            f.matched.add(reconcile(person.attempts, rows[person.table]), person.table)
            f.no_bot += person.no_bot
        start, end = self.window
        for person in self.people:
            for click in person.clicks:
                if click.outcome != "refused":
                    continue
                f.refused_total += 1
                f.refusal_texts[click.text] += 1
                f.refused += start <= click.mono <= end
        f.slowest_s = max((c.answer_s for p in self.people for c in p.clicks
                           if c.answer_s is not None), default=0.0)
        f.answer_bound = 2 * self.config.database_timeout + ANSWER_MARGIN
        if self.scenario == "click-kill":
            f.recovery_bound = RECOVERY_BOUND * 3  # as long as the harness waits
        if f.matched.ghost:
            f.notes.append(f"refused but stored: {f.matched.ghost[:3]}")
        if f.no_bot:
            f.notes.append(f"{f.no_bot} clicks found no bot connected for their shard")
        self.check_wire()
        self.sample_pg_cpu()
        # The duplicates first: stopping a process that runs a shard would let its
        # waiting duplicate take over (rightly) while the checks still read its log.
        for bot in sorted(self.bots, key=lambda b: not b.duplicate):
            if bot.killed:
                continue
            if bot.process.proc.returncode is not None:
                code = bot.process.proc.returncode
                refused = code == 3 and any("Not started" in line for line in bot.process.lines)
                if not (bot.duplicate and refused):
                    f.deaths.append(f"{bot.name} exited with {code} during the scenario")
                continue
            code = await bot.process.stop()
            if code != 0 and not bot.duplicate:
                f.deaths.append(f"{bot.name} exited with {code} when stopped")
        for bot in self.bots:
            self.check_log(bot)
            f.logs[bot.name] = bot.process.log()
        broken = [v for v in self.emu.violations
                  if v.interaction_id is None or not self.silent(v.interaction_id)]
        for kind, n in Counter(v.kind for v in broken).items():
            f.violations[kind] += n
        for violation in broken:
            f.notes.append(f"{violation.kind}: {self.describe(violation.interaction_id)}")
        if self.emu.unhandled_requests:
            f.violations["unhandled_request"] += len(self.emu.unhandled_requests)
        return f

    def check_wire(self) -> None:
        """No interaction answered twice or by two processes, no message edited by two
        processes in turn, nothing written by a duplicate process."""
        f = self.figures
        for iid, answers in self.tap.answers.items():
            if len(answers) > 1:
                f.twice.append(f"interaction {iid} answered by {answers}")
        for violation in self.emu.violations:
            if violation.kind == "already_acknowledged":
                f.twice.append(f"interaction {violation.interaction_id}: {violation.message}")
        for message, editors in self.tap.edits.items():
            known = [name for name in editors if name != "?"]
            runs = [name for i, name in enumerate(known) if i == 0 or known[i - 1] != name]
            if len(runs) != len(set(runs)):
                f.twice.append(f"message {message} edited by {' then '.join(runs)}")
        # A duplicate may take over once the process that runs its shard is gone (that
        # process's death is a failure of its own): what it did before counts.
        duplicates = {b.name: b for b in self.bots if b.duplicate}
        writes: Counter[str] = Counter()
        late: Counter[str] = Counter()
        for w in self.tap.writes:
            bot = duplicates.get(w.process)
            if bot is not None:
                if bot.original is None or bot.original.alive_at(w.wall):
                    writes[bot.name] += 1
                else:
                    late[bot.name] += 1
        for name, n in writes.items():
            f.duplicates.append(f"{name} sent {n} requests to Discord while "
                                f"{duplicates[name].original_name} ran its shard")
        for name, n in late.items():
            f.notes.append(f"{name} sent {n} requests to Discord after "
                           f"{duplicates[name].original_name} was gone")
        unknown = sum(1 for w in self.tap.writes if w.process == "?")
        if unknown:
            f.notes.append(f"{unknown} requests not traced to a process")

    def check_log(self, bot: Launched) -> None:
        f = self.figures
        lines = bot.process.lines
        errors, expected = tracebacks(lines)
        if errors:
            f.tracebacks[bot.name] = errors
        if expected:
            f.notes.append(f"{bot.name} logged {len(expected)} expected tracebacks "
                           f"({expected[0]})")
        if bot.duplicate:
            for line in lines:
                match = RESTORED_LINE.search(line)
                if match and int(match.group(1)) > 0:
                    at = logged_at(line)
                    if bot.original is not None and at is not None and \
                            not bot.original.alive_at(at):
                        f.notes.append(f"{bot.name} took over after {bot.original_name} was "
                                       f"gone: {line.strip()[:120]}")
                    else:
                        f.duplicates.append(f"{bot.name} while {bot.original_name} ran its "
                                            f"shard: {line.strip()[:140]}")
            if not any(WAITING_LINE.search(line) or "Not started" in line for line in lines):
                f.duplicates.append(f"{bot.name} never said it waits for another process")

    async def close(self) -> None:
        self.stop.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for task in self.waiters:
            task.cancel()
        await asyncio.gather(*self.waiters, return_exceptions=True)
        if self.monitor is not None:
            await self.monitor.close()
        for bot in self.bots:
            if bot.process._proc is not None and bot.process.proc.returncode is None:
                await bot.process.stop()
        hold = self.tap.hold
        if hold is not None:
            hold.release.set()
        await self.emu.close()


# ---------------------------------------------------------------- scenarios
async def scenario_blink(chaos: Chaos) -> None:
    await chaos.warm_up()
    await chaos.blink(chaos.scenario)


async def scenario_calm(chaos: Chaos) -> None:
    await chaos.warm_up()
    cut, deals = await chaos.before_fault()
    await asyncio.sleep(chaos.config.outage)
    await chaos.recovery(time.monotonic(), cut, deals)


async def scenario_duplicate(chaos: Chaos) -> None:
    """(a) A duplicate of shard 1 started before a restart, (b) one of shard 0 right
    after the database is back: both must wait without driving."""
    await chaos.warm_up()
    early = await chaos.launch("duplicate1-before", 1, duplicate=True)
    found = await _wait_waiting(early, chaos.config.start_timeout)
    if not found:
        chaos.figures.notes.append(f"{early.name} never logged that it waits")
    late: list[Launched] = []

    async def after_return() -> None:
        late.append(await chaos.launch("duplicate0-after", 0, duplicate=True))

    chaos.on_return = after_return
    await chaos.blink("restart")
    if late:
        await _wait_waiting(late[0], chaos.config.start_timeout)
    # Give them a few watch rounds to misbehave (the tables' next deal usually took longer).
    settle = max(5.0, 6 * chaos.config.watch_interval)
    await asyncio.sleep(max(0.0, chaos.back_at + settle - time.monotonic()))


async def _wait_waiting(bot: Launched, timeout: float) -> bool:
    """Until the process says it waits for another one (or stops, refused)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if any(WAITING_LINE.search(line) or "Not started" in line or RESTORED_LINE.search(line)
               for line in bot.process.lines):
            return True
        if bot.process.proc.returncode is not None:
            return False
        await asyncio.sleep(0.2)
    return False


def on_shard(chaos: Chaos, shard: int, record: InteractionRecord | None, process: str,
             name: str) -> bool:
    if record is None or process != name or record.guild_id is None:
        return False
    if chaos.emu.shard_of(record.guild_id) != shard:
        return False
    parsed = ids.parse(str(record.data.get("custom_id", "")))
    return parsed is not None and parsed.action in DECISIONS and parsed.action != "play"


async def scenario_click_kill(chaos: Chaos) -> None:
    """Kill shard 1's process mid-click twice: once holding back the result of a stored
    decision, once holding back Discord's answer to the acknowledgement."""
    await chaos.warm_up()
    _, deals = await chaos.before_fault()
    first: float | None = None
    for round_, (what, before) in enumerate((("result", True), ("acknowledgement", False))):
        victim = next(b for b in reversed(chaos.bots) if b.shard == 1 and not b.killed)
        name = victim.name

        def matches(method: str, path: str, record: InteractionRecord | None, process: str,
                    before: bool = before, name: str = name) -> bool:
            if not on_shard(chaos, 1, record, process, name):
                return False
            if before:  # the redrawn panel: the decision is stored, its result unseen
                return method == "PATCH" and path.endswith("/messages/@original")
            return method == "POST" and path.endswith("/callback")

        hold = Hold(matches, before)
        chaos.tap.hold = hold
        try:
            record = await asyncio.wait_for(hold.caught, chaos.config.next_deal_timeout)
        except TimeoutError:
            chaos.figures.harness.append(f"no decision click on shard 1 to cut ({what})")
            chaos.tap.hold = None
            return
        cut = datetime.now(UTC)
        await chaos.kill(victim)
        chaos.tap.cut.add(record.id)
        chaos.expected_silence.add(record.id)
        chaos.emu.notify()
        hold.release.set()
        chaos.figures.notes.append(
            f"killed {name} holding back the {what} of "
            f"{record.data.get('custom_id')} ({'stored' if before else 'not yet stored'})")
        again = await chaos.launch(f"shard1-again{round_ + 1}", 1)
        await chaos.ready(again)
        if round_ == 0:
            # Every table moves again before the second cut; the time counts too.
            monitor = chaos.monitor
            assert monitor is not None
            monitor.watch(cut)
            if await monitor.wait_moved(set(chaos.tables), RECOVERY_BOUND * 3):
                first = max(0.0, max(monitor.moved.values()) - again.launched_at)
            else:
                chaos.figures.never_moved = sorted(set(chaos.tables) - set(monitor.moved))
                chaos.window = (chaos.fault_at, time.monotonic())
                return
        else:
            await chaos.recovery(again.launched_at, cut, deals)
    f = chaos.figures
    if f.recover_s is not None and first is not None:
        f.notes.append(f"every table moved {first:.1f} s after the first new process's "
                       f"launch, {f.recover_s:.1f} s after the second's")
        f.recover_s = max(f.recover_s, first)


async def run_scenario(name: str, pg: Database, config: ChaosConfig, workdir: Path) -> Figures:
    """Run one scenario on ``pg`` (a cluster of its own: it is stopped, killed, frozen)
    with ``workdir`` for the processes' files; its figures."""
    if name not in (*SCENARIOS, CONTROL):
        raise ValueError(f"unknown scenario {name!r}: {', '.join(SCENARIOS)}")
    self0, children0 = _cpu()
    wall0 = time.monotonic()
    chaos = Chaos(name, pg, config, workdir)
    try:
        await chaos.setup()
        if name == "duplicate":
            await scenario_duplicate(chaos)
        elif name == "click-kill":
            await scenario_click_kill(chaos)
        elif name == CONTROL:
            await scenario_calm(chaos)
        else:
            await scenario_blink(chaos)
        figures = await chaos.finish()
    except BaseException:
        for bot in chaos.bots:
            chaos.figures.logs[bot.name] = bot.process.log()
        raise
    finally:
        await chaos.close()
    self1, children1 = _cpu()
    figures.cpu_split = {"bots": children1 - children0, "postgres": sum(chaos.pg_cpu.values()),
                         "harness": self1 - self0}
    figures.cpu_s = sum(figures.cpu_split.values())
    figures.wall_s = time.monotonic() - wall0
    return figures


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its children that ended (the bot processes,
    with their workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


async def run_all(names: list[str], config: ChaosConfig) -> list[Figures]:
    from tests.postgres import ControlledPostgres

    rows = []
    for name in names:
        folder = Path(tempfile.mkdtemp(prefix=f"chaos-{name}-"))
        pg = await asyncio.to_thread(ControlledPostgres)
        try:
            figures = await run_scenario(name, pg, config, folder)
        finally:
            await asyncio.to_thread(pg.cleanup)
            shutil.rmtree(folder, ignore_errors=True)
        print(row(figures), flush=True)
        rows.append(figures)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.chaos",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scenario", action="append", choices=(*SCENARIOS, CONTROL),
                        help="a scenario to run (again for several; default: all)")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the database is away")
    parser.add_argument("--tables", type=int, default=6, help="tables, half on each shard")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the people's think times and of the deals")
    parser.add_argument("--bot-root", type=Path, default=ROOT,
                        help="the checkout the bot processes run (default: this one)")
    parser.add_argument("--think", default="0.3,1.5", help="a person's think time, min,max s")
    parser.add_argument("--ai-delay", type=float, default=0.3, help="AI_DELAY of the bots, s")
    parser.add_argument("--database-timeout", type=float, default=ChaosConfig.database_timeout,
                        help="DATABASE_TIMEOUT of the bots, s (default: the bot's default)")
    parser.add_argument("--watch-interval", type=float, default=ChaosConfig.watch_interval,
                        help="WATCH_INTERVAL of the bots, s (default: the bot's default)")
    parser.add_argument("--quick-images", action="store_true",
                        help="the bots encode images with the least effort (as the tests do)")
    parser.add_argument("--logs", action="store_true",
                        help="print the bot processes' logs of the scenarios that failed")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    low, high = (float(x) for x in args.think.split(","))
    config = ChaosConfig(outage=args.outage, tables=args.tables, seed=args.seed,
                         bot_root=args.bot_root.resolve(), think=(low, high),
                         ai_delay=args.ai_delay, quick_images=args.quick_images,
                         database_timeout=args.database_timeout,
                         watch_interval=args.watch_interval)
    names = args.scenario or list(SCENARIOS)
    print(preamble(config))
    print(header(), flush=True)
    rows = asyncio.run(run_all(names, config))  # one line of figures per scenario
    report(rows)
    if args.logs:
        for f in rows:
            if f.problems():
                print(f.describe())


if __name__ == "__main__":
    main()

