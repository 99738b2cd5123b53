"""Tysiacha's own refusals (the shared ones live in :mod:`engine.errors` and
:mod:`engine.trick`, which has ``must_follow_suit`` and ``must_trump``)."""

from __future__ import annotations

from engine.errors import EngineError


class MustOpenError(EngineError):
    """The seat after the dealer opens the bidding at 100 or more; it may not pass."""

    code = "must_open"


class BidTooLowError(EngineError):
    """A bid is at least 100 and above the current high bid (or contract)."""

    code = "bid_too_low"


class BadBidStepError(EngineError):
    """Bids go up in multiples of 5."""

    code = "bad_bid_step"


class BidNeedsMarriageError(EngineError):
    """A bid above 120 needs a marriage in the bidder's hand."""

    code = "bid_needs_marriage"


class BidOverLimitError(EngineError):
    """A bid may not exceed 120 plus the marriages in the bidder's hand."""

    code = "bid_over_limit"


class BadGiftError(EngineError):
    """The soloist gives exactly one card to each opponent."""

    code = "bad_gift"


class NoFourNinesError(EngineError):
    """Only a seat holding the four 9s may ask for a redeal."""

    code = "no_four_nines"


class RedealTooLateError(EngineError):
    """A redeal is asked after the giving and before the first card, not later."""

    code = "redeal_too_late"


class MarriageNotOnLeadError(EngineError):
    """A marriage is declared with a lead only."""

    code = "marriage_not_on_lead"


class MarriageBeforeTrickError(EngineError):
    """A seat must have won a trick in this deal before it declares a marriage."""

    code = "marriage_before_trick"


class NotAMarriageError(EngineError):
    """The lead must be a King or Queen whose partner is still in the hand."""

    code = "not_a_marriage"


class SeatSitsOutError(EngineError):
    """At a 4-player table the dealer sits the deal out."""

    code = "seat_sits_out"
