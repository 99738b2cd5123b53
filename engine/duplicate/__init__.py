"""Duplicate Tichu: boards fixed in advance, played at many tables, scored by matchpoints.

The package is laid out by what each part depends on:

* :mod:`engine.duplicate.scoring` — results, matchpoints, percentages, standings
  and ``python -m engine duplicate``. It knows nothing of Tichu (only diffs), so
  the bot scores its stored results with it, people and computer field alike.
* :mod:`engine.duplicate.boards` — :class:`Board` and its JSON form, boards from a
  seed and the daily boards of a UTC date (a hash-driven shuffle, the same on
  every machine), seeds keyed with a deployment's secret.
* :mod:`engine.duplicate.play` — a board played as one Tichu deal from 0–0, the
  fair seeds of computer players, and the computer field.

It lives beside :mod:`engine.tichu` rather than inside it: duplicate is a way of
running events on top of the rules, and the Tichu rules need nothing from it.
"""

from engine.duplicate.boards import (
    Board,
    BoardFormatError,
    daily_boards,
    daily_seed,
    keyed_seed,
    make_boards,
)
from engine.duplicate.play import (
    DIRECTIONS,
    FieldTable,
    board_diff,
    board_game,
    board_over,
    board_player,
    board_replay,
    board_scores,
    computer_seed,
    direction_of,
    field_results,
    play_board,
    play_field,
    play_field_table,
)
from engine.duplicate.scoring import (
    Result,
    ResultsFormatError,
    ScoredResult,
    Standing,
    read_results,
    score,
    score_json,
)

__all__ = ["DIRECTIONS", "Board", "BoardFormatError", "FieldTable", "Result",
           "ResultsFormatError", "ScoredResult", "Standing", "board_diff", "board_game",
           "board_over", "board_player", "board_replay", "board_scores", "computer_seed",
           "daily_boards", "daily_seed", "direction_of", "field_results", "keyed_seed",
           "make_boards", "play_board",
           "play_field", "play_field_table", "read_results", "score", "score_json"]
