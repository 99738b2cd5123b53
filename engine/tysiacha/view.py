"""What one seat may know of a Tysiacha game (or, with seat None, what everyone may).

Views are the only thing the bot's renderers, menus and computer players read.
A public view (``seat is None``) carries no hand. The prikup is shown to all
once the bidding is over; the soloist's gifts are face down, so only the
soloist and each receiver see them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.trick import Trick
from engine.tysiacha.scoring import Rounding


class Phase(StrEnum):
    BIDDING = "bidding"
    PRIKUP = "prikup"
    """The soloist holds the prikup: it may raise, concede, or give a card to each opponent."""
    PLAY = "play"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


class DealKind(StrEnum):
    PLAYED = "played"
    CONCEDED = "conceded"
    REDEAL = "redeal"


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one finished deal."""

    number: int
    dealer: int
    kind: DealKind
    soloist: int | None
    contract: int | None
    made: bool | None
    """Whether the soloist made the contract (None unless the deal was played)."""
    points: tuple[int, ...]
    """Per seat: card points taken, unrounded."""
    marriages: tuple[int, ...]
    """Per seat: marriage points declared."""
    earned: tuple[int, ...]
    """Per seat: what the score sheet adds before the barrel rules."""
    scores: tuple[int, ...]
    """Per seat: how much the total actually changed (barrel rules applied)."""
    missed: tuple[int, ...] = ()
    """Defenders who took no trick."""
    fell: tuple[int, ...] = ()
    """Seats that fell off the barrel."""
    redeal_by: int | None = None


@dataclass(frozen=True, slots=True)
class TysiachaView:
    """A snapshot of the game as ``seat`` sees it (``seat`` None: the public view)."""

    seat: int | None
    n_seats: int
    phase: Phase
    deal_number: int
    dealer: int
    active: tuple[int, ...]
    """The three seats in play, from the seat after the dealer."""
    turn: int | None
    """The seat expected to bid, decide on the prikup, or play."""
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    prikup: tuple[Card, ...]
    """Shown to all once the bidding is over; empty before."""
    bids: tuple[int | None, ...]
    """Per seat: its last bid this deal."""
    passed: tuple[bool, ...]
    high_bid: int | None
    soloist: int | None
    contract: int | None
    given: tuple[tuple[int, Card], ...]
    """The soloist's own gifts (opponent, card); empty in every other view."""
    received: Card | None
    """The card the viewing opponent received from the soloist."""
    trick: Trick
    trump: int | None
    marriages: tuple[tuple[int, int], ...]
    """(seat, suit) of each marriage declared this deal, in order."""
    points: tuple[int, ...]
    """Per seat: card points in the tricks taken this deal, unrounded."""
    tricks_taken: tuple[int, ...]
    played: tuple[Card, ...]
    """The cards of this deal's finished tricks, in the order they fell."""
    scores: tuple[int, ...]
    barrel: tuple[int | None, ...]
    misses: tuple[int, ...]
    concessions: tuple[int, ...]
    rounding: Rounding
    history: tuple[DealResult, ...]
    winner: int | None

    @property
    def opponents(self) -> tuple[int, ...]:
        """The two seats playing against the soloist (empty before it is known)."""
        if self.soloist is None:
            return ()
        return tuple(s for s in self.active if s != self.soloist)

    @property
    def started(self) -> bool:
        """Whether a card has been played this deal."""
        return bool(self.played) or bool(self.trick.plays)
