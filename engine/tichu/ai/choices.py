"""The few actions worth weighing at each decision, the heuristics' choice first.

A seat's legal actions can number in the hundreds (every exchange of three
cards, every play of a long hand). The learned player and the self-play that
trains it weigh only the handful the heuristics find plausible, so that the
model is asked about states like those it learned from:

* Grand Tichu: decline or call;
* a Tichu call before the first card: not now, or call;
* the exchange: the heuristics' gifts, those gifts shuffled between the
  targets, and each gift swapped for another plausible card;
* a play on the seat's turn: the best few of :func:`~engine.tichu.ai.tactics.rank_plays`
  and the pass when it is allowed;
* out of turn, on an open trick: wait, or one of the bombs that beat it;
* the Dragon's gift: each opponent.

:func:`choices` returns them with the index of the ``normal`` player's own choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from engine.cards import Card
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.ai import bidding, tactics
from engine.tichu.ai.hand import find_bombs
from engine.tichu.ai.knowledge import Knowledge
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, RANK
from engine.tichu.combos import Combo
from engine.tichu.legal import can_call_tichu, can_pass, gift_targets, legal_plays
from engine.tichu.view import Phase, TichuView

PLAY_CHOICES = 5
"""How many of the heuristics' best plays are weighed (the pass comes on top)."""
BOMB_CHOICES = 3
EXCHANGE_ALTERNATIVES = 4
"""Other cards tried in each gift's place."""


@dataclass(frozen=True, slots=True)
class Choices:
    """A decision's candidate actions; ``actions[heuristic]`` is the ``normal`` choice.

    ``kind`` names the decision: grand, tichu, exchange, play, bomb or gift.
    An empty tuple: the seat has nothing to decide (it waits)."""

    kind: str
    actions: tuple[Action | None, ...]
    heuristic: int = 0


NOTHING = Choices("none", ())


def choices(view: TichuView, know: Knowledge, *, grand_threshold: float = bidding.GRAND_THRESHOLD,
            tichu_threshold: float = bidding.TICHU_THRESHOLD) -> Choices:
    """The decision ``view``'s seat faces now and its candidate actions."""
    seat = view.seat
    if seat is None:
        return NOTHING
    phase = view.phase
    if phase is Phase.GRAND:
        if view.grand_decided[seat]:
            return NOTHING
        partner_called = any(view.calls[s] is not None for s in view.partners(seat))
        if partner_called:
            return Choices("grand", (DeclineGrand(seat),))
        wants = bidding.wants_grand(view, grand_threshold)
        return Choices("grand", (DeclineGrand(seat), GrandTichu(seat)), int(wants))
    if phase is Phase.EXCHANGE:
        if view.exchanged[seat]:
            return NOTHING
        early = tichu_threshold + bidding.EARLY_TICHU_MARGIN
        if can_call_tichu(view) and bidding.wants_tichu(view, early):
            return Choices("tichu_early", (CallTichu(seat),))
        chosen = bidding.choose_exchange(view, bidding.means_to_call(view, tichu_threshold))
        return Choices("exchange", exchange_choices(view, chosen))
    if phase is Phase.GIFT:
        if view.turn != seat:
            return NOTHING
        chosen_gift = tactics.choose_gift(view)
        targets = [chosen_gift.to] + [t for t in gift_targets(view) if t != chosen_gift.to]
        return Choices("gift", tuple(Gift(seat, t) for t in targets))
    if phase is not Phase.PLAY or not view.hand:
        return NOTHING
    if view.turn != seat:
        return bomb_choices(view, know) if view.trick else NOTHING
    if may_call(view):
        return tichu_choice(view, tichu_threshold)
    return play_choices(view, know)


def may_call(view: TichuView) -> bool:
    """Whether a Tichu call is worth weighing now: it is allowed, nobody of the
    seat's side has called, and nobody is out yet."""
    seat = view.seat
    assert seat is not None
    return can_call_tichu(view) and not view.out and not any(
        view.calls[s] is not None for s in range(view.n_seats) if s % 2 == seat % 2)


def tichu_choice(view: TichuView, threshold: float = bidding.TICHU_THRESHOLD) -> Choices:
    """Call Tichu before the first card: (not now, call), the heuristics' answer
    marked. Not now (None) leads on to :func:`play_choices`."""
    seat = view.seat
    assert seat is not None
    wants = bidding.wants_tichu(view, threshold)
    return Choices("tichu", (None, CallTichu(seat)), int(wants))


def play_choices(view: TichuView, know: Knowledge, k: int = PLAY_CHOICES) -> Choices:
    """The heuristics' best ``k`` plays on the seat's turn, and the pass if allowed."""
    seat = view.seat
    assert seat is not None
    plays = legal_plays(view)
    may_pass = can_pass(view)
    if not plays:
        return Choices("play", (Pass(seat),))
    ranked = tactics.rank_plays(view, know, plays, may_pass)
    picked: list[Combo | None] = [c for _, c in ranked[:k]]
    if may_pass and None not in picked:
        picked.append(None)
    return Choices("play", tuple(play_action(view, know, c) for c in picked))


def play_action(view: TichuView, know: Knowledge, combo: Combo | None) -> Play | Pass:
    """The action of playing ``combo`` (None: the pass), with the heuristics' wish
    and Dog target."""
    seat = view.seat
    assert seat is not None
    if combo is None:
        return Pass(seat)
    wish = tactics.choose_wish(view, know) if MAHJONG in combo.cards else None
    to = tactics.choose_dog_target(view) if combo.cards == (DOG,) else None
    return Play(seat, combo.cards, wish, combo.phoenix, to)


def bomb_choices(view: TichuView, know: Knowledge) -> Choices:
    """Out of turn: wait (None), or one of the bombs that beat the trick."""
    bombs = legal_plays(view)
    if not bombs or view.top is None:
        return NOTHING
    seat = view.seat
    assert seat is not None
    chosen = tactics.choose_out_of_turn(view, know)
    distinct: list[Play] = []
    seen: set[tuple[Card, ...]] = set()
    ordered = sorted(bombs, key=lambda b: (b.kind.value, b.length, b.rank))
    if chosen is not None:
        distinct.append(chosen)
        seen.add(tuple(sorted(chosen.cards)))
    for b in ordered:
        key = tuple(sorted(b.cards))
        if key in seen or len(distinct) >= BOMB_CHOICES:
            continue
        seen.add(key)
        distinct.append(Play(seat, b.cards))
    actions: tuple[Action | None, ...] = (None, *distinct)
    return Choices("bomb", actions, 1 if chosen is not None else 0)


def exchange_choices(view: TichuView, chosen: Exchange) -> tuple[Exchange, ...]:
    """``chosen`` first, then its gifts shuffled between the targets, then each gift
    replaced by another plausible card: a good card for a partner, a low one for
    an opponent (bombs kept whole)."""
    seat = view.seat
    assert seat is not None
    hand = [int(c) for c in view.hand]
    targets = [t for t, _ in chosen.give]
    cards = [int(c) for _, c in chosen.give]
    in_bombs = {c for b in find_bombs(hand) for c in b}
    free = [c for c in hand if c not in in_bombs and c not in cards]
    out: list[tuple[int, ...]] = [tuple(cards)]
    for order in permutations(cards):
        if order not in out:
            out.append(order)
    partners = set(view.partners(seat))
    good = sorted((c for c in free if c != DRAGON), key=bidding.gift_value, reverse=True)
    low = sorted((c for c in free if c not in (DRAGON, PHOENIX, MAHJONG)),
                 key=lambda c: (RANK[c] if c != DOG else 1))
    for i, target in enumerate(targets):
        pool = good if target in partners else low
        for card in pool[:EXCHANGE_ALTERNATIVES]:
            swapped = list(cards)
            swapped[i] = card
            option = tuple(swapped)
            if option not in out:
                out.append(option)
    return tuple(Exchange(seat, tuple((t, DECK[c]) for t, c in zip(targets, option, strict=True)))
                 for option in out)
