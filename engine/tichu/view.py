"""What one seat may know of a Tichu game (or, with seat None, what everyone may).

Views are the only thing the bot's renderers, menus and computer players read.
A public view (``seat is None``) carries no hand; a seat's view carries that
seat's hand and nobody else's.

A view works for four and six seats alike: read the seat count from
:attr:`TichuView.n_seats` and the table from the helpers (:meth:`~TichuView.team_of`,
:meth:`~TichuView.partners`, :meth:`~TichuView.opponents`,
:meth:`~TichuView.exchange_targets`, :meth:`~TichuView.dog_targets`), never from
seat arithmetic. Teams alternate in both: even seats are team 0, odd seats team 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.tichu.combos import Combo


class Phase(StrEnum):
    GRAND = "grand"
    EXCHANGE = "exchange"
    PLAY = "play"
    GIFT = "gift"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


class Call(StrEnum):
    TICHU = "tichu"
    GRAND_TICHU = "grand_tichu"


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One play in the open trick (passes are not plays)."""

    seat: int
    combo: Combo
    out_of_turn: bool = False


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one finished deal."""

    number: int
    out: tuple[int, ...]
    """Seats in the order they went out (the last seat may be missing)."""
    card_points: tuple[int, ...]
    """Per team: card points taken (200/0 on a double victory)."""
    call_points: tuple[int, ...]
    """Per team: bonuses and penalties of Tichu and Grand Tichu calls."""
    calls: tuple[Call | None, ...]
    """Per seat: the call made in this deal."""
    double_victory: int | None
    """Four players: the team that went out first and second, if any (200-0)."""
    triple_victory: int | None = None
    """Six players: the team whose three seats went out first, if any (300-0)."""

    @property
    def sweep(self) -> int | None:
        """The team of a double (4 players) or triple (6 players) victory, if any."""
        return self.double_victory if self.double_victory is not None else self.triple_victory

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(c + b for c, b in zip(self.card_points, self.call_points, strict=True))


@dataclass(frozen=True, slots=True)
class TichuView:
    """A snapshot of the game as ``seat`` sees it (``seat`` None: the public view)."""

    seat: int | None
    n_seats: int
    phase: Phase
    deal_number: int
    """0-based index of the current deal."""
    turn: int | None
    """Seat expected to act in phase play (its turn) or gift (its choice)."""
    hand: tuple[Card, ...]
    """The viewing seat's cards; empty in the public view. Before its Grand Tichu
    decision a seat sees only its first :attr:`grand_packet` cards (8, or 6 with six players)."""
    hand_counts: tuple[int, ...]
    grand_decided: tuple[bool, ...]
    calls: tuple[Call | None, ...]
    has_played: tuple[bool, ...]
    """Per seat: has it played a card in this deal (then it may no longer call Tichu)."""
    exchanged: tuple[bool, ...]
    """Per seat: has it given its cards (three with four players, two with six)."""
    given: dict[int, Card]
    """The viewing seat's own gifts in the exchange (target seat -> card)."""
    received: dict[int, Card]
    """Cards the viewing seat received in the exchange (giving seat -> card)."""
    trick: tuple[TrickPlay, ...]
    passed: tuple[bool, ...]
    """Per seat: has it passed since the last play of the open trick."""
    wish: int | None
    """The open, unfulfilled wish (a rank 2..14), or None."""
    out: tuple[int, ...]
    trick_points: tuple[int, ...]
    """Per seat: card points in the tricks it has taken so far this deal."""
    scores: tuple[int, ...]
    target: int
    history: tuple[DealResult, ...]
    winner: int | None
    bombs_played: tuple[int, ...] = ()
    """Per seat: bombs played in this deal."""
    last_trick: tuple[TrickPlay, ...] = ()
    """The plays of the last trick taken in this deal (empty before the first)."""
    last_trick_taker: int | None = None
    """The seat that took :attr:`last_trick` (for a Dragon trick: the Dragon's player)."""
    dealer: int | None = None
    """Six players: the seat that dealt this deal (the two seats after it got 10
    cards). None with four players, whose deal has no dealer."""
    grand_packet: int = 8
    """Cards a seat sees before its Grand Tichu decision: 8 with four players, 6 with six."""
    played: tuple[tuple[Card, ...], ...] = ()
    """Per seat: the cards it has played in this deal, in order, the Dog included.
    Every play is shown to the whole table, so this is what a seat that watched the
    deal remembers; a computer reads it rather than its own history of views, which
    a restart, a takeover or another worker process would lose."""
    wish_voids: tuple[frozenset[int], ...] = ()
    """Per seat: the wished ranks it showed the table it does not hold in this deal. A
    seat bound by an open wish must play the rank if it can; one that led without it,
    played on a single below it without it (no bomb), or passed on such a single, holds
    no natural card of that rank (the wish may have been fulfilled since: cards never
    come back in play). Derived from public actions alone, like :attr:`played`."""

    @property
    def top(self) -> Combo | None:
        """The combination to beat, or None on a lead."""
        return self.trick[-1].combo if self.trick else None

    @property
    def trick_winner(self) -> int | None:
        return self.trick[-1].seat if self.trick else None

    def team_of(self, seat: int) -> int:
        """0 for even seats, 1 for odd seats (four and six players)."""
        return seat % 2

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seat's partners in playing order after it: (seat+2,) with four
        players, (seat+2, seat+4) with six."""
        n = self.n_seats
        return tuple((seat + step) % n for step in range(2, n, 2))

    def partner(self, seat: int) -> int:
        """The partner (four players); with six, the first of :meth:`partners`."""
        return self.partners(seat)[0]

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats of the other team, in seat order (two with four players, three with six)."""
        return tuple(s for s in range(self.n_seats) if s % 2 != seat % 2)

    def exchange_targets(self, seat: int) -> tuple[int, ...]:
        """Who the seat gives a card to in the exchange, in a fixed order.

        Four players: left opponent (seat+3), partner (seat+2), right opponent
        (seat+1). Six players: left partner (seat+4), right partner (seat+2).
        Play passes to the right (seat+1).
        """
        return exchange_targets(seat, self.n_seats)

    def dog_targets(self, seat: int) -> tuple[int, ...]:
        """The partners of ``seat`` still holding cards: who a Dog's ``to`` may name.

        With two of them (six players) the play must name one; with one it may;
        with none the lead goes to the first seat holding cards after ``seat``.
        """
        return tuple(p for p in self.partners(seat) if self.hand_counts[p] > 0)

    @property
    def last_deal(self) -> DealResult | None:
        return self.history[-1] if self.history else None


def exchange_targets(seat: int, n_seats: int) -> tuple[int, ...]:
    """The exchange targets of ``seat`` (see :meth:`TichuView.exchange_targets`)."""
    if n_seats == 4:
        return ((seat + 3) % 4, (seat + 2) % 4, (seat + 1) % 4)
    return ((seat + 4) % n_seats, (seat + 2) % n_seats)
