"""Players that decide among :mod:`~engine.tichu.ai.choices`, and the one that
decides with the learned evaluator.

:class:`ChoicePlayer` walks a decision as the ``normal`` player does (a Tichu
call before the first card, then the play) but lets :meth:`ChoicePlayer.pick`
choose among the candidates. :class:`LearnedPlayer` picks the candidate whose
after-state the evaluator values most (the expected deal score of the seat's
team minus the other's), keeping the heuristics' choice unless another is
worth :data:`MARGIN` points more. It needs no sampling and no clock: a decision
depends on the view alone.

A call (Grand Tichu, Tichu) is valued from the state of not calling
(:func:`after_values`): its expected score plus the call's bonus or penalty at the
predicted chance that the seat goes out first. Every row of self-play teaches
that chance, where the value of a call's own after-state is learned only from
the few calls explored on hands like it; the direct value undervalued both a call
on a hopeless hand and silence on a sure one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from engine.tichu.actions import Action, CallTichu, GrandTichu
from engine.tichu.ai import bidding
from engine.tichu.ai.choices import Choices, choices, play_choices
from engine.tichu.ai.evaluator import Evaluator
from engine.tichu.ai.features import encode_many
from engine.tichu.ai.knowledge import Knowledge, knowledge_of
from engine.tichu.view import TichuView

MARGIN = {"grand": 0.0, "tichu": 0.0, "exchange": 0.0, "play": 0.0, "bomb": 0.0, "gift": 0.0}
"""Points a deal another candidate must be worth above the heuristics' choice."""


CALL_BONUS = {"grand": 200.0, "tichu": 100.0}
"""Points a call wins for its team if the caller goes out first, and loses if not."""


def after_values(evaluator: Evaluator, view: TichuView, actions: Sequence[Action | None],
                 kind: str) -> np.ndarray:
    """The expected deal score (points, the seat's team minus the other) after each of
    ``actions`` (None: doing nothing) at a decision of ``kind``.

    At a call (:data:`CALL_BONUS`), a calling action is valued from the silent one's
    state: its value, plus the bonus times (2p - 1), p the predicted chance that the
    seat goes out first."""
    x = encode_many(view, actions, kind=kind)
    bonus = CALL_BONUS.get(kind)
    calling = [i for i, a in enumerate(actions) if isinstance(a, (GrandTichu, CallTichu))]
    silent = [i for i, a in enumerate(actions) if not isinstance(a, (GrandTichu, CallTichu))]
    if bonus is None or not calling or not silent:
        return evaluator.values(x)
    quiet = silent[0]
    found = evaluator.predict(x[quiet:quiet + 1])
    base = float(found.diff[0])
    values = np.empty(len(actions), dtype=np.float64)
    values[silent] = base
    values[calling] = base + bonus * (2.0 * float(found.first[0, 0]) - 1.0)
    return values


class ChoicePlayer:
    """Walks each decision through :func:`~engine.tichu.ai.choices.choices`."""

    grand_threshold = bidding.GRAND_THRESHOLD
    tichu_threshold = bidding.TICHU_THRESHOLD

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        if view.seat is None:
            return None
        know = knowledge_of(view)
        options = choices(view, know, grand_threshold=self.grand_threshold,
                          tichu_threshold=self.tichu_threshold)
        if not options.actions:
            return None
        action = options.actions[self.choose(view, know, options, rng)]
        if options.kind == "tichu" and action is None:
            options = play_choices(view, know)
            action = options.actions[self.choose(view, know, options, rng)]
        return action

    def choose(self, view: TichuView, know: Knowledge, options: Choices,
               rng: random.Random) -> int:
        """The index of the chosen candidate (the heuristics' by default)."""
        if len(options.actions) == 1:
            return 0
        return self.pick(view, know, options, rng)

    def pick(self, view: TichuView, know: Knowledge, options: Choices,
             rng: random.Random) -> int:
        return options.heuristic


class LearnedPlayer(ChoicePlayer):
    """Chooses by the evaluator's expected deal score of each candidate's after-state."""

    def __init__(self, evaluator: Evaluator | None = None,
                 margin: dict[str, float] | None = None, tolerance: float = 0.0) -> None:
        self.evaluator = evaluator
        self.margin = dict(MARGIN if margin is None else margin)
        self.tolerance = tolerance
        """Points below the best within which a candidate may be drawn (with the rng)
        instead: 0 always takes the best. A field of tables then plays each board in
        several ways, each table's own by its seed."""
        self.last_values: tuple[float, ...] = ()
        """The values of the last decision's candidates (for tests and the coach)."""

    def model(self, n_seats: int) -> Evaluator:
        """The evaluator for a table of ``n_seats`` (the one given, which must fit)."""
        if self.evaluator is None or self.evaluator.n_seats != n_seats:
            raise ValueError(f"this player has no model for {n_seats} seats")
        return self.evaluator

    def values(self, view: TichuView, options: Choices) -> np.ndarray:
        """The expected deal score (points, ours minus theirs) after each candidate."""
        return after_values(self.model(view.n_seats), view, options.actions, options.kind)

    def pick(self, view: TichuView, know: Knowledge, options: Choices,
             rng: random.Random) -> int:
        values = self.values(view, options)
        self.last_values = tuple(float(v) for v in values)
        best = int(np.argmax(values))
        h = options.heuristic
        if values[best] - values[h] <= self.margin.get(options.kind, 0.0):
            best = h
        if self.tolerance > 0:
            near = [i for i, v in enumerate(values) if v >= values[best] - self.tolerance]
            if len(near) > 1:
                return near[rng.randrange(len(near))]
        return best
