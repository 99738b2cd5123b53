"""Duplicate Tichu: boards fixed in advance, played at many tables, scored by matchpoints.

* :mod:`engine.duplicate.scoring` — results, matchpoints, percentages, standings
  and ``python -m engine duplicate``. It knows nothing of Tichu (only diffs), so
  the bot scores its stored results with it.
"""

from engine.duplicate.scoring import (
    Result,
    ResultsFormatError,
    ScoredResult,
    Standing,
    read_results,
    score,
    score_json,
)

__all__ = ["Result", "ResultsFormatError", "ScoredResult", "Standing", "read_results", "score",
           "score_json"]
