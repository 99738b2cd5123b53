"""What the learned Chinois values read: a seat's bid or card choice as a vector of numbers.

Two layouts, each a list of named slots with a digest (:func:`layout_digest`) that the
model files carry, so a model built for other features is refused:

* the **bid** layout (:func:`bid_rows`): the hand, the turned card, the round size, the
  seat's place in the bidding (the dealer last, under "tout sauf"), the earlier bids,
  ``normal``'s trick estimate, and one candidate bid; one row per legal bid.
* the **play** layout (:func:`play_rows`): the state after the seat plays one card (its
  hand left, the cards gone, the open trick, who wins it so far), its bid and tricks,
  what every other seat still needs and the suits it has shown void; one row per
  legal card.

The suits are named by their role, not their colour: the trump suit first, then the
other three from the longest in the seat's hand (ties: the higher cards first), so
hands alike up to the colours read alike. In the 13-card rounds (no trump) the four
suits are ordered that way. Every slot is a number of about unit size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

import numpy as np

from engine.cards import Card
from engine.chinois.rules import MAX_CARDS, N_SEATS
from engine.chinois.view import ChinoisView
from engine.trick import NATURAL_ORDER, beats

RANKS = 13
VERSION = 1


def suit_order(hand: Sequence[Card], trump: int | None) -> tuple[int, ...]:
    """The suits in the order the features name them: trump first, then by length in
    ``hand`` and the height of its cards."""
    def key(suit: int) -> tuple[int, int, list[int]]:
        ranks = sorted((c >> 2 for c in hand if c & 3 == suit), reverse=True)
        return (0 if suit == trump else 1, -len(ranks), [-r for r in ranks])

    return tuple(sorted(range(4), key=key))


def _slots(order: tuple[int, ...]) -> list[int]:
    """Per real suit, its slot in the layout's blocks of 52."""
    slot = [0] * 4
    for k, suit in enumerate(order):
        slot[suit] = k
    return slot


def _cards(out: np.ndarray, start: int, cards: Sequence[Card], slot: list[int]) -> None:
    for c in cards:
        out[start + slot[c & 3] * RANKS + (c >> 2)] = 1.0


@cache
def bid_layout() -> tuple[str, ...]:
    names = [f"hand.{k}.{r}" for k in range(4) for r in range(RANKS)]
    names += [f"length.{k}" for k in range(4)]
    names += ["trump.none", "trump.turned_rank"]
    names += [f"cards.{n}" for n in range(1, MAX_CARDS + 1)] + ["cards"]
    names += [f"place.{p}" for p in range(N_SEATS)]
    names += [f"earlier.{p}" for p in range(N_SEATS - 1)]
    names += ["earlier.sum", "earlier.room", "estimate", "estimate.share"]
    names += [f"bid.{b}" for b in range(MAX_CARDS + 1)]
    names += ["bid", "bid.share", "bid.minus_estimate", "bid.off_estimate", "table.over"]
    return tuple(names)


@cache
def play_layout() -> tuple[str, ...]:
    names = [f"hand.{k}.{r}" for k in range(4) for r in range(RANKS)]
    names += [f"gone.{k}.{r}" for k in range(4) for r in range(RANKS)]
    names += [f"trick.{k}.{r}" for k in range(4) for r in range(RANKS)]
    names += [f"card.{k}" for k in range(4)] + ["card.rank", "card.master"]
    names += ["trump.none"] + [f"cards.{n}" for n in range(1, MAX_CARDS + 1)] + ["left"]
    names += [f"in_trick.{i}" for i in range(1, N_SEATS + 1)]
    names += ["winning", "took"]
    names += ["bid", "won", "need"] + [f"need.{k}" for k in ("over", "0", "1", "2", "3+")]
    for s in range(1, N_SEATS):
        names += [f"seat{s}.need", f"seat{s}.made", f"seat{s}.over", f"seat{s}.winning"]
        names += [f"seat{s}.void.{k}" for k in range(4)]
    return tuple(names)


def layout_digest(kind: str) -> str:
    """The digest of the ``bid`` or ``play`` layout (names and version)."""
    names = bid_layout() if kind == "bid" else play_layout()
    text = f"chinois-{kind}/{VERSION}:" + ",".join(names)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def width(kind: str) -> int:
    return len(bid_layout() if kind == "bid" else play_layout())


@cache
def _index(kind: str) -> dict[str, int]:
    names = bid_layout() if kind == "bid" else play_layout()
    return {name: i for i, name in enumerate(names)}


def _start(kind: str, view: ChinoisView) -> tuple[dict[str, int], int, list[int], np.ndarray]:
    """The ``kind`` layout's slots by name, the seat, each suit's slot, and a row of zeros."""
    seat = view.seat
    assert seat is not None
    return (_index(kind), seat, _slots(suit_order(view.hand, view.trump)),
            np.zeros(width(kind), dtype=np.float32))


def bid_rows(view: ChinoisView, bids: Sequence[int], estimate: float) -> np.ndarray:
    """One row of the bid layout per candidate bid in ``bids``, for the seat to bid;
    ``estimate`` is ``normal``'s expected tricks of the hand (``ai.estimate_tricks``)."""
    ix, seat, slot, base = _start("bid", view)
    n = view.cards_per_seat
    _cards(base, 0, view.hand, slot)
    for suit in range(4):
        base[ix[f"length.{slot[suit]}"]] = sum(1 for c in view.hand if c & 3 == suit) / 4
    if view.trump_card is None:
        base[ix["trump.none"]] = 1.0
    else:
        base[ix["trump.turned_rank"]] = (view.trump_card >> 2) / 12
    base[ix[f"cards.{n}"]] = 1.0
    base[ix["cards"]] = n / MAX_CARDS
    place = (seat - view.dealer - 1) % N_SEATS
    base[ix[f"place.{place}"]] = 1.0
    earlier = [view.bids[(view.dealer + 1 + p) % N_SEATS] or 0 for p in range(place)]
    for p, b in enumerate(earlier):
        base[ix[f"earlier.{p}"]] = b / 4
    total = sum(earlier)
    base[ix["earlier.sum"]] = total / 4
    base[ix["earlier.room"]] = (n - total) / 4
    base[ix["estimate"]] = estimate / 4
    base[ix["estimate.share"]] = estimate / n
    rows = np.repeat(base[None, :], len(bids), axis=0)
    for i, b in enumerate(bids):
        rows[i, ix[f"bid.{b}"]] = 1.0
        rows[i, ix["bid"]] = b / 4
        rows[i, ix["bid.share"]] = b / n
        rows[i, ix["bid.minus_estimate"]] = (b - estimate) / 2
        rows[i, ix["bid.off_estimate"]] = abs(b - estimate) / 2
        rows[i, ix["table.over"]] = (total + b - n) / 4
    return rows


def play_rows(view: ChinoisView, cards: Sequence[Card],
              voids: dict[int, set[int]]) -> np.ndarray:
    """One row of the play layout per card in ``cards``: the state once the seat to play
    has played it; ``voids`` are the suits each seat has shown it lacks
    (``ai.shown_voids``)."""
    ix, seat, slot, base = _start("play", view)
    n_seats = view.n_seats
    trump = view.trump
    gone = list(view.played)
    if view.trump_card is not None:
        gone.append(view.trump_card)
    _cards(base, ix["gone.0.0"], gone, slot)
    _cards(base, ix["trick.0.0"], view.trick.cards, slot)
    if trump is None:
        base[ix["trump.none"]] = 1.0
    base[ix[f"cards.{view.cards_per_seat}"]] = 1.0
    base[ix["left"]] = (len(view.hand) - 1) / 4
    base[ix[f"in_trick.{len(view.trick) + 1}"]] = 1.0
    bids = [b or 0 for b in view.bids]
    seen = set(gone) | set(view.trick.cards) | set(view.hand)
    for c in view.hand:
        base[ix["hand.0.0"] + slot[c & 3] * RANKS + (c >> 2)] = 1.0
    led = view.trick.led_suit
    best = view.trick.winning(NATURAL_ORDER, trump) if view.trick.plays else None
    last = len(view.trick) == n_seats - 1
    rows = np.repeat(base[None, :], len(cards), axis=0)
    for i, c in enumerate(cards):
        row = rows[i]
        row[ix["hand.0.0"] + slot[c & 3] * RANKS + (c >> 2)] = 0.0
        row[ix["trick.0.0"] + slot[c & 3] * RANKS + (c >> 2)] = 1.0
        row[ix[f"card.{slot[c & 3]}"]] = 1.0
        row[ix["card.rank"]] = (c >> 2) / 12
        row[ix["card.master"]] = float(all(r in seen for r in range(c + 4, 52, 4)))
        if best is None or led is None or beats(c, best.card, led_suit=led, trump=trump,
                                                order=NATURAL_ORDER):
            winner = seat
        else:
            winner = best.seat
        tricks = list(view.tricks_won)
        if last:
            tricks[winner] += 1
            row[ix["took"]] = float(winner == seat)
        row[ix["winning"]] = float(winner == seat)
        need = bids[seat] - tricks[seat]
        row[ix["bid"]] = bids[seat] / 4
        row[ix["won"]] = tricks[seat] / 4
        row[ix["need"]] = need / 4
        band = "over" if need < 0 else "3+" if need >= 3 else str(need)
        row[ix[f"need.{band}"]] = 1.0
        for k in range(1, n_seats):
            other = (seat + k) % n_seats
            other_need = bids[other] - tricks[other]
            row[ix[f"seat{k}.need"]] = other_need / 4
            row[ix[f"seat{k}.made"]] = float(other_need == 0)
            row[ix[f"seat{k}.over"]] = float(other_need < 0)
            row[ix[f"seat{k}.winning"]] = float(winner == other)
            for suit in voids[other]:
                row[ix[f"seat{k}.void.{slot[suit]}"]] = 1.0
    return rows


__all__ = ["bid_layout", "bid_rows", "layout_digest", "play_layout", "play_rows",
           "suit_order", "width"]
