"""What a seat knows, as numbers: the input of the learned evaluator.

:func:`encode` turns a seat's view (what the review calls its moment: its hand,
every card played and by whom, the counts, calls, the trick, the wish and its
voids, the exchange it gave and got, the points taken, the scores) into one
``float32`` vector. It encodes the state *after* a decision: given the view
before the seat acts and the action it weighs (a play, a pass, a call, an
exchange, a gift, or nothing), it edits the view's facts as the action would,
then writes them out. One model of such after-states values every kind of
decision alike (the "action value" of DouZero, with the action folded into the
state), and the player compares the vectors of its candidate actions.

The after-state is what the seat itself would know right after acting, read
simply: a play removes its cards from the hand, tops the trick and clears the
passes; a pass marks the seat passed; a call marks the call. The engine's
finer consequences (a trick taken, the lead handed on) are left to the next
decision's view. Training and play both build vectors here, so the model
learns exactly these.

Seats are written relative to the viewing seat (0: itself, then in playing
order), so a model serves every seat. The layout depends on the seat count:
:func:`layout` names every slot, and its digest (:func:`layout_digest`) goes into
the model file, so a model built for other features is refused when loaded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

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
from engine.tichu.ai.bidding import call_strength, grand_strength
from engine.tichu.ai.hand import evaluate
from engine.tichu.cards import DOG, MAHJONG, POINTS, RANK
from engine.tichu.combos import Combo, Kind
from engine.tichu.legal import legal_plays
from engine.tichu.view import Call, TichuView

FEATURES_VERSION = 2
"""Bumped whenever the meaning of a slot changes without its name changing."""

KINDS = ("grand", "exchange", "tichu", "lead", "follow", "pass", "bomb", "gift", "state")
"""What the encoded state follows: a Grand Tichu decision, the exchange, a Tichu
decision, a lead, a play on a trick, a pass, a bomb out of turn, a Dragon gift,
or no decision (the state as it is)."""

_COMBO_KINDS = tuple(Kind)
_RANK_SLOTS = 17
"""A rank histogram: naturals 2..A (13), then Mahjong, Dog, Phoenix, Dragon."""
_MAX_HAND = 14


def _rank_slot(card: int) -> int:
    if card < 52:
        return card // 4
    return 13 + (card - 52)


def layout(n_seats: int) -> tuple[str, ...]:
    """The name of every slot of the vector for a table of ``n_seats``."""
    names: list[str] = [f"kind.{k}" for k in KINDS]
    names += ["call.mine_now"]
    names += [f"hand.rank{r}" for r in range(_RANK_SLOTS)]
    names += ["hand.size", "plan.cost", "plan.combos", "plan.losers", "plan.winners",
              "plan.bombs", "hand.call_strength", "hand.grand_strength"]
    names += [f"unseen.rank{r}" for r in range(_RANK_SLOTS)]
    for r in range(n_seats):
        names += [f"seat{r}.played_rank{k}" for k in range(_RANK_SLOTS)]
        names += [f"seat{r}.count{k}" for k in range(_MAX_HAND + 1)]
        names += [f"seat{r}.tichu", f"seat{r}.grand", f"seat{r}.has_played",
                  f"seat{r}.passed", f"seat{r}.points", f"seat{r}.bombs"]
        names += [f"seat{r}.out{k}" for k in range(n_seats)]
        names += [f"seat{r}.void_wish", f"seat{r}.voids"]
    names += [f"top.kind.{k.value}" for k in _COMBO_KINDS]
    names += ["top.rank", "top.length", "top.points", "top.plays", "trick.open"]
    names += [f"top.owner{r}" for r in range(n_seats)]
    names += [f"top.rank_slot{k}" for k in range(_RANK_SLOTS)]
    names += [f"wish.rank{r}" for r in range(2, 15)]
    for r in range(1, n_seats):
        names += [f"gave{r}.rank{k}" for k in range(_RANK_SLOTS)]
        names += [f"got{r}.rank{k}" for k in range(_RANK_SLOTS)]
        names += [f"gave{r}.still_unseen", f"gift_to{r}"]
    names += ["score.ours", "score.theirs", "score.to_target", "deal.number"]
    return tuple(names)


@lru_cache(maxsize=4)
def _index(n_seats: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(layout(n_seats))}


def width(n_seats: int) -> int:
    """How many numbers :func:`encode` writes for a table of ``n_seats``."""
    return len(_index(n_seats))


def layout_digest(n_seats: int) -> str:
    """A fingerprint of the layout (names, order, version) for the model file."""
    text = f"v{FEATURES_VERSION}:" + ",".join(layout(n_seats))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(slots=True)
class _Facts:
    """The view's facts, editable, in absolute seats."""

    kind: str
    hand: list[int]
    played: list[list[int]]
    counts: list[int]
    calls: list[Call | None]
    has_played: list[bool]
    passed: list[bool]
    out: list[int]
    points: list[int]
    bombs: list[int]
    top: Combo | None
    owner: int | None
    trick_points: int
    trick_plays: int
    wish: int | None
    given: dict[int, int]
    gift_to: int | None
    called_now: bool


def _facts(view: TichuView) -> _Facts:
    n = view.n_seats
    played = [[int(c) for c in cs] for cs in view.played] if view.played else [[] for _ in range(n)]
    trick = view.trick
    return _Facts(
        kind="state",
        hand=[int(c) for c in view.hand],
        played=played,
        counts=list(view.hand_counts),
        calls=list(view.calls),
        has_played=list(view.has_played),
        passed=list(view.passed),
        out=list(view.out),
        points=list(view.trick_points),
        bombs=list(view.bombs_played) if view.bombs_played else [0] * n,
        top=trick[-1].combo if trick else None,
        owner=trick[-1].seat if trick else None,
        trick_points=sum(POINTS[c] for p in trick for c in p.combo.cards),
        trick_plays=len(trick),
        wish=view.wish,
        given={t: int(c) for t, c in view.given.items()},
        gift_to=None,
        called_now=False,
    )


def _apply(facts: _Facts, view: TichuView, seat: int, action: Action | Combo | None) -> None:
    """Edit ``facts`` as ``action`` (a Combo: played by ``seat``) would."""
    if action is None:
        return
    if isinstance(action, Combo):
        _play(facts, view, seat, action.cards, action, None)
    elif isinstance(action, Play):
        combo = combo_of(view, action)
        _play(facts, view, seat, action.cards, combo, action.wish)
    elif isinstance(action, Pass):
        facts.kind = "pass"
        facts.passed[seat] = True
    elif isinstance(action, CallTichu):
        facts.kind = "tichu"
        facts.calls[seat] = Call.TICHU
        facts.called_now = True
    elif isinstance(action, GrandTichu):
        facts.kind = "grand"
        facts.calls[seat] = Call.GRAND_TICHU
        facts.called_now = True
    elif isinstance(action, DeclineGrand):
        facts.kind = "grand"
    elif isinstance(action, Exchange):
        facts.kind = "exchange"
        gone = {int(c) for _, c in action.give}
        facts.hand = [c for c in facts.hand if c not in gone]
        facts.given = {t: int(c) for t, c in action.give}
    elif isinstance(action, Gift):
        facts.kind = "gift"
        facts.gift_to = action.to
        facts.points[action.to] += facts.trick_points
        facts.top, facts.owner, facts.trick_points, facts.trick_plays = None, None, 0, 0


def combo_of(view: TichuView, action: Play) -> Combo | None:
    """The legal combination ``action`` plays in ``view`` (None if it is not legal)."""
    cards = tuple(sorted(action.cards))
    for combo in legal_plays(view):
        if tuple(sorted(combo.cards)) == cards and combo.phoenix == action.phoenix:
            return combo
    return None


def _play(facts: _Facts, view: TichuView, seat: int, cards: Sequence[int], combo: Combo | None,
          wish: int | None) -> None:
    if view.turn != seat:
        facts.kind = "bomb"
    elif facts.top is None:
        facts.kind = "lead"
    else:
        facts.kind = "follow"
    gone = {int(c) for c in cards}
    facts.hand = [c for c in facts.hand if c not in gone]
    facts.played[seat] = facts.played[seat] + [int(c) for c in cards]
    facts.counts[seat] -= len(gone)
    facts.has_played[seat] = True
    facts.passed = [False] * len(facts.passed)
    if facts.counts[seat] <= 0 and seat not in facts.out:
        facts.out.append(seat)
    if combo is not None and combo.is_bomb:
        facts.bombs[seat] += 1
    if tuple(cards) == (DOG,):
        facts.top, facts.owner, facts.trick_points, facts.trick_plays = None, None, 0, 0
        return
    facts.top, facts.owner = combo, seat
    facts.trick_points += sum(POINTS[c] for c in cards)
    facts.trick_plays += 1
    if facts.wish is not None and any(c < 52 and RANK[c] == facts.wish for c in cards):
        facts.wish = None
    if MAHJONG in gone and wish is not None:
        facts.wish = wish


def encode(view: TichuView, action: Action | Combo | None = None, kind: str | None = None
           ) -> np.ndarray:
    """The vector of what ``view``'s seat knows after ``action`` (None: as it is).

    A :class:`~engine.tichu.combos.Combo` stands for the seat playing it (the wish
    of a Mahjong play is left open); a ``Play`` action is read with its wish.
    ``kind`` names the decision when the action does not (None for "no Tichu now"
    is kind ``"tichu"``).
    """
    out = np.zeros(width(view.n_seats), dtype=np.float32)
    write(out, view, action, kind)
    return out


def encode_many(view: TichuView, actions: Sequence[Action | Combo | None],
                kind: str | None = None) -> np.ndarray:
    """One row of :func:`encode` per action, as a matrix."""
    out = np.zeros((len(actions), width(view.n_seats)), dtype=np.float32)
    for i, action in enumerate(actions):
        write(out[i], view, action, kind)
    return out


def write(out: np.ndarray, view: TichuView, action: Action | Combo | None,
          kind: str | None = None) -> None:
    """Write the vector of :func:`encode` into ``out`` (zeros, of the right width)."""
    seat = view.seat
    assert seat is not None, "the public view knows no hand"
    n = view.n_seats
    ix = _index(n)
    facts = _facts(view)
    _apply(facts, view, seat, action)
    if kind is not None and facts.kind == "state":
        facts.kind = kind
    out[ix[f"kind.{facts.kind}"]] = 1.0
    out[ix["call.mine_now"]] = float(facts.called_now)

    hand = facts.hand
    rank_base = ix["hand.rank0"]
    for c in hand:
        out[rank_base + _rank_slot(c)] += 0.25
    out[ix["hand.size"]] = len(hand) / _MAX_HAND
    if hand:
        plan = evaluate(hand)
        out[ix["plan.cost"]] = plan.cost / 5.0
        out[ix["plan.combos"]] = plan.combos / 7.0
        out[ix["plan.losers"]] = plan.losers / 7.0
        out[ix["plan.winners"]] = plan.winners / 4.0
        out[ix["plan.bombs"]] = len(plan.bombs)
        out[ix["hand.call_strength"]] = call_strength(hand) / 3.0
        out[ix["hand.grand_strength"]] = grand_strength(hand) / 5.0

    seen = set(hand)
    for cs in facts.played:
        seen.update(cs)
    base = ix["unseen.rank0"]
    for c in range(56):
        if c not in seen:
            out[base + _rank_slot(c)] += 0.25

    wish = facts.wish
    for s in range(n):
        r = (s - seat) % n
        base = ix[f"seat{r}.played_rank0"]
        for c in facts.played[s]:
            out[base + _rank_slot(c)] += 0.25
        out[ix[f"seat{r}.count{min(max(facts.counts[s], 0), _MAX_HAND)}"]] = 1.0
        call = facts.calls[s]
        out[ix[f"seat{r}.tichu"]] = float(call is Call.TICHU)
        out[ix[f"seat{r}.grand"]] = float(call is Call.GRAND_TICHU)
        out[ix[f"seat{r}.has_played"]] = float(facts.has_played[s])
        out[ix[f"seat{r}.passed"]] = float(facts.passed[s])
        out[ix[f"seat{r}.points"]] = facts.points[s] / 50.0
        out[ix[f"seat{r}.bombs"]] = float(facts.bombs[s])
        if s in facts.out:
            out[ix[f"seat{r}.out{facts.out.index(s)}"]] = 1.0
        voids = view.wish_voids[s] if view.wish_voids else frozenset()
        out[ix[f"seat{r}.void_wish"]] = float(wish is not None and wish in voids)
        out[ix[f"seat{r}.voids"]] = len(voids) / 4.0

    top = facts.top
    if top is not None:
        out[ix[f"top.kind.{top.kind.value}"]] = 1.0
        out[ix["top.rank"]] = top.rank / 16.0
        out[ix["top.length"]] = top.length / _MAX_HAND
        out[ix["trick.open"]] = 1.0
        base = ix["top.rank_slot0"]
        for c in top.cards:
            out[base + _rank_slot(c)] += 0.25
    if facts.owner is not None:
        out[ix[f"top.owner{(facts.owner - seat) % n}"]] = 1.0
    out[ix["top.points"]] = facts.trick_points / 50.0
    out[ix["top.plays"]] = facts.trick_plays / 8.0
    if wish is not None:
        out[ix[f"wish.rank{wish}"]] = 1.0

    unseen_now = {c for c in range(56) if c not in seen}
    for target, card in facts.given.items():
        r = (target - seat) % n
        out[ix[f"gave{r}.rank{_rank_slot(card)}"]] = 1.0
        out[ix[f"gave{r}.still_unseen"]] = float(card in unseen_now)
    for giver, card in view.received.items():
        r = (giver - seat) % n
        out[ix[f"got{r}.rank{_rank_slot(int(card))}"]] = 1.0
    if facts.gift_to is not None:
        out[ix[f"gift_to{(facts.gift_to - seat) % n}"]] = 1.0

    team = seat % 2
    ours = view.scores[team] if view.scores else 0
    theirs = view.scores[1 - team] if view.scores else 0
    out[ix["score.ours"]] = ours / 1000.0
    out[ix["score.theirs"]] = theirs / 1000.0
    out[ix["score.to_target"]] = (view.target - max(ours, theirs)) / 1000.0
    out[ix["deal.number"]] = min(view.deal_number, 20) / 20.0

