"""The ``hard`` level: the ``normal`` heuristics' candidates, chosen by the learned evaluator.

At every decision (Grand Tichu, a Tichu call, the exchange, each play, a bomb
out of turn, the Dragon's gift) the player lists the few candidates the
heuristics find plausible (:mod:`~engine.tichu.ai.choices`) and takes the one
whose after-state the shipped model (:mod:`~engine.tichu.ai.model`) values
most: the deal's expected score for its team minus the other's. No sampling and
no clock: a decision depends on the view alone, so paired matches and reviews
repeat exactly, and it costs a fraction of a millisecond.

The model is read at the first decision for the table's seat count; a missing or
bad model file raises :class:`~engine.tichu.ai.evaluator.ModelError` rather than
play on without it. (The determinized Monte Carlo search that was ``hard``
before is :class:`~engine.tichu.ai.searcher.SearchPlayer`.)
"""

from __future__ import annotations

from engine.tichu.ai import model as models
from engine.tichu.ai.evaluator import Evaluator
from engine.tichu.ai.learned import LearnedPlayer


class HardPlayer(LearnedPlayer):
    """The learned player on the shipped models (or on ``evaluator`` when given)."""

    def model(self, n_seats: int) -> Evaluator:
        if self.evaluator is not None and self.evaluator.n_seats == n_seats:
            return self.evaluator
        return models.evaluator(n_seats)
