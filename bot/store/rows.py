"""Backend-neutral checks of what is written and decoding of what is read.

Rows are anything indexable by column name (``sqlite3.Row``, ``asyncpg.Record``);
values are checked with :mod:`bot.store.codec`, so a row one backend cannot read
is a :class:`CorruptRowError` naming the table, game or guild, in either backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
    parse_timestamp,
)
from bot.store.models import (
    ActionRecord,
    CorruptRowError,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    LeaderboardRow,
    PanelRecord,
    PartnerRow,
    RatingPoint,
    RatingRow,
    SeatRecord,
    SequenceConflictError,
    StoreError,
    TableRecord,
    TableStatus,
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
    return [(player, check_stats(player, where)) for player in result.players]


@dataclass(frozen=True, slots=True)
class GameRows:
    """A finished game, checked, as the parameters of its rows: ``scores`` and
    ``replay`` as JSON text, each player ``(seat, user_id, bot_level, name, team,
    won)`` and each stat ``(seat, key, value)``, both without the game's id (see
    :meth:`players_of`, :meth:`stats_of`)."""

    where: str
    scores: str
    replay: str
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
        where=where, scores=scores, replay=replay,
        players=[(p.seat, p.user_id, p.bot_level, p.name, p.team, bool(p.won))
                 for p in result.players],
        stats=[(player.seat, key, value) for player, rows in stats for key, value in rows],
    )


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
                    panel_rows: Iterable[Row]) -> TableRecord:
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


def partner_rows(rows: Iterable[Row]) -> list[PartnerRow]:
    return [PartnerRow(player=as_str(r["player"], "partner"), name=as_str(r["name"], "partner"),
                       games=as_int(r["games"], "partner"), wins=as_int(r["wins"], "partner"))
            for r in rows]


def leaderboard_rows(guild_id: int, rows: Iterable[Row]) -> list[LeaderboardRow]:
    board: dict[int, LeaderboardRow] = {}
    for row in rows:
        where = f"leaderboard of guild {guild_id}, user {row['user_id']!r}"
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
