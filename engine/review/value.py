"""What each option of a decision is worth, from what the seat could know.

:func:`option_values` asks the learned evaluator (:mod:`~engine.tichu.ai.evaluator`,
the model the ``hard`` player decides with) for the expected deal score of the
seat's team minus the other team's, call bonuses and penalties included, in the
state the seat would know right after the option: its view at the moment with the
option folded in (:func:`~engine.tichu.ai.features.encode`). Not calling Tichu and
not bombing now are the option of doing nothing in that decision. A call is valued
as the ``hard`` player values it (:func:`~engine.tichu.ai.learned.after_values`): from
the state of not calling, its bonus or penalty at the predicted chance of going out
first.

The value reads the moment's view alone: no deal is sampled, no seed is needed, and
the same moment always gets the same figures. It costs well under a millisecond an
option, where playing each option out on sampled deals (:mod:`~engine.review.playout`,
the valuation of the coach before the evaluator) cost seconds a decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.review.moment import Moment
from engine.review.options import Abstain, Option
from engine.tichu.ai import model as models
from engine.tichu.ai.learned import after_values


def option_values(moment: Moment, found: Sequence[Option], kind: str) -> list[float]:
    """The expected deal score (points, the seat's team minus the other) after each
    option of ``found``, a decision of ``kind`` (as :class:`~engine.tichu.ai.choices.Choices`
    names decisions: grand, tichu, exchange, play, bomb or gift)."""
    view = moment.view
    actions = [None if isinstance(o, Abstain) else o for o in found]
    values = after_values(models.evaluator(view.n_seats), view, actions, kind)
    return [float(v) for v in values]
