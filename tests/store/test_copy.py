"""``python -m bot.store copy``: an SQLite database copied into PostgreSQL with
nothing lost, or not at all."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import (
    ActionRecord,
    BoardPlayer,
    BoardResult,
    EventRecord,
    FieldResult,
    GamePlayerResult,
    GameResult,
    GuildSettings,
    PanelRecord,
    Pool,
    QueueEntry,
    Repository,
    ReviewRecord,
    SeatRecord,
    SQLiteRepository,
    TableStatus,
)
from bot.store.copy import TABLES, CopyError, copy_database
from bot.store.models import TalkLine
from engine.replay import game_from_replay

from .conftest import Backend, new_table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
REPLAYS = [("tichu", FIXTURES / "replay" / "game_to_1000.json", 4),
           ("chinois", FIXTURES / "chinois" / "whole_game.json", 4),
           ("tysiacha", FIXTURES / "tysiacha" / "whole_game.json", 3),
           ("tysiacha", FIXTURES / "tysiacha" / "four_players.json", 4)]
GUILDS = [1, 1_150_000_000_004_194_304]
TICHU = Pool("tichu", 4)


async def finish(repo: Repository, guild_id: int, game: str, path: Path, seats: int,
                 n: int, *, rated: bool = True) -> int:
    replay: dict[str, Any] = json.loads(path.read_text())
    played = game_from_replay(replay)
    scores = [int(s) for s in played.scores]
    table = await new_table(repo, guild_id=guild_id, game=game, channel_id=500 + n)
    await repo.append_action(table.id, ActionRecord(1, {"type": "start", "by": "human"}))
    winner = getattr(played, "winner", None)
    players = [GamePlayerResult(
        seat=seat, user_id=None if seat == 1 else 100 * (seat + 1) + n % 2,
        bot_level="hard" if seat == 1 else None, name=f"Player {seat}",
        team=seat % 2 if game == "tichu" else seat,
        won=(seat % 2 if game == "tichu" else seat) == winner,
        stats={"points": scores[seat % len(scores)], "bombs": n % 3})
        for seat in range(seats)]
    return await repo.record_game(GameResult(
        table_id=table.id, guild_id=guild_id, game=game, scores=scores, winner=winner,
        players=players, replay=replay, rated=rated))


async def fill(path: Path) -> None:
    """Something of everything the store keeps."""
    async with SQLiteRepository(path) as repo:
        await repo.ensure_guild(GUILDS[0], "fr")
        await repo.save_guild_settings(GUILDS[0], GuildSettings("de", 0, 500, 3, 4242))
        await repo.save_guild_settings(GUILDS[1], GuildSettings(turn_timer=45))
        await repo.set_meta("commands_hash", "abc123")
        for n, (game, replay, seats) in enumerate(REPLAYS * 2):
            await finish(repo, GUILDS[n % 2], game, replay, seats, n)
        lobby = await new_table(repo, guild_id=GUILDS[1], channel_id=20)
        await repo.save_draft(lobby.id, 2, {"exchange": {"left": "S2", "right": None}})
        await repo.save_panel(lobby.id, PanelRecord(100, 4242, "token-ä", 900,
                                                    datetime(2026, 1, 2, 3, 4, 5, 6, UTC)))
        playing = await new_table(repo, guild_id=GUILDS[0], channel_id=21,
                                  options={"target": 500, "turn_timer": None, "x": [1.5, "é"]})
        await repo.update_table(playing.id, status=TableStatus.PLAYING, thread_id=22,
                                message_id=23, ping_message_id=24)
        await repo.save_seats(playing.id, [SeatRecord(0, 100, "Ann", "normal", away=True),
                                           SeatRecord(1, None, "CPU", "easy")])
        for seq in range(1, 31):
            await repo.append_action(playing.id, ActionRecord(
                seq, {"type": "play", "seat": seq % 4, "cards": ["S2"], "n": seq,
                      "by": "human" if seq % 3 else "timer"}))
        abandoned = await new_table(repo, guild_id=GUILDS[0], channel_id=25)
        await repo.update_table(abandoned.id, status=TableStatus.ABANDONED)
        await fill_duplicate(repo)
        await fill_reviews(repo, playing.id)
        # A person's choice, and a guild the bot left (issue 42).
        await repo.set_standings(100, True)
        await repo.set_standings(300, False)
        await repo.guild_left(GUILDS[1], when=datetime(2026, 11, 20, 8, 30, tzinfo=UTC))
        # The deployment's board secret (issue 51).
        assert await repo.make_board_secret(SECRET) == SECRET
        await fill_queue(repo, abandoned.id)


QUEUED_AT = datetime(2026, 11, 29, 21, 0, 0, 123456, UTC)


async def fill_queue(repo: Repository, table_id: int) -> None:
    """"Play now" (issue 53): a partner pair and others waiting, an open ready check and
    a failed one, blocks, a game left early, a lease (not copied)."""
    await repo.queue_join(QueueEntry(100, TICHU, "fr", 4.25, partner_id=101,
                                     partner_rating=-1.5, fill_after=120, guild_id=GUILDS[1],
                                     joined_at=QUEUED_AT))
    await repo.queue_join(QueueEntry(300, Pool("tysiacha", 3, rated=False), "de", 0.0))
    for user in (400, 401, 500, 501):
        await repo.queue_join(QueueEntry(user, TICHU, "en-GB", 1.0 * user, fill_after=60))
    failed = await repo.open_ready_check(TICHU, [500, None, None, None], filled=True,
                                         now=QUEUED_AT)
    await repo.answer_ready_check(failed.id, 500, False, now=QUEUED_AT)
    await repo.close_ready_check(failed.id, now=QUEUED_AT + timedelta(seconds=1))
    check = await repo.open_ready_check(TICHU, [100, 400, 101, 401], now=QUEUED_AT)
    await repo.answer_ready_check(check.id, 400, True, now=QUEUED_AT)
    await repo.miss_wave([1, 2, 3])
    await repo.block(100, 300)
    await repo.block(300, 400)
    await repo.record_departure(100, table_id, reason="away", when=QUEUED_AT)
    # Talk at a table (issue 53): a phrase by its key.
    await repo.add_talk(table_id, TalkLine(seq=1, seat=0, user_id=100, phrase="gl", after=0,
                                           created_at=QUEUED_AT))
    assert await repo.take_lease("matchmaker", "the old process", 600) == 1


DAYS = ["daily:2026-11-26", "daily:2026-11-27"]
SECRET = "5e" * 32
"""The source's board secret: the copy deals the same boards."""


async def fill_duplicate(repo: Repository) -> None:
    """Duplicate: two days of the daily and an event, fields, results finished or
    not, a pair, a direct message, and an unrated game."""
    for day in DAYS:
        await repo.create_event(EventRecord(day, "daily", f"seed {day}", 2, None, None))
    await repo.create_event(EventRecord("K7Q2XM", "event", "seed é", 3, GUILDS[1], 100,
                                        datetime(2026, 11, 27, 9, tzinfo=UTC)))
    dup = await new_table(repo, guild_id=GUILDS[1], game="tichu_dup", channel_id=30)
    direct = await new_table(repo, guild_id=0, game="tichu_dup", channel_id=31)
    for day in DAYS:
        for n in (1, 2):
            board = f"{day}/{n}"
            await repo.save_field(board, [FieldResult(board, i, 10 * i - n, {"t": i, "x": "ü"})
                                          for i in range(8)])
            await repo.claim_board(BoardResult(
                board, day, dup.id, 0, GUILDS[1], [BoardPlayer(101, "Ann"), BoardPlayer(100, "B")],
                None, None))
            await repo.claim_board(BoardResult(board, day, direct.id, 1, 0,
                                               [BoardPlayer(300, "Cat")], None, None))
            await repo.finish_board(dup.id, board, 0, 20 * n, {"board": board, "n": [n]})
    await repo.finish_board(direct.id, f"{DAYS[0]}/1", 1, -30, {"direct": True})
    await repo.claim_board(BoardResult("ev:K7Q2XM/1", "K7Q2XM", dup.id, 1, GUILDS[1],
                                       [BoardPlayer(400, "Dan")], None, None))
    await finish(repo, GUILDS[1], "tichu_dup", REPLAYS[0][1], 4, 99, rated=False)


REVIEWED = 100, 300  # the people whose reviews fill_reviews stores


async def fill_reviews(repo: Repository, table_id: int) -> None:
    """Reviews (issue 25): two deals of a table, two people, one dated by the store."""
    for deal in (0, 1):
        for seat, user in ((0, REVIEWED[0]), (2, REVIEWED[1])):
            await repo.save_review(ReviewRecord(
                table_id, deal, seat, user,
                {"decisions": [{"deal": deal, "seat": seat, "cost": 12.5, "kind": "play",
                                "chosen": {"seat": seat, "do": "pass"}, "best": {"é": [1]}}],
                 "error": None},
                None if deal else datetime(2026, 11, 28, 20, seat, 7, 123, UTC)))


async def everything(repo: Repository) -> dict[str, Any]:
    """All that the Repository gives back, to compare the two databases."""
    out: dict[str, Any] = {"tables": [], "games": {}, "ratings": {}, "history": {},
                           "boards": {}}
    for table_id in range(1, 40):
        out["tables"].append(await repo.load_table(table_id))
    out["active"] = await repo.active_table_ids()
    for guild in GUILDS:
        out["settings", guild] = await repo.guild_settings(guild)
        for game in ("tichu", "chinois", "tysiacha"):
            key = f"{guild}/{game}"
            out["games"][key] = await repo.recent_games(guild, game, limit=100)
            out["ratings"][key] = await repo.ratings(guild, game)
            out["boards"][key] = await repo.leaderboard(guild, game, limit=100)
            for user in (100, 101, 300, 301, 400, 401):
                out["history"][key, user] = await repo.rating_history(guild, game, user)
    for game in ("tichu", "chinois", "tysiacha"):  # the global ones (issue 53)
        out["ratings"][game] = await repo.ratings(None, game)
        out["boards"][game] = await repo.leaderboard(None, game, limit=100)
        out["boards", "size", game] = await repo.global_board_size(game)
    out["meta"] = await repo.get_meta("commands_hash")
    out["board secret"] = await repo.board_secret()
    for user in (100, 300, 400):
        out["standings", user] = await repo.standings_choice(user)
    for guild in GUILDS:
        out["left", guild] = await repo.guild_left_at(guild)
    for code in (*DAYS, "K7Q2XM"):
        out["event", code] = await repo.get_event(code)
        out["results", code] = await repo.event_results(code)
        for user in (100, 101, 300, 400):
            out["user results", code, user] = await repo.user_results(user, code)
    for board in (f"{DAYS[0]}/1", f"{DAYS[0]}/2", f"{DAYS[1]}/1", f"{DAYS[1]}/2",
                  "ev:K7Q2XM/1"):
        out["field", board] = await repo.field(board)
        out["board", board] = await repo.board_results(board, finished=False)
        out["board", board, 0] = await repo.board_results(board, guild_id=0)
    for user in (100, 300, 400):
        out["days", user] = await repo.user_daily_days(user)
    for guild in GUILDS:
        out["unrated", guild] = await repo.recent_games(guild, "tichu_dup")
    for table_id in range(1, 40):
        for user in REVIEWED:
            out["reviews", table_id, user] = await repo.user_reviews(table_id, user)
        out["review", table_id] = await repo.review(table_id, 1, 2)
    out["queue"] = await repo.queue_counts()
    for pool in (TICHU, Pool("tysiacha", 3, rated=False)):
        out["queue", pool] = await repo.queue_entries(pool)
    for check_id in (1, 2, 3):
        out["check", check_id] = await repo.ready_check(check_id)
    people = (100, 101, 300, 400, 401, 500, 501)
    for user in people:
        out["entry", user] = await repo.queue_entry(user)
        out["blocks", user] = await repo.blocks_of(user)
        out["declines", user] = await repo.recent_declines(user, QUEUED_AT)
    out["blocks among"] = await repo.blocks_among(people)
    out["left early"] = await repo.left_early(people, since=QUEUED_AT)
    return out


async def test_everything_is_copied(db_path: Path, pg_backend: Backend) -> None:
    await fill(db_path)
    report = await copy_database(str(db_path), pg_backend.url)
    with closing(sqlite3.connect(db_path)) as conn:
        counts = {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                  for table, _ in TABLES}
    assert report.rows == counts
    assert all(counts[table] > 0 for table in counts), counts  # something of everything
    assert report.replays_checked == counts["games"] == 2 * len(REPLAYS) + 1  # + unrated

    async with SQLiteRepository(db_path) as source, pg_backend.repository() as copied:
        expected, got = await everything(source), await everything(copied)
        assert got == expected
        assert sum(t is not None for t in got["tables"]) == counts["tables"]
        assert got["days", 100] == DAYS[::-1] and len(got["field", f"{DAYS[1]}/2"]) == 8
        assert [len(got["board", b]) for b in (f"{DAYS[0]}/1", "ev:K7Q2XM/1")] == [2, 1]
        assert [g.rated for g in got["unrated", GUILDS[1]]] == [False]
        reviewed = [key for key, value in got.items() if key[0] == "reviews" and value]
        assert len(reviewed) == 2 and counts["reviews"] == 4
        assert got["review", reviewed[0][1]] is not None
        assert [got["standings", u] for u in (100, 300, 400)] == [True, False, False]
        assert got["left", GUILDS[1]] == datetime(2026, 11, 20, 8, 30, tzinfo=UTC)
        assert got["left", GUILDS[0]] is None
        # The secret goes with the copy, so the copy deals what the source dealt.
        assert got["board secret"] == SECRET and counts["board_secret"] == 1
        # The queue goes with it, in its order, with its ready checks; the lease of the
        # old process does not (no process of the copy holds it).
        assert [e.people for e in got["queue", TICHU]] == [(501,)]
        entry = got["entry", 100]
        assert entry is not None and entry.joined_at == QUEUED_AT and entry.waves == 0
        assert entry.people == (100, 101) and entry.ratings == (4.25, -1.5)
        assert got["check", 2] is not None and got["check", 2].member(400) is not None
        assert got["declines", 500] == [QUEUED_AT] and got["left early"] == {100: 1}
        assert got["blocks among"] == {(100, 300), (300, 400)}
        assert await copied.take_lease("matchmaker", "a new process", 60) == 1
        # The ids go on after the copied ones, and the copy is a working store.
        newer = await new_table(copied, channel_id=99)
        assert newer.id == counts["tables"] + 1
        assert await copied.rebuild_ratings() == counts["games"] - 1  # not the unrated one
        tables = [*got["tables"][:newer.id - 1], newer, *got["tables"][newer.id:]]
        assert await everything(copied) == {**got, "tables": tables,
                                            "active": [*got["active"], newer.id]}
        # Entries are numbered on after the highest SQLite ever gave (6: one is gone).
        later = await copied.queue_join(QueueEntry(600, TICHU, "en", 0.0))
        assert later.id == counts["queue_entries"] + 2 == 7


async def test_the_command_line(db_path: Path, pg_backend: Backend) -> None:
    await fill(db_path)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.store", "copy", f"sqlite:///{db_path}", pg_backend.url,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    text = out.decode()
    assert "actions" in text and "30 rows" in text
    assert f"{2 * len(REPLAYS) + 1} finished games replay to their stored scores" in text
    # A second copy into the same database is refused: it is no longer empty.
    again = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.store", "copy", str(db_path), pg_backend.url,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await again.communicate()
    assert again.returncode == 1 and "not empty" in err.decode()


async def row_count(backend: Backend, table: str) -> int:
    conn = await asyncpg.connect(backend.url)
    try:
        return int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
    finally:
        await conn.close()


@pytest.mark.parametrize(("damage", "message"), [
    ("UPDATE games SET scores = '[1, 2]' WHERE id = 3", "game 3"),
    ("UPDATE games SET replay = '{\"game\": \"tichu\"}' WHERE id = 2", "does not replay"),
    ("UPDATE tables SET options = '{oops' WHERE id = 4", "tables row 4 (id 4) options"),
    ("UPDATE actions SET created_at = 'later' WHERE seq = 7", "actions row"),
])
async def test_a_copy_that_would_lose_or_change_something_is_refused(
        db_path: Path, pg_backend: Backend, damage: str, message: str) -> None:
    await fill(db_path)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("DROP TRIGGER actions_no_update")  # as a broken tool would
        conn.execute(damage)
    with pytest.raises(CopyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        await copy_database(str(db_path), pg_backend.url)
    for table, _ in TABLES:
        assert await row_count(pg_backend, table) == 0, table  # nothing was committed


async def test_a_missing_source_is_refused(tmp_path: Path, pg_backend: Backend) -> None:
    with pytest.raises(CopyError, match="no SQLite database"):
        await copy_database(str(tmp_path / "typo.sqlite3"), pg_backend.url)
    assert not (tmp_path / "typo.sqlite3").exists()
