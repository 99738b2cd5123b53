"""The verify / can / do shape every ruleset's game follows."""

from __future__ import annotations

from typing import Generic, TypeVar

from engine.errors import EngineError

A = TypeVar("A")


class CheckedGame(Generic[A]):
    """A game whose ``check(action)`` raises the refusal an action would meet;
    :meth:`can` is its boolean twin, and ``apply`` runs the check before it changes
    anything."""

    def check(self, action: A) -> object:
        raise NotImplementedError

    def can(self, action: A) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.check(action)
        except EngineError:
            return False
        return True
