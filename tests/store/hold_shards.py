"""A bot process holding shard locks, for tests/store/test_shards.py.

``python -m tests.store.hold_shards DATABASE SHARD…`` opens the store, takes the
shard locks, prints ``locked`` (or ``refused``) and waits until it is killed or
its stdin closes.
"""

from __future__ import annotations

import asyncio
import sys

from bot.store import open_repository


async def main(database: str, shards: list[int]) -> None:
    repo = open_repository(database)
    await repo.open()
    try:
        print("locked" if await repo.lock_shards(shards) else "refused", flush=True)
        await asyncio.to_thread(sys.stdin.read)
    finally:
        await repo.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], [int(shard) for shard in sys.argv[2:]]))
