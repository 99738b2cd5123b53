"""A bot process finishing games, for the ratings test (tests/store/test_ratings_race.py).

``python -m tests.store.finish_games DATABASE GAMES_JSON`` opens the store, prints
``ready``, waits for a line on stdin (so that both processes start together), then
records every game of GAMES_JSON at once and prints ``done``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.store import GamePlayerResult, GameResult, open_repository


async def main(database: str, games_json: str) -> None:
    games = json.loads(games_json)
    repo = open_repository(database, pool_size=4)
    await repo.open()
    try:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await asyncio.gather(*(repo.record_game(GameResult(
            table_id=game["table_id"], guild_id=game["guild_id"], game="tichu",
            scores=game["scores"], winner=game["winner"], replay={"n": game["table_id"]},
            players=[GamePlayerResult(**player) for player in game["players"]]))
            for game in games))
        print("done", flush=True)
    finally:
        await repo.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
