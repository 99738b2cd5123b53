"""The options of one decision: what the seat might have done instead of what it did.

Every option list starts with the action chosen, so that on a tie the choice
stands. The others are the candidates the ``hard`` player weighs at that decision
(:mod:`~engine.tichu.ai.choices`), so the review's ``best`` is what ``hard`` would
have chosen, or the choice itself when the evaluator rates it higher still:

- Grand Tichu: decline / call.
- Tichu (in the exchange or in play): calling now / not calling in this deal
  (:class:`Abstain`).
- A Tichu not called (:func:`silent_call`): at the seat's first card, while a call is
  worth weighing (:func:`~engine.tichu.ai.choices.may_call`), not calling (chosen) /
  calling before that card.
- Exchange: the ``hard`` player's candidate exchanges
  (:func:`~engine.tichu.ai.choices.exchange_choices` around its heuristics' exchange),
  and the heuristics' exchange for the seat meaning to call if it did not, and not if
  it did.
- A play or pass on the seat's turn: the ``hard`` player's candidates
  (:func:`~engine.tichu.ai.choices.play_choices`: the heuristics' best plays, a
  Mahjong with its wish, a Dog with its partner, and the pass when it is allowed). A
  play of the Mahjong also has the same cards with the hard player's wish and with no
  wish.
- A bomb out of turn: the bomb / not bombing now (:class:`Abstain`) / the ``hard``
  player's other bombs.
- The Dragon's gift: each opponent.

A decision with a single option (a forced pass) is not a decision.
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
from engine.tichu.ai.choices import bomb_choices, exchange_choices, may_call, play_choices
from engine.tichu.cards import MAHJONG
from engine.tichu.view import Phase


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


def options(moment: Moment, chosen: Option) -> list[Option]:
    """The options of the decision ``chosen`` was made at, ``chosen`` first."""
    seat = moment.seat
    view = moment.view
    know = moment.know
    found: list[Option] = [chosen]
    if isinstance(chosen, (GrandTichu, DeclineGrand)):
        found += [DeclineGrand(seat), GrandTichu(seat)]
    elif isinstance(chosen, CallTichu):
        found.append(Abstain(seat, "tichu"))
    elif isinstance(chosen, Exchange):
        calling = bidding.means_to_call(view)
        found += exchange_choices(view, bidding.choose_exchange(view, calling))
        found.append(bidding.choose_exchange(view, not calling))
    elif isinstance(chosen, Gift):
        found += [Gift(seat, o) for o in view.opponents(seat)]
    elif view.phase is Phase.PLAY and view.turn != seat:
        found.append(Abstain(seat, "bomb"))  # a bomb out of turn
        found += [a for a in bomb_choices(view, know).actions if a is not None]
    elif isinstance(chosen, (Play, Pass)):
        found += [a for a in play_choices(view, know).actions if a is not None]
        if isinstance(chosen, Play) and MAHJONG in chosen.cards:
            for w in (tactics.choose_wish(view, know), None):
                found.append(Play(seat, chosen.cards, w, chosen.phoenix, chosen.to))
    return distinct(found)


def choice_kind(moment: Moment, chosen: Option) -> str:
    """The decision ``chosen`` (an option of :func:`options` or :func:`silent_call`)
    belongs to, as :class:`~engine.tichu.ai.choices.Choices` names decisions."""
    if isinstance(chosen, (GrandTichu, DeclineGrand)):
        return "grand"
    if isinstance(chosen, CallTichu) or (isinstance(chosen, Abstain) and chosen.what == "tichu"):
        return "tichu"
    if isinstance(chosen, Exchange):
        return "exchange"
    if isinstance(chosen, Gift):
        return "gift"
    if moment.view.turn != moment.seat:
        return "bomb"
    return "play"


def silent_call(moment: Moment, chosen: Action) -> list[Option]:
    """The options of the Tichu call the seat did not make, or none.

    A seat may call Tichu until it plays its first card: that play is its last
    chance, and the decision of not calling is reviewed there while a call is worth
    weighing (:func:`~engine.tichu.ai.choices.may_call`, as the ``hard`` player weighs
    it). Not calling comes first, as the choice made."""
    if not isinstance(chosen, Play) or not may_call(moment.view):
        return []
    return [Abstain(moment.seat, "tichu"), CallTichu(moment.seat)]


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
