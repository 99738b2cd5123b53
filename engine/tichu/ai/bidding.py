"""Calls and the exchange: Grand Tichu, Tichu, and which card goes to whom.

A call is worth making when the hand will probably go out first. The measure
is :func:`call_strength`: control cards (Dragon, Phoenix, Aces, bombs) that win
back the lead, against the combinations of the best plan that will not win a
trick on their own. Thresholds were set from self-play: among hands above
them, the seat went out first about three times in four.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tichu.actions import Exchange
from engine.tichu.ai.hand import BOMB, HandEval, evaluate, find_bombs, part_strength
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, RANK
from engine.tichu.game import hand_sizes
from engine.tichu.view import Call, TichuView

GRAND_THRESHOLD = 3.8
TICHU_THRESHOLD = 0.25
SIX_TICHU_MARGIN = -0.5
"""Six players: the bar moves by this much. Hands are shorter (fewer losers to
shed), so the same three-in-four rate of going out first is reached lower: in
self-play, six-player hands at or above -0.25 went out first 76% of the time."""
EARLY_TICHU_MARGIN = 1.0
"""Call before the exchange only with this much to spare (the partner then passes
us its best card, but we lose the chance to see what we receive)."""


def _controls(cards: Sequence[int], plan: HandEval) -> float:
    """Cards and combinations that win back the lead."""
    score = 0.0
    for p in plan.parts:
        if p.kind == BOMB:
            score += 1.5
        elif p.cards == (DRAGON,):
            score += 1.0
        else:
            s = part_strength(p)
            if s >= 0.65:
                score += 0.8 if p.length == 1 else 0.7
    if PHOENIX in cards and not any(p.phoenix and p.length == 1 for p in plan.parts):
        score += 0.3  # the Phoenix inside a combination still makes it flexible
    return score


def call_strength(cards: Sequence[int]) -> float:
    """Control minus losers of the best plan: above :data:`TICHU_THRESHOLD`, call Tichu."""
    plan = evaluate(cards)
    losers = sum(1 for p in plan.parts if part_strength(p) < 0.65 and p.kind != "dog")
    dog = DOG in cards
    return _controls(cards, plan) - losers - 0.6 * dog - 0.05 * max(0, plan.combos - 6)


def grand_strength(cards: Sequence[int]) -> float:
    """Strength of the first eight cards for Grand Tichu: mostly top cards."""
    score = 0.0
    ranks = [RANK[c] for c in cards if c < 52]
    if DRAGON in cards:
        score += 1.5
    if PHOENIX in cards:
        score += 1.3
    score += 1.0 * ranks.count(14)
    score += 0.35 * ranks.count(13)
    score += 1.5 * sum(1 for b in find_bombs(cards) if len(b) == 4)
    if DOG in cards:
        score -= 0.5
    plan = evaluate(cards)
    score -= 0.25 * max(0, plan.losers - 3)
    return score


def _score_shift(view: TichuView) -> float:
    """Lower the bar when behind late in the game, raise it when well ahead."""
    seat = view.seat
    assert seat is not None
    ours, theirs = view.scores[seat % 2], view.scores[1 - seat % 2]
    if theirs >= view.target - 250 and theirs - ours >= 150:
        return -0.5
    if ours - theirs >= 400:
        return 0.3
    return 0.0


def wants_grand(view: TichuView, threshold: float = GRAND_THRESHOLD) -> bool:
    seat = view.seat
    assert seat is not None
    if any(view.calls[s] is not None for s in range(view.n_seats) if s % 2 == seat % 2):
        return False
    return grand_strength([int(c) for c in view.hand]) >= threshold + _score_shift(view)


def wants_tichu(view: TichuView, threshold: float = TICHU_THRESHOLD) -> bool:
    """Call Tichu now? Only when nobody of our side has called."""
    seat = view.seat
    assert seat is not None
    n = view.n_seats
    if view.out or any(view.calls[s] is not None for s in range(n) if s % 2 == seat % 2):
        return False
    hand = [int(c) for c in view.hand]
    bar = threshold + _score_shift(view)
    full = hand_sizes(n, view.dealer)[seat]
    if len(hand) < full:
        bar += 0.3 * (full - len(hand)) / 3  # opponents have had time to shed cards
    if n == 6:
        bar += SIX_TICHU_MARGIN
    if any(view.calls[s] is not None for s in range(n) if s % 2 != seat % 2):
        bar += 0.5  # racing an opponent's call
    return call_strength(hand) >= bar


def means_to_call(view: TichuView, threshold: float = TICHU_THRESHOLD) -> bool:
    """Whether the seat gives its exchange as a caller: it has called, or its hand is
    one to call on (:func:`wants_tichu`)."""
    seat = view.seat
    assert seat is not None
    return view.calls[seat] is not None or wants_tichu(view, threshold)


def gift_value(c: int) -> float:
    """How much a card helps the partner, for the partner's card."""
    if c == DRAGON:
        return 20.0
    if c == PHOENIX:
        return 19.0
    if c == DOG:
        return -5.0
    if c == MAHJONG:
        return 0.5
    return float(RANK[c])


def choose_exchange(view: TichuView, calling: bool) -> Exchange:
    """Low singles to the opponents, a good card to the partner, bombs kept whole.

    ``calling``: we (mean to) call, so the partner gets a harmless high single
    rather than a winner. The two opponent cards follow "odd low left": an odd
    rank goes to the next seat and an even one to the seat before, or the lower
    to the next seat, so that partners who both follow it rarely hand one
    opponent a pair.
    """
    seat = view.seat
    assert seat is not None
    if view.n_seats == 6:
        return _choose_exchange_six(view, calling)
    hand = [int(c) for c in view.hand]
    partner, left, right = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
    in_bombs = {c for b in find_bombs(hand) for c in b}
    partner_called = view.calls[partner] is not None
    my_grand = view.calls[seat] is Call.GRAND_TICHU

    free = [c for c in hand if c not in in_bombs] or list(hand)
    if partner_called and not my_grand:
        to_partner = max(free, key=gift_value)
    elif calling:
        to_partner = _harmless_high(hand, free)
    else:
        # A winner for the partner, but not the Dragon, which is ours to keep
        # control with; the Phoenix is the best help (it fits any combination).
        to_partner = max((c for c in free if c != DRAGON), key=gift_value, default=free[0])
    rest = [c for c in hand if c != to_partner]
    dog_to = next((s for s in (left, right) if view.calls[s] is not None), None)
    if DOG in rest and dog_to is not None and not calling:
        # The Dog is the worst card a caller can get: it wastes one of its leads.
        other = min(_two_losers([c for c in rest if c != DOG], in_bombs, view),
                    key=lambda c: RANK[c])
        to_left, to_right = (DOG, other) if dog_to == left else (other, DOG)
    else:
        a, b = sorted(_two_losers(rest, in_bombs, view), key=lambda c: RANK[c])
        if RANK[a] % 2 != RANK[b] % 2:
            to_left, to_right = (a, b) if RANK[a] % 2 == 1 else (b, a)
        else:
            to_left, to_right = a, b
    return Exchange(seat, ((left, DECK[to_left]), (partner, DECK[to_partner]),
                          (right, DECK[to_right])))


def _harmless_high(hand: list[int], free: list[int]) -> int:
    """The highest single of our plan that is not a winner, else the lowest card."""
    plan = evaluate(hand)
    singles = sorted(
        (p.rank for p in plan.parts if p.kind == "single" and not p.cards and 2 <= p.rank <= 13),
        reverse=True,
    )
    for r in singles:
        for c in free:
            if c < 52 and RANK[c] == r:
                return c
    naturals = [c for c in free if c < 52]
    return min(naturals or free, key=lambda c: RANK[c])


def _two_losers(rest: list[int], in_bombs: set[int], view: TichuView) -> list[int]:
    """The two cards whose loss hurts the plan least, low ranks preferred.

    Two cards of one rank (a low pair split between the opponents) are allowed:
    that is the advice when there are not two low singles.
    """
    seat = view.seat
    assert seat is not None
    by_rank: dict[int, list[int]] = {}
    for c in rest:
        if c in in_bombs or c in (DRAGON, PHOENIX, MAHJONG):
            continue
        if c == DOG:
            continue  # the Dog goes to an opponent only when it called (choose_exchange)
        by_rank.setdefault(-1 if c == DOG else RANK[c], []).append(c)
    pool = [cs[0] for cs in by_rank.values()]
    if sum(len(cs) for cs in by_rank.values()) < 2:
        # Hardly anything outside bombs and specials: take the lowest of what is left.
        ordered = sorted((c for c in rest if c not in pool),
                         key=lambda c: (c in in_bombs, c in (DRAGON, PHOENIX), RANK[c]))
        return (pool + ordered)[:2]

    def penalty(cards: Sequence[int]) -> float:
        # Handing an opponent a high card or points is a present too.
        return sum(0.04 * max(0, RANK[c] - 6) + (0.05 if RANK[c] in (5, 10, 13) else 0.0)
                   for c in cards if c < 52)

    def after(cards: Sequence[int]) -> float:
        drop = set(cards)
        return evaluate([c for c in rest if c not in drop]).cost + penalty(cards)

    top = sorted(pool, key=lambda c: after([c]))[:5]
    options = [[x, y] for i, x in enumerate(top) for y in top[i + 1:]]
    options += [cs[:2] for cs in by_rank.values() if len(cs) >= 2 and cs[0] in top]
    return min(options, key=after)


WEAK_HAND = -2.0
"""Six players: a hand this far below the Tichu bar will not go out first; it
helps its partners with winners instead of keeping them."""


def _choose_exchange_six(view: TichuView, calling: bool) -> Exchange:
    """Six players: one card to each of the two partners, nothing to opponents.

    The team's strength stays the same, so the exchange moves it where it wins
    the most: to a partner who called, the best card and to the other a loser;
    when we call, a loser to each; a weak hand gives a winner to each (never the
    Dragon, which keeps control of a trick for us); otherwise a winner to the
    partner who plays first after us and a loser to the other. Bombs stay whole.
    """
    seat = view.seat
    assert seat is not None
    hand = [int(c) for c in view.hand]
    left, right = view.exchange_targets(seat)
    in_bombs = {c for b in find_bombs(hand) for c in b}
    free = [c for c in hand if c not in in_bombs] or list(hand)
    callers = [p for p in (right, left) if view.calls[p] is not None]
    my_grand = view.calls[seat] is Call.GRAND_TICHU

    def best(pool: list[int]) -> int:
        return max((c for c in pool if c != DRAGON), key=gift_value, default=pool[0])

    def losers(rest: list[int], count: int) -> list[int]:
        picked = sorted(_two_losers(rest, in_bombs, view), key=lambda c: RANK[c])
        return picked[:count]

    if callers and not my_grand:
        caller = callers[0]
        winner = max(free, key=gift_value)
        loser = losers([c for c in hand if c != winner], 1)[0]
        gifts = {caller: winner, (left if caller == right else right): loser}
    elif calling:
        a, b = losers(hand, 2)
        gifts = {right: a, left: b}
    elif call_strength(hand) < WEAK_HAND:
        first = best(free)
        second = best([c for c in free if c != first] or [c for c in hand if c != first])
        gifts = {right: first, left: second}
    else:
        winner = best(free)
        loser = losers([c for c in hand if c != winner], 1)[0]
        gifts = {right: winner, left: loser}
    return Exchange(seat, ((left, DECK[gifts[left]]), (right, DECK[gifts[right]])))
