"""The ``normal`` player's card play: leads, follows, bombs, the wish and the Dragon gift.

Every choice compares plays by what they do to the rest of the hand (the cost
of the best plan, :mod:`engine.tichu.ai.hand`) and by a rough chance that the
play wins its trick (:func:`win_chance`, from the cards not seen yet). On top
of that sit the table rules a good player follows: never overtake the partner
unless it takes you out, help a partner who called Tichu and fight an opponent
who did, keep bombs for stopping an opponent or saving a call, lead the Dog to
a strong partner, lead winners first when only one loser is left.

The same rules serve the six-player game: :class:`Table` lists two partners to
help and three opponents to watch, a trick held by either partner is left alone,
and the Dog goes to the partner more likely to win (:func:`choose_dog_target`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tichu.actions import Action, Gift, Pass, Play
from engine.tichu.ai.hand import cards_key, cost_of, evaluate, find_bombs, part_key, strength
from engine.tichu.ai.knowledge import Knowledge, unseen_ranks
from engine.tichu.cards import DOG, DRAGON, MAHJONG, PHOENIX, POINTS, RANK
from engine.tichu.combos import Combo, Kind, bomb_strength
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.view import TichuView

LEAD_VALUE = 0.6
"""What winning the lead is worth, in plan-cost units (about one weak combination)."""
POINT_VALUE = 0.012
"""Plan-cost units per card point won or lost."""
GO_OUT = 100.0


@dataclass(frozen=True, slots=True)
class Table:
    """Who is who and whose calls still stand, from one seat's view."""

    seat: int
    partners: tuple[int, ...]
    """One with four players, two with six (in playing order after the seat)."""
    opponents: tuple[int, ...]
    counts: tuple[int, ...]
    partner_call: bool
    """A partner called (Tichu or Grand) and nobody is out yet."""
    my_call: bool
    opponent_callers: tuple[int, ...]
    """Opponents whose call still stands (nobody out yet)."""

    @staticmethod
    def of(view: TichuView) -> Table:
        seat = view.seat
        assert seat is not None
        partners = view.partners(seat)
        opponents = view.opponents(seat)
        open_calls = not view.out
        return Table(
            seat=seat,
            partners=partners,
            opponents=opponents,
            counts=view.hand_counts,
            partner_call=open_calls and any(view.calls[p] is not None for p in partners),
            my_call=open_calls and view.calls[seat] is not None,
            opponent_callers=tuple(s for s in opponents
                                   if open_calls and view.calls[s] is not None),
        )

    def live_opponents(self) -> list[int]:
        return [s for s in self.opponents if self.counts[s] > 0]

    def live_partners(self) -> list[int]:
        return [s for s in self.partners if self.counts[s] > 0]


# ------------------------------------------------------------- win chance
def _beaters_of_single(rank: float, unseen: frozenset[int]) -> int:
    n = sum(1 for c in unseen if c < 52 and c // 4 + 2 > rank)
    if DRAGON in unseen:
        n += 1
    if PHOENIX in unseen and rank < 15:
        n += 1
    return n


def win_chance(combo: Combo, view: TichuView, know: Knowledge) -> float:
    """Rough chance that no opponent beats ``combo`` once played (bombs aside)."""
    t = Table.of(view)
    live = t.live_opponents()
    if not live:
        return 1.0
    if combo.is_bomb:
        return 0.95
    unseen = know.unseen
    others = sum(t.counts[s] for s in range(len(t.counts)) if s != t.seat) or 1
    share = sum(t.counts[s] for s in live) / others
    if combo.kind is Kind.SINGLE:
        if combo.cards == (DRAGON,):
            return 0.97
        n = _beaters_of_single(combo.rank, unseen)
        return float((1.0 - 0.55 * share) ** n)
    if combo.kind in (Kind.PAIR, Kind.TRIPLE):
        need = 2 if combo.kind is Kind.PAIR else 3
        ranks = unseen_ranks(unseen)
        phoenix = PHOENIX in unseen
        p = 1.0
        for r in range(int(combo.rank) + 1, 15):
            u = ranks[r] + (1 if phoenix else 0)
            if u >= need:
                chance = {2: 0.2, 3: 0.45, 4: 0.7, 5: 0.8}[min(5, u + 2 - need)]
                p *= 1.0 - chance * share
        return p
    if combo.kind is Kind.DOG:
        return 0.0
    return min(0.95, part_strength_of(combo) + 0.05)


def part_strength_of(combo: Combo) -> float:
    """The plan strength of a played combination (see :mod:`~engine.tichu.ai.hand`)."""
    kind = {Kind.SINGLE: "single", Kind.PAIR: "pair", Kind.TRIPLE: "triple",
            Kind.FULL_HOUSE: "full_house", Kind.STRAIGHT: "straight",
            Kind.STAIRS: "stairs"}.get(combo.kind, "bomb")
    rank = int(combo.rank) if combo.cards != (PHOENIX,) else 15
    if combo.cards == (DRAGON,):
        rank = 16
    return strength(kind, rank, combo.length)


# ------------------------------------------------------------------ helpers
def _rest(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    drop = set(cards)
    return [c for c in hand if c not in drop]


def distinct_plays(plays: Sequence[Combo], hand: Sequence[int]) -> list[Combo]:
    """One play per distinct effect: same kind and ranks, and same bomb cards used.

    Suits only matter to bombs, so ``5c 5d`` and ``5h 5s`` are the same play
    unless one of them breaks a bomb.
    """
    bomb_cards = {c for b in find_bombs(hand) for c in b}
    seen: set[tuple[object, ...]] = set()
    out: list[Combo] = []
    for p in plays:
        key = (p.kind, p.rank, p.phoenix, tuple(sorted(RANK[c] for c in p.cards)),
               tuple(sorted(c for c in p.cards if c in bomb_cards)))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def trick_points(view: TichuView) -> int:
    return sum(POINTS[c] for play in view.trick for c in play.combo.cards)


def _play(view: TichuView, know: Knowledge, combo: Combo) -> Play:
    assert view.seat is not None
    wish = choose_wish(view, know) if MAHJONG in combo.cards else None
    to = choose_dog_target(view) if combo.cards == (DOG,) else None
    return Play(view.seat, combo.cards, wish, combo.phoenix, to)


def choose_dog_target(view: TichuView) -> int | None:
    """The partner the Dog hands the lead to: the one more likely to win the deal.

    A partner whose call stands comes first, then the one with fewer cards left
    (closer to going out). None when the engine decides alone (no partner, or
    only one, holds cards).
    """
    seat = view.seat
    assert seat is not None
    targets = view.dog_targets(seat)
    if len(targets) < 2:
        return None
    open_calls = not view.out

    def promise(s: int) -> tuple[bool, int, int]:
        called = open_calls and view.calls[s] is not None
        return (called, -view.hand_counts[s], -((s - seat) % view.n_seats))

    return max(targets, key=promise)


def _danger(view: TichuView, t: Table, owner: int) -> float:
    """How bad it is to let ``owner`` (an opponent) take this trick and lead."""
    if owner % 2 == t.seat % 2:
        return 0.0
    n = t.counts[owner]
    danger = 0.15
    if n == 0:
        return 0.0
    if n <= 2:
        danger += 0.9
    elif n <= 4:
        danger += 0.4
    if owner in t.opponent_callers:
        danger += 0.5
    if t.partner_call:
        danger += 0.3
    return danger


def _control_penalty(combo: Combo) -> float:
    """What spending a top single costs beyond its plan cost (it is kept for later)."""
    if combo.kind is not Kind.SINGLE:
        return 0.0
    card = combo.cards[0]
    if card == DRAGON:
        return 0.35
    if card == PHOENIX:
        return 0.3
    if RANK[card] == 14:
        return 0.12
    return 0.0


# ------------------------------------------------------------------- play
def choose_play(view: TichuView, know: Knowledge) -> Action:
    """The seat's play (or pass) on its turn."""
    assert view.seat is not None
    plays = legal_plays(view)
    may_pass = can_pass(view)
    if not plays:
        return Pass(view.seat)
    ranked = rank_plays(view, know, plays, may_pass)
    best = ranked[0][1]
    if best is None:
        return Pass(view.seat)
    return _play(view, know, best)


def rank_plays(view: TichuView, know: Knowledge, plays: Sequence[Combo] | None = None,
               may_pass: bool | None = None) -> list[tuple[float, Combo | None]]:
    """Candidate actions on the seat's turn, best first: (score, play or None for pass).

    The ``hard`` player searches over the first few of these.
    """
    if plays is None:
        plays = legal_plays(view)
    if may_pass is None:
        may_pass = can_pass(view)
    if view.top is None:
        scored = _score_leads(view, know, plays)
    else:
        scored = _score_follows(view, know, plays, may_pass)
    scored.sort(key=lambda sc: -sc[0])
    return scored


def _score_leads(view: TichuView, know: Knowledge, plays: Sequence[Combo]
                 ) -> list[tuple[float, Combo | None]]:
    t = Table.of(view)
    hand = [int(c) for c in view.hand]
    base = cost_of(hand)
    out: list[tuple[float, Combo | None]] = []
    live_partners = t.live_partners()
    candidates = _lead_candidates(distinct_plays(plays, hand), hand)
    non_bombs = [p for p in candidates if not p.is_bomb]
    for p in candidates:
        rest = _rest(hand, p.cards)
        if not rest:
            # Going out; but not first while the partner's call stands.
            out.append((-GO_OUT if t.partner_call else GO_OUT, p))
            continue
        if p.is_bomb and non_bombs:
            out.append((-5.0, p))  # a bomb is not a lead while anything else is
            continue
        rest_eval = evaluate(rest)
        gain = base - rest_eval.cost
        pw = win_chance(p, view, know)
        score = gain + 0.03 * len(p.cards)
        if p.kind is Kind.DOG:
            score = _dog_score(view, t, hand, rest_eval.cost, base)
        elif rest_eval.losers <= 1 or (rest_eval.combos <= 2 and pw > 0.8):
            # Close to out: cash winners first, keeping the lead for the last loser.
            score += 1.2 * pw
        else:
            score += 0.25 * pw
        score -= _lead_risk(p, pw, t)
        if t.partner_call and p.kind is not Kind.DOG:
            # Help the partner: lead low, let them take it cheaply.
            score -= 0.3 * pw
        if any(t.counts[s] == 1 for s in live_partners) and p.kind is Kind.SINGLE:
            score += 0.6 - 0.04 * p.rank
        out.append((score, p))
    return out


MAX_LEAD_CANDIDATES = 24


def _lead_candidates(plays: list[Combo], hand: Sequence[int]) -> list[Combo]:
    """Leads worth scoring: all of them, or with many (the Phoenix multiplies them),
    the parts of the best plan, singles, pairs and anything that goes out."""
    if len(plays) <= MAX_LEAD_CANDIDATES:
        return plays
    keys = {part_key(p) for p in evaluate(hand).parts}
    return [p for p in plays
            if p.kind in (Kind.SINGLE, Kind.PAIR, Kind.DOG) or len(p.cards) == len(hand)
            or cards_key(p.cards) in keys]


def _dog_score(view: TichuView, t: Table, hand: Sequence[int], rest_cost: float,
               base: float) -> float:
    """The Dog hands the lead to a partner: great for a strong partner, poor otherwise."""
    live = t.live_partners()
    if not live:
        return -1.0  # the lead would go to an opponent (or back round the table)
    partner_n = min(t.counts[s] for s in live)
    if t.partner_call:
        return 10.0
    score = base - rest_cost  # about the Dog's plan cost
    if partner_n < len(hand) - 1:
        score += 0.4
    if t.my_call:
        score -= 0.5
    if len(hand) == 2:
        score -= 0.3  # keep it to go out with after the last combination
    return score


def _lead_risk(p: Combo, pw: float, t: Table) -> float:
    """Leading what an opponent close to out can play on is giving them the game."""
    risk = 0.0
    for s in t.live_opponents():
        n = t.counts[s]
        if n <= 2 and p.length <= n and p.kind in (Kind.SINGLE, Kind.PAIR):
            risk += 1.5 * (1.0 - pw)
        elif n <= 5 and p.length == n:
            risk += 0.8 * (1.0 - pw)
    return risk


def _score_follows(view: TichuView, know: Knowledge, plays: Sequence[Combo], may_pass: bool
                   ) -> list[tuple[float, Combo | None]]:
    t = Table.of(view)
    hand = [int(c) for c in view.hand]
    base = cost_of(hand)
    owner = view.trick_winner
    assert owner is not None
    pts = trick_points(view)
    out: list[tuple[float, Combo | None]] = []
    pass_score = -_danger(view, t, owner) if owner % 2 != t.seat % 2 else 0.0
    if may_pass:
        out.append((pass_score, None))
    partner_owns = owner in t.partners
    for p in distinct_plays(plays, hand):
        rest = _rest(hand, p.cards)
        if not rest:
            out.append((-GO_OUT if t.partner_call else GO_OUT, p))
            continue
        if p.is_bomb:
            out.append((_bomb_score(view, know, t, p, rest), p))
            continue
        if partner_owns and may_pass:
            # Never take the trick from the partner unless it takes us out.
            out.append((-3.0, p))
            continue
        rest_eval = evaluate(rest)
        gain = base - rest_eval.cost
        pw = win_chance(p, view, know)
        lead = LEAD_VALUE + (0.4 if rest_eval.combos <= 2 else 0.0)
        points = pts + sum(POINTS[c] for c in p.cards)
        if p.cards == (DRAGON,):
            points = -pts  # the trick goes to an opponent
        urgency = 1.0 if pass_score < -0.5 else 0.0
        score = gain + pw * (lead + POINT_VALUE * points) - _control_penalty(p) * (1.0 - urgency)
        if t.partner_call and p.cards in ((DRAGON,), (PHOENIX,)):
            score += 0.1  # stopping opponents matters more than our own plan
        out.append((score, p))
    return out


# ------------------------------------------------------------------- bombs
def _bomb_score(view: TichuView, know: Knowledge, t: Table, bomb: Combo,
                rest: Sequence[int]) -> float:
    """Score a bomb on the open trick: high only when it stops something or wins the deal."""
    owner = view.trick_winner
    if owner is None or owner % 2 == t.seat % 2:
        return -5.0
    rest_eval = evaluate(rest)
    pts = trick_points(view)
    score = -1.2  # a bomb held is worth a lot: it wins any one trick later
    owner_n = t.counts[owner]
    if owner_n == 0:
        # The owner is out: only the points (and the lead) are at stake.
        score += POINT_VALUE * pts
    else:
        if owner_n <= 2:
            score += 1.6
        elif owner_n <= 5:
            score += 0.5
        if owner in t.opponent_callers:
            score += 0.9 if owner_n <= 6 else 0.3
        if t.partner_call:
            score += 0.6
        score += POINT_VALUE * pts
    if view.top is not None and view.top.cards == (DRAGON,):
        score += 0.4  # a bombed Dragon trick is kept
    if rest_eval.combos <= 1 or (rest_eval.combos <= 2 and rest_eval.losers <= 1):
        score += 1.5  # bomb, lead, and go out
    # Keep the weakest bomb that does the job.
    score -= 0.05 * bomb_strength(bomb)[1] + 0.01 * bomb.rank
    return score


def choose_out_of_turn(view: TichuView, know: Knowledge) -> Play | None:
    """A bomb out of turn when the open trick is worth bombing, else None."""
    bombs = legal_plays(view)
    if not bombs or view.top is None:
        return None
    t = Table.of(view)
    hand = [int(c) for c in view.hand]
    best: tuple[float, Combo] | None = None
    for b in bombs:
        rest = _rest(hand, b.cards)
        score = GO_OUT if not rest and not t.partner_call else _bomb_score(view, know, t, b, rest)
        if best is None or score > best[0]:
            best = (score, b)
    if best is None or best[0] <= 0.0:
        return None
    assert view.seat is not None
    return Play(view.seat, best[1].cards)


# --------------------------------------------------------------- wish, gift
def choose_wish(view: TichuView, know: Knowledge) -> int | None:
    """Wish for a rank the next opponent holds: the card we passed it, if any.

    That card is sure to be there, and wishing for it costs the partner nothing;
    failing that, the highest rank that an opponent may hold and we do not,
    never the rank we gave the partner (it would bind the partner).
    """
    seat = view.seat
    assert seat is not None
    n = view.n_seats
    mine = {RANK[c] for c in view.hand if c < 52}
    partner_ranks = {RANK[know.given[p]] for p in view.partners(seat)
                     if p in know.given and know.given[p] < 52}
    # Opponents in playing order after us (with six players we gave them nothing).
    for target in sorted(view.opponents(seat), key=lambda s: (s - seat) % n):
        card = know.given.get(target)
        if card is not None and card < 52 and card in know.unseen:
            r = RANK[card]
            if r not in mine and r not in partner_ranks:
                return r
    ranks = unseen_ranks(know.unseen)
    for r in range(14, 1, -1):
        if r not in mine and r not in partner_ranks and 1 <= ranks[r] <= 3:
            return r
    return None


def choose_gift(view: TichuView) -> Gift:
    """Give the Dragon trick to the opponent most likely to finish last.

    The last seat's tricks go to the first one out, so points given to the
    eventual last seat may come back to us. That is the opponent with more
    cards, unless it called: a caller means to go out first (a call counts as
    four cards fewer), and an opponent already out is never last.
    """
    seat = view.seat
    assert seat is not None
    t = Table.of(view)

    def last_chance(s: int) -> tuple[bool, float]:
        caller = s in t.opponent_callers
        return (t.counts[s] > 0, t.counts[s] - 4.0 * caller)

    return Gift(seat, max(t.opponents, key=last_chance))
