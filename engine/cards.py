"""Cards and their notation, shared by every game.

A card is a small ``int`` subclass, so that sets, sorting and hashing stay as
fast as plain integers while ``str(card)`` gives the replay notation.

Natural cards are numbered ``(rank - 2) * 4 + suit`` with ranks 2..14 (Ace
high) and suits ``c d h s`` as 0..3, so 0..51 is the French 52-card deck.
Games that add special cards (Tichu) number them from 52 on.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

from engine.errors import BadCardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
"""Suit letters. Tichu maps them as the stickers do: jade c, pagoda d, star h, sword s."""

RANK_NAMES = {r: RANK_CHARS[r - 2] for r in range(2, 15)}


def rank_from_token(token: str) -> int:
    """Parse a rank written as ``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A``."""
    text = token.strip().upper()
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in RANK_CHARS:
        raise BadCardError(f"unknown rank {token!r}")
    return RANK_CHARS.index(text) + 2


def rank_token(rank: int) -> str:
    """The notation of a natural rank 2..14."""
    return RANK_NAMES[rank]


class Card(int):
    """One card. Use :func:`card`, :func:`parse_card` or a deck; never build directly."""

    __slots__ = ()
    _tokens: ClassVar[dict[int, str]] = {}

    @property
    def rank(self) -> int:
        """Natural rank 2..14; special cards answer with their game's rank."""
        return _SPECIAL_RANKS.get(int(self), int(self) // 4 + 2)

    @property
    def suit(self) -> int | None:
        """Suit index 0..3, or None for a special card."""
        return int(self) % 4 if int(self) < 52 else None

    @property
    def is_special(self) -> bool:
        return int(self) >= 52

    def __str__(self) -> str:
        return self._tokens[int(self)]

    def __repr__(self) -> str:
        return f"Card({self})"


_SPECIAL_RANKS: dict[int, int] = {}
_BY_TOKEN: dict[str, Card] = {}
ALL: list[Card] = []


def _register(value: int, token: str, rank: int | None = None) -> Card:
    c = Card(value)
    Card._tokens[value] = token
    _BY_TOKEN[token.upper()] = c
    if rank is not None:
        _SPECIAL_RANKS[value] = rank
    while len(ALL) <= value:
        ALL.append(c)
    ALL[value] = c
    return c


for _r in range(2, 15):
    for _s, _ch in enumerate(SUIT_CHARS):
        _register((_r - 2) * 4 + _s, RANK_NAMES[_r] + _ch)
for _ch in SUIT_CHARS:
    _BY_TOKEN[("10" + _ch).upper()] = _BY_TOKEN[("T" + _ch).upper()]


def register_special(value: int, token: str, rank: int) -> Card:
    """Add a game's special card (value >= 52). Idempotent."""
    if value < 52:
        raise ValueError("special cards are numbered from 52")
    return _register(value, token, rank)


def card(rank: int, suit: int) -> Card:
    """The natural card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return ALL[(rank - 2) * 4 + suit]


def parse_card(token: str) -> Card:
    """Parse one card token (case-insensitive); raises :class:`BadCardError`."""
    if not isinstance(token, str):
        raise BadCardError(f"card token must be a string, not {type(token).__name__}")
    found = _BY_TOKEN.get(token.strip().upper())
    if found is None:
        raise BadCardError(f"unknown card {token!r}")
    return found


def parse_cards(tokens: Iterable[str]) -> list[Card]:
    """Parse a list of tokens."""
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[int]) -> list[str]:
    """The notation of each card, in the given order."""
    return [Card._tokens[int(c)] for c in cards]


def french_deck(min_rank: int = 2) -> list[Card]:
    """The natural cards from ``min_rank`` to the Ace, in a fixed order."""
    return [c for c in ALL[:52] if c.rank >= min_rank]


def shuffled(cards: Sequence[Card], seed: int | str) -> list[Card]:
    """A seeded shuffle: the same seed always gives the same order."""
    rng = random.Random(seed)
    deck = list(cards)
    rng.shuffle(deck)
    return deck
