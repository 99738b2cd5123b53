"""The deployment's board secret (issue 51), on both backends: none until made, made
once (two processes at once: one wins, and both read the winner), never replaced, kept
across a restart, and a row that holds no text read as corrupt, not replaced."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Repository, StoreError
from bot.store.models import CorruptRowError

from .conftest import Backend

SECRET = "ab" * 32


async def test_a_secret_is_made_once_and_never_replaced(repo: Repository,
                                                        backend: Backend) -> None:
    assert await repo.board_secret() is None
    assert await repo.make_board_secret(SECRET) == SECRET
    assert await repo.make_board_secret("cd" * 32) == SECRET  # the stored one stays
    assert await repo.board_secret() == SECRET
    for bad in ("", None, 5):
        with pytest.raises(StoreError) as caught:
            await repo.make_board_secret(bad)  # type: ignore[arg-type]
        assert caught.value.code == "invalid_argument"
        assert str(caught.value).endswith("a board secret must be a non-empty text")
    await repo.close()
    async with backend.repository() as again:
        assert await again.board_secret() == SECRET


async def test_two_processes_starting_at_once_agree(backend: Backend) -> None:
    async with backend.repository() as first, backend.repository() as second:
        made = await asyncio.gather(*(repo.make_board_secret(f"{n}" * 64)
                                      for n, repo in enumerate((first, second, first))))
        assert len(set(made)) == 1 and made[0] in {"0" * 64, "1" * 64, "2" * 64}
        assert await second.board_secret() == await first.board_secret() == made[0]


async def test_a_row_without_text_is_corrupt_and_kept(repo: Repository,
                                                      backend: Backend) -> None:
    await repo.make_board_secret(SECRET)
    if backend.name == "sqlite":
        await backend.tamper("UPDATE board_secret SET secret = x'00ff'")
    else:
        await backend.tamper("ALTER TABLE board_secret ALTER COLUMN secret DROP NOT NULL")
        await backend.tamper("UPDATE board_secret SET secret = NULL")
    with pytest.raises(CorruptRowError):
        await repo.board_secret()
    assert await repo.make_board_secret("cd" * 32) is None  # not replaced
    with pytest.raises(CorruptRowError):
        await repo.board_secret()


STAMP = "2026-11-26T10:00:00.000000+00:00"
VERSION_7_ROWS = [
    "INSERT INTO dup_events (code, kind, seed, boards, guild_id, host_id, created_at) "
    f"VALUES ('daily:2026-11-26', 'daily', '2026-11-26', 2, NULL, NULL, '{STAMP}')",
    *(f"INSERT INTO dup_fields (board, idx, diff, replay) VALUES ('{board}', 0, 10, '{{}}')"
      for board in ("2026-11-26/1", "2026-11-27/1", "2026-11-27/2", "ev:K7Q2XM-1")),
]


async def test_the_fields_of_days_nobody_opened_go_with_migration_8(backend: Backend) -> None:
    """A day opened before the upgrade keeps its boards (its date is its seed) and its
    field; the fields played ahead for a day nobody opened, dealt from the date alone,
    go: the bot deals that day from its secret and plays its field again. An event's
    field stays."""
    await backend.at_version(7, VERSION_7_ROWS)
    async with backend.repository() as repo:
        assert await repo.board_secret() is None
        assert [len(await repo.field(b)) for b in ("2026-11-26/1", "2026-11-27/1",
                                                    "2026-11-27/2", "ev:K7Q2XM-1")] == \
            [1, 0, 0, 1]
