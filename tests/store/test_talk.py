"""Talk at tables (issue 53) in the store, on both backends: each phrase said is stored
by key with its seat and person before it is acknowledged, read back with its table, in
the person's export, deleted by their erase and by the sweep once the table closes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import PersonAtTableError, Repository
from bot.store.models import SeatRecord, SequenceConflictError, StoreError, TableStatus, TalkLine

from .conftest import new_table

ANN, BOB = 100, 200
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def line(seq: int, seat: int, user_id: int, phrase: str, after: int = 0) -> TalkLine:
    return TalkLine(seq=seq, seat=seat, user_id=user_id, phrase=phrase, after=after,
                    created_at=NOON + timedelta(seconds=10 * seq))


async def seated(repo: Repository) -> int:
    table = await new_table(repo, guild_id=0, host_id=ANN)
    await repo.save_seats(table.id, [
        SeatRecord(seat=0, user_id=ANN, name="Ann"), SeatRecord(seat=1, bot_level="easy"),
        SeatRecord(seat=2, user_id=BOB, name="Bob"), SeatRecord(seat=3, bot_level="easy")])
    await repo.update_table(table.id, status=TableStatus.PLAYING)
    return table.id


async def test_lines_are_stored_and_read_back_with_their_table(repo: Repository) -> None:
    table_id = await seated(repo)
    said = [line(1, 0, ANN, "gl"), line(2, 2, BOB, "thanks", after=3), line(3, 0, ANN, "wp", 7)]
    for each in said:
        await repo.add_talk(table_id, each)
    record = await repo.load_table(table_id)
    assert record is not None and record.talk == said
    # A taken seq, a malformed line or an unknown table write nothing.
    with pytest.raises(SequenceConflictError):
        await repo.add_talk(table_id, line(2, 0, ANN, "oops"))
    for bad in (line(4, 0, ANN, "Free text!"), line(4, -1, ANN, "gl"), line(4, 0, 0, "gl"),
                line(4, 0, ANN, "")):
        with pytest.raises(StoreError) as caught:
            await repo.add_talk(table_id, bad)
        assert caught.value.code == "invalid_talk"
    with pytest.raises(StoreError) as caught:
        await repo.add_talk(table_id + 99, line(1, 0, ANN, "gl"))
    assert caught.value.code == "unknown_table"
    record = await repo.load_table(table_id)
    assert record is not None and record.talk == said


async def test_export_erase_and_sweep(repo: Repository) -> None:
    table_id = await seated(repo)
    await repo.add_talk(table_id, line(1, 0, ANN, "gl"))
    await repo.add_talk(table_id, line(2, 2, BOB, "nice"))
    await repo.add_talk(table_id, line(3, 0, ANN, "gg", after=5))
    counts = await repo.person_counts(ANN)
    assert counts.talk == 2
    document = await repo.export_person(ANN, now=NOON)
    assert [(r["table_id"], r["seq"], r["seat"], r["phrase"]) for r in document["talk"]] == [
        (table_id, 1, 0, "gl"), (table_id, 3, 0, "gg")]
    assert document["empty"] is False
    assert [r["phrase"] for r in (await repo.export_person(BOB, now=NOON))["talk"]] == ["nice"]
    # An open table refuses the erase (nothing changed) …
    with pytest.raises(PersonAtTableError):
        await repo.erase_person(ANN)
    record = await repo.load_table(table_id)
    assert record is not None and len(record.talk) == 3
    # … once it is over, the erase deletes Ann's lines and leaves Bob's.
    await repo.update_table(table_id, status=TableStatus.FINISHED)
    erased = await repo.erase_person(ANN)
    assert erased.counts.talk == 2
    record = await repo.load_table(table_id)
    assert record is not None and [t.phrase for t in record.talk] == ["nice"]
    assert (await repo.person_counts(ANN)).talk == 0
    assert (await repo.export_person(ANN, now=NOON))["talk"] == []
    # The sweep deletes the lines of closed tables: the talk is the open table's.
    await repo.sweep_closed_tables()
    record = await repo.load_table(table_id)
    assert record is not None and record.talk == []
