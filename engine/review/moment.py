"""What one seat knew when it acted: the review's only source of facts about a decision.

:class:`DealWatch` follows a deal action by action, as every seat sees it, and
hands out a :class:`Moment` for a seat just before that seat acts. A moment holds
nothing the seat could not see:

- ``view``: the seat's own :class:`~engine.tichu.view.TichuView` (its hand, the
  public table; before its Grand Tichu decision only its first packet);
- ``know``: the cards it has seen played (every play of the deal is public, the
  Dog's included), who played them, the cards it gave in the exchange, and the
  ranks a seat showed it does not hold by not fulfilling the wish
  (:func:`~engine.tichu.ai.knowledge.knowledge_of`: all of it is in the seat's view);
- ``seen``: the deal's actions so far as the seat saw them: public actions and its
  own as they were, another seat's exchange only as :class:`Hidden` (that it gave,
  not what);
- ``own``: the seat's own cards as it knew them (the packet before its Grand Tichu
  decision, else the whole hand it was dealt).

Everything the review estimates about a decision is computed from its moment and
the action chosen, never from the game being replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.tichu.actions import Action, Exchange
from engine.tichu.ai.knowledge import Knowledge, knowledge_of
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase, TichuView


@dataclass(frozen=True, slots=True)
class Hidden:
    """Another seat's exchange, as the reviewed seat saw it: it gave, but what is hidden."""

    seat: int


Seen = Action | Hidden


@dataclass(frozen=True, slots=True)
class Moment:
    """What ``seat`` knew just before one of its actions (see the module's notes)."""

    seat: int
    view: TichuView
    know: Knowledge
    seen: tuple[Seen, ...]
    own: tuple[Card, ...]

    @property
    def pre_play(self) -> bool:
        """Before the cards are played: the Grand Tichu decisions and the exchange."""
        return self.view.phase in (Phase.GRAND, Phase.EXCHANGE)


class DealWatch:
    """Follows one deal of ``game`` and gives each seat's :class:`Moment` on demand.

    Call :meth:`moment` before an action is applied and :meth:`after` once it is."""

    def __init__(self, game: TichuGame) -> None:
        self.game = game
        self.log: list[Action] = []

    def after(self, action: Action) -> None:
        self.log.append(action)

    def moment(self, seat: int) -> Moment:
        view = self.game.view(seat)
        know = knowledge_of(view)
        seen = tuple(Hidden(a.seat) if isinstance(a, Exchange) and a.seat != seat else a
                     for a in self.log)
        own = tuple(view.hand) + tuple(view.given.values()) if view.phase is Phase.EXCHANGE \
            else tuple(view.hand)
        return Moment(seat, view, know, seen, own)
