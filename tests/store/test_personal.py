"""A person's data (issue 42), on both backends: counted, exported and erased in one
transaction each; the choice to appear in global standings; the guilds the bot left.

The erase is checked against every table of the schema: after it, no column of any row
holds the person's id (or ``u:<id>``), whatever table a later migration adds; only the
blocks other people made of them stay (theirs: ``tests/store/test_queue.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import pickle
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import (
    BoardPlayer,
    BoardResult,
    EventRecord,
    PersonAtTableError,
    Pool,
    QueueEntry,
    Repository,
    ReviewRecord,
    SQLiteRepository,
)
from bot.store.export import Packed, make_export
from bot.store.migrate import load_migrations
from bot.store.models import (
    GamePlayerResult,
    GameResult,
    GuildSettings,
    PanelRecord,
    SeatRecord,
    Swept,
    TableStatus,
)
from bot.store.personal import KEPT, QUEUE_TABLE, export_document, is_former, kept
from engine.duplicate.boards import make_boards
from engine.duplicate.play import board_diff, board_game, board_replay, play_board
from engine.tichu.ai import make_player
from engine.tichu.replay import seen_by

from .conftest import Backend, new_table

ANN, BOB, CAT = 100, 200, 300
DAN, EVE = 400, 500
"""Ann's partner in the queue, and the person she blocked (in her export: her choices)."""
DAY = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
BOARD = "daily:2026-11-01/1"
ODD = 'Zoë "\u202eq\n\\'
"""A name JSON must escape (a quote, a newline, a backslash) or keep as it is (the rest)."""


def seats_of(people: list[tuple[int | None, str]], winner: int) -> list[GamePlayerResult]:
    return [GamePlayerResult(seat=s, user_id=u, bot_level=None if u else "hard", name=n,
                             team=s % 2, won=s % 2 == winner,
                             stats={"tichu_called": 1} if u else {})
            for s, (u, n) in enumerate(people)]


async def finished(repo: Repository, people: list[tuple[int | None, str]], day: int,
                   winner: int = 0, *, guild_id: int = 1) -> GameResult:
    """A finished, rated game of ``guild_id`` at a table whose seats are ``people``."""
    table = await new_table(repo, guild_id=guild_id, channel_id=100 + day,
                            host_id=people[0][0] or BOB)
    await repo.save_seats(table.id, [SeatRecord(seat=s, user_id=u, name=n,
                                                bot_level=None if u else "hard")
                                     for s, (u, n) in enumerate(people)])
    result = GameResult(table_id=table.id, guild_id=guild_id, game="tichu",
                        scores=[1000, 600] if winner == 0 else [400, 1010], winner=winner,
                        players=seats_of(people, winner),
                        replay={"game": "tichu", "seed": f"day-{day}", "deals": []},
                        finished_at=DAY + timedelta(days=day))
    result.id = await repo.record_game(result)
    return result


async def stocked(repo: Repository) -> list[GameResult]:
    """Three games (Ann in two), reviews of Ann and Bob, a daily result of each, Ann's
    choice: something in every table that can hold a person."""
    games = [await finished(repo, [(ANN, "Ann"), (None, "Robot"), (BOB, "Bob"), (CAT, "Cat")], 1),
             await finished(repo, [(BOB, "Bob"), (ANN, "Ann"), (CAT, "Cat"), (None, "R")], 2, 1),
             await finished(repo, [(BOB, "Bob"), (CAT, "Cat"), (None, "R"), (None, "R")], 3)]
    names = ["Ann", "Robot", "Bob", "Cat"]
    for seat, user in ((0, ANN), (2, BOB)):
        await repo.save_review(ReviewRecord(
            table_id=games[0].table_id, deal=0, seat=seat, user_id=user,
            review={"decisions": [], "names": names, "replay": {"seed": "x"}}))
    await repo.create_event(EventRecord(code="daily:2026-11-01", kind="daily", seed="s",
                                        boards=1, guild_id=None, host_id=None))
    await repo.create_event(EventRecord(code="K7Q2XM", kind="event", seed="s2", boards=1,
                                        guild_id=1, host_id=ANN))
    for user, name, channel in ((ANN, "Ann", 900), (BOB, "Bob", 901)):
        table = await new_table(repo, channel_id=channel, host_id=user)
        await repo.save_seats(table.id, [SeatRecord(seat=0, user_id=user, name=name)])
        await repo.claim_board(BoardResult(board=BOARD, event="daily:2026-11-01",
                                           table_id=table.id, direction=0, guild_id=0,
                                           players=[BoardPlayer(user, name)], diff=None,
                                           replay=None))
        await repo.finish_board(table.id, BOARD, 0, 40 if user == ANN else -40,
                                {"game": "tichu", "seed": "b"})
        await repo.update_table(table.id, status=TableStatus.FINISHED)
    await repo.set_standings(ANN, True)
    # "Play now" (issue 53): her place in the queue with a partner, an answer to a ready
    # check, a block, a game left early.
    await repo.queue_join(QueueEntry(ANN, Pool("tichu", 4), "en", 3.5, partner_id=DAN,
                                     partner_rating=1.0))
    for other in (BOB, CAT):
        await repo.queue_join(QueueEntry(other, Pool("tichu", 4), "fr", 2.0))
    check = await repo.open_ready_check(Pool("tichu", 4), [ANN, BOB, DAN, CAT])
    await repo.answer_ready_check(check.id, ANN, True)
    await repo.block(ANN, EVE)
    await repo.record_departure(ANN, games[2].table_id)
    return games


async def everything(backend: Backend) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the store, read straight from the database."""
    if backend.name == "sqlite":
        import sqlite3
        with sqlite3.connect(backend.url) as conn:
            names = [r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'")]
            return {n: conn.execute(f"SELECT * FROM {n}").fetchall() for n in names}
    conn = await asyncpg.connect(backend.url)
    try:
        names = [r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {n: [tuple(r) for r in await conn.fetch(f"SELECT * FROM {n}")] for n in names}
    finally:
        await conn.close()


def holding(rows: dict[str, list[tuple[Any, ...]]], user_id: int) -> dict[str, int]:
    """How many rows of each table hold ``user_id`` in some column (as a number, or in
    text such as ``u:100`` or a JSON document)."""
    pattern = str(user_id)
    found: dict[str, int] = {}
    for table, table_rows in rows.items():
        for row in table_rows:
            for value in row:
                if value == user_id or (isinstance(value, str) and (
                        value == f"u:{pattern}" or f'"user_id": {pattern}' in value
                        or f'"user_id":{pattern}' in value)):
                    found[table] = found.get(table, 0) + 1
                    break
    return found


async def test_every_table_of_the_schema_is_described(repo: Repository,
                                                      backend: Backend) -> None:
    """The privacy page's list (KEPT) names every table, and only those: a new table
    must say what it holds about people before the tests pass."""
    tables = {QUEUE_TABLE if t.startswith(QUEUE_TABLE) else t for t in await everything(backend)}
    described = {k.table for k in KEPT if k.backend in ("both", backend.name)}
    # The job queue's tables are made by the queue, in a bot's database only.
    assert tables - {QUEUE_TABLE} == described - {QUEUE_TABLE}


async def test_counts_and_export_of_a_person(repo: Repository) -> None:
    games = await stocked(repo)
    counts = await repo.person_counts(ANN)
    assert (counts.games, counts.ratings, counts.daily, counts.events, counts.reviews,
            counts.settings) == (2, 2, 1, 1, 1, 1)  # her rating in guild 1, and global
    assert counts.tables == 3  # two games' tables and the daily's
    assert not counts.empty

    document = await repo.export_person(ANN, now=DAY)
    json.dumps(document)  # it is JSON as it is
    assert document["empty"] is False and document["user_id"] == str(ANN)
    assert [g["id"] for g in document["games"]] == [games[0].id, games[1].id]
    first = document["games"][0]
    assert first["replay"] == games[0].replay
    assert [p.get("name") for p in first["players"]] == ["Ann", None, "Bob", "Cat"]
    assert [p["you"] for p in first["players"]] == [True, False, False, False]
    assert first["players"][0]["stats"] == {"tichu_called": 1}
    assert "stats" not in first["players"][2]  # Bob's own figures are his
    assert [r["game"] for r in document["ratings"]] == ["tichu"]
    assert len(document["rating_history"]) == 2
    # Her global rating (issue 53) and its history: the same two games.
    assert [(r["game"], r["games"]) for r in document["global_ratings"]] == [("tichu", 2)]
    assert [(h["game_id"], h["guild_id"]) for h in document["global_rating_history"]] == [
        (games[0].id, "1"), (games[1].id, "1")]
    assert [(d["board"], d["diff"]) for d in document["duplicate"]] == [(BOARD, 40)]
    assert document["duplicate"][0]["replay"] == {"game": "tichu", "seed": "b"}
    assert [e["code"] for e in document["events_hosted"]] == ["K7Q2XM"]
    assert [(r["table_id"], r["seat"]) for r in document["reviews"]] == [
        (games[0].table_id, 0)]
    assert document["settings"]["standings"] is True
    # Nobody else's Discord id is in it (ids are text, as in Discord's JSON).
    text = json.dumps(document)
    assert f'"{CAT}"' not in text and f'"{BOB}"' not in text


async def test_the_export_of_a_stranger_says_there_is_nothing(repo: Repository) -> None:
    await stocked(repo)
    document = await repo.export_person(4242, now=DAY)
    assert document["empty"] is True and document["note"] == "Nothing is stored about you."
    assert document["games"] == [] and document["settings"] is None
    assert (await repo.person_counts(4242)).empty


async def test_the_file_is_the_document_written_a_piece_at_a_time(repo: Repository) -> None:
    """The rows of an export are plain data (they go to another process), and the file
    made from them, a game at a time, is byte for byte ``json.dumps`` of the document, as
    it was made before (issue 51): plain while it fits, gzipped past the limit."""
    await stocked(repo)
    await finished(repo, [(ANN, ODD), (None, "R"), (BOB, "Bob"), (None, "R")], 4)
    for user_id in (ANN, 4242):
        rows = await repo.export_rows(user_id)
        assert pickle.loads(pickle.dumps(rows)) == rows
        document = export_document(user_id, DAY, rows)
        text = json.dumps(document, ensure_ascii=False, indent=1).encode()
        made = make_export(user_id, DAY, rows, 10**9)
        assert made is not None and made.file == Packed(text, packed=False, size=len(text))
        assert (made.empty, made.games) == (document["empty"], len(document["games"]))
        packed = make_export(user_id, DAY, rows, len(text) - 1)
        assert packed is not None and packed.file.packed and packed.file.size == len(text)
        assert gzip.decompress(packed.file.data) == text
    rows = await repo.export_rows(ANN)
    assert export_document(ANN, DAY, rows)["games"][2]["players"][0]["name"] == ODD
    assert make_export(ANN, DAY, rows, 100) is None  # too big even gzipped


async def test_the_operator_writes_a_file_too_big_for_discord(repo: Repository,
                                                              backend: Backend,
                                                              tmp_path: Path) -> None:
    """``python -m bot.store export DATABASE USER_ID FILE``: the file ``/privacy export``
    sends, of any size (gzipped for a name ending in .gz), for the person the bot told
    to ask the operator."""
    await stocked(repo)
    path = tmp_path / "ann.json.gz"
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-m", "bot.store", "export", backend.url, str(ANN), str(path)],
        capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote {path}: everything stored about {ANN} (2 finished games)\n"
    written = json.loads(gzip.decompress(path.read_bytes()))
    expected = export_document(ANN, DAY, await repo.export_rows(ANN))
    assert written == {**expected, "exported_at": written["exported_at"]}


async def test_an_export_reads_a_snapshot_beside_the_writes(repo: Repository) -> None:
    """An export's read holds up no write (SQLite: a second connection, WAL), and sees
    the store as it was when it began, though the writes go on meanwhile."""
    games = await stocked(repo)
    base: Any = repo
    count = "SELECT COUNT(*) AS n FROM reviews"

    async def work(conn: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        before = [row async for chunk in base._chunks(conn, count) for row in chunk]
        # On the one connection this would wait for the export's end: forever.
        await asyncio.wait_for(repo.save_review(ReviewRecord(
            table_id=games[2].table_id, deal=0, seat=0, user_id=BOB, review={})), 10)
        after = [row async for chunk in base._chunks(conn, count) for row in chunk]
        return before, after

    before, after = await base._snapshot("test", work)
    assert before == after == [{"n": 2}]
    assert await repo.review(games[2].table_id, 0, 0) is not None


async def test_an_export_in_memory_reads_on_the_one_connection() -> None:
    """An SQLite store in memory has no second connection: the export reads on the one."""
    repo = SQLiteRepository(":memory:")
    await repo.open()
    try:
        await stocked(repo)
        rows = await repo.export_rows(ANN)
        assert len(rows["games"]) == 2 and len(rows["reviews"]) == 1
    finally:
        await repo.close()


async def test_an_erase_leaves_no_trace_and_the_others_unchanged(
        repo: Repository, backend: Backend) -> None:
    games = await stocked(repo)
    before = await everything(backend)
    assert holding(before, ANN)  # the check finds her before
    # Every table that holds her is in her export.
    document = await repo.export_person(ANN)
    for table in holding(before, ANN):
        assert kept(table).export and document[kept(table).export], table
    bob_before = await repo.player_stats(1, "tichu", BOB)
    board_before = [(r.user_id, r.rating, r.games, r.wins) for r in
                    await repo.leaderboard(1, "tichu") if r.user_id != ANN]
    bob_history = await repo.rating_history(1, "tichu", BOB)
    global_before = {(r.player, r.mu, r.sigma, r.games) for r in await repo.ratings(None, "tichu")
                     if r.user_id != ANN}
    assert any(r.user_id == ANN for r in await repo.ratings(None, "tichu"))

    erased = await repo.erase_person(ANN)
    assert erased.counts.games == 2 and erased.reviews_scrubbed == 1
    after = await everything(backend)
    assert holding(after, ANN) == {}
    assert not [t for t, rows in after.items() for row in rows for v in row
                if isinstance(v, str) and "Ann" in v]  # nor her name, anywhere
    # The others: the same ratings, history, totals (a rank up, as she is no longer
    # listed); the games keep their results.
    bob_after = await repo.player_stats(1, "tichu", BOB)
    assert bob_before is not None and bob_after is not None
    assert dataclasses.replace(bob_after, rank=0) == dataclasses.replace(bob_before, rank=0)
    assert [(r.user_id, r.rating, r.games, r.wins) for r in
            await repo.leaderboard(1, "tichu")] == board_before
    assert await repo.rating_history(1, "tichu", BOB) == bob_history
    # The global ratings (issue 53): hers gone (a pseudonym's now, unnamed), the others'
    # as they were.
    global_after = await repo.ratings(None, "tichu")
    assert all(r.user_id != ANN for r in global_after)
    assert {(r.player, r.mu, r.sigma, r.games) for r in global_after
            if r.user_id is not None or r.player.startswith("cpu:")} == global_before
    assert await repo.player_stats(None, "tichu", ANN) is None
    game = await repo.load_game(1, games[0].id)
    assert game is not None and game.scores == games[0].scores
    former = game.players[0]
    assert is_former(former.user_id) and former.name == "" and former.won
    again = await repo.load_game(1, games[1].id)
    assert again is not None and again.players[1].user_id == former.user_id
    # Bob's review of the deal no longer names her; his own name stays.
    bobs = await repo.review(games[0].table_id, 0, 2)
    assert bobs is not None and bobs.review["names"] == ["", "Robot", "Bob", "Cat"]
    assert await repo.review(games[0].table_id, 0, 0) is None
    # The daily: her result stays in the field of the others, unnamed.
    results = await repo.board_results(BOARD)
    assert sorted(r.diff or 0 for r in results) == [-40, 40]
    assert [p.name for r in results for p in r.players if is_former(p.user_id)] == [""]
    assert not await repo.standings_choice(ANN)
    # Nothing is left: a second erase finds nothing, an export says so.
    assert (await repo.person_counts(ANN)).empty
    assert (await repo.erase_person(ANN)).counts.empty
    assert (await repo.export_person(ANN))["empty"] is True


async def test_a_review_made_for_an_erased_person_is_not_stored(repo: Repository) -> None:
    """A review job running while the person erases: its result is dropped, and one of
    another person at the table is stored without the erased person's name."""
    games = await stocked(repo)
    await repo.erase_person(ANN)
    table = games[0].table_id
    await repo.save_review(ReviewRecord(table_id=table, deal=1, seat=0, user_id=ANN,
                                        review={"names": ["Ann", "Robot", "Bob", "Cat"]}))
    assert await repo.review(table, 1, 0) is None
    await repo.save_review(ReviewRecord(table_id=table, deal=1, seat=2, user_id=BOB,
                                        review={"names": ["Ann", "Robot", "Bob", "Cat"]}))
    stored = await repo.review(table, 1, 2)
    assert stored is not None and stored.review["names"] == ["", "Robot", "Bob", "Cat"]


async def test_an_erase_is_refused_at_a_live_table(repo: Repository, backend: Backend) -> None:
    await stocked(repo)
    lobby = await new_table(repo, channel_id=777, host_id=CAT)  # Ann is seated (seat 0)
    before = await everything(backend)
    with pytest.raises(PersonAtTableError) as refused:
        await repo.erase_person(ANN)
    assert refused.value.tables == [lobby.id] and refused.value.code == "person_at_table"
    assert await everything(backend) == before
    await repo.update_table(lobby.id, status=TableStatus.EXPIRED)
    assert not (await repo.erase_person(ANN)).counts.empty


async def test_the_choice_to_appear_in_global_standings(repo: Repository) -> None:
    assert not await repo.standings_choice(ANN)
    assert await repo.appearing([ANN, BOB, -5]) == set()
    await repo.set_standings(ANN, True)
    await repo.set_standings(BOB, True)
    await repo.set_standings(BOB, False)
    assert await repo.standings_choice(ANN) and not await repo.standings_choice(BOB)
    assert await repo.appearing([ANN, BOB, CAT]) == {ANN}
    assert await repo.appearing(range(1, 2000)) == {ANN}  # read 500 ids at a time


async def test_a_guild_left_is_swept_after_the_retention(repo: Repository) -> None:
    await repo.save_guild_settings(1, GuildSettings(locale="fr", turn_timer=90))
    await repo.save_guild_settings(2, GuildSettings(locale="de"))
    lobby = await new_table(repo, guild_id=1, channel_id=5)
    played = await finished(repo, [(ANN, "Ann"), (None, "R"), (BOB, "Bob"), (None, "R")], 1)
    elsewhere = await finished(repo, [(ANN, "Ann"), (None, "R"), (BOB, "Bob"), (None, "R")], 2,
                               guild_id=2)
    await repo.save_review(ReviewRecord(table_id=played.table_id, deal=0, seat=0, user_id=ANN,
                                        review={"names": ["Ann", "R", "Bob", "R"]}))
    await repo.update_table(lobby.id, status=TableStatus.EXPIRED)
    bob_elsewhere = await repo.player_stats(2, "tichu", BOB)
    await repo.guild_left(1, when=DAY)
    await repo.guild_left(1, when=DAY + timedelta(days=3))  # the first time counts
    assert await repo.guild_left_at(1) == DAY and await repo.guild_left_at(2) is None
    # Added back within the retention: nothing is lost.
    assert await repo.guild_back(2) is False
    assert await repo.sweep_left_guilds(DAY) == Swept([])
    swept = await repo.sweep_left_guilds(DAY + timedelta(days=1))
    assert swept == Swept([1], settings=1, lobbies=1, people=2, reviews=1)
    assert (await repo.guild_settings(1)).locale is None
    assert await repo.load_table(lobby.id) is None
    # The guild's game keeps its result, anonymized; the other guild's is untouched.
    game = await repo.load_game(1, played.id or 0)
    assert game is not None and game.scores == played.scores
    assert [(is_former(p.user_id), p.name) for p in game.players] == [
        (True, ""), (False, "R"), (True, ""), (False, "R")]
    assert await repo.leaderboard(1, "tichu") == []
    other = await repo.load_game(2, elsewhere.id or 0)
    assert other is not None and [p.user_id for p in other.players] == [ANN, None, BOB, None]
    assert await repo.player_stats(2, "tichu", BOB) == bob_elsewhere
    assert (await repo.person_counts(ANN)).games == 1  # the other guild's game alone
    assert (await repo.guild_settings(2)).locale == "de"
    # Swept again: nothing left to do, and no rebuild.
    assert await repo.sweep_left_guilds(DAY + timedelta(days=2)) == Swept([1])
    assert await repo.guild_back(1) is True
    assert await repo.sweep_left_guilds(DAY + timedelta(days=90)) == Swept([])


async def test_closed_tables_keep_no_drafts_or_hand_messages(repo: Repository) -> None:
    open_table = await new_table(repo, channel_id=1)
    closed = await new_table(repo, channel_id=2)
    for table in (open_table, closed):
        await repo.save_draft(table.id, 0, {"picked": ["S2"]})
        await repo.save_panel(table.id, PanelRecord(ANN, 4242, "token", 900 + table.id, DAY))
    await repo.update_table(closed.id, status=TableStatus.ABANDONED)
    assert await repo.sweep_closed_tables() == 2
    assert await repo.sweep_closed_tables() == 0
    kept_open = await repo.load_table(open_table.id)
    gone = await repo.load_table(closed.id)
    assert kept_open is not None and kept_open.drafts and kept_open.panels
    assert gone is not None and not gone.drafts and not gone.panels


async def test_an_erase_drops_the_persons_review_jobs_from_the_queue(
        pg_backend: Backend) -> None:
    """PostgreSQL: PgQueuer's table holds the review jobs waiting, and theirs name the
    person; the erase deletes hers in its transaction, and leaves Bob's."""
    from bot.games.tichu.coach import REVIEW, review_key, review_payload
    from bot.jobs import ASKED, postgres_jobs

    async with pg_backend.repository() as repo:
        jobs = postgres_jobs(repo, pg_backend.url, timeout=5)
        await jobs.open()
        try:
            games = await stocked(repo)
            table = games[0].table_id
            names = ["Ann", "Robot", "Bob", "Cat"]
            for seat, user in ((0, ANN), (2, BOB)):
                await jobs.submit(REVIEW, review_key(table, 3, seat),
                                  review_payload(table, 3, seat, user, {"game": "tichu"}, names),
                                  ASKED)
            assert await jobs.state(review_key(table, 3, 0)) == "queued"
            await repo.erase_person(ANN)
            assert await jobs.state(review_key(table, 3, 0)) is None
            assert await jobs.state(review_key(table, 3, 2)) == "queued"
            assert holding(await everything(pg_backend), ANN) == {}
        finally:
            await jobs.close()


# Rows as version 6 wrote them (a guild, a finished game of Ann's), in SQL both read.
STAMP = "2026-11-01T00:00:00.000000+00:00"
VERSION_6_ROWS = [
    f"INSERT INTO guilds VALUES (1, 'de', '{STAMP}', '{STAMP}')",
    "INSERT INTO tables (guild_id, channel_id, host_id, game, status, seed, created_at, "
    f"updated_at) VALUES (1, 2, {ANN}, 'tichu', 'finished', 's', '{STAMP}', '{STAMP}')",
    "INSERT INTO games (table_id, guild_id, game, scores, winner, replay, finished_at, rated) "
    f"VALUES (1, 1, 'tichu', '[300,-100]', 0, '{{}}', '{STAMP}', '0')",
    f"INSERT INTO game_players VALUES (1, 0, {ANN}, NULL, 'Ann', 0, '1'), "
    f"(1, 1, {BOB}, NULL, 'Bob', 1, '0')",
]


async def test_a_version_6_database_upgrades_in_place(backend: Backend) -> None:
    """Migration 0007 keeps the rows: nobody has chosen to appear, no guild is left, and
    the people of the old games can be counted, exported and erased."""
    await backend.at_version(6, VERSION_6_ROWS)
    async with backend.repository() as repo:
        latest = len(load_migrations(postgres=backend.name == "postgresql"))
        assert await repo.schema_version() == latest >= 7
        assert await repo.appearing([ANN, BOB]) == set()
        assert await repo.guild_left_at(1) is None
        assert (await repo.person_counts(ANN)).games == 1
        assert [g["scores"] for g in (await repo.export_person(ANN))["games"]] == [[300, -100]]
        await repo.erase_person(ANN)
        [game] = await repo.recent_games(1, "tichu")
        assert [p.name for p in game.players] == ["", "Bob"]


async def test_a_board_s_replay_is_exported_as_seen_until_its_table_s_game_ends(
        repo: Repository) -> None:
    """Ann plays an event of two boards with Cat (seats 0 and 2). After the first board,
    while the table plays the second, her export gives the first board's replay as her
    seat saw it (not Cat's hand, nor any other); once the game is over, the whole."""
    [board] = make_boards("export", 1, prefix="ev:K7Q2XM")
    game = board_game(board)
    play_board(game, board.id, [make_player("easy")] * 4)
    replay = board_replay(board, game.actions)
    await repo.create_event(EventRecord(code="K7Q2XM", kind="event", seed="s", boards=2,
                                        guild_id=1, host_id=ANN))
    table = await new_table(repo, host_id=ANN)
    await repo.save_seats(table.id, [SeatRecord(seat=0, user_id=ANN, name="Ann"),
                                     SeatRecord(seat=1, user_id=None, name="R", bot_level="easy"),
                                     SeatRecord(seat=2, user_id=CAT, name="Cat"),
                                     SeatRecord(seat=3, user_id=None, name="R", bot_level="easy")])
    await repo.update_table(table.id, status=TableStatus.PLAYING)
    await repo.claim_board(BoardResult(board=board.id, event="K7Q2XM", table_id=table.id,
                                       direction=0, guild_id=1,
                                       players=[BoardPlayer(ANN, "Ann"), BoardPlayer(CAT, "Cat")],
                                       diff=None, replay=None))
    await repo.finish_board(table.id, board.id, 0, board_diff(game, 0), replay)

    [row] = (await repo.export_person(ANN))["duplicate"]
    assert row["replay"] == seen_by(replay, [0])
    assert row["replay"]["deals"][0]["hands"][2] is None  # not her partner's either
    [row] = (await repo.export_person(CAT))["duplicate"]
    assert row["replay"] == seen_by(replay, [2])
    await repo.update_table(table.id, status=TableStatus.FINISHED)
    [row] = (await repo.export_person(ANN))["duplicate"]
    assert row["replay"] == replay
