"""Duplicate boards: full decks split 14 each, the same boards for the same seed or
UTC date and key everywhere, other boards under another key, and their JSON form."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.duplicate.boards import (
    Board,
    BoardFormatError,
    daily_boards,
    daily_seed,
    deal_from_seed,
    keyed_seed,
    make_boards,
    utc_day,
)
from engine.duplicate.play import board_game
from engine.tichu.cards import DECK

DAILY_DIGEST = "132513b741e191c63bca9493751e88a09dd9fae7cdf137fa8018a3ee15fefdd0"
"""SHA-256 of the JSON of the four daily boards of 2026-11-23 dealt from the date alone,
as first generated: the shuffle is our own (SHA-256, not :mod:`random`), so this never
changes, and the days stored with their date as their seed keep their boards."""
LEGACY = "2026-11-23"
"""The seed of a day dealt before deployments had a secret: its ISO date."""
KEY = b"a deployment's secret"


def full_split(board: Board) -> bool:
    cards = [int(c) for h in board.hands for c in h]
    return [len(h) for h in board.hands] == [14] * 4 and sorted(cards) == [int(c) for c in DECK]


@settings(max_examples=60)
@given(st.text(max_size=30), st.integers(1, 5))
def test_every_board_is_a_full_deck_split_fourteen_each(seed: str, count: int) -> None:
    boards = make_boards(seed, count)
    assert len(boards) == count
    assert all(full_split(b) for b in boards)
    assert boards == make_boards(seed, count)


def test_ids_and_prefix() -> None:
    assert [b.id for b in make_boards("club", 3)] == ["club-1", "club-2", "club-3"]
    assert [b.id for b in make_boards("club", 2, prefix="night")] == ["night-1", "night-2"]
    assert make_boards("club", 0) == []


def test_boards_differ_by_seed_and_number() -> None:
    a, b = make_boards("club", 2)
    assert a.hands != b.hands
    assert make_boards("other", 1)[0].hands != a.hands
    # The first boards of a longer set are the boards of a shorter one.
    assert make_boards("club", 5)[:2] == [a, b]


def test_daily_boards_from_the_date_are_pinned() -> None:
    boards = daily_boards(date(2026, 11, 23), seed=LEGACY)
    assert [b.id for b in boards] == [f"2026-11-23/{n}" for n in range(1, 5)]
    text = json.dumps([b.to_json() for b in boards])
    assert hashlib.sha256(text.encode()).hexdigest() == DAILY_DIGEST
    assert all(full_split(b) for b in boards)
    assert boards != daily_boards(date(2026, 11, 24), seed="2026-11-24")


def test_a_keyed_seed_is_hmac_sha256() -> None:
    # RFC 4231, test case 1.
    assert keyed_seed(b"\x0b" * 20, "Hi There") == (
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert daily_seed(KEY, date(2026, 11, 23)) == keyed_seed(KEY, "daily:2026-11-23")
    for bad in (b"", "text"):
        with pytest.raises(BoardFormatError):
            keyed_seed(bad, "daily:2026-11-23")  # type: ignore[arg-type]
    with pytest.raises(BoardFormatError):
        daily_boards(date(2026, 11, 23), seed="")


def test_keyed_daily_boards_are_the_key_s_alone() -> None:
    day = date(2026, 11, 23)
    mine = daily_boards(day, seed=daily_seed(KEY, day))
    assert [b.id for b in mine] == [f"2026-11-23/{n}" for n in range(1, 5)]
    assert all(full_split(b) for b in mine)
    assert mine == daily_boards(day, seed=daily_seed(KEY, day))  # one key: one deal
    theirs = daily_boards(day, seed=daily_seed(b"another deployment", day))
    public = daily_boards(day, seed=LEGACY)
    for board in mine:
        assert all(board.hands != other.hands for other in [*theirs, *public])
    tomorrow = daily_boards(day + timedelta(days=1), seed=daily_seed(KEY, day + timedelta(1)))
    assert all(a.hands != b.hands for a in mine for b in tomorrow)


def test_daily_boards_follow_the_utc_date() -> None:
    day = date(2026, 11, 23)
    # 01:00 in UTC+05:00 is still the 22nd in UTC; a naive datetime is taken as UTC.
    east = datetime(2026, 11, 24, 1, 0, tzinfo=timezone(timedelta(hours=5)))
    assert utc_day(east) == day
    assert utc_day(datetime(2026, 11, 23, 23, 59)) == day
    assert daily_seed(KEY, east) == daily_seed(KEY, day)
    assert daily_boards(east, count=2, seed="s") == daily_boards(day, count=2, seed="s")
    before = datetime.now(UTC).date()
    today = utc_day()
    assert today in (before, datetime.now(UTC).date())


def test_the_grand_packet_is_the_first_eight_cards() -> None:
    board = make_boards("packet", 1)[0]
    game = board_game(board)
    for seat in range(4):
        assert game.view(seat).hand == board.hands[seat][:8]


def test_json_round_trip() -> None:
    for board in daily_boards(date(2030, 1, 1), 2, seed="json"):
        data = json.loads(json.dumps(board.to_json()))
        assert Board.from_json(data) == board
        assert [len(h) for h in data["hands"]] == [14] * 4


def good_json() -> dict[str, Any]:
    return make_boards("json", 1)[0].to_json()


@pytest.mark.parametrize(("change", "needle"), [
    (lambda d: [d], "object"),
    (lambda d: {**d, "id": ""}, "id"),
    (lambda d: {**d, "id": 3}, "id"),
    (lambda d: {k: v for k, v in d.items() if k != "hands"}, "hands"),
    (lambda d: {**d, "hands": d["hands"][:3]}, "hands"),
    (lambda d: {**d, "hands": [d["hands"][0], "x", *d["hands"][2:]]}, "hands"),
    (lambda d: {**d, "hands": [d["hands"][0][:13], *d["hands"][1:]]}, "13 cards"),
    (lambda d: {**d, "hands": [["ZZ", *d["hands"][0][1:]], *d["hands"][1:]]}, "ZZ"),
    (lambda d: {**d, "hands": [[None, *d["hands"][0][1:]], *d["hands"][1:]]}, "string"),
    (lambda d: {**d, "hands": [d["hands"][0]] * 4}, "twice"),
])
def test_malformed_board_json(change: Any, needle: str) -> None:
    with pytest.raises(BoardFormatError, match=needle):
        Board.from_json(change(good_json()))


def test_a_board_checks_its_hands() -> None:
    hands = deal_from_seed("x")
    with pytest.raises(BoardFormatError, match="twice"):
        Board("b", (hands[0], hands[0], hands[2], hands[3]))
    with pytest.raises(BoardFormatError, match="id"):
        Board("", hands)
    listed = Board("b", [list(h) for h in hands])  # type: ignore[arg-type]
    assert listed.hands == hands and isinstance(listed.hands[0], tuple)
    assert parse_cards(listed.to_json()["hands"][0]) == list(hands[0])


def test_a_bad_count_is_refused() -> None:
    with pytest.raises(BoardFormatError):
        make_boards("x", -1)
    with pytest.raises(BoardFormatError):
        daily_boards(date(2026, 1, 1), count=True, seed="x")
