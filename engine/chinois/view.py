"""What one seat may know of a Chinois game (or, with seat None, what everyone may).

Views are the only thing the bot's renderers, menus and computer players read.
A public view (``seat is None``) carries no hand; a seat's view carries that
seat's hand and nobody else's. Bids, tricks and the turned card are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.chinois.rules import forbidden_bid
from engine.trick import Trick


class Phase(StrEnum):
    BID = "bid"
    PLAY = "play"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The outcome of one finished round."""

    round: int
    dealer: int
    trump: int | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    """Per seat: points of this round."""


@dataclass(frozen=True, slots=True)
class ChinoisView:
    """A snapshot of the game as ``seat`` sees it (``seat`` None: the public view)."""

    seat: int | None
    phase: Phase
    round: int
    """1..28: the place of this deal in the 1..12, 13x4, 12..1 schedule."""
    cards_per_seat: int
    dealer: int
    turn: int | None
    """The seat expected to bid or play, None when the round is over."""
    hand: tuple[Card, ...]
    """The viewing seat's cards; empty in the public view."""
    hand_counts: tuple[int, ...]
    trump_card: Card | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    trick: Trick
    """The open trick (empty between tricks)."""
    played: tuple[Card, ...]
    """The cards of this round's finished tricks, in the order they fell."""
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]
    winners: tuple[int, ...] | None
    """The seats sharing the highest total once round 28 is over, else None."""

    @property
    def n_seats(self) -> int:
        return len(self.hand_counts)

    @property
    def trump(self) -> int | None:
        return None if self.trump_card is None else self.trump_card & 3

    @property
    def forbidden_bid(self) -> int | None:
        """The number the dealer may not bid, once the three others have bid."""
        others = [b for s, b in enumerate(self.bids) if s != self.dealer]
        if any(b is None for b in others):
            return None
        return forbidden_bid(self.cards_per_seat, [b for b in others if b is not None])
