"""Engine refusals: one exception type per kind of refusal, each with a stable code.

The bot maps ``code`` to a sentence in the player's language; the replay CLI
prints ``str(error)``. Nothing but ``EngineError`` may escape an engine call.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every refusal. ``code`` is machine-readable and stable."""

    code = "engine_error"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.code.replace("_", " "))

    @property
    def message(self) -> str:
        return str(self.args[0])


class WrongPhaseError(EngineError):
    """The action does not belong to the current phase."""

    code = "wrong_phase"


class NotYourTurnError(EngineError):
    """The seat acted out of turn."""

    code = "not_your_turn"


class BadSeatError(EngineError):
    """The seat number does not exist at this table."""

    code = "bad_seat"


class AlreadyDecidedError(EngineError):
    """The seat already made this decision."""

    code = "already_decided"


class CardNotInHandError(EngineError):
    """A card named in the action is not in the seat's hand."""

    code = "card_not_in_hand"


class BadCardError(EngineError):
    """A card token cannot be parsed."""

    code = "bad_card"


class DuplicateCardError(EngineError):
    """The same card is named twice in one action."""

    code = "duplicate_card"


class GameOverError(EngineError):
    """The game is over; no more actions are accepted."""

    code = "game_over"


class DealOverError(EngineError):
    """The deal is over; no more actions are accepted in it."""

    code = "deal_over"


class BadActionError(EngineError):
    """The action is malformed or unknown to this game."""

    code = "bad_action"
