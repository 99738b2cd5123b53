"""The action log: numbering, concurrent writers, and durability across reopen."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store import (
    ActionRecord,
    Repository,
    SequenceConflictError,
    SQLiteRepository,
    StoreError,
)

from .conftest import Backend, new_table


async def stored_seqs(repo: Repository, table_id: int) -> list[int]:
    table = await repo.load_table(table_id)
    assert table is not None
    return [action.seq for action in table.actions]


async def test_only_the_next_seq_is_accepted(repo: Repository) -> None:
    table = await new_table(repo)
    await repo.append_action(table.id, ActionRecord(1, {"n": 1}))
    await repo.append_action(table.id, ActionRecord(2, {"n": 2}))
    for seq in (1, 2, 4, 10, 0, -1):
        with pytest.raises(SequenceConflictError) as caught:
            await repo.append_action(table.id, ActionRecord(seq, {"n": "late"}))
        assert caught.value.code == "sequence_conflict"
        assert f"table {table.id}" in str(caught.value)
    assert "the next must be 3" in str(caught.value) or "positive" in str(caught.value)
    await repo.append_action(table.id, ActionRecord(3, {"n": 3}))
    loaded = await repo.load_table(table.id)
    assert loaded is not None
    assert [(a.seq, a.payload) for a in loaded.actions] == [(1, {"n": 1}), (2, {"n": 2}),
                                                            (3, {"n": 3})]


async def test_an_appended_action_is_committed_when_the_call_returns(
        sqlite_repo: SQLiteRepository, db_path: Path) -> None:
    """"An action acknowledged is already stored": another connection sees it at once."""
    table = await new_table(sqlite_repo)
    for seq in (1, 2, 3):
        await sqlite_repo.append_action(table.id, ActionRecord(seq, {"n": seq}))
        with closing(sqlite3.connect(db_path)) as conn:
            rows = conn.execute("SELECT seq, payload FROM actions WHERE table_id = ? "
                                "ORDER BY seq", (table.id,)).fetchall()
        assert rows == [(n, f'{{"n":{n}}}') for n in range(1, seq + 1)]


async def test_the_first_seq_is_one(repo: Repository) -> None:
    table = await new_table(repo)
    with pytest.raises(SequenceConflictError, match="the next must be 1"):
        await repo.append_action(table.id, ActionRecord(2, {}))
    assert await stored_seqs(repo, table.id) == []


async def test_logs_of_different_tables_are_numbered_separately(repo: Repository) -> None:
    first, second = await new_table(repo), await new_table(repo, channel_id=11)
    await repo.append_action(first.id, ActionRecord(1, {"t": 1}))
    await repo.append_action(second.id, ActionRecord(1, {"t": 2}))
    await repo.append_action(second.id, ActionRecord(2, {"t": 2}))
    assert await stored_seqs(repo, first.id) == [1]
    assert await stored_seqs(repo, second.id) == [1, 2]


async def test_concurrent_appends_of_one_seq_leave_exactly_one(repo: Repository) -> None:
    table = await new_table(repo)
    winners = []
    for seq in range(1, 6):
        outcomes = await asyncio.gather(
            *(repo.append_action(table.id, ActionRecord(seq, {"writer": w})) for w in range(4)),
            return_exceptions=True)
        assert outcomes.count(None) == 1
        assert all(isinstance(o, SequenceConflictError) for o in outcomes if o is not None)
        winners.append(outcomes.index(None))
    loaded = await repo.load_table(table.id)
    assert loaded is not None
    assert [a.seq for a in loaded.actions] == [1, 2, 3, 4, 5]
    # The stored action is the one whose call was acknowledged.
    assert [a.payload for a in loaded.actions] == [{"writer": w} for w in winners]


async def test_two_connections_never_both_append_one_seq(repo: Repository,
                                                         backend: Backend) -> None:
    """Two repositories on one database are two connections (SQLite: on two threads;
    PostgreSQL: two pools): the single INSERT … SELECT … WHERE still lets only one of
    them through."""
    table = await new_table(repo)
    async with backend.repository() as other:
        for seq in range(1, 21):
            outcomes = await asyncio.gather(
                repo.append_action(table.id, ActionRecord(seq, {"by": "first"})),
                other.append_action(table.id, ActionRecord(seq, {"by": "second"})),
                return_exceptions=True)
            assert outcomes.count(None) == 1, outcomes
            assert all(isinstance(o, SequenceConflictError) for o in outcomes if o is not None)
        assert await stored_seqs(other, table.id) == list(range(1, 21))
    assert await stored_seqs(repo, table.id) == list(range(1, 21))


async def test_a_payload_must_be_a_json_object(repo: Repository) -> None:
    table = await new_table(repo)
    bad: Any = ["not", "a", "dict"]
    with pytest.raises(StoreError) as caught:
        await repo.append_action(table.id, ActionRecord(1, bad))
    assert caught.value.code == "invalid_action"
    with pytest.raises(StoreError) as unserialisable:
        await repo.append_action(table.id, ActionRecord(1, {"x": {1, 2}}))
    assert unserialisable.value.code == "not_json"
    assert await stored_seqs(repo, table.id) == []


# -- property: whatever is appended (and refused) comes back unchanged after reopen --

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=5)
# 0: the next seq; -1: the last one again (or 0); +1/+3: a gap.
steps = st.lists(st.tuples(st.sampled_from([0, 0, 0, 0, -1, 1, 3]), payloads), max_size=25)


@settings(max_examples=20, deadline=None)
@given(steps=steps)
async def test_random_appends_survive_a_reopen_unchanged(
        steps: list[tuple[int, dict[str, Any]]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "log.db"
        expected: list[tuple[int, dict[str, Any]]] = []
        async with SQLiteRepository(path) as repo:
            table = await new_table(repo)
            for offset, payload in steps:
                seq = len(expected) + 1 + offset
                if offset == 0:
                    await repo.append_action(table.id, ActionRecord(seq, payload))
                    expected.append((seq, payload))
                else:
                    with pytest.raises(SequenceConflictError):
                        await repo.append_action(table.id, ActionRecord(seq, payload))
        async with SQLiteRepository(path) as reopened:
            loaded = await reopened.load_table(table.id)
        assert loaded is not None
        assert [(a.seq, a.payload) for a in loaded.actions] == expected
        assert [[*a.payload] for a in loaded.actions] == [[*p] for _, p in expected]
