"""Duplicate results, matchpoints and standings, and ``python -m engine duplicate FILE|-``.

A result is one play of one board from the side of one direction, with that
direction's ``diff`` (its deal score minus the other's). Each result is compared
with every other result of the same board and direction: 1 matchpoint per lower
``diff``, ½ per equal one. A result's percentage is ``100 × matchpoints / (n − 1)``
(50 for a lone result); a player's event score is the mean of their percentages
over the boards they played; standings rank by score, ties sharing a rank (1, 2,
2, 4) and listed by name.

Scoring works in exact fractions (matchpoints are halves), so equal scores tie
exactly and nothing is rounded; the floats handed out are the nearest to the
exact values. This module knows nothing of Tichu: any game whose deals give a
whole-number difference in multiples of 5 can be scored here, and the bot scores
its stored results (people and a computer field alike) with :func:`score`.

Reading a file is strict JSON: ``diff`` and ``direction`` must be JSON integers,
so ``true``, ``40.0``, ``4e1`` and ``"40"`` are all refused (a JSON number with a
fraction or an exponent is not an integer, whatever its value). ``board`` and
``player`` are non-empty strings. Other fields, of a result or of the file, are
ignored. The spec puts no bound on ``diff``, so none is imposed here.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TextIO

from engine.errors import EngineError

__all__ = ["DIFF_STEP", "Result", "ResultsFormatError", "ScoredResult", "Standing",
           "main", "read_results", "score", "score_json"]

DIFF_STEP = 5
"""Every Tichu deal score is a multiple of 5, so every ``diff`` is."""


class ResultsFormatError(EngineError):
    """A results file (or list) is malformed: the message says where and how."""

    code = "bad_results"


@dataclass(frozen=True, slots=True)
class Result:
    """One play of one board, from the side of one direction."""

    board: str
    direction: int
    """0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    player: str
    """Who is scored: a person's id, or a synthetic one such as ``"field:3/0"``."""
    diff: int
    """This direction's deal score minus the other direction's, bonuses included."""

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board, "direction": self.direction, "player": self.player,
                "diff": self.diff}


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """A result with its matchpoints and percentage (exact values as the nearest floats)."""

    result: Result
    matchpoints: float
    percentage: float

    def to_json(self) -> dict[str, Any]:
        return {**self.result.to_json(), "matchpoints": self.matchpoints,
                "percentage": self.percentage}


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    player: str
    boards: int
    """Boards this player has a result on."""
    score: float
    """The mean of the player's percentages."""

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "boards": self.boards,
                "score": self.score}


def _show(value: Any) -> str:
    """A short, one-line picture of a value for an error message."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = json.dumps(value)
        return text if len(text) <= 40 else text[:36] + '..."'
    if isinstance(value, Mapping):
        return "a JSON object"
    return "a JSON array" if isinstance(value, list) else type(value).__name__


def _check(result: Result, where: str) -> None:
    """Raise :class:`ResultsFormatError` unless every field has its type and range."""
    if not isinstance(result.board, str) or not result.board:
        raise ResultsFormatError(f"{where}: 'board' must be a non-empty string, "
                                 f"not {_show(result.board)}")
    if not isinstance(result.player, str) or not result.player:
        raise ResultsFormatError(f"{where}: 'player' must be a non-empty string, "
                                 f"not {_show(result.player)}")
    direction = result.direction
    if isinstance(direction, bool) or not isinstance(direction, int) or direction not in (0, 1):
        raise ResultsFormatError(f"{where}: 'direction' must be 0 or 1, not {_show(direction)}")
    diff = result.diff
    if isinstance(diff, bool) or not isinstance(diff, int):
        raise ResultsFormatError(f"{where}: 'diff' must be an integer, not {_show(diff)}")
    if diff % DIFF_STEP:
        raise ResultsFormatError(f"{where}: 'diff' must be a multiple of {DIFF_STEP}, "
                                 f"not {_show(diff)}")


def read_results(data: Any) -> list[Result]:
    """The results of a parsed results file ``{"results": [...]}``, in order;
    :class:`ResultsFormatError` if it is malformed (duplicates are :func:`score`'s)."""
    if not isinstance(data, Mapping):
        raise ResultsFormatError("the file must hold a JSON object with 'results'")
    if "results" not in data:
        raise ResultsFormatError("the file has no 'results'")
    items = data["results"]
    if not isinstance(items, list):
        raise ResultsFormatError(f"'results' must be a list, not {_show(items)}")
    results = []
    for i, item in enumerate(items):
        where = f"result {i}"
        if not isinstance(item, Mapping):
            raise ResultsFormatError(f"{where} must be an object, not {_show(item)}")
        for key in ("board", "direction", "player", "diff"):
            if key not in item:
                raise ResultsFormatError(f"{where} has no {key!r}")
        result = Result(item["board"], item["direction"], item["player"], item["diff"])
        _check(result, where)
        results.append(result)
    return results


def _matchpoints(diffs: list[int]) -> list[Fraction]:
    """Matchpoints of each diff against the others of the same list: 1 per lower,
    ½ per equal (sorting, so a board with many results costs n log n)."""
    order = sorted(diffs)
    lower: dict[int, int] = {}
    equal: dict[int, int] = defaultdict(int)
    for i, d in enumerate(order):
        lower.setdefault(d, i)
        equal[d] += 1
    return [Fraction(2 * lower[d] + equal[d] - 1, 2) for d in diffs]


def score(results: Iterable[Result]) -> tuple[list[ScoredResult], list[Standing]]:
    """Matchpoints and percentage of every result (in the given order) and the standings.

    :class:`ResultsFormatError` if a result is malformed or a player has more than
    one result on a board (in either direction).
    """
    listed = list(results)
    seen: dict[tuple[str, str], int] = {}
    groups: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i, result in enumerate(listed):
        _check(result, f"result {i}")
        key = (result.board, result.player)
        if key in seen:
            raise ResultsFormatError(
                f"result {i}: player {_show(result.player)} already has a result on board "
                f"{_show(result.board)} (result {seen[key]})")
        seen[key] = i
        groups[(result.board, result.direction)].append(i)
    percentages: list[Fraction] = [Fraction(0)] * len(listed)
    points: list[Fraction] = [Fraction(0)] * len(listed)
    for members in groups.values():
        n = len(members)
        for i, mp in zip(members, _matchpoints([listed[i].diff for i in members]), strict=True):
            points[i] = mp
            percentages[i] = Fraction(50) if n == 1 else 100 * mp / (n - 1)
    scored = [ScoredResult(r, float(points[i]), float(percentages[i]))
              for i, r in enumerate(listed)]
    return scored, standings(listed, percentages)


def standings(results: Sequence[Result], percentages: Sequence[Fraction]) -> list[Standing]:
    """Players by mean percentage, highest first; equal means share a rank (1, 2, 2, 4)
    and are listed by name (code point order)."""
    by_player: dict[str, list[Fraction]] = defaultdict(list)
    for result, pct in zip(results, percentages, strict=True):
        by_player[result.player].append(pct)
    means = sorted(((sum(p, Fraction(0)) / len(p), name, len(p))
                    for name, p in by_player.items()), key=lambda t: (-t[0], t[1]))
    out: list[Standing] = []
    for place, (mean, name, boards) in enumerate(means, start=1):
        rank = out[-1].rank if out and means[place - 2][0] == mean else place
        out.append(Standing(rank, name, boards, float(mean)))
    return out


def score_json(data: Any) -> dict[str, Any]:
    """The CLI's output for a parsed results file; :class:`ResultsFormatError` if malformed."""
    scored, table = score(read_results(data))
    return {"results": [s.to_json() for s in scored], "standings": [s.to_json() for s in table]}


def main(path: str, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Run ``python -m engine duplicate PATH`` (``-``: standard input); the exit status."""
    from engine.replay import read_json

    try:
        result = score_json(read_json(path, ResultsFormatError))
    except ResultsFormatError as exc:
        print("error: " + " ".join(str(exc).split()), file=err)
        return 2
    json.dump(result, out)
    out.write("\n")
    return 0
