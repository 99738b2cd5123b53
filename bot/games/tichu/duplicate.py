"""Duplicate Tichu at the bot: the daily challenge and the board results.

Each UTC day brings the same boards to every server of a deployment, dealt from the
deployment's board secret (:class:`~bot.games.tichu.secret.BoardSecret`: ``BOARD_SECRET``,
else the random one the bot made at its first start and keeps in its store) with a keyed hash
(:func:`engine.duplicate.boards.daily_seed`); another deployment deals other boards, and
nobody without the secret can compute them. A day's seed is fixed in its event record
the first time the day is needed (a day ahead, for its field), and the computers on its
boards decide with a key derived from it (:func:`decision_key`).
A person plays each board once, alone: seat 0 with hard computers around, at a private
table (:attr:`bot.tables.Table.private`) shown only in their panel. Every result is
matchpointed against the board's computer field (a job, :mod:`bot.jobs` kind ``field``:
played once, in the background, and stored; the next day's boards' the day before) and
against the people who played the board.

The store holds the claims (one attempt per person and board, enforced by the database),
the results and the fields; a board's result is written when its deal ends
(:meth:`Duplicate.deal_ended`, a deal listener of the table service), and written again
from the table's stored actions whenever it is found missing (:meth:`Duplicate.repair`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from pydantic import SecretStr

from bot.games.tichu.boards import DECIDE_KEY, boards_of
from bot.games.tichu.secret import BoardSecret, decision_key
from bot.i18n import Text, join, t
from bot.i18n.names import card_label, combo_name
from bot.jobs import FIELD, FIELD_AHEAD, JobContext, JobFailed, Jobs
from bot.store.models import (
    BoardPlayer,
    BoardResult,
    EventRecord,
    FieldResult,
    Repository,
    StoreError,
    TableStatus,
)
from bot.tables import SeatKind, Table, TableError
from bot.tables.rules import LogEntry
from bot.tables.service import TableService
from engine.duplicate.boards import Board, daily_boards, daily_seed, keyed_seed, make_boards
from engine.duplicate.play import BoardsGame, board_replay, play_field_table
from engine.duplicate.scoring import Result, score
from engine.errors import EngineError
from engine.tichu.actions import CallTichu, Exchange, Gift, GrandTichu, Play
from engine.tichu.combos import Kind
from engine.tichu.game import TichuGame
from engine.tichu.replay import replay_game, to_replay
from engine.tichu.view import Phase

log = logging.getLogger(__name__)

DAILY_PREFIX = "daily:"
DAILY_LEVEL = "hard"
SEATS = 4
DAILY_OWNER = 0
"""The guild whose owner process plays the daily boards' fields (direct messages' guild,
on shard 0)."""
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""An event code's letters: none that reads as another (0 and O, 1 and I)."""
CODE_LENGTH = 6
QUEUED_FIELDS = 24
"""With the in-memory queue (SQLite), at most this many boards' fields wait or are played
at once for events (about a CPU-minute each at the default ``FIELD_TABLES``): past it,
``/tichu new duplicate:`` is refused before anything is written, until the queue has room
again. The daily boards' fields are queued whatever the queue holds (a few a day). The
queue in PostgreSQL has no such bound: workers on other machines play its fields."""
EVENT_CODE = re.compile(rf"[{CODE_LETTERS}]{{{CODE_LENGTH}}}")
DAILY_BOARD = re.compile(r"(?P<day>\d{4}-\d{2}-\d{2})/\d{1,2}")
EVENT_BOARD = re.compile(rf"ev:(?P<code>[{CODE_LETTERS}]{{{CODE_LENGTH}}})-\d{{1,2}}")


def utc_today(now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def daily_code(day: date) -> str:
    """The event code of a day's challenge: ``daily:2026-11-27``."""
    return f"{DAILY_PREFIX}{day.isoformat()}"


def end_of(day: date) -> float:
    """The wall-clock time the day ends (UTC midnight after it)."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC).timestamp()


def parse_day(text: str) -> date | None:
    """A ``YYYY-MM-DD`` day, or None."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def field_table(board: dict[str, Any], index: int, key: str = "") -> dict[str, Any]:
    """One computer table of a board's field (run in a background process), its
    computers keyed with the board's :func:`decision_key`: its direction-0 difference and
    its replay."""
    played = play_field_table(Board.from_json(board), DAILY_LEVEL, str(index + 1),
                              key=key.encode())
    return {"diff": played.diff(0), "replay": played.replay()}


def boards_of_event(event: EventRecord) -> list[Board]:
    """The boards an event deals: a day's daily boards, or an event's of tables."""
    if event.kind == "daily":
        day = parse_day(event.code.removeprefix(DAILY_PREFIX))
        if day is None:
            raise TableError("internal")
        return daily_boards(day, event.boards, seed=event.seed)
    return event_boards(event)


async def dealt_board(repo: Repository, board_id: str) -> tuple[Board, str] | None:
    """The board the store deals under ``board_id`` (from its event's seed), with its
    computers' :func:`decision_key`; None if no event of the store deals it."""
    daily, other = DAILY_BOARD.fullmatch(board_id), EVENT_BOARD.fullmatch(board_id)
    if daily is not None:
        code = f"{DAILY_PREFIX}{daily['day']}"
    elif other is not None:
        code = other["code"]
    else:
        return None
    event = await repo.get_event(code)
    if event is None:
        return None
    found = next((b for b in boards_of_event(event) if b.id == board_id), None)
    return None if found is None else (found, decision_key(event))


FIELD_JOB = "field"
"""The kind of the field jobs: one board's field, all its computer tables."""


def field_key(board_id: str) -> str:
    return f"{FIELD_JOB}:{board_id}"


async def make_field(ctx: JobContext, payload: dict[str, Any]) -> None:
    """A field job: play the board's computer tables (in the background, side by side) and
    store them, unless its field is stored already (the first write wins either way).

    The payload names the board (its id; a job queued before issue 51 gave the whole
    board, whose id alone is read); the board and its computers' key come from the
    store, so a job never plays a board other than the one the store deals, and its
    payload holds nothing of the board."""
    try:
        named = payload["board"]
        board_id = named.get("id") if isinstance(named, dict) else named
        if not isinstance(board_id, str) or not board_id:
            raise TypeError("no board id")
        tables = int(payload["tables"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JobFailed(f"field job {ctx.job_id}: its payload cannot be read "
                        f"({exc!r})") from None
    if await ctx.repo.field(board_id):
        return
    try:
        dealt = await dealt_board(ctx.repo, board_id)
    except (EngineError, TableError) as exc:
        raise JobFailed(f"field job {ctx.job_id}: board {board_id} cannot be dealt "
                        f"({exc!r})") from None
    if dealt is None:
        # A job queued before its day was dealt from the board secret: no board of the
        # store has that id yet; the day's own job plays its field.
        log.warning("board %s: no event deals it here; field job %s dropped", board_id,
                    ctx.job_id)
        return
    board, key = dealt
    data = board.to_json()
    played = await asyncio.gather(*(ctx.run(field_table, data, i, key)
                                    for i in range(tables)))
    results = [FieldResult(board=board.id, index=i, diff=p["diff"], replay=p["replay"])
               for i, p in enumerate(played)]
    await ctx.repo.save_field(board.id, results)
    log.info("board %s: field of %d tables stored", board.id, len(results))


@dataclass(frozen=True, slots=True)
class BoardReport:
    """One person's result on a board, with its two percentages."""

    board: Board
    number: int
    """The board's number in its event (1-based)."""
    diff: int
    field_pct: float | None
    """Against the field (None while the field is not played yet)."""
    field_tables: int
    """How many computer tables the field has."""
    people_pct: float
    """Against the people who played the board here (50 when alone)."""
    people: int
    """How many other people's results that compares with."""
    best: BoardResult | None
    """The best result here on the board (the person's own when it is the best)."""


@dataclass(frozen=True, slots=True)
class DayStanding:
    rank: int
    user_id: int
    name: str
    boards: int
    score: float


class Duplicate:
    """The daily challenge and the results of boards, over the table service."""

    def __init__(self, service: TableService, jobs: Jobs, *, boards: int = 4,
                 field_tables: int = 8, level: str = DAILY_LEVEL,
                 secret: SecretStr | None = None) -> None:
        self.service = service
        self.jobs = jobs
        self.boards = boards
        self.level = level
        """The computers a person plays a daily board with (the field is always hard)."""
        self.field_tables = field_tables
        self.secret = BoardSecret(secret)
        self._days: dict[date, list[Board]] = {}
        """The boards of the days dealt (a day's seed never changes once stored)."""
        self._queued: set[str] = set()
        """The boards whose field this process has queued (or found stored)."""
        self._boards_opening = asyncio.Lock()
        """Held while a daily board's table is found or opened and claimed, so that two
        clicks of one person at once find the first one's table (not a second table
        that the store's claim would refuse after it is written)."""
        service.results.deal_listeners.append(self.deal_ended)
        service.lobby.start_checks.append(self.claim_table)

    @property
    def repo(self) -> Repository:
        return self.service.repo

    # ------------------------------------------------------ the board secret
    async def open(self) -> None:
        """At start: the board secret, made and stored now if the store has none (the
        deployment's first start); see :meth:`BoardSecret.open`."""
        await self.secret.open(self.repo)

    async def board_key(self) -> bytes:
        """The key the boards are dealt from (:meth:`BoardSecret.key`)."""
        return await self.secret.key(self.repo)

    # ------------------------------------------------------------ the day
    async def day_boards(self, day: date) -> list[Board]:
        """The boards of ``day``, dealt from its event's seed (the day's event is made
        now, its seed from the board secret, if it was not yet)."""
        found = self._days.get(day)
        if found is None:
            event = await self.event(day)
            found = self._days[day] = daily_boards(day, event.boards, seed=event.seed)
        return found

    async def day_board_ids(self, day: date) -> list[str]:
        """The ids of the boards of ``day``, writing nothing (for what only shows them)."""
        event = await self.repo.get_event(daily_code(day))
        count = self.boards if event is None else event.boards
        return [f"{day.isoformat()}/{n}" for n in range(1, count + 1)]

    async def event(self, day: date) -> EventRecord:
        """The day's event record (made on first use, its seed the day's
        :func:`~engine.duplicate.boards.daily_seed` under the board secret: every server
        of the deployment gets the same boards; refused, ``board_secret``, if the secret
        cannot be used)."""
        code = daily_code(day)
        found = await self.repo.get_event(code)
        if found is None:
            seed = daily_seed(await self.board_key(), day)
            await self.repo.create_event(EventRecord(code=code, kind="daily", seed=seed,
                                                     boards=self.boards, guild_id=None,
                                                     host_id=None))
            found = await self.repo.get_event(code)
        assert found is not None
        return found

    async def mine(self, user_id: int, day: date) -> dict[str, BoardResult]:
        """The person's results of the day by board id (finished or not)."""
        return {r.board: r for r in await self.repo.user_results(user_id, daily_code(day))}

    async def open_board(self, *, day: date, number: int, user_id: int, name: str,
                         guild_id: int, locale: str, now: datetime | None = None) -> Table:
        """The person's table of board ``number`` of ``day``: the one they opened, or a new
        one (claimed first: a second attempt is refused by the store). A private table has
        no channel (0): it is seen in its person's panel only, and takes nothing of a
        channel's room for tables."""
        if day != utc_today(now):
            raise TableError("daily_other_day")
        boards = await self.day_boards(day)
        if not 1 <= number <= len(boards):
            raise TableError("forged")
        board = boards[number - 1]
        async with self._boards_opening:
            mine = (await self.mine(user_id, day)).get(board.id)
            if mine is not None:
                if mine.diff is not None:
                    raise TableError("daily_played")
                table = await self.service.core.get(mine.table_id)
            else:
                table = await self._open_board(board, day, user_id, name, guild_id, locale)
        return await self._resume(table, user_id)

    async def _open_board(self, board: Board, day: date, user_id: int, name: str,
                          guild_id: int, locale: str) -> Table:
        """A new table of a daily board for the person, claimed (every check is done)."""
        event = await self.event(day)
        key = decision_key(event)
        table = await self.service.lobby.open_lobby(
            game="tichu", guild_id=guild_id, channel_id=0, host_id=user_id,
            host_name=name, locale=locale,
            options={"boards": [board.to_json()], "private": True, "turn_timer": 0,
                     "finish_at": end_of(day), "event": event.code,
                     **({DECIDE_KEY: key} if key else {})})
        claim = BoardResult(board=board.id, event=event.code, table_id=table.id, direction=0,
                            guild_id=guild_id, players=[BoardPlayer(user_id, name)],
                            diff=None, replay=None)
        try:
            await self.repo.claim_board(claim)
        except StoreError as exc:
            # Only a click of this person in another bot process gets here (the store's
            # claim is the one check that spans processes): this table goes.
            await self.service.lobby.abandon(table.id, user_id, can_manage=True)
            if exc.code == "board_taken":
                raise TableError("daily_played") from None
            raise
        await self.field_soon(board)
        return table

    async def _resume(self, table: Table, user_id: int) -> Table:
        """The claimed board's table, playing: a table left in its lobby (the bot stopped
        while it was set up) gets its computers and starts now."""
        if table.status is TableStatus.LOBBY:
            for seat in range(1, SEATS):
                if table.kind(seat) is SeatKind.EMPTY:
                    await self.service.lobby.set_computer(table.id, user_id, seat, self.level)
            table = await self.service.lobby.start(table.id, user_id)
        if table.game is None:
            raise TableError("not_playing")
        return table

    async def prepare(self, day: date) -> None:
        """Have the fields of the day's boards played ahead of the people who play them,
        and the next day's, behind them, so that each day's fields are ready when it
        starts (the store is asked only about boards whose field this process has
        neither queued nor found; only in the process that owns the daily boards)."""
        if self.field_tables <= 0 or not self.service.shards.owns(DAILY_OWNER):
            return
        for when, priority in ((day, FIELD), (day + timedelta(days=1), FIELD_AHEAD)):
            try:
                boards = await self.day_boards(when)
            except TableError:
                return  # no board secret to deal from: said in the log already
            for board in boards:
                if board.id in self._queued:
                    continue
                if await self.repo.field(board.id):
                    self._queued.add(board.id)
                else:
                    await self.field_soon(board, priority=priority)

    # ------------------------------------------------------- event tables
    async def table_options(self, options: dict[str, Any], *, guild_id: int,
                            host_id: int) -> dict[str, Any]:
        """``/tichu new``'s options for a duplicate table: ``duplicate`` (a number of
        fresh boards, a new event whose code other tables join with) or ``event`` (a
        code: the same boards as that event's). Other tables' options pass as they are.

        Every refusal comes first (the options, the code, the room in the field queue);
        then the event is written and its boards' fields queued. The table service calls
        it as its opening's ``prepare``, after its own limits and before the table's rows."""
        options = dict(options)
        count = options.pop("duplicate", None)
        code = options.pop("event", None)
        if count is None and code is None:
            return options
        if count is not None and code is not None:
            raise TableError("duplicate_or_event")
        if options.get("practice"):
            raise TableError("practice_duplicate")  # no hints where results are compared
        if options.get("players", 4) != SEATS:
            raise TableError("duplicate_four")
        event: EventRecord | None = None
        if code is not None:
            code = str(code).strip().upper()
            event = await self.repo.get_event(code) if EVENT_CODE.fullmatch(code) else None
            if event is None or event.kind != "event":
                raise TableError("event_unknown")
            await self._check_field_room(
                sum(1 for b in event_boards(event) if b.id not in self._queued))
        else:
            await self._check_field_room(int(count))
            event = await self._new_event(int(count), guild_id, host_id)
        boards = event_boards(event)
        for board in boards:
            if board.id not in self._queued:
                await self.field_soon(board)
        key = decision_key(event)
        return {**options, "boards": [b.to_json() for b in boards], "event": event.code,
                **({DECIDE_KEY: key} if key else {})}

    async def _check_field_room(self, boards: int) -> None:
        """Refuse (``fields_busy``) an event whose ``boards`` new fields would take the
        in-memory queue past :data:`QUEUED_FIELDS`."""
        if self.field_tables <= 0 or self.jobs.durable or boards <= 0:
            return
        if await self.jobs.depth(FIELD_JOB) + boards > QUEUED_FIELDS:
            raise TableError("fields_busy")

    async def _new_event(self, count: int, guild_id: int, host_id: int) -> EventRecord:
        """A new event of ``count`` boards, dealt from the board secret and a random
        nonce of its own (kept nowhere but in its seed)."""
        key = await self.board_key()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            seed = keyed_seed(key, f"event:{code}:{secrets.token_hex(16)}")
            event = EventRecord(code=code, kind="event", seed=seed,
                                boards=count, guild_id=guild_id, host_id=host_id)
            if await self.repo.create_event(event):
                return event
        raise TableError("internal")  # 20 codes in a row taken: ~10^-150 with 5 events

    async def claim_table(self, table: Table) -> None:
        """Before a duplicate table starts (a start check of the table service): each
        board for each direction where people sit, all at once; refused if one of them
        has played one of the boards (one attempt per person and board)."""
        event = table.record.options.get("event")
        boards = boards_of(table.record.options)
        if table.private or boards is None or not isinstance(event, str):
            return
        seated = [seat.user_id for seat in table.seats if seat.user_id is not None]
        if seated and any(r.table_id == table.id
                          for r in await self.repo.user_results(seated[0], event)):
            return  # claimed by an earlier start that stopped before the game began
        claims = []
        for direction in (0, 1):
            people = [BoardPlayer(seat.user_id, seat.name) for seat in table.seats
                      if seat.seat % 2 == direction and seat.user_id is not None]
            if people:
                claims += [BoardResult(board=b.id, event=event, table_id=table.id,
                                       direction=direction, guild_id=table.record.guild_id,
                                       players=people, diff=None, replay=None)
                           for b in boards]
        try:
            await self.repo.claim_boards(claims)
        except StoreError as exc:
            if exc.code == "board_taken":
                raise TableError("event_played") from None
            raise

    # ------------------------------------------------------------ results
    async def deal_ended(self, table: Table) -> None:
        """A deal of a table of boards ended: store its result for its people; at a
        table of an event, say how each direction did against the field and the
        event's other tables, and the standings at the end."""
        game = table.game
        if not isinstance(game, BoardsGame):
            return
        event = table.record.options.get("event")
        if not isinstance(event, str):
            return
        number = len(game.history) - 1
        board = game.boards[number]
        actions = game.deal_log[number][1]
        replay = board_replay(board, actions)
        for direction in (0, 1):
            people = [s for s in range(table.n_seats)
                      if s % 2 == direction and table.seats[s].user_id is not None]
            if people:
                await self.repo.finish_board(table.id, board.id, direction,
                                             game.diffs(direction)[number], replay)
        if table.private:
            return
        # Each direction's percentage on each board so far, against the field and the
        # event's other tables (a direction of computers only is scored all the same).
        played = game.boards[:number + 1]
        results = [r for r in await self.repo.event_results(event) if r.diff is not None]
        rows: list[Result] = []
        for b in played:
            rows += field_rows(b.id, await self.repo.field(b.id))
        rows += [Result(r.board, r.direction, _key(r), r.diff or 0) for r in results
                 if r.board in {b.id for b in played}]
        ours = {(row.board, row.player) for row in rows}
        for i, b in enumerate(played):
            for direction in (0, 1):
                key = f"t:{table.id}:{direction}"
                if (b.id, key) not in ours:
                    rows.append(Result(b.id, direction, key, game.diffs(direction)[i]))
        scored = {(x.result.board, x.result.player): x.percentage for x in score(rows)[0]}
        marks = []
        for direction in (0, 1):
            key = f"t:{table.id}:{direction}"
            mine = [scored[(b.id, key)] for b in played]
            marks.append({"pct": mine[-1], "running": sum(mine) / len(mine)})
        entry = LogEntry("log.board_marks", {
            "number": number + 1, "boards": len(game.boards), "event": event,
            "a": _pct(marks[0]["pct"]), "b": _pct(marks[1]["pct"]),
            "a_running": _pct(marks[0]["running"]), "b_running": _pct(marks[1]["running"])},
            announce=True)
        table.log.append(entry)
        table.announcements.append(entry)
        if game.phase is Phase.GAME_OVER:
            standings, others = await self.public_standings(event, table.record.guild_id)
            # (A former player, who erased their data, has no name: a dash.) The bot's
            # text, its names escaped: the lines show as they are, under their title.
            lines = [join(" · ", [join(" ", [Text(f"{s.rank}."), s.name or "—"]),
                                  Text(_pct(s.score)), Text(str(s.boards))])
                     for s in standings]
            end = LogEntry("log.event_standings", {"event": event, "lines": lines,
                                                   "others": others}, announce=True)
            table.log.append(end)
            table.announcements.append(end)

    async def repair(self, results: Sequence[BoardResult]) -> list[BoardResult]:
        """Results whose deal is over at their table but not stored (a write lost when it
        ended) are stored now from the table's actions; gives the results as they stand."""
        fixed = []
        for result in results:
            if result.diff is None:
                try:
                    table = await self.service.core.get(result.table_id)
                except TableError:
                    fixed.append(result)
                    continue
                game = table.game
                if isinstance(game, BoardsGame):
                    ids = [b.id for b in game.boards]
                    number = ids.index(result.board) if result.board in ids else -1
                    if 0 <= number < len(game.history):
                        diff = game.diffs(result.direction)[number]
                        replay = board_replay(game.boards[number], game.deal_log[number][1])
                        await self.repo.finish_board(result.table_id, result.board,
                                                     result.direction, diff, replay)
                        result.diff, result.replay = diff, replay
            fixed.append(result)
        return fixed

    # ------------------------------------------------------------- fields
    async def field_soon(self, board: Board, *, priority: int = FIELD) -> None:
        """Queue the board's field (once: a field queued or being played is not queued
        again; never with no field tables, ``FIELD_TABLES=0``). A queue that does not
        answer is said in the log; the field is queued again when next needed."""
        if self.field_tables <= 0:
            return
        payload = {"board": board.id, "tables": self.field_tables}
        try:
            await self.jobs.submit(FIELD_JOB, field_key(board.id), payload, priority)
        except StoreError as exc:
            log.warning("board %s: field not queued (%s); queued again when needed",
                        board.id, exc)
            return
        self._queued.add(board.id)

    async def field(self, board: Board) -> list[FieldResult]:
        """The board's stored field (empty while it is being played)."""
        found = await self.repo.field(board.id)
        if not found:
            await self.field_soon(board)
        return found

    # ------------------------------------------------------------ reports
    async def report(self, user_id: int, board: Board, number: int,
                     guild_id: int | None) -> BoardReport | None:
        """The person's finished result on ``board``, against the field and the people
        who played it in the guild (``None``: everywhere); None if not finished."""
        people = await self.repair(await self.repo.board_results(board.id, guild_id=guild_id,
                                                                 finished=False))
        mine = next((r for r in people if any(p.user_id == user_id for p in r.players)
                     and r.diff is not None), None)
        if mine is None or mine.diff is None:
            return None
        done = [r for r in people if r.diff is not None]
        field = field_rows(board.id, await self.field(board))
        me = _key(mine)
        field_pct = None
        if field:
            field_pct = _percentage([Result(board.id, mine.direction, me, mine.diff),
                                     *field], board.id, me)
        rows = [Result(board.id, r.direction, _key(r), r.diff or 0) for r in done]
        same = [r for r in done if r.direction == mine.direction]
        best = max(same, key=lambda r: r.diff or 0)
        return BoardReport(board, number, mine.diff, field_pct, len(field) // 2,
                           _percentage(rows, board.id, me), len(same) - 1, best)

    async def standings(self, day: date, guild_id: int | None) -> list[DayStanding]:
        """The day's standings here (``guild_id``; None: everywhere)."""
        return await self.event_standings(daily_code(day), guild_id)

    async def marks(self, event: str, guild_id: int | None) -> tuple[dict[int, str],
                                                                      dict[int, dict[str, float]]]:
        """Every person's percentage on each board of an event they finished (here, or
        everywhere when ``guild_id`` is None), each result matchpointed against the
        board's field and every other result: people by id with their latest name, and
        their marks by board id. Both people of a pair share their direction's result."""
        results, scored = await self._scored(event, guild_id)
        names: dict[int, str] = {}
        marks: dict[int, dict[str, float]] = {}
        for r in results:
            for p in r.players:
                names[p.user_id] = p.name
                marks.setdefault(p.user_id, {})[r.board] = scored[(r.board, _key(r))]
        return names, marks

    async def _scored(self, event: str, guild_id: int | None) -> tuple[
            list[BoardResult], dict[tuple[str, str], float]]:
        """The finished results of an event, and each one's percentage by (board, key)."""
        results = [r for r in await self.repo.event_results(event, guild_id=guild_id)
                   if r.diff is not None]
        rows: list[Result] = []
        for board_id in sorted({r.board for r in results}):
            rows += field_rows(board_id, await self.repo.field(board_id))
        rows += [Result(r.board, r.direction, _key(r), r.diff or 0) for r in results]
        scored = {(s.result.board, s.result.player): s.percentage
                  for s in score(rows)[0]} if rows else {}
        return results, scored

    async def event_standings(self, event: str, guild_id: int | None) -> list[DayStanding]:
        """An event's standings: people by their mean percentage over the boards they
        finished, highest first; equal scores share a rank and are listed by name."""
        names, marks = await self.marks(event, guild_id)
        table = sorted(((sum(m.values()) / len(m), names[u], u, len(m))
                        for u, m in marks.items()), key=lambda x: (-x[0], x[1]))
        ranked: list[DayStanding] = []
        for i, (pct, name, user_id, count) in enumerate(table):
            rank = ranked[-1].rank if ranked and ranked[-1].score == pct else i + 1
            ranked.append(DayStanding(rank, user_id, name, count, pct))
        return ranked

    async def public_standings(self, event: str, guild_id: int) -> tuple[list[DayStanding],
                                                                          int]:
        """An event's standings across servers as a public message of ``guild_id`` lists
        them: by name only the people who played there and those who chose to appear in
        lists across servers (``/privacy standings``), each at their true rank; and how
        many others it counts without naming them (the rule of the daily's standings
        across servers)."""
        here = {p.user_id for r in await self.repo.event_results(event, guild_id=guild_id)
                for p in r.players}
        standings = await self.event_standings(event, None)
        appearing = await self.repo.appearing(s.user_id for s in standings
                                              if s.user_id not in here)
        shown = [s for s in standings if s.user_id in here or s.user_id in appearing]
        return shown, len(standings) - len(shown)

    async def streak(self, user_id: int, today: date) -> int:
        """Days in a row, up to today (or yesterday), on which the person finished a
        daily board."""
        days = {parse_day(c.removeprefix(DAILY_PREFIX)) for c in
                await self.repo.user_daily_days(user_id)}
        day = today if today in days else today - timedelta(days=1)
        count = 0
        while day in days:
            count += 1
            day -= timedelta(days=1)
        return count


def _pct(value: float) -> str:
    return f"{value:.1f}%"


def event_boards(event: EventRecord) -> list[Board]:
    """The boards of an event of duplicate tables, from its seed (random, from the board
    secret, for an event made since issue 51)."""
    return make_boards(event.seed, event.boards, prefix=f"ev:{event.code}")


def _key(result: BoardResult) -> str:
    return f"t:{result.table_id}:{result.direction}"


def _percentage(rows: list[Result], board: str, player: str) -> float:
    scored, _ = score(rows)
    return next(s.percentage for s in scored
                if s.result.player == player and s.result.board == board)


def field_rows(board: str, field: Sequence[FieldResult]) -> list[Result]:
    """A board's field as results: each computer table in both directions."""
    return [Result(board, d, f"field:{f.index}/{d}", f.diff if d == 0 else -f.diff)
            for f in field for d in (0, 1)]


def game_replay(table: Table) -> dict[str, Any]:
    """The replay file of a table's game (for the board's "how it was played")."""
    assert table.game is not None
    return to_replay(table.game)


__all__ = [
    "BoardReport",
    "DayStanding",
    "Duplicate",
    "boards_of",
    "daily_code",
    "end_of",
    "field_table",
    "parse_day",
    "utc_today",
]


def how_played(replay: dict[str, Any], names: Sequence[str], locale: str) -> list[str]:
    """A board's play in words, from its replay file: the calls, the exchange and each
    trick (who played what, who took it). For people who have finished the board."""
    game, _ = replay_game(replay)
    hands, actions = game.deal_log[0]
    board = TichuGame(hands=hands)
    calls: list[str] = []
    gives: list[str] = []
    tricks: list[str] = []
    trick: list[str] = []
    for action in actions:
        applied = board.apply(action)
        seat = action.seat
        if isinstance(action, GrandTichu | CallTichu):
            key = "daily.call_grand" if isinstance(action, GrandTichu) else "daily.call_tichu"
            calls.append(t(locale, key, name=names[seat]))
        elif isinstance(action, Exchange):
            given = ", ".join(f"{names[to]} {card_label(locale, card)}"
                              for to, card in action.give)
            gives.append(f"{names[seat]} → {given}")
        elif isinstance(action, Play) and applied.combo is not None:
            trick.append(f"{names[seat]} {combo_name(locale, applied.combo)}")
            if applied.combo.kind is Kind.DOG and applied.lead is not None:
                # The Dog: no trick, the lead goes to the partner.
                tricks.append(t(locale, "daily.dog", number=len(tricks) + 1,
                                name=names[seat], to=names[applied.lead]))
                trick = []
        elif isinstance(action, Gift) and tricks:
            tricks[-1] += " " + t(locale, "daily.gift", to=names[action.to])
        taker = applied.trick_taken_by
        if taker is not None and trick:
            tricks.append(t(locale, "daily.trick", number=len(tricks) + 1,
                            plays=" · ".join(trick), name=names[taker]))
            trick = []
    lines: list[str] = [t(locale, "daily.calls", calls=join(", ", calls) if calls
                          else t(locale, "daily.no_calls"))]
    if gives:
        lines.append(t(locale, "daily.exchange", gives=" · ".join(gives)))
    lines += tricks
    if trick:
        lines.append(t(locale, "daily.trick_open", plays=" · ".join(trick)))
    return lines
