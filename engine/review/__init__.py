"""A coach's review of a Tichu deal (issue 25): ``python -m engine review REPLAY.json``.

- :mod:`~engine.review.moment`: what a seat knew when it acted (nothing else is read);
- :mod:`~engine.review.options`: the options of a decision;
- :mod:`~engine.review.value`: each option's expected deal score from the seat's knowledge,
  by the learned evaluator;
- :mod:`~engine.review.playout`: the same by playing options out on sampled deals (the
  check of costly decisions, and ``tools.review_quality``'s measure);
- :mod:`~engine.review.review`: the review of a replay, and the command;
- :mod:`~engine.review.hint`: a hint for the decision a seat faces now.

See ``docs/review.md``.
"""

from __future__ import annotations

from engine.review.hint import REASONS, Hint, has_choice, hint
from engine.review.moment import DealWatch, Hidden, Moment
from engine.review.options import Abstain, Option, option_json, options
from engine.review.review import (
    KINDS,
    Decision,
    Review,
    main,
    review_decision,
    review_game,
)
from engine.review.value import option_values

__all__ = [
    "KINDS",
    "REASONS",
    "Abstain",
    "DealWatch",
    "Decision",
    "Hidden",
    "Hint",
    "Moment",
    "Option",
    "Review",
    "has_choice",
    "hint",
    "main",
    "option_json",
    "option_values",
    "options",
    "review_decision",
    "review_game",
]
