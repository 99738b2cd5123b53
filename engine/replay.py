"""The replay contract (``shared/spec/replay.md``): a game file in, the resulting state out.

Each ruleset package provides ``replay(data) -> dict``; this module reads the
file, picks the ruleset by ``game`` and prints one JSON object. A file that is
unreadable or malformed exits with status 2 and a one-line message.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from engine.errors import EngineError
from engine.run import ReplayFormatError, Run

__all__ = ["ReplayFormatError", "Run", "game_from_replay", "main", "run_replay"]


Runner = Callable[[Mapping[str, Any]], dict[str, Any]]


def _runners() -> dict[str, Runner]:
    from engine.chinois.replay import replay as chinois
    from engine.tichu.replay import replay as tichu
    from engine.tysiacha.replay import replay as tysiacha

    runners: dict[str, Runner] = {"tichu": tichu, "chinois": chinois, "tysiacha": tysiacha}
    return runners


def run_replay(data: Any) -> dict[str, Any]:
    """Replay a parsed game file; raises :class:`ReplayFormatError` if it is malformed."""
    if not isinstance(data, Mapping):
        raise ReplayFormatError("the file must hold a JSON object")
    game = data.get("game")
    runners = _runners()
    if game not in runners:
        raise ReplayFormatError(f"unknown game {game!r} (known: {', '.join(sorted(runners))})")
    try:
        return runners[game](data)
    except ReplayFormatError:
        raise
    except EngineError as exc:
        # Bad cards, wrong counts and malformed actions are format errors here.
        raise ReplayFormatError(str(exc)) from None


def game_from_replay(data: Any) -> Any:
    """The finished (or stopped) game object a replay file leads to, for tools that
    derive figures from stored games; :class:`ReplayFormatError` if the file is
    malformed or one of its actions is refused."""
    if not isinstance(data, Mapping) or data.get("game") not in _runners():
        raise ReplayFormatError("not a replay file of a known game")
    module = importlib.import_module(f"engine.{data['game']}.replay")
    try:
        game, run = module.replay_game(data)
    except ReplayFormatError:
        raise
    except EngineError as exc:
        raise ReplayFormatError(str(exc)) from None
    if run.error is not None:
        raise ReplayFormatError(f"action {run.error['index']} of deal {run.error['deal']} "
                                f"is refused: {run.error['message']}")
    return game


def load(stream: TextIO, error: type[Exception] = ReplayFormatError) -> Any:
    """Parse JSON, turning any decoding problem into ``error`` (one line)."""
    try:
        return json.load(stream)
    except RecursionError:
        raise error("bad JSON: nested too deeply") from None
    except ValueError as exc:  # bad syntax or encoding, a number past Python's digit limit
        raise error(f"bad JSON: {exc}") from None


def read_json(path: str, error: type[Exception] = ReplayFormatError) -> Any:
    """The JSON of the file ``path`` (``-``: standard input), for the commands of
    ``python -m engine``; a file that cannot be read or parsed raises ``error``."""
    if path == "-":
        return load(sys.stdin, error)
    try:
        with open(path, encoding="utf-8") as f:
            return load(f, error)
    except OSError as exc:
        raise error(f"cannot read {json.dumps(path)}: {exc.strerror}") from None


def main(path: str, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Run ``python -m engine replay PATH`` and return the exit status."""
    try:
        result = run_replay(read_json(path))
    except ReplayFormatError as exc:
        print(f"error: {exc}", file=err)
        return 2
    json.dump(result, out)
    out.write("\n")
    return 0
