"""Games that finish at the same moment in two bot processes: no rating update is
lost, and the ratings equal a sequential rebuild from the stored games; the global
ratings too (issue 53), which the games of two guilds move at once."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

from bot.store import Repository

from .conftest import Backend, new_table

GUILD = 7
OTHER = 8
"""A third of the games are another guild's: its own ratings, the same global ones."""
PEOPLE = [100, 200, 300, 400, 500, 600]
GAMES = 40
ROOT = Path(__file__).resolve().parents[2]


def guild_of(n: int) -> int:
    return OTHER if n % 3 == 0 else GUILD


def seeded_games(table_ids: list[int]) -> list[dict[str, Any]]:
    """Four of six people (and now and then a computer) per game; a seeded winner."""
    rng = random.Random(20261123)
    games = []
    for n, table_id in enumerate(table_ids):
        seated: list[int | None] = list(rng.sample(PEOPLE, 4))
        if rng.random() < 0.25:
            seated[rng.randrange(4)] = None  # a computer player at "hard"
        winner = rng.randrange(2)
        games.append({
            "table_id": table_id, "guild_id": guild_of(n), "winner": winner,
            "scores": [1000, 400] if winner == 0 else [300, 1000],
            "players": [{"seat": seat, "user_id": user,
                         "bot_level": "hard" if user is None else None,
                         "name": f"P{user}", "team": seat % 2, "won": seat % 2 == winner}
                        for seat, user in enumerate(seated)],
        })
    return games


async def finish_in_two_processes(database: str, games: list[dict[str, Any]]) -> None:
    processes = []
    for part in (games[0::2], games[1::2]):
        processes.append(await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.store.finish_games", database, json.dumps(part),
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE))
    for process in processes:  # both are connected before either starts
        assert process.stdout is not None
        assert await process.stdout.readline() == b"ready\n"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    for process in processes:
        out, _ = await process.communicate()
        assert (process.returncode, out) == (0, b"done\n")


async def snapshot(repo: Repository) -> tuple[Any, ...]:
    ratings = await repo.ratings(GUILD, "tichu")
    history = {user: await repo.rating_history(GUILD, "tichu", user) for user in PEOPLE}
    return ratings, history, await repo.ratings(OTHER, "tichu"), await repo.ratings(None, "tichu")


async def test_concurrent_finishes_equal_a_sequential_rebuild(repo: Repository,
                                                              backend: Backend) -> None:
    table_ids = [(await new_table(repo, guild_id=guild_of(n), channel_id=n)).id
                 for n in range(GAMES)]
    games = seeded_games(table_ids)
    await finish_in_two_processes(backend.url, games)

    concurrent = await snapshot(repo)
    ratings, history, _, overall = concurrent
    played = {user: sum(any(p["user_id"] == user for p in g["players"]) for g in games
                        if g["guild_id"] == GUILD)
              for user in PEOPLE}
    by_player = {row.player: row for row in ratings}
    for user in PEOPLE:  # a lost update would count a game too few
        assert by_player[f"u:{user}"].games == played[user] == len(history[user])
    assert by_player["cpu:hard"].games == sum(
        any(p["user_id"] is None for p in g["players"]) for g in games
        if g["guild_id"] == GUILD)
    everywhere = {row.player: row.games for row in overall}
    for user in PEOPLE:  # every game of both guilds, none lost
        assert everywhere[f"u:{user}"] == sum(
            any(p["user_id"] == user for p in g["players"]) for g in games)
    recent = await repo.recent_games(GUILD, "tichu", limit=GAMES)
    assert len(recent) == sum(g["guild_id"] == GUILD for g in games)

    assert await repo.rebuild_ratings() == GAMES
    assert await snapshot(repo) == concurrent
