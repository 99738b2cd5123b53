"""Backend-neutral checks of what is written and decoding of what is read.

Rows are anything indexable by column name (``sqlite3.Row``, ``asyncpg.Record``);
values are checked with :mod:`bot.store.codec`, so a row one backend cannot read
is a :class:`CorruptRowError` naming the table, game or guild, in either backend.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot.ratings import RatedGame, Rating, Seat, player_key, rate_game, user_of
from bot.store.codec import (
    as_flag,
    as_int,
    as_optional_int,
    as_optional_str,
    as_str,
    dump_json,
    load_int_list,
    load_json_object,
    parse_optional_timestamp,
    parse_timestamp,
)
from bot.store.models import (
    EVENT_KINDS,
    ActionRecord,
    BoardPlayer,
    BoardResult,
    BoardSize,
    CorruptRowError,
    EventRecord,
    FieldResult,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    LeaderboardRow,
    PanelRecord,
    PartnerRow,
    RatingPoint,
    RatingRow,
    ReviewRecord,
    SeatRecord,
    SequenceConflictError,
    StoreError,
    TableRecord,
    TableStatus,
    TalkLine,
)

ACTIVE = tuple(status.value for status in TableStatus if status.is_active)
OVER = tuple(status.value for status in TableStatus if not status.is_active)
STATUSES = frozenset(status.value for status in TableStatus)


class Row(Protocol):
    def __getitem__(self, key: str, /) -> Any: ...


# -- writing ---------------------------------------------------------------------


def table_missing(table_id: int) -> StoreError:
    return StoreError("unknown_table", f"table {table_id} does not exist")


def not_open() -> StoreError:
    return StoreError("not_open", "the store is not open (call open() first)")


def check_timeout(timeout: float) -> None:
    if not timeout > 0:
        raise StoreError("invalid_argument", f"the timeout must be > 0 s, got {timeout}")


def check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise StoreError("invalid_argument", f"limit and offset must be >= 0, got {limit}, {offset}")


def check_seats(seats: Sequence[SeatRecord], where: str) -> list[tuple[Any, ...]]:
    """The seats as rows ``(seat, user_id, name, bot_level, away)``."""
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise StoreError("invalid_seats", f"{where}: two seats share a number: {numbers}")
    for seat in seats:
        if not isinstance(seat.away, bool):
            raise StoreError("invalid_seats", f"{where}, seat {seat.seat}: away must be a "
                             f"bool, got {seat.away!r}")
        if seat.away and (seat.user_id is None or seat.bot_level is None):
            raise StoreError("invalid_seats", f"{where}, seat {seat.seat}: an away seat keeps "
                             "its person (user_id) and names the computer playing it (bot_level)")
    return [(seat.seat, seat.user_id, seat.name, seat.bot_level, seat.away) for seat in seats]


def check_status(table_id: int, status: object) -> str:
    if status not in STATUSES:
        raise StoreError("invalid_status", f"table {table_id}: no status {status!r}")
    return TableStatus(status).value


def table_changes(table_id: int, updated_at: object, *, status: TableStatus | None,
                  thread_id: int | None, message_id: int | None, ping_message_id: int | None,
                  options: dict[str, Any] | None) -> dict[str, object]:
    """The columns ``update_table`` sets, by name (the given fields, then
    ``updated_at``); ``options`` as JSON text. The names are fixed here, never the
    caller's, so the backends may put them in their SQL."""
    changes: dict[str, object] = {}
    if status is not None:
        changes["status"] = check_status(table_id, status)
    if thread_id is not None:
        changes["thread_id"] = thread_id
    if message_id is not None:
        changes["message_id"] = message_id
    if ping_message_id is not None:
        changes["ping_message_id"] = ping_message_id
    if options is not None:
        changes["options"] = dump_json(options, f"table {table_id} options")
    changes["updated_at"] = updated_at
    return changes


def check_action(table_id: int, action: ActionRecord) -> tuple[int, str]:
    """The action's ``seq`` and its payload as JSON text."""
    seq = action.seq
    if type(seq) is not int or seq < 1:
        raise SequenceConflictError(
            f"table {table_id}: action seq must be a positive integer, got {seq!r}")
    if not isinstance(action.payload, dict):
        raise StoreError("invalid_action", f"table {table_id}, action {seq}: "
                         f"payload must be a dict, got {type(action.payload).__name__}")
    return seq, dump_json(action.payload, f"table {table_id}, action {seq} payload")


PHRASE = re.compile(r"[a-z_]{1,16}")
"""What a talk line's phrase key looks like (the catalogue's ``talk.<phrase>``)."""


def check_talk(table_id: int, line: TalkLine) -> TalkLine:
    """A talk line as it may be stored: positive ``seq`` (SequenceConflictError), a
    seat, a person, a phrase key, its place in the log (StoreError ``invalid_talk``)."""
    if not isinstance(line, TalkLine) or type(line.seq) is not int or line.seq < 1:
        raise SequenceConflictError(f"table {table_id}: talk seq must be a positive "
                                    f"integer, got {getattr(line, 'seq', line)!r}")
    if type(line.seat) is not int or line.seat < 0 or type(line.user_id) is not int \
            or not 0 < line.user_id < 2**63 or type(line.after) is not int \
            or line.after < 0 or not isinstance(line.phrase, str) \
            or PHRASE.fullmatch(line.phrase) is None \
            or not isinstance(line.created_at, datetime):
        raise StoreError("invalid_talk", f"table {table_id}: not a talk line: {line!r}")
    return line


def seq_refused(table_id: int, seq: int, last: int) -> SequenceConflictError:
    """The error of an action refused because the table's last stored seq is ``last``."""
    return SequenceConflictError(
        f"table {table_id}: action seq {seq} refused, the last stored seq is {last} "
        f"(the next must be {last + 1})")


def check_stats(player: GamePlayerResult, where: str) -> list[tuple[str, int]]:
    rows: list[tuple[str, int]] = []
    for key, value in player.stats.items():
        if not isinstance(key, str) or not key or type(value) is not int:
            raise StoreError(
                "invalid_stats",
                f"{where}, seat {player.seat}: stats must map names to integers, "
                f"got {key!r}: {value!r}",
            )
        rows.append((key, value))
    return rows


def check_game(result: GameResult) -> list[tuple[GamePlayerResult, list[tuple[str, int]]]]:
    """The players of a finished game with their stats, checked."""
    where = f"game of table {result.table_id}"
    if not all(type(score) is int for score in result.scores):
        raise StoreError("invalid_game", f"{where}: scores must be integers")
    seats = [player.seat for player in result.players]
    if len(set(seats)) != len(seats):
        raise StoreError("invalid_game", f"{where}: two players share a seat: {seats}")
    if not isinstance(result.rated, bool):
        raise StoreError("invalid_game", f"{where}: rated must be a bool, got {result.rated!r}")
    return [(player, check_stats(player, where)) for player in result.players]


@dataclass(frozen=True, slots=True)
class GameRows:
    """A finished game, checked, as the parameters of its rows: ``scores`` and
    ``replay`` as JSON text, whether it is ``rated``, each player ``(seat, user_id,
    bot_level, name, team, won)`` and each stat ``(seat, key, value)``, both without
    the game's id (see :meth:`players_of`, :meth:`stats_of`)."""

    where: str
    scores: str
    replay: str
    rated: bool
    players: list[tuple[int, int | None, str | None, str, int, bool]]
    stats: list[tuple[int, str, int]]

    def players_of(self, game_id: int) -> list[tuple[object, ...]]:
        return [(game_id, *player) for player in self.players]

    def stats_of(self, game_id: int) -> list[tuple[object, ...]]:
        return [(game_id, *stat) for stat in self.stats]

    def already_recorded(self) -> StoreError:
        return StoreError("game_already_recorded", f"{self.where} is already recorded")


def game_rows(result: GameResult) -> GameRows:
    """``result`` checked (:func:`check_game`) and made into :class:`GameRows`."""
    where = f"game of table {result.table_id}"
    stats = check_game(result)
    scores = dump_json(list(result.scores), f"{where} scores")
    replay = dump_json(result.replay, f"{where} replay")
    return GameRows(
        where=where, scores=scores, replay=replay, rated=result.rated,
        players=[(p.seat, p.user_id, p.bot_level, p.name, p.team, bool(p.won))
                 for p in result.players],
        stats=[(player.seat, key, value) for player, rows in stats for key, value in rows],
    )


# -- duplicate (events, fields, board results) --------------------------------------

_INT32 = 2**31
_SNOWFLAKE = 2**63


def _snowflake(value: object, least: int = 0) -> bool:
    return type(value) is int and least <= value < _SNOWFLAKE


def _int32(value: object) -> bool:
    return type(value) is int and -_INT32 <= value < _INT32


def check_text(value: object, what: str) -> str:
    """A board id or event code: a non-empty text (StoreError ``invalid_argument``)."""
    if not isinstance(value, str) or not value:
        raise StoreError("invalid_argument", f"{what} must be a non-empty text, got {value!r}")
    return value


def check_event(event: EventRecord) -> tuple[str, str, str, int, int | None, int | None]:
    """The event as a row ``(code, kind, seed, boards, guild_id, host_id)`` (its
    ``created_at`` is the backend's to write)."""
    where = f"event {event.code!r}"
    if not isinstance(event.code, str) or not event.code:
        raise StoreError("invalid_event", f"{where}: the code must be a non-empty text")
    if event.kind not in EVENT_KINDS:
        raise StoreError("invalid_event", f"{where}: the kind must be one of {EVENT_KINDS}, "
                         f"got {event.kind!r}")
    if not isinstance(event.seed, str):
        raise StoreError("invalid_event", f"{where}: the seed must be a text")
    if type(event.boards) is not int or not 1 <= event.boards < _INT32:
        raise StoreError("invalid_event", f"{where}: boards must be an integer >= 1, "
                         f"got {event.boards!r}")
    for name in ("guild_id", "host_id"):
        value = getattr(event, name)
        if value is not None and not _snowflake(value):
            raise StoreError("invalid_event", f"{where}: {name} must be a snowflake or "
                             f"None, got {value!r}")
    if event.created_at is not None and not isinstance(event.created_at, datetime):
        raise StoreError("invalid_event", f"{where}: created_at must be a datetime or None")
    return (event.code, event.kind, event.seed, event.boards, event.guild_id, event.host_id)


def event_missing(code: str) -> StoreError:
    return StoreError("unknown_event", f"event {code!r} does not exist")


@dataclass(frozen=True, slots=True)
class ClaimRows:
    """A claim of a board, checked, as the parameters of its rows: the result
    ``(table_id, board, direction, event, guild_id)`` and each player ``(board,
    user_id, table_id, direction, position, name)``, sorted by user id (two claims
    that share people insert them in one order)."""

    board: str
    table_id: int
    direction: int
    event: str
    result: tuple[int, str, int, str, int]
    players: list[tuple[str, int, int, int, int, str]]

    @property
    def user_ids(self) -> list[int]:
        return [player[1] for player in self.players]

    def taken(self, user_ids: Iterable[int] = ()) -> StoreError:
        """The error of a claim refused: ``user_ids`` have a result on the board
        already (none given: this table-direction has claimed it)."""
        users = sorted(set(user_ids))
        if users:
            who = ", ".join(str(user) for user in users)
            return StoreError("board_taken", f"board {self.board!r}: user {who} already "
                              "played or is playing it")
        return StoreError("board_taken", f"board {self.board!r}: table {self.table_id} "
                          f"direction {self.direction} has claimed it already")


def claim_rows(result: BoardResult) -> ClaimRows:
    """``result`` checked as the start of an attempt (StoreError ``invalid_result``),
    made into :class:`ClaimRows`."""
    board = check_text(result.board, "a board id")
    event = check_text(result.event, "an event code")
    where = f"board {board!r}"
    if not _snowflake(result.table_id, 1):
        raise StoreError("invalid_result", f"{where}: bad table id {result.table_id!r}")
    if type(result.direction) is not int or result.direction not in (0, 1):
        raise StoreError("invalid_result", f"{where}: the direction must be 0 or 1, "
                         f"got {result.direction!r}")
    if not _snowflake(result.guild_id):
        raise StoreError("invalid_result", f"{where}: bad guild id {result.guild_id!r}")
    if (result.diff, result.replay, result.finished_at) != (None, None, None):
        raise StoreError("invalid_result", f"{where}: a claim is not finished yet (diff, "
                         "replay and finished_at must be None)")
    if result.created_at is not None and not isinstance(result.created_at, datetime):
        raise StoreError("invalid_result", f"{where}: created_at must be a datetime or None")
    players = result.players
    if not isinstance(players, list) or not 1 <= len(players) <= 2:
        raise StoreError("invalid_result", f"{where}: a direction has 1 or 2 people")
    for player in players:
        if (not isinstance(player, BoardPlayer) or not _snowflake(player.user_id)
                or not isinstance(player.name, str)):
            raise StoreError("invalid_result", f"{where}: bad player {player!r}")
    if len({player.user_id for player in players}) != len(players):
        raise StoreError("invalid_result", f"{where}: the same person twice")
    rows = sorted((board, player.user_id, result.table_id, result.direction, position,
                   player.name) for position, player in enumerate(players))
    return ClaimRows(board=board, table_id=result.table_id, direction=result.direction,
                     event=event,
                     result=(result.table_id, board, result.direction, event, result.guild_id),
                     players=rows)


def check_finish(table_id: int, board: str, direction: int, diff: int,
                 replay: dict[str, Any]) -> str:
    """The ``replay`` of a finished board as JSON text, its other arguments checked."""
    where = f"board {board!r}, table {table_id} direction {direction}"
    check_text(board, "a board id")
    if not _int32(diff):
        raise StoreError("invalid_result", f"{where}: diff must be an integer, got {diff!r}")
    if not isinstance(replay, dict):
        raise StoreError("invalid_result", f"{where}: the replay must be a dict, "
                         f"got {type(replay).__name__}")
    return dump_json(replay, f"{where} replay")


def result_missing(table_id: int, board: str, direction: int) -> StoreError:
    return StoreError("unknown_result", f"board {board!r}: table {table_id} direction "
                      f"{direction} has not claimed it")


def finished_already(table_id: int, board: str, direction: int, stored: object,
                     diff: int) -> StoreError:
    return StoreError("board_finished", f"board {board!r}: table {table_id} direction "
                      f"{direction} finished it with diff {stored!r}, not {diff}")


def field_rows(board: str, results: Sequence[FieldResult]) -> list[tuple[str, int, int, str]]:
    """A board's field as rows ``(board, idx, diff, replay)``, by index: the field
    tables must be numbered 0 … n-1, n >= 1 (StoreError ``invalid_field``)."""
    check_text(board, "a board id")
    where = f"field of board {board!r}"
    if not results:
        raise StoreError("invalid_field", f"{where}: no field table")
    rows = []
    for result in results:
        if not isinstance(result, FieldResult) or result.board != board:
            raise StoreError("invalid_field", f"{where}: a result of another board or not a "
                             f"FieldResult: {result!r}")
        if not _int32(result.diff) or not isinstance(result.replay, dict):
            raise StoreError("invalid_field", f"{where}, table {result.index!r}: diff must be "
                             "an integer and the replay a dict")
        rows.append((board, result.index, result.diff,
                     dump_json(result.replay, f"{where}, table {result.index!r} replay")))
    indexes = [row[1] for row in rows]
    if (not all(type(index) is int for index in indexes)
            or sorted(indexes) != list(range(len(rows)))):
        raise StoreError("invalid_field", f"{where}: the tables must be numbered 0 … "
                         f"{len(rows) - 1}, got {indexes}")
    return sorted(rows, key=lambda row: row[1])


# -- reviews (issue 25) -------------------------------------------------------------


def _index(value: object) -> bool:
    """A deal or seat number: an integer >= 0 (of 32 bits)."""
    return type(value) is int and 0 <= value < _INT32


def check_review_key(table_id: object, deal: object, seat: object) -> None:
    """The key of a review asked for (StoreError ``invalid_argument``)."""
    if not _snowflake(table_id) or not _index(deal) or not _index(seat):
        raise StoreError("invalid_argument", f"a review's table id, deal and seat must be "
                         f"integers >= 0, got {table_id!r}, {deal!r}, {seat!r}")


def check_user_reviews(table_id: object, user_id: object) -> None:
    """A table and a person whose reviews are asked for (StoreError ``invalid_argument``)."""
    if not _snowflake(table_id) or not _snowflake(user_id):
        raise StoreError("invalid_argument", f"a table id and a user id must be integers "
                         f">= 0, got {table_id!r}, {user_id!r}")


def review_row(record: ReviewRecord) -> tuple[int, int, int, int, str]:
    """The review as a row ``(table_id, deal, seat, user_id, review)`` with the review
    as JSON text (its ``created_at`` is the backend's to write); StoreError
    ``invalid_review`` if a value cannot be right, ``not_json``."""
    if not isinstance(record, ReviewRecord):
        raise StoreError("invalid_review", f"not a ReviewRecord: {record!r}")
    where = (f"review of table {record.table_id!r}, deal {record.deal!r}, "
             f"seat {record.seat!r}")
    if not _snowflake(record.table_id, 1):
        raise StoreError("invalid_review", f"{where}: bad table id")
    if not _index(record.deal) or not _index(record.seat):
        raise StoreError("invalid_review", f"{where}: the deal and the seat must be "
                         "integers >= 0")
    if not _snowflake(record.user_id):
        raise StoreError("invalid_review", f"{where}: bad user id {record.user_id!r}")
    if not isinstance(record.review, dict):
        raise StoreError("invalid_review", f"{where}: the review must be a dict, "
                         f"got {type(record.review).__name__}")
    if record.created_at is not None and not isinstance(record.created_at, datetime):
        raise StoreError("invalid_review", f"{where}: created_at must be a datetime or None")
    return (record.table_id, record.deal, record.seat, record.user_id,
            dump_json(record.review, f"{where} review"))


@dataclass(frozen=True, slots=True)
class ResultFilter:
    """Which board results to read: those of a board, an event, a guild, a person
    (any of them None: not filtered on), only finished ones if ``finished``."""

    board: str | None = None
    event: str | None = None
    guild_id: int | None = None
    user_id: int | None = None
    finished: bool = False

    def where(self, mark: Callable[[int], str]) -> tuple[str, list[object]]:
        """The condition on results ``r`` and its parameters; ``mark(n)`` is the
        backend's marker of the n-th parameter (from 1)."""
        conditions: list[str] = []
        params: list[object] = []

        def add(condition: str, value: object) -> None:
            params.append(value)
            conditions.append(condition.format(mark(len(params))))

        if self.board is not None:
            add("r.board = {}", self.board)
        if self.event is not None:
            add("r.event = {}", self.event)
        if self.guild_id is not None:
            add("r.guild_id = {}", self.guild_id)
        if self.user_id is not None:
            add("(r.table_id, r.board, r.direction) IN (SELECT p.table_id, p.board, "
                "p.direction FROM dup_players AS p WHERE p.user_id = {})", self.user_id)
        if self.finished:
            conditions.append("r.diff IS NOT NULL")
        return " AND ".join(conditions) or "TRUE", params


def check_lock_request(shard_ids: Iterable[int], shard_count: int, *,
                       below: int | None = None) -> list[int]:
    """The shard ids ``lock_shards`` is asked for, sorted, each once; ``below`` (if
    given) bounds the ids and the count (a backend's integer type)."""
    def bad(value: object, least: int) -> bool:
        return (type(value) is not int or value < least
                or (below is not None and value >= below))

    ids = sorted(set(shard_ids))
    if any(bad(i, 0) for i in ids):
        raise StoreError("invalid_argument", f"shard ids must be integers >= 0, got {ids}")
    if bad(shard_count, 1):
        raise StoreError("invalid_argument",
                         f"shard_count must be an integer >= 1, got {shard_count!r}")
    return ids


def check_shards(shard_count: int, shard_ids: Iterable[int] | None) -> list[int] | None:
    """The shard ids to keep (None: all), checked against ``shard_count``."""
    if type(shard_count) is not int or shard_count < 1:
        raise StoreError("invalid_argument", f"shard_count must be >= 1, got {shard_count!r}")
    if shard_ids is None:
        return None
    ids = sorted(set(shard_ids))
    if any(type(i) is not int or not 0 <= i < shard_count for i in ids):
        raise StoreError("invalid_argument",
                         f"shard ids must be in 0..{shard_count - 1}, got {ids}")
    return ids


def rated_seats(players: Sequence[GamePlayerResult], scores: Sequence[int]) -> tuple[Seat, ...]:
    """The seats of a finished game as the rating sees them: persons and computer levels
    (empty seats left out), each with its final score (its team's in Tichu)."""
    seats = []
    for player in players:
        key = player_key(player.user_id, player.bot_level)
        if key is None:
            continue
        index = player.team if 0 <= player.team < len(scores) else player.seat
        score = scores[index] if 0 <= index < len(scores) else 0
        seats.append(Seat(key, player.team, bool(player.won), score))
    return tuple(seats)


# -- reading ---------------------------------------------------------------------


def as_float(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CorruptRowError(f"{where}: expected a number, got {value!r}")
    return float(value)


def as_optional_float(value: object, where: str) -> float | None:
    return None if value is None else as_float(value, where)


def table_from_rows(table_id: int, row: Row, seat_rows: Iterable[Row],
                    action_rows: Iterable[Row], draft_rows: Iterable[Row],
                    panel_rows: Iterable[Row], talk_rows: Iterable[Row] = ()) -> TableRecord:
    where = f"table {table_id}"
    raw_status = row["status"]
    if not isinstance(raw_status, str) or raw_status not in STATUSES:
        raise CorruptRowError(f"{where}: unknown status {raw_status!r}")
    table = TableRecord(
        id=as_int(row["id"], f"{where} id"),
        guild_id=as_int(row["guild_id"], f"{where} guild_id"),
        channel_id=as_int(row["channel_id"], f"{where} channel_id"),
        host_id=as_int(row["host_id"], f"{where} host_id"),
        game=as_str(row["game"], f"{where} game"),
        status=TableStatus(raw_status),
        seed=as_str(row["seed"], f"{where} seed"),
        options=load_json_object(row["options"], f"{where} options"),
        locale=as_str(row["locale"], f"{where} locale"),
        thread_id=as_optional_int(row["thread_id"], f"{where} thread_id"),
        message_id=as_optional_int(row["message_id"], f"{where} message_id"),
        ping_message_id=as_optional_int(row["ping_message_id"], f"{where} ping_message_id"),
        created_at=parse_timestamp(row["created_at"], f"{where} created_at"),
        updated_at=parse_timestamp(row["updated_at"], f"{where} updated_at"),
    )
    for seat_row in seat_rows:
        at = f"{where}, seat {seat_row['seat']!r}"
        table.seats.append(SeatRecord(
            seat=as_int(seat_row["seat"], at),
            user_id=as_optional_int(seat_row["user_id"], f"{at} user_id"),
            name=as_str(seat_row["name"], f"{at} name"),
            bot_level=as_optional_str(seat_row["bot_level"], f"{at} bot_level"),
            away=as_flag(seat_row["away"], f"{at} away"),
        ))
    for expected, action_row in enumerate(action_rows, start=1):
        at = f"{where}, action seq {action_row['seq']!r}"
        seq = as_int(action_row["seq"], at)
        if seq != expected:
            raise CorruptRowError(f"{where}: the action log has a gap (seq {expected} "
                                  f"is missing, next stored is {seq})")
        table.actions.append(ActionRecord(
            seq=seq,
            payload=load_json_object(action_row["payload"], f"{at} payload"),
            created_at=parse_timestamp(action_row["created_at"], f"{at} created_at"),
        ))
    for draft_row in draft_rows:
        at = f"{where}, draft of seat {draft_row['seat']!r}"
        table.drafts[as_int(draft_row["seat"], at)] = load_json_object(draft_row["data"], at)
    for panel_row in panel_rows:
        at = f"{where}, panel of user {panel_row['user_id']!r}"
        panel = PanelRecord(
            user_id=as_int(panel_row["user_id"], at),
            application_id=as_int(panel_row["application_id"], f"{at} application_id"),
            token=as_str(panel_row["token"], f"{at} token"),
            message_id=as_int(panel_row["message_id"], f"{at} message_id"),
            created_at=parse_timestamp(panel_row["created_at"], f"{at} created_at"),
        )
        table.panels[panel.user_id] = panel
    for talk_row in talk_rows:
        at = f"{where}, talk line {talk_row['seq']!r}"
        table.talk.append(TalkLine(
            seq=as_int(talk_row["seq"], at), seat=as_int(talk_row["seat"], f"{at} seat"),
            user_id=as_int(talk_row["user_id"], f"{at} user_id"),
            phrase=as_str(talk_row["phrase"], f"{at} phrase"),
            after=as_int(talk_row["after_seq"], f"{at} after_seq"),
            created_at=parse_timestamp(talk_row["created_at"], f"{at} created_at")))
    return table


def settings_from_row(guild_id: int, row: Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings()
    where = f"guild {guild_id} settings"
    return GuildSettings(
        locale=as_optional_str(row["locale"], f"{where} locale"),
        turn_timer=as_optional_int(row["turn_timer"], f"{where} turn_timer"),
        target=as_optional_int(row["target"], f"{where} target"),
        tables_per_channel=as_optional_int(row["tables_per_channel"],
                                           f"{where} tables_per_channel"),
        daily_channel_id=as_optional_int(row["daily_channel_id"],
                                         f"{where} daily_channel_id"),
    )


def player_from_row(row: Row, where: str) -> GamePlayerResult:
    return GamePlayerResult(
        seat=as_int(row["seat"], where),
        user_id=as_optional_int(row["user_id"], f"{where} user_id"),
        bot_level=as_optional_str(row["bot_level"], f"{where} bot_level"),
        name=as_str(row["name"], f"{where} name"),
        team=as_int(row["team"], f"{where} team"),
        won=as_flag(row["won"], f"{where} won"),
    )


def games_from_rows(game_rows: Iterable[Row], player_rows: Iterable[Row],
                    stat_rows: Iterable[Row]) -> list[GameResult]:
    games: dict[int, GameResult] = {}
    for row in game_rows:
        where = f"game {row['id']!r}"
        game_id = as_int(row["id"], where)
        games[game_id] = GameResult(
            id=game_id,
            table_id=as_int(row["table_id"], f"{where} table_id"),
            guild_id=as_int(row["guild_id"], f"{where} guild_id"),
            game=as_str(row["game"], f"{where} game"),
            scores=load_int_list(row["scores"], f"{where} scores"),
            winner=as_optional_int(row["winner"], f"{where} winner"),
            players=[],
            replay=load_json_object(row["replay"], f"{where} replay"),
            finished_at=parse_timestamp(row["finished_at"], f"{where} finished_at"),
            rated=as_flag(row["rated"], f"{where} rated"),
        )
    players: dict[tuple[int, int], GamePlayerResult] = {}
    for row in player_rows:
        where = f"game {row['game_id']!r}, seat {row['seat']!r}"
        player = player_from_row(row, where)
        game_id = as_int(row["game_id"], where)
        if game_id not in games:
            raise CorruptRowError(f"{where}: a player of a game that cannot be read")
        games[game_id].players.append(player)
        players[game_id, player.seat] = player
    for row in stat_rows:
        where = f"game {row['game_id']!r}, seat {row['seat']!r}, stat {row['key']!r}"
        key = (as_int(row["game_id"], where), as_int(row["seat"], where))
        if key not in players:
            raise CorruptRowError(f"{where}: a stat of a player who is not stored")
        players[key].stats[as_str(row["key"], where)] = as_int(row["value"], where)
    return list(games.values())


def rated_games_from_rows(game_rows: Iterable[Row],
                          player_rows: Iterable[Row]) -> list[tuple[int, RatedGame]]:
    """The stored games in the order given (finish order) as the rating sees them,
    each with its guild."""
    players: dict[int, list[GamePlayerResult]] = {}
    for row in player_rows:
        where = f"game {row['game_id']!r}, seat {row['seat']!r}"
        players.setdefault(as_int(row["game_id"], where), []).append(
            player_from_row(row, where))
    out: list[tuple[int, RatedGame]] = []
    for row in game_rows:
        where = f"game {row['id']!r}"
        game_id = as_int(row["id"], where)
        seats = rated_seats(players.get(game_id, []),
                            load_int_list(row["scores"], f"{where} scores"))
        out.append((as_int(row["guild_id"], where),
                    RatedGame(game_id, as_str(row["game"], where), seats)))
    return out


def rating_rows(rows: Iterable[Row]) -> list[RatingRow]:
    out = []
    for row in rows:
        where = f"rating of {row['player']!r}"
        out.append(RatingRow(
            player=as_str(row["player"], where),
            user_id=as_optional_int(row["user_id"], where),
            mu=as_float(row["mu"], where), sigma=as_float(row["sigma"], where),
            games=as_int(row["games"], where)))
    return out


def rating_updates(game_id: int, guild_id: int, game: str, seats: tuple[Seat, ...],
                   rows: Iterable[Row]) -> tuple[list[tuple[object, ...]],
                                                 list[tuple[object, ...]]]:
    """One game rated (bot/ratings.py) against the stored ratings of its players
    (``rows``: player, mu, sigma, games): the new ratings as rows ``(guild_id, game,
    player, user_id, mu, sigma, ordinal, games)`` and their history rows ``(game_id,
    player, mu, sigma)``, by player key."""
    current: dict[str, tuple[Rating, int]] = {}
    for row in rows:
        where = f"rating of {row['player']!r}"
        current[as_str(row["player"], where)] = (
            Rating(as_float(row["mu"], where), as_float(row["sigma"], where)),
            as_int(row["games"], where))
    new = sorted(rate_game(game, seats, {key: value[0] for key, value in current.items()})
                 .items())
    return ([(guild_id, game, key, user_of(key), r.mu, r.sigma, r.ordinal,
              current.get(key, (r, 0))[1] + 1) for key, r in new],
            [(game_id, key, r.mu, r.sigma) for key, r in new])


def rating_keys(seats: Iterable[Seat]) -> list[str]:
    """The player keys of a game's seats, sorted, each once."""
    return sorted({seat.key for seat in seats})


def event_from_row(row: Row | None) -> EventRecord | None:
    if row is None:
        return None
    where = f"event {row['code']!r}"
    kind = row["kind"]
    if kind not in EVENT_KINDS:
        raise CorruptRowError(f"{where}: unknown kind {kind!r}")
    return EventRecord(
        code=as_str(row["code"], where),
        kind=as_str(kind, f"{where} kind"),
        seed=as_str(row["seed"], f"{where} seed"),
        boards=as_int(row["boards"], f"{where} boards"),
        guild_id=as_optional_int(row["guild_id"], f"{where} guild_id"),
        host_id=as_optional_int(row["host_id"], f"{where} host_id"),
        created_at=parse_timestamp(row["created_at"], f"{where} created_at"),
    )


def board_results_from_rows(rows: Iterable[Row],
                            player_rows: Iterable[Row]) -> list[BoardResult]:
    """Board results (``rows``, in their order) with their players (``player_rows``,
    each with its result's key, in position order)."""
    results: dict[tuple[int, str, int], BoardResult] = {}
    for row in rows:
        where = (f"board {row['board']!r}, table {row['table_id']!r} "
                 f"direction {row['direction']!r}")
        direction = row["direction"]
        if direction not in (0, 1) or type(direction) is not int:
            raise CorruptRowError(f"{where}: the direction must be 0 or 1")
        diff = as_optional_int(row["diff"], f"{where} diff")
        replay = (None if row["replay"] is None
                  else load_json_object(row["replay"], f"{where} replay"))
        finished_at = parse_optional_timestamp(row["finished_at"], f"{where} finished_at")
        if len({diff is None, replay is None, finished_at is None}) != 1:
            raise CorruptRowError(f"{where}: half finished (diff, replay and finished_at "
                                  "are set together)")
        result = BoardResult(
            board=as_str(row["board"], where),
            event=as_str(row["event"], f"{where} event"),
            table_id=as_int(row["table_id"], where),
            direction=direction,
            guild_id=as_int(row["guild_id"], f"{where} guild_id"),
            players=[], diff=diff, replay=replay,
            created_at=parse_timestamp(row["created_at"], f"{where} created_at"),
            finished_at=finished_at,
        )
        results[result.table_id, result.board, result.direction] = result
    for row in player_rows:
        key = (row["table_id"], row["board"], row["direction"])
        if key in results:
            where = f"board {row['board']!r}, player {row['user_id']!r}"
            results[key].players.append(BoardPlayer(
                user_id=as_int(row["user_id"], where), name=as_str(row["name"], f"{where} name")))
    for result in results.values():
        if not 1 <= len(result.players) <= 2:
            raise CorruptRowError(f"board {result.board!r}, table {result.table_id} direction "
                                  f"{result.direction}: {len(result.players)} players stored "
                                  "(1 or 2 expected)")
    return list(results.values())


def field_from_rows(board: str, rows: Iterable[Row]) -> list[FieldResult]:
    """A board's field (``rows`` by index)."""
    field = []
    for expected, row in enumerate(rows):
        where = f"field of board {board!r}, table {row['idx']!r}"
        index = as_int(row["idx"], where)
        if index != expected:
            raise CorruptRowError(f"field of board {board!r}: table {expected} is missing")
        field.append(FieldResult(board=board, index=index,
                                 diff=as_int(row["diff"], f"{where} diff"),
                                 replay=load_json_object(row["replay"], f"{where} replay")))
    return field


def reviews_from_rows(rows: Iterable[Row]) -> list[ReviewRecord]:
    """Reviews (``rows``: table_id, deal, seat, user_id, review as JSON text,
    created_at), in the order given."""
    reviews = []
    for row in rows:
        where = f"review of table {row['table_id']!r}, deal {row['deal']!r}, seat {row['seat']!r}"
        deal, seat = as_int(row["deal"], f"{where} deal"), as_int(row["seat"], f"{where} seat")
        if deal < 0 or seat < 0:
            raise CorruptRowError(f"{where}: the deal and the seat must be >= 0")
        reviews.append(ReviewRecord(
            table_id=as_int(row["table_id"], f"{where} table_id"), deal=deal, seat=seat,
            user_id=as_int(row["user_id"], f"{where} user_id"),
            review=load_json_object(row["review"], f"{where} review"),
            created_at=parse_timestamp(row["created_at"], f"{where} created_at")))
    return reviews


def event_codes(rows: Iterable[Row]) -> list[str]:
    return [as_str(row["event"], "an event code") for row in rows]


def meta_value(key: str, row: Row | None) -> str | None:
    return None if row is None else as_str(row["value"], f"meta {key!r}")


def rating_points(rows: Iterable[Row]) -> list[RatingPoint]:
    points = []
    for row in rows:
        where = f"rating history of game {row['id']!r}"
        points.append(RatingPoint(
            game_id=as_int(row["id"], where),
            finished_at=parse_timestamp(row["finished_at"], where),
            mu=as_float(row["mu"], where), sigma=as_float(row["sigma"], where)))
    return points


def board_size(row: Row) -> BoardSize:
    return BoardSize(shown=as_int(row["shown"], "the global board's size"),
                     hidden=as_int(row["hidden"], "the global board's size"))


def partner_rows(rows: Iterable[Row]) -> list[PartnerRow]:
    return [PartnerRow(player=as_str(r["player"], "partner"), name=as_str(r["name"], "partner"),
                       games=as_int(r["games"], "partner"), wins=as_int(r["wins"], "partner"))
            for r in rows]


def leaderboard_rows(guild_id: int | None, rows: Iterable[Row]) -> list[LeaderboardRow]:
    board: dict[int, LeaderboardRow] = {}
    scope = "the global leaderboard" if guild_id is None else f"leaderboard of guild {guild_id}"
    for row in rows:
        where = f"{scope}, user {row['user_id']!r}"
        user = as_int(row["user_id"], where)
        entry = board.get(user)
        if entry is None:
            entry = board[user] = LeaderboardRow(
                user_id=user, name=as_str(row["name"], f"{where} name"),
                games=as_int(row["games"], where), wins=as_int(row["wins"], where),
                rating=as_optional_float(row["ordinal"], f"{where} rating"),
                rank=as_int(row["rank"], where))
        if row["key"] is not None:
            entry.stats[as_str(row["key"], where)] = as_int(row["total"], where)
    return list(board.values())
