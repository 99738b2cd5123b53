"""Duplicate boards: one four-player Tichu deal fixed in advance, and how they are made.

A :class:`Board` is an id and the 14 cards of each seat in the order they are
dealt (the first 8 are the Grand Tichu packet). Its JSON form uses the replay
notation: ``{"id": "2026-11-23/1", "hands": [["Ah", "DRAGON", ...], ...]}``.

Boards are generated from a seed string by a shuffle of our own, driven by
SHA-256 rather than :mod:`random`, so the same seed gives the same boards on
every machine and every Python version.

A seed that anyone can compute gives boards that anyone can print before playing
them. So a deployment deals from seeds it keys with a secret of its own
(:func:`keyed_seed`, HMAC-SHA256): the daily boards of a date come from
:func:`daily_seed` of the secret and the date, and nobody without the secret can
compute them. The engine never reads a secret: it is given the key or the seed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from engine.cards import Card, format_cards, parse_card
from engine.errors import EngineError
from engine.tichu.cards import DECK
from engine.tichu.game import check_deal

__all__ = ["HAND_SIZE", "SEATS", "Board", "BoardFormatError", "boards_to_json", "daily_boards",
           "daily_seed", "deal_from_seed", "keyed_seed", "make_boards", "utc_day"]

SEATS = 4
HAND_SIZE = 14


class BoardFormatError(EngineError):
    """A board (or its JSON form) is malformed."""

    code = "bad_board"


@dataclass(frozen=True, slots=True)
class Board:
    """One deal fixed in advance: its id and each seat's 14 cards in deal order."""

    id: str
    hands: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise BoardFormatError("a board's id must be a non-empty string")
        object.__setattr__(self, "hands", tuple(tuple(h) for h in self.hands))
        try:
            check_deal(self.hands, SEATS)
        except EngineError as exc:
            raise BoardFormatError(f"board {self.id}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """``{"id": ..., "hands": [[card, ...] × 4]}`` in the replay notation."""
        return {"id": self.id, "hands": [format_cards(h) for h in self.hands]}

    @classmethod
    def from_json(cls, data: Any) -> Board:
        """A board from its JSON form; :class:`BoardFormatError` if malformed."""
        if not isinstance(data, Mapping):
            raise BoardFormatError("a board must be a JSON object with 'id' and 'hands'")
        board_id = data.get("id")
        if not isinstance(board_id, str) or not board_id:
            raise BoardFormatError("a board's 'id' must be a non-empty string")
        hands = data.get("hands")
        if not isinstance(hands, list) or len(hands) != SEATS or \
                not all(isinstance(h, list) for h in hands):
            raise BoardFormatError(f"board {board_id}: 'hands' must list {SEATS} lists of cards")
        try:
            parsed = tuple(tuple(parse_card(t) for t in h) for h in hands)
        except EngineError as exc:
            raise BoardFormatError(f"board {board_id}: {exc}") from None
        return cls(board_id, parsed)


def _words(seed: str) -> Iterator[int]:
    """An endless stream of 64-bit words: SHA-256 of the seed and a counter."""
    key = json.dumps(["tichu-board", seed]).encode()
    counter = 0
    while True:
        digest = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(digest[i:i + 8], "big")
        counter += 1


def _below(n: int, words: Iterator[int]) -> int:
    """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        word = next(words)
        if word < limit:
            return word % n


def deal_from_seed(seed: str) -> tuple[tuple[Card, ...], ...]:
    """The 56 cards shuffled from ``seed`` (Fisher–Yates on the SHA-256 stream) and
    dealt 14 to each seat in turn of blocks: seat 0 the first 14, and so on."""
    deck = list(DECK)
    words = _words(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = _below(i + 1, words)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(tuple(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(SEATS))


def _count(count: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise BoardFormatError(f"the number of boards must be a whole number >= 0, not {count!r}")
    return count


def make_boards(seed: str, count: int, prefix: str | None = None) -> list[Board]:
    """``count`` boards from ``seed``, with ids ``f"{prefix}-{n}"`` for n = 1..count
    (``prefix`` defaults to the seed). The same seed always gives the same boards."""
    if not isinstance(seed, str):
        raise BoardFormatError("a board seed must be a string")
    name = seed if prefix is None else prefix
    return [Board(f"{name}-{n}", deal_from_seed(f"boards:{seed}:{n}"))
            for n in range(1, _count(count) + 1)]


def utc_day(day: date | datetime | None = None) -> date:
    """The UTC calendar date of ``day``: today's if None; a naive datetime is taken as UTC."""
    if day is None:
        return datetime.now(UTC).date()
    if isinstance(day, datetime):
        return (day.astimezone(UTC) if day.tzinfo is not None else day).date()
    return day


def keyed_seed(key: bytes, message: str) -> str:
    """HMAC-SHA256 of ``message`` under ``key``, in hex: a seed that nobody without the
    key can compute, nor tell from the seeds of other messages."""
    if not isinstance(key, bytes) or not key:
        raise BoardFormatError("a key must be non-empty bytes")
    return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()


def daily_seed(key: bytes, day: date | datetime | None = None) -> str:
    """The seed of a UTC date's daily boards under a deployment's ``key``:
    ``keyed_seed(key, "daily:2026-11-23")``. Every server of one deployment gets the
    same boards that day; another deployment, with another key, other boards."""
    return keyed_seed(key, f"daily:{utc_day(day).isoformat()}")


def daily_boards(day: date | datetime | None = None, count: int = 4, *,
                 seed: str) -> list[Board]:
    """The daily challenge's boards for a UTC date (today if None), with ids such as
    ``"2026-11-23/1"``, dealt from ``f"daily:{seed}:{n}"``. ``seed`` is the day's
    :func:`daily_seed`; a day dealt before deployments had a secret has its ISO date
    as its seed (``"2026-11-23"``): those boards anyone could compute."""
    if not isinstance(seed, str) or not seed:
        raise BoardFormatError("a daily seed must be a non-empty string")
    iso = utc_day(day).isoformat()
    return [Board(f"{iso}/{n}", deal_from_seed(f"daily:{seed}:{n}"))
            for n in range(1, _count(count) + 1)]


def boards_to_json(boards: Sequence[Board]) -> list[dict[str, Any]]:
    """The JSON form of several boards."""
    return [b.to_json() for b in boards]
