"""What every ruleset's replay runner shares: the malformed-file error and the loop that
plays a deal's actions, stops at the first refusal, keeps the trace and shapes the
output (:mod:`engine.replay` picks the ruleset; each ruleset's ``replay`` uses this)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import EngineError


class ReplayFormatError(EngineError):
    """The replay file itself is unreadable or malformed."""

    code = "bad_replay"


class Run:
    """What every ruleset's runner shares: play each deal's actions in order, stop at
    the first refusal, keep the trace, and shape the output's envelope."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.want_trace = bool(data.get("trace", False))
        self.trace: list[dict[str, Any]] = []
        self.error: dict[str, Any] | None = None

    def refuse(self, deal: int, index: int, exc: EngineError) -> None:
        self.error = {"index": index, "deal": deal, "message": str(exc), "code": exc.code}

    def play(self, game: Any, deal: int, actions: list[Any],
             entry: Callable[[Any, Any], dict[str, Any]]) -> bool:
        """Apply ``actions`` to ``game``; False (and :attr:`error` set) at a refusal.
        ``entry(game, action)`` is the trace entry, taken just before the action."""
        for index, action in enumerate(actions):
            item = entry(game, action) if self.want_trace else None
            try:
                game.apply(action)
            except EngineError as exc:
                self.refuse(deal, index, exc)
                return False
            if item is not None:
                self.trace.append(item)
        return True

    def output(self, state: dict[str, Any]) -> dict[str, Any]:
        """``ok``, ``error``, the ruleset's state fields and, if asked, the trace."""
        out: dict[str, Any] = {"ok": self.error is None, "error": self.error, **state}
        if self.want_trace:
            out["trace"] = self.trace
        return out
