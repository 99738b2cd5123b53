"""A coach's hint: what the ``hard`` player would do now, and why (issue 25).

:func:`hint` reads a Tichu replay of a game in progress and looks at the decision
``seat`` faces once the last deal's actions are applied:

- ``grand``: Grand Tichu or not (phase grand, the seat has not decided);
- ``exchange``: the three cards to give (phase exchange, the seat has not given);
- ``tichu``: calling Tichu, when the ``hard`` player would call now (in the
  exchange, before giving, or on its turn before its first card). A seat the hard
  player would not have call gets the hint of its exchange or play instead: the
  call, always open until the first card, is not a hint on its own;
- ``play``, ``pass``, ``wish``: the seat's turn in play (``wish`` a Mahjong play
  with a wish);
- ``bomb``: out of turn, the seat holds a bomb that beats the open trick (bomb or
  wait);
- ``gift``: the seat won a trick with the Dragon and gives it away.

Otherwise (not the seat's turn and no bomb, the deal or game over, a single legal
option such as a forced pass) there is no hint: None.

``best`` is the ``hard`` player's own decision
(:class:`~engine.tichu.ai.hard.HardPlayer`, the learned evaluator's choice among its
candidates), from the seat's :class:`~engine.review.moment.Moment`. The other options
are those the review weighs at that decision (:func:`~engine.review.options.options`
with ``best`` as the chosen action): the hard player's candidates, and for a play with
the Mahjong its wish and no wish; for Grand Tichu / Tichu, calling or not; for a bomb,
waiting and the other bombs; for the gift, each opponent. Each is valued by the
evaluator (:func:`~engine.review.value.option_values`): the expected deal score of the
seat's team minus the other team's.

The hint lists the two or three options of the highest value with ``best`` always among
them (when ``best`` is not in the top three, it replaces the third). ``best`` has the
highest value among the hard player's own candidates; an option it does not weigh (a
Mahjong without its wish, say) may be rated higher.

Like the review, a hint reads only the moment: a hint does not change when cards
the seat never saw move between other hands, and nothing is sampled: the same input
gives the same hint.

Reasons (:data:`REASONS`), the first rule that holds:

1. ``goes_out``: ``best`` plays every card the seat holds.
2. ``strong_hand`` / ``weak_hand``: a Grand Tichu or Tichu hint; ``best`` calls /
   does not call.
3. ``partner_tichu``: a partner who called (Tichu or Grand Tichu) is on top of the
   trick, and ``best`` passes or waits.
4. ``leaves_partner``: a partner (who did not call) is on top of the trick, and
   ``best`` passes or waits.
5. ``keeps_bomb``: another listed option plays a bomb, ``best`` does not.
6. ``gift_weaker``: the Dragon's trick goes to the opponent with the most cards
   (the one furthest from going out).
7. ``feeds_partner``: the exchange gives a partner an Ace, the Phoenix or the
   Dragon, or a partner who called; or ``best`` plays the Dog.
8. ``takes_lead``: ``best`` plays on an opponent's trick (a bomb included).
9. ``sheds_low``: ``best`` leads cards no higher than a ten (the Phoenix aside; the
   Mahjong and the Dog count as low), or the exchange gives the opponents nothing
   above a ten.
10. ``close_call``: none of the above, and another listed option has a higher value
   than ``best``.
11. ``best_value``: none of the above; ``best`` has the highest value.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.review.moment import DealWatch, Moment
from engine.review.options import Abstain, Option, choice_kind, option_json, option_key, options
from engine.review.review import check_seats, kind_of, load_replay
from engine.review.value import option_values
from engine.run import ReplayFormatError
from engine.tichu.actions import CallTichu, Exchange, Gift, GrandTichu, Pass, Play
from engine.tichu.ai.hard import HardPlayer
from engine.tichu.cards import DECK, DOG, DRAGON, PHOENIX, RANK
from engine.tichu.game import TichuGame
from engine.tichu.legal import bombs_in, can_pass, legal_plays
from engine.tichu.view import Phase, TichuView

REASONS: tuple[str, ...] = (
    "goes_out",
    "strong_hand",
    "weak_hand",
    "partner_tichu",
    "leaves_partner",
    "keeps_bomb",
    "gift_weaker",
    "feeds_partner",
    "takes_lead",
    "sheds_low",
    "close_call",
    "best_value",
)
"""Every reason code :func:`hint` gives (the rules are in the module's notes)."""

_TOP_TEN = 10
"""Cards up to this rank count as low (``sheds_low``)."""
_WINNERS = frozenset({PHOENIX, DRAGON}) | frozenset(int(c) for c in DECK[:52]
                                                    if RANK[int(c)] == 14)
"""Cards that feed a partner: the Aces, the Phoenix, the Dragon."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The hard player's move for ``seat`` now, the best options valued, and a reason."""

    seat: int
    kind: str
    """As :attr:`~engine.review.review.Decision.kind`: ``grand``, ``tichu``,
    ``exchange``, ``play``, ``pass``, ``wish``, ``bomb`` or ``gift``."""
    best: Option
    """The move the ``hard`` player makes now."""
    options: tuple[tuple[Option, float], ...]
    """Two or three options, the highest expected deal score (points, the seat's team
    minus the other team) first; ``best`` is among them."""
    reason: str
    """One of :data:`REASONS`."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "best": option_json(self.best),
                "options": [{"option": option_json(o), "value": round(v, 1)}
                            for o, v in self.options],
                "reason": self.reason}


def hint(data: Mapping[str, Any], seat: int) -> Hint | None:
    """The hint for the decision ``seat`` faces at the end of the replay ``data``'s
    last deal, or None when it has none (see the module's notes).

    Raises :class:`~engine.run.ReplayFormatError` for a malformed file, a refused
    action or a seat not at the table."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ReplayFormatError(f"no seat {seat!r} at the table")
    read = load_replay(data)
    check_seats(read, [seat])
    first = read.deals[0]
    game = TichuGame(target=read.target, hands=first.hands, players=read.players,
                     dealer=first.dealer)
    watch = DealWatch(game)
    for d, deal in enumerate(read.deals):
        try:
            if d > 0:
                game.next_deal(deal.hands, deal.dealer)
                watch = DealWatch(game)
            for action in deal.actions:
                game.apply(action)
                watch.after(action)
        except EngineError as exc:
            raise ReplayFormatError(f"deal {d}: {exc}") from None
    return hint_at(watch.moment(seat))


def hint_at(moment: Moment) -> Hint | None:
    """The hint at ``moment`` (None when the seat has no choice now)."""
    view = moment.view
    seat = moment.seat
    if not has_choice(view):
        return None  # (the hard player is not asked: it would only wait)
    move = HardPlayer().act(view, random.Random(0))  # (it draws nothing: no tolerance)
    best: Option
    if move is not None:
        best = move
    elif view.phase is Phase.PLAY and view.turn != seat:
        best = Abstain(seat, "bomb")
    else:
        return None
    found = options(moment, best)
    if len(found) < 2:
        return None
    kind = "bomb" if isinstance(best, Abstain) else kind_of(best, moment)
    values = option_values(moment, found, choice_kind(moment, best))
    order = sorted(range(len(found)), key=lambda i: (-values[i], i))
    shown = order[:3]
    if 0 not in shown:
        shown = [*order[:2], 0]  # (found[0] is best, whose value is then the lowest shown)
    listed = tuple((found[i], values[i]) for i in shown)
    return Hint(seat, kind, best, listed, _reason(moment, kind, best, listed))


# ------------------------------------------------------------------ the decision
def has_choice(view: TichuView) -> bool:
    """Whether the seat of ``view`` has a decision now that a hint speaks of: its Grand
    Tichu call, its exchange, the Dragon's gift, a play with more than one option on its
    turn, or, out of turn, a bomb that beats the open trick."""
    seat = view.seat
    assert seat is not None
    if view.phase is Phase.GRAND:
        return not view.grand_decided[seat]
    if view.phase is Phase.EXCHANGE:
        return not view.exchanged[seat]
    if view.phase is Phase.GIFT:
        return view.turn == seat
    if view.phase is Phase.PLAY and view.hand:
        if view.turn == seat:
            return len(legal_plays(view)) + can_pass(view) > 1
        return _bombs_now(view)
    return False


def _bombs_now(view: TichuView) -> bool:
    """Out of turn in play: does the seat hold a bomb that beats the open trick?"""
    return bool(view.trick) and bool(bombs_in(view.hand)) and bool(legal_plays(view))


# ------------------------------------------------------------------ reasons
def _is_bomb(option: Option) -> bool:
    if not isinstance(option, Play) or len(option.cards) < 4:
        return False
    return any(len(b.cards) == len(option.cards) for b in bombs_in(option.cards))


def _reason(moment: Moment, kind: str, best: Option,
            listed: tuple[tuple[Option, float], ...]) -> str:
    """The first reason rule that holds (see the module's notes)."""
    view = moment.view
    seat = moment.seat
    partners = view.partners(seat)
    top = view.trick[-1] if view.trick else None
    on_top = top.seat if top is not None and view.phase is Phase.PLAY else None
    if isinstance(best, Play) and len(best.cards) == len(view.hand):
        return "goes_out"
    if kind in ("grand", "tichu"):
        return "strong_hand" if isinstance(best, (GrandTichu, CallTichu)) else "weak_hand"
    if (on_top in partners and view.calls[on_top] is not None
            and isinstance(best, (Pass, Abstain))):
        return "partner_tichu"
    if on_top in partners and isinstance(best, (Pass, Abstain)):
        return "leaves_partner"
    if not _is_bomb(best) and any(_is_bomb(o) for o, _ in listed):
        return "keeps_bomb"
    if isinstance(best, Gift):
        left = {s: view.hand_counts[s] for s in view.opponents(seat) if view.hand_counts[s]}
        if left and left.get(best.to, -1) == max(left.values()):
            return "gift_weaker"
    if isinstance(best, Exchange):
        give = {t: int(c) for t, c in best.give}
        if any(give[p] in _WINNERS or view.calls[p] is not None for p in partners if p in give):
            return "feeds_partner"
        if all(RANK[give[o]] <= _TOP_TEN for o in view.opponents(seat) if o in give):
            return "sheds_low"
    if isinstance(best, Play):
        if best.cards == (DOG,):
            return "feeds_partner"
        if on_top is not None and on_top not in partners and on_top != seat:
            return "takes_lead"
        natural = [int(c) for c in best.cards if c != PHOENIX]
        if top is None and natural and all(RANK[c] <= _TOP_TEN for c in natural):
            return "sheds_low"
    best_mean = next(v for o, v in listed if option_key(o) == option_key(best))
    if listed[0][1] > best_mean:
        return "close_call"
    return "best_value"
