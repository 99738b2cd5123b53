"""The row mapping both backends share (bot/store/rows.py, base.py, codec.py): what
is written is checked alike and a stored row is read alike, so the same damage
gives the same CorruptRowError, word for word, in SQLite and in PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.ratings import Rating, Seat, rate_game
from bot.store import (
    ActionRecord,
    BoardPlayer,
    BoardResult,
    CorruptRowError,
    FieldResult,
    GamePlayerResult,
    GameResult,
    Repository,
    SequenceConflictError,
    StoreError,
    TableStatus,
)
from bot.store.base import board_results_sql, player_totals_sql
from bot.store.codec import check_meta, format_timestamp, parse_timestamp, utc
from bot.store.rows import (
    ResultFilter,
    check_action,
    check_lock_request,
    claim_rows,
    field_rows,
    game_rows,
    meta_value,
    rating_keys,
    rating_updates,
    seq_refused,
    table_changes,
)

from .conftest import Backend, new_table

# -- the same damage, the same error in both backends ------------------------------

STAMP = "2024-01-01T00:00:00+00:00"

# (what, SQL with {table} and {game} ids, what reads it, the error expected)
DAMAGE = [
    ("status", "UPDATE tables SET status = 'paused' WHERE id = {table}", "table",
     "table {table}: unknown status 'paused'"),
    ("options", "UPDATE tables SET options = '[1, 2]' WHERE id = {table}", "table",
     "table {table} options: expected a JSON object, found list"),
    ("payload", "INSERT INTO actions (table_id, seq, payload, created_at) "
     f"VALUES ({{table}}, 3, '[1]', '{STAMP}')", "table",
     "table {table}, action seq 3 payload: expected a JSON object, found list"),
    ("gap", "INSERT INTO actions (table_id, seq, payload, created_at) "
     f"VALUES ({{table}}, 5, '{{{{}}}}', '{STAMP}')", "table",
     "table {table}: the action log has a gap (seq 3 is missing, next stored is 5)"),
    ("draft", "INSERT INTO drafts (table_id, seat, data, updated_at) "
     f"VALUES ({{table}}, 1, '[1]', '{STAMP}')", "table",
     "table {table}, draft of seat 1: expected a JSON object, found list"),
    ("scores", "UPDATE games SET scores = '[1, \"x\"]' WHERE id = {game}", "games",
     "game {game} scores: expected a JSON array of integers"),
]


async def tamper(backend: Backend, sql: str) -> None:
    """Write behind the repository's back, as a broken tool would (PostgreSQL's CHECK
    of an action's payload dropped)."""
    await backend.tamper(sql, drop=("actions.actions_payload_check",))


@pytest.mark.parametrize(("damage", "reader", "expected"),
                         [case[1:] for case in DAMAGE], ids=[case[0] for case in DAMAGE])
async def test_the_same_damage_is_the_same_error_in_both_backends(
        backend: Backend, repo: Repository, damage: str, reader: str, expected: str) -> None:
    table = await new_table(repo)
    for seq in (1, 2):
        await repo.append_action(table.id, ActionRecord(seq, {"seq": seq}))
    finished = await new_table(repo, channel_id=11)
    game_id = await repo.record_game(GameResult(
        table_id=finished.id, guild_id=1, game="tichu", scores=[1000, 200], winner=0,
        players=[GamePlayerResult(0, 100, None, "Ann", 0, True)], replay={"actions": []}))

    await tamper(backend, damage.format(table=table.id, game=game_id))

    with pytest.raises(CorruptRowError) as caught:
        if reader == "table":
            await repo.load_table(table.id)
        else:
            await repo.recent_games(1, "tichu")
    assert caught.value.code == "corrupt_row"
    assert str(caught.value) == expected.format(table=table.id, game=game_id)


# -- writing: checks and parameters -------------------------------------------------


def test_table_changes_keep_their_order_and_check_their_values() -> None:
    changes = table_changes(7, "now", status=TableStatus.PLAYING, thread_id=None,
                            message_id=5, ping_message_id=None, options={"target": 500})
    assert changes == {"status": "playing", "message_id": 5, "options": '{"target":500}',
                       "updated_at": "now"}
    assert list(changes) == ["status", "message_id", "options", "updated_at"]
    assert table_changes(7, 1, status=None, thread_id=None, message_id=None,
                         ping_message_id=None, options=None) == {"updated_at": 1}
    with pytest.raises(StoreError) as status:
        table_changes(7, 1, status="paused", thread_id=None,  # type: ignore[arg-type]
                      message_id=None, ping_message_id=None, options=None)
    assert status.value.code == "invalid_status"


def test_an_action_is_checked_before_it_is_stored() -> None:
    assert check_action(3, ActionRecord(2, {"b": 1, "a": "é"})) == (2, '{"b":1,"a":"é"}')
    for seq in (0, -1, True, 1.0, "1"):
        with pytest.raises(SequenceConflictError, match="positive integer"):
            check_action(3, ActionRecord(seq, {}))  # type: ignore[arg-type]
    with pytest.raises(StoreError) as payload:
        check_action(3, ActionRecord(1, ["play"]))  # type: ignore[arg-type]
    assert payload.value.code == "invalid_action"
    refused = seq_refused(3, 9, 4)
    assert isinstance(refused, SequenceConflictError)
    assert str(refused) == ("table 3: action seq 9 refused, the last stored seq is 4 "
                            "(the next must be 5)")


def test_a_game_becomes_its_rows() -> None:
    result = GameResult(
        table_id=4, guild_id=1, game="tichu", scores=[300, -100], winner=0,
        players=[GamePlayerResult(0, 100, None, "Ann", 0, True, {"bombs": 1, "tichu": 2}),
                 GamePlayerResult(1, None, "hard", "Robot", 1, False)],
        replay={"actions": []})
    rows = game_rows(result)
    assert (rows.scores, rows.replay) == ("[300,-100]", '{"actions":[]}')
    assert rows.players_of(9) == [(9, 0, 100, None, "Ann", 0, True),
                                  (9, 1, None, "hard", "Robot", 1, False)]
    assert rows.stats_of(9) == [(9, 0, "bombs", 1), (9, 0, "tichu", 2)]
    recorded = rows.already_recorded()
    assert (recorded.code, str(recorded)) == ("game_already_recorded",
                                              "game of table 4 is already recorded")
    result.players[1].stats = {"bombs": 1.5}  # type: ignore[dict-item]
    with pytest.raises(StoreError) as stats:
        game_rows(result)
    assert stats.value.code == "invalid_stats"


def test_shard_requests_are_bounded_only_where_the_backend_needs_it() -> None:
    assert check_lock_request([3, 1, 3], 4) == [1, 3]
    assert check_lock_request([2**31], 2**31) == [2**31]  # SQLite: no bound
    for ids, count in (([2**31], 4), ([1], 2**31)):
        with pytest.raises(StoreError) as bounded:
            check_lock_request(ids, count, below=2**31)
        assert bounded.value.code == "invalid_argument"
    wrong: list[tuple[list[object], object]] = [([-1], 4), ([True], 4), ([1], 0), ([1], "4")]
    for bad_ids, bad_count in wrong:
        with pytest.raises(StoreError) as refused:
            check_lock_request(bad_ids, bad_count)  # type: ignore[arg-type]
        assert refused.value.code == "invalid_argument"


def test_meta_entries_are_checked_and_read_alike() -> None:
    assert check_meta("hash", "abc") == ("hash", "abc")
    for key, value in (("", "abc"), ("hash", None), (None, "abc")):
        with pytest.raises(StoreError) as caught:
            check_meta(key, value)
        assert caught.value.code == "invalid_argument"
    assert meta_value("hash", None) is None
    assert meta_value("hash", {"value": "abc"}) == "abc"
    with pytest.raises(CorruptRowError, match="meta 'hash'"):
        meta_value("hash", {"value": b"\x00"})


# -- reading ------------------------------------------------------------------------


def test_timestamps_are_utc_whatever_their_form() -> None:
    moment = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    paris = moment.astimezone(timezone(timedelta(hours=2)))
    naive = moment.replace(tzinfo=None)
    for given in (moment, paris, naive):
        assert utc(given) == moment and utc(given).tzinfo is UTC
        assert format_timestamp(given) == "2024-05-01T12:30:00.000000+00:00"
        assert parse_timestamp(given, "t") == moment
        assert parse_timestamp(format_timestamp(given), "t") == moment
    assert parse_timestamp("2024-05-01T14:30:00+02:00", "t") == moment
    assert parse_timestamp("2024-05-01T12:30:00", "t") == moment


def test_a_game_is_rated_against_the_stored_ratings() -> None:
    seats = (Seat("u:1", 0, True, 1000), Seat("cpu:hard", 1, False, 200),
             Seat("u:2", 0, True, 1000), Seat("cpu:hard", 1, False, 200))
    assert rating_keys(seats) == ["cpu:hard", "u:1", "u:2"]
    stored = [{"player": "u:1", "mu": 30, "sigma": 7.5, "games": 4}]
    ratings, history = rating_updates(9, 1, "tichu", seats, stored)
    new = rate_game("tichu", seats, {"u:1": Rating(30.0, 7.5)})
    assert [row[2] for row in ratings] == sorted(new) == [row[1] for row in history]
    by_key = {row[2]: row for row in ratings}
    assert by_key["u:1"][-1] == 5 and by_key["u:2"][-1] == 1
    assert by_key["cpu:hard"][:4] == (1, "tichu", "cpu:hard", None)
    assert by_key["u:2"][3] == 2
    assert history[0] == (9, "cpu:hard", new["cpu:hard"].mu, new["cpu:hard"].sigma)
    with pytest.raises(CorruptRowError, match="rating of 'u:1'"):
        rating_updates(9, 1, "tichu", seats,
                       [{"player": "u:1", "mu": "30", "sigma": 7.5, "games": 4}])


def test_the_ranking_query_has_every_word_of_the_dialect_filled_in() -> None:
    sql = player_totals_sql(guild_id="G", game="N", user_id="U", limit="L", offset="O",
                            won="W", total="T")
    assert "{" not in sql and "}" not in sql
    assert "g.guild_id = G AND g.game = N" in sql
    assert "CASE WHEN W THEN" in sql
    assert "TRUE AS shown" in sql and "WHERE (U IS NULL AND shown) OR user_id = U" in sql
    assert "LIMIT L OFFSET O" in sql
    assert "T AS total" in sql
    # The global board (issue 53): every guild's games, the global ratings, those shown.
    world = player_totals_sql(guild_id=None, game="N", user_id="U", limit="L", offset="O",
                              won="W", total="T")
    assert "{" not in world and "}" not in world and "guild_id" not in world
    assert "WHERE  g.game = N" in world and "LEFT JOIN global_ratings AS r ON  r.game = N" in world
    assert "FROM people AS pp WHERE pp.user_id = t.user_id" in world
    assert "WHERE (U IS NULL AND shown) OR user_id = U" in world


def test_board_results_are_picked_by_one_condition_in_either_dialect() -> None:
    query = ResultFilter(event="E", guild_id=0, user_id=7, finished=True)
    where, params = query.where(lambda n: f"${n}")
    assert where == ("r.event = $1 AND r.guild_id = $2 AND (r.table_id, r.board, r.direction) "
                     "IN (SELECT p.table_id, p.board, p.direction FROM dup_players AS p "
                     "WHERE p.user_id = $3) AND r.diff IS NOT NULL")
    assert params == ["E", 0, 7]
    where, params = ResultFilter(board="B").where(lambda _: "?")
    assert (where, params) == ("r.board = ?", ["B"])
    results, players = board_results_sql(where, replay="r.replay::text")
    assert "r.replay::text AS replay" in results and "WHERE r.board = ?" in players


def test_a_claim_becomes_its_rows() -> None:
    claim = claim_rows(BoardResult("b/1", "E", 4, 1, 0, [BoardPlayer(9, "Zoe"),
                                                        BoardPlayer(3, "Al")], None, None))
    assert claim.result == (4, "b/1", 1, "E", 0)
    assert claim.players == [("b/1", 3, 4, 1, 1, "Al"), ("b/1", 9, 4, 1, 0, "Zoe")]
    assert claim.user_ids == [3, 9]
    assert str(claim.taken([9])) == "board 'b/1': user 9 already played or is playing it"
    assert claim.taken().code == "board_taken"
    assert field_rows("b/1", [FieldResult("b/1", 1, -5, {}), FieldResult("b/1", 0, 5, {"a": 1})]
                      ) == [("b/1", 0, 5, '{"a":1}'), ("b/1", 1, -5, "{}")]
