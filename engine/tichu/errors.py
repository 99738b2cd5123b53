"""Tichu's own refusals (the shared ones live in :mod:`engine.errors`)."""

from __future__ import annotations

from engine.errors import EngineError


class NotACombinationError(EngineError):
    """The cards form no Tichu combination."""

    code = "not_a_combination"


class DoesNotBeatError(EngineError):
    """The combination does not beat the one on the table."""

    code = "does_not_beat"


class DogOnlyOnLeadError(EngineError):
    """The Dog may only be led, alone."""

    code = "dog_only_on_lead"


class WishMustBePlayedError(EngineError):
    """The seat holds the wished rank and can play it, so it must."""

    code = "wish_must_be_played"


class NoBombOnDogError(EngineError):
    """No bomb may be played on the Dog: the lead goes to the partner."""

    code = "no_bomb_on_dog"


class NoBombBeforeLeadError(EngineError):
    """Out of turn, a bomb needs a combination on the table."""

    code = "no_bomb_before_lead"


class CannotPassOnLeadError(EngineError):
    """A seat on the lead must play."""

    code = "cannot_pass_on_lead"


class AlreadyCalledError(EngineError):
    """One call per seat per deal."""

    code = "already_called"


class AlreadyPlayedError(EngineError):
    """Tichu may only be called before the seat's first card."""

    code = "already_played"


class BadExchangeError(EngineError):
    """The exchange must give one card to each exchange target (each other seat with
    four players, each partner with six)."""

    code = "bad_exchange"


class BadGiftTargetError(EngineError):
    """The Dragon trick goes to an opponent."""

    code = "bad_gift_target"


class BadWishError(EngineError):
    """A wish needs the Mahjong in the play, and a rank from 2 to A."""

    code = "bad_wish"


class BadPhoenixReadingError(EngineError):
    """The Phoenix cannot stand for the named rank in this play."""

    code = "bad_phoenix_reading"


class SeatOutError(EngineError):
    """The seat has no cards left in this deal."""

    code = "seat_out"


class BadDogTargetError(EngineError):
    """The Dog's lead goes to a partner still holding cards (named in ``to`` when
    two of them hold cards, at a six-player table)."""

    code = "bad_dog_target"
