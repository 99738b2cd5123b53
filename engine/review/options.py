"""The options of one decision: what the seat might have done instead of what it did.

Every option list starts with the action chosen, so that on a tie the choice
stands. By kind of decision:

- Grand Tichu: call / decline.
- Tichu (in the exchange or in play): calling now / not calling in this deal
  (:class:`Abstain`).
- A Tichu not called (:func:`silent_call`): at the seat's first card, when the
  ``hard`` player would at least weigh a call on its hand, not calling (chosen) /
  calling before that card.
- Exchange: the one chosen, and the ``hard`` player's exchange for the seat
  meaning to call and not meaning to (:func:`~engine.tichu.ai.bidding.choose_exchange`).
- A play or pass on the seat's turn: the chosen one, the ``hard`` player's best
  :data:`CANDIDATES` plays by its heuristics (:func:`~engine.tichu.ai.tactics.rank_plays`,
  the plays its search looks at; a Mahjong with the wish it would make, a Dog with
  its partner), and the pass when passing is allowed. A play of the Mahjong also
  has the same cards with the hard player's wish and with no wish.
- A bomb out of turn: the bomb / not bombing now (:class:`Abstain`).
- The Dragon's gift: each opponent.

A decision with a single option (a forced pass) is not a decision.

:func:`hard_choice` says which option the ``hard`` player's heuristics take, and
whether its search may overrule them: the review's reference, ``best``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.review.moment import Moment
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
    action_to_json,
)
from engine.tichu.ai import bidding, tactics
from engine.tichu.ai.searcher import (
    needs_search,
    search_candidates,
    tichu_by_heuristics,
)
from engine.tichu.cards import DOG, MAHJONG
from engine.tichu.combos import Combo
from engine.tichu.legal import can_call_tichu, can_pass, legal_plays
from engine.tichu.view import Phase

CANDIDATES = 4
"""How many of the hard player's favourite plays a play decision is compared with."""


@dataclass(frozen=True, slots=True)
class Abstain:
    """Not doing the chosen thing: no Tichu call in this deal (``what`` ``"tichu"``),
    or no bomb now (``"bomb"``)."""

    seat: int
    what: str


Option = Action | Abstain


def option_json(option: Option) -> dict[str, Any]:
    """An option written as the replay contract writes actions; not calling is
    ``{"seat": S, "do": "no_tichu"}`` and not bombing ``{"seat": S, "do": "no_bomb"}``."""
    if isinstance(option, Abstain):
        return {"seat": option.seat, "do": f"no_{option.what}"}
    return action_to_json(option)


def option_key(option: Option) -> tuple[Any, ...]:
    """Options that do the same thing have the same key."""
    if isinstance(option, Play):
        return ("play", frozenset(option.cards), option.wish, option.phoenix, option.to)
    if isinstance(option, Exchange):
        return ("exchange", frozenset(option.give))
    return (type(option).__name__, *(getattr(option, f) for f in ("seat", "to", "what")
                                     if hasattr(option, f)))


def options(moment: Moment, chosen: Action) -> list[Option]:
    """The options of the decision ``chosen`` was made at, ``chosen`` first."""
    seat = moment.seat
    view = moment.view
    found: list[Option] = [chosen]
    if isinstance(chosen, (GrandTichu, DeclineGrand)):
        found += [GrandTichu(seat), DeclineGrand(seat)]
    elif isinstance(chosen, CallTichu):
        found.append(Abstain(seat, "tichu"))
    elif isinstance(chosen, Exchange):
        for calling in (True, False):
            found.append(bidding.choose_exchange(view, calling))
    elif isinstance(chosen, Gift):
        found += [Gift(seat, o) for o in view.opponents(seat)]
    elif view.phase is Phase.PLAY and view.turn != seat:
        found.append(Abstain(seat, "bomb"))  # a bomb out of turn
    elif isinstance(chosen, (Play, Pass)):
        found += _plays(moment, chosen)
    return distinct(found)


def silent_call(moment: Moment, chosen: Action) -> list[Option]:
    """The options of the Tichu call the seat did not make, or none.

    A seat may call Tichu until it plays its first card: that play is its last
    chance, and the decision of not calling is reviewed there, when the ``hard``
    player would at least weigh a call on the hand (its heuristic strength within
    :data:`~engine.tichu.ai.searcher.TICHU_DOUBT` of its threshold, or above). Not calling
    comes first, as the choice made; calling is played on from the same card's turn."""
    seat = moment.seat
    view = moment.view
    if not isinstance(chosen, Play) or not can_call_tichu(view):
        return []
    if tichu_by_heuristics(view) is False:
        return []
    return [Abstain(seat, "tichu"), CallTichu(seat)]


def _plays(moment: Moment, chosen: Play | Pass) -> list[Option]:
    seat = moment.seat
    view = moment.view
    plays = legal_plays(view)
    if not plays:
        return []
    wish = tactics.choose_wish(view, moment.know)
    dog_to = tactics.choose_dog_target(view)
    ranked = tactics.rank_plays(view, moment.know, plays, can_pass(view))
    found = [_as_option(seat, combo, wish, dog_to)
             for combo in search_candidates(ranked, can_pass(view), CANDIDATES)]
    if isinstance(chosen, Play) and MAHJONG in chosen.cards:
        for w in (wish, None):
            found.append(Play(seat, chosen.cards, w, chosen.phoenix, chosen.to))
    return found


def _as_option(seat: int, combo: Combo | None, wish: int | None, dog_to: int | None
               ) -> Option:
    """A candidate play as the hard player makes it (None: the pass): a Mahjong with its
    wish, a Dog with the partner it chooses."""
    if combo is None:
        return Pass(seat)
    return Play(seat, combo.cards, wish if MAHJONG in combo.cards else None, combo.phoenix,
                dog_to if combo.cards == (DOG,) else None)


@dataclass(frozen=True, slots=True)
class HardChoice:
    """What the ``hard`` player would have chosen among a decision's options."""

    index: int | None
    """Its choice by its heuristics; None for a Tichu call it would settle by search
    alone (a hand within :data:`~engine.tichu.ai.searcher.TICHU_DOUBT` of its threshold)."""
    searched: bool
    """Whether its search may overrule the heuristics (a play with a real choice, or
    that borderline call): another option then replaces ``index`` when it gains
    :data:`~engine.tichu.ai.searcher.MIN_GAIN` points and two standard errors."""


def hard_choice(moment: Moment, found: list[Option]) -> HardChoice:
    """The ``hard`` player's own choice among ``found`` (the options of
    :func:`options` or :func:`silent_call`), as its heuristics make it from the moment:
    Grand Tichu (:func:`~engine.tichu.ai.bidding.wants_grand`), Tichu, the exchange
    (meaning to call or not), the gift, a bomb out of turn and the heuristics'
    favourite play. Its search is left to the caller, on the options' values."""
    seat = moment.seat
    view = moment.view
    chosen = found[0]
    pick: Option
    searched = False
    if isinstance(chosen, (GrandTichu, DeclineGrand)):
        pick = GrandTichu(seat) if bidding.wants_grand(view) else DeclineGrand(seat)
    elif isinstance(chosen, CallTichu) or (isinstance(chosen, Abstain) and chosen.what == "tichu"):
        calls = tichu_by_heuristics(view)
        if calls is None:
            return HardChoice(None, True)
        pick = CallTichu(seat) if calls else Abstain(seat, "tichu")
    elif isinstance(chosen, Exchange):
        pick = bidding.choose_exchange(view, bidding.means_to_call(view))
    elif isinstance(chosen, Gift):
        pick = tactics.choose_gift(view)
    elif view.phase is Phase.PLAY and view.turn != seat:
        bomb = tactics.choose_out_of_turn(view, moment.know)
        pick = chosen if bomb is not None else Abstain(seat, "bomb")  # (bombing, whichever)
    else:
        may_pass = can_pass(view)
        ranked = tactics.rank_plays(view, moment.know, legal_plays(view), may_pass)
        pick = _as_option(seat, ranked[0][1], tactics.choose_wish(view, moment.know),
                          tactics.choose_dog_target(view))
        searched = needs_search(ranked) and len(search_candidates(ranked, may_pass)) > 1
    key = option_key(pick)
    index = next((i for i, o in enumerate(found) if option_key(o) == key), None)
    return HardChoice(index, searched or index is None)


def distinct(found: list[Option]) -> list[Option]:
    """``found`` without the options that repeat an earlier one (:func:`option_key`)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Option] = []
    for option in found:
        key = option_key(option)
        if key not in seen:
            seen.add(key)
            out.append(option)
    return out
