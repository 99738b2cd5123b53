"""Rollouts on the engine itself: a game built at a seat's position with guessed hands.

The engine has no "start from this position" constructor, so :func:`game_at`
makes a :class:`~engine.tichu.game.TichuGame` from a template deal and then
sets its fields directly from the view and the sampled hands (the fields
``_start_deal`` sets, plus the game-level ones). Only the play and gift
phases are built. Past
tricks are not known card by card, only their points per seat, so each seat's
pile is filled with stand-in cards worth the same points: scoring only sums
card points, and the piles are never checked against the hands.

:func:`rollout` plays the deal to its end for every seat (no calls), asking
seats that hold a bomb out of turn as the table does, and returns the deal's
score for one team minus the other's. The rollout policy is
:class:`RolloutPolicy`, a lean form of the ``normal`` play.

A search plays one position out for every candidate on every sampled deal, so
rollouts meet the same hand and trick again and again: what a seat works out
from them alone (its legal plays, its plan, the play that is each plan part) is
remembered per position (:class:`_Position`), the least recently met forgotten
first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card
from engine.tichu.actions import PASSES, Action, Gift, Play, new_play
from engine.tichu.ai.hand import (
    HandEval,
    Part,
    PlayKey,
    evaluate,
    part_cost,
    part_key,
    part_strength,
)
from engine.tichu.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, RANK
from engine.tichu.combos import Combo, Kind
from engine.tichu.game import TichuGame, hand_sizes
from engine.tichu.legal import analysis, bombs_in, may_hold_bomb
from engine.tichu.view import Phase, TichuView

# Enum members read on hot paths: a module name is read much faster than a
# member through its class (Python 3.11).
_PLAY = Phase.PLAY
_GIFT = Phase.GIFT
_DEAL_OVER = Phase.DEAL_OVER
_GAME_OVER = Phase.GAME_OVER

_KING = DECK[(13 - 2) * 4]
_FIVE = DECK[(5 - 2) * 4]
_DRAGON_CARD = DECK[55]
_PHOENIX_CARD = DECK[PHOENIX]


def _pile_worth(points: int) -> list[Card]:
    """Stand-in cards worth ``points`` (a multiple of 5, possibly negative)."""
    out: list[Card] = []
    while points < 0:
        out.append(_PHOENIX_CARD)
        points += 25
    while points >= 25:
        out.append(_DRAGON_CARD)
        points -= 25
    while points >= 10:
        out.append(_KING)
        points -= 10
    if points >= 5:
        out.append(_FIVE)
    return out


def _template_deal(n_seats: int, dealer: int | None) -> list[list[Card]]:
    """The deck in order, cut into hands of the sizes a deal has."""
    hands: list[list[Card]] = []
    start = 0
    for size in hand_sizes(n_seats, dealer):
        hands.append(list(DECK[start:start + size]))
        start += size
    return hands


def game_at(view: TichuView, hands: Sequence[Sequence[int]]) -> TichuGame:
    """A game in the view's position (phase play or gift) with the given hands.

    The game is first made from a template deal, so that every per-deal field
    the engine has (now or later) exists; then the fields that make the
    position are overwritten from the view and ``hands``.
    """
    n = view.n_seats
    dealer = view.dealer if n == 6 else None
    game = TichuGame(target=view.target, hands=_template_deal(n, dealer), players=n,
                     dealer=dealer)
    game.scores = list(view.scores)
    game.history = list(view.history)
    game.deal_number = view.deal_number
    game.dealt = [tuple(DECK[c] for c in h) for h in hands]
    game.hands = [[DECK[c] for c in h] for h in hands]
    game.phase = view.phase
    game.turn = view.turn
    game.grand_decided = [True] * n
    game.calls = list(view.calls)
    game.has_played = list(view.has_played)
    game.gives = [{} for _ in range(n)]
    game.trick = list(view.trick)
    game.passed = list(view.passed)
    game.won = [_pile_worth(p) for p in view.trick_points]
    if hasattr(game, "won_points"):
        # An engine that keeps a running total of each pile's points.
        setattr(game, "won_points", list(view.trick_points))  # noqa: B010
    game.out = list(view.out)
    game.wish = view.wish
    game.bombs_played = list(view.bombs_played) if view.bombs_played else [0] * n
    if view.played:
        game.played = [list(p) for p in view.played]
    if view.wish_voids:
        game.wish_voids = [set(v) for v in view.wish_voids]
    if hasattr(game, "touch"):
        game.touch()  # fields edited directly: drop any view built before
    return game


def _key_of(cards: tuple[Card, ...]) -> PlayKey:
    """:func:`~engine.tichu.ai.hand.cards_key` of a play's cards (distinct cards)."""
    if len(cards) == 1:
        return _SINGLE_KEYS[cards[0]]
    ranks = sorted([RANK[c] for c in cards if c != PHOENIX])
    return (len(cards), tuple(ranks), len(ranks) != len(cards))


_SINGLE_KEYS: tuple[PlayKey, ...] = tuple(
    (1, (), True) if c == PHOENIX else (1, (RANK[c],), False) for c in DECK)
"""The key of each card played alone (most plays are singles)."""


class _Position:
    """What a seat on its turn works out from its hand, the trick and the wish alone:
    the legal plays, whether it may pass, its plan, and the plays found by plan part.

    :meth:`find` answers with the first play (in the legal order) that is the plan
    part, or the first that spares the plan's bomb cards if there is one. The
    plays of a size are indexed on the first look-up of a part of that size (a
    decision looks up several parts, mostly of one size). Positions are
    remembered (:func:`_position`): a search plays the same position out for every
    candidate on the same sampled deal, and comes back to the same hand and trick
    about a third of the time.
    """

    __slots__ = ("_by_size", "_cheapest", "_follows", "_lead_order", "_plan", "hand",
                 "may_pass", "plays", "whole")

    def __init__(self, hand: tuple[Card, ...], top: Combo | None, wish: int | None) -> None:
        self.hand = hand
        plays, self.may_pass, _ = analysis(hand, top, True, wish, True)
        self.plays: Sequence[Combo] = plays  # (the shared answer, read only)
        size = len(hand)
        whole = None
        for p in plays:
            if len(p.cards) == size:
                whole = p
                break
        self.whole: Combo | None = whole
        """The first play of every card left (it goes out), if any."""
        self._plan: HandEval | None = None
        self._lead_order: list[Part] | None = None
        self._cheapest: Combo | None = None
        self._follows: dict[bool, Combo | None] = {}
        self._by_size: dict[int, dict[PlayKey, Combo]] = {}

    @property
    def plan(self) -> HandEval:
        """The hand's plan (worked out on first use: a seat going out needs none)."""
        if self._plan is None:
            self._plan = evaluate(self.hand)
        return self._plan

    @property
    def lead_order(self) -> list[Part]:
        """The plan's parts but bombs in the order a lead tries them: strongest first
        when at most one of several is a loser, else the costliest (and longest,
        then lowest) first."""
        if self._lead_order is None:
            parts = [p for p in self.plan.parts if p.kind != "bomb"]
            losers = [p for p in parts if part_strength(p) < 0.65]
            if len(losers) <= 1 and len(parts) > 1:
                self._lead_order = sorted(parts, key=part_strength, reverse=True)
            else:
                self._lead_order = sorted(
                    parts, key=lambda p: (part_cost(p) + 0.03 * p.length, -p.rank), reverse=True)
        return self._lead_order

    @property
    def cheapest(self) -> Combo:
        """The play (not a bomb, unless there is nothing else) leaving the cheapest
        plan; the first of them on a tie."""
        if self._cheapest is None:
            pool = [p for p in self.plays if not p.is_bomb] or list(self.plays)
            hand = self.hand
            self._cheapest = min(pool, key=lambda p: evaluate(_rest(hand, p.cards)).cost)
        return self._cheapest

    def follow(self, length: int, danger: bool) -> Combo | None:
        """The lowest play of ``length`` cards that is a part of the plan and no
        bomb, to follow a trick; a strong Dragon or Phoenix of a long plan is kept
        unless there is ``danger``."""
        if danger in self._follows:
            return self._follows[danger]
        plan = self.plan
        best: Combo | None = None
        best_rank = 99.0
        for part in plan.parts:
            if part.kind in ("bomb", "dog") or part.length != length:
                continue
            found = self.find(part)
            if found is None or found.is_bomb or found.rank >= best_rank:
                continue
            strong = part_strength(part) >= 0.65
            if strong and not danger and part.length == 1 and len(plan.parts) > 3 and \
                    found.cards in ((DRAGON,), (PHOENIX,)):
                continue  # keep the Dragon and the Phoenix for when they matter
            best, best_rank = found, found.rank
        self._follows[danger] = best
        return best

    def find(self, part: Part) -> Combo | None:
        key = part_key(part)
        index = self._by_size.get(key[0])
        if index is None:
            index = self._by_size[key[0]] = self._index(key[0])
        return index.get(key)

    def _index(self, size: int) -> dict[PlayKey, Combo]:
        index: dict[PlayKey, Combo] = {}
        on_bombs: set[PlayKey] = set()
        """Keys whose play so far uses a bomb card (a later one may spare them)."""
        avoid = {c for b in self.plan.bombs for c in b.cards}
        for p in self.plays:
            if len(p.cards) != size:
                continue
            key = _key_of(p.cards)
            if key not in index:
                index[key] = p
                if not avoid.isdisjoint(p.cards):
                    on_bombs.add(key)
            elif key in on_bombs and avoid.isdisjoint(p.cards):
                index[key] = p
                on_bombs.discard(key)
        return index


POSITIONS_KEPT = 256
"""How many positions :func:`_position` remembers, the least recently met forgotten
first."""
_position = lru_cache(maxsize=POSITIONS_KEPT)(_Position)


@lru_cache(maxsize=POSITIONS_KEPT)
def _bombs_of(hand: tuple[Card, ...], top: Combo) -> list[Combo]:
    """The bombs of ``hand`` that beat ``top`` (read only), remembered as positions are."""
    return analysis(hand, top, False, None, True)[0]


class RolloutPolicy:
    """A lean version of the ``normal`` card play, for rollouts.

    It reads the made-up game directly (every seat plays from its own hand and
    the public table, never from another hand) and follows its plan: lead the
    weakest part, or the strongest when one loser is left; follow with the
    lowest plan part of the right shape; leave the partner's tricks alone; bomb
    an opponent about to go out. One plan evaluation (memoised) per position
    keeps a rollout to about a millisecond, where the full ``normal`` policy
    takes ten times as long.
    """

    def decide(self, game: TichuGame, seat: int) -> Action | None:
        n = game.n_seats
        if game.phase is _GIFT:
            opponents = [s for s in range(n) if s % 2 != seat % 2]
            return Gift(seat, max(opponents, key=lambda s: len(game.hands[s])))
        hand = game.hands[seat]
        top = game.trick[-1].combo if game.trick else None
        if game.turn != seat:
            return self._bomb(game, seat, hand, top)
        position = _position(tuple(hand), top, game.wish)
        plays = position.plays
        if not plays:
            return PASSES[seat]
        p = position.whole
        if p is not None:
            return new_play(seat, p.cards, 14 if MAHJONG in p.cards else None, p.phoenix,
                        dog_target(game, seat, p))
        choice: Combo | None
        if top is None:
            choice = self._lead(position, game, seat)
        else:
            choice = self._follow(position, game, seat, top)
        if choice is None:
            return PASSES[seat]
        # Rollouts wish for an Ace: it drains an opponent's control card, or nothing.
        wish = 14 if MAHJONG in choice.cards else None
        return new_play(seat, choice.cards, wish, choice.phoenix,
                        dog_target(game, seat, choice))

    def _lead(self, position: _Position, game: TichuGame, seat: int) -> Combo:
        plays = position.plays
        order = position.lead_order
        live = game.dog_targets(seat)
        if not order:
            return plays[0]
        dog = next((p for p in order if p.kind == "dog"), None)
        if dog is not None and live and len(order) > 1 and any(
                game.calls[p] is not None or len(game.hands[p]) < len(game.hands[seat])
                for p in live):
            found = position.find(dog)
            if found is not None:
                return found
        for part in order:
            if part.kind == "dog" and not live:
                continue
            found = position.find(part)
            if found is not None:
                return found
        non_bombs = [p for p in plays if not p.is_bomb] or list(plays)
        return min(non_bombs, key=lambda p: (p.rank, -len(p.cards)))

    def _follow(self, position: _Position, game: TichuGame, seat: int, top: Combo
                ) -> Combo | None:
        plays, may_pass = position.plays, position.may_pass
        owner = game.trick[-1].seat
        partner_owns = owner % 2 == seat % 2
        if partner_owns and may_pass:
            return None
        n_owner = len(game.hands[owner])
        danger = not partner_owns and n_owner > 0 and (
            n_owner <= 3 or (game.calls[owner] is not None and not game.out))
        best = position.follow(top.length, danger)
        if best is not None:
            return best
        if not may_pass or (danger and not all(p.is_bomb for p in plays)):
            return position.cheapest
        return None

    def _bomb(self, game: TichuGame, seat: int, hand: Sequence[Card], top: Combo | None
              ) -> Action | None:
        if top is None:
            return None
        owner = game.trick[-1].seat
        if owner % 2 == seat % 2:
            return None
        bombs = _bombs_of(tuple(hand), top)
        if not bombs:
            return None
        n_owner = len(game.hands[owner])
        bomb = min(bombs, key=lambda b: (b.kind is Kind.STRAIGHT_FLUSH, b.length, b.rank))
        rest = _rest(hand, bomb.cards)
        closing = not rest or evaluate(rest).combos <= 2
        if (0 < n_owner <= 2) or closing:
            return new_play(seat, bomb.cards)
        return None


def _rest(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    drop = set(cards)
    return [c for c in hand if c not in drop]


_POLICY = RolloutPolicy()
MAX_ROLLOUT_ACTIONS = 400


def rollout(game: TichuGame, team: int, policy: RolloutPolicy = _POLICY) -> int:
    """Play the deal out; the deal's score for ``team`` minus the other team's."""
    # Only seats holding a bomb are asked out of turn; hands only shrink, so a
    # seat without one never gets one.
    n = game.n_seats
    hands = game.hands
    bombers = {s for s in range(n) if may_hold_bomb(hands[s]) and bombs_in(hands[s])}
    for _ in range(MAX_ROLLOUT_ACTIONS):
        phase = game.phase
        if phase is _DEAL_OVER or phase is _GAME_OVER:
            break
        turn = game.turn
        assert turn is not None
        if phase is _PLAY and game.trick:
            bomb = None
            for step in range(1, n):
                s = (turn + step) % n
                if s in bombers:
                    bomb = policy.decide(game, s)
                    if bomb is not None:
                        break
            if bomb is not None:
                game.apply(bomb)
                _still_bombs(game, bomb.seat, bombers)
                continue
        action = policy.decide(game, turn)
        if action is None:
            break  # cannot happen on a seat's turn
        game.apply(action)
        if turn in bombers and isinstance(action, Play):
            _still_bombs(game, turn, bombers)
    if not game.history or game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        return 0
    result = game.history[-1].scores
    return result[team] - result[1 - team]


def _still_bombs(game: TichuGame, seat: int, bombers: set[int]) -> None:
    hand = game.hands[seat]
    if not (may_hold_bomb(hand) and bombs_in(hand)):
        bombers.discard(seat)


def dog_target(game: TichuGame, seat: int, combo: Combo) -> int | None:
    """Who a Dog played in a made-up game hands the lead to: of two partners with
    cards, a caller, else the one with fewer cards; None when the engine decides."""
    if combo.cards != (DOG,):
        return None
    live = game.dog_targets(seat)
    if len(live) < 2:
        return None
    return max(live, key=lambda s: (game.calls[s] is not None, -len(game.hands[s])))


def apply_candidate(game: TichuGame, seat: int, candidate: Combo | None,
                    wish: int | None, to: int | None = None) -> None:
    """Play a candidate (None: pass) for ``seat`` in a made-up game; ``to`` names the
    partner a Dog hands the lead to (six players)."""
    if candidate is None:
        game.apply(PASSES[seat])
    else:
        if to is None:
            to = dog_target(game, seat, candidate)
        game.apply(new_play(seat, candidate.cards, wish, candidate.phoenix, to))
