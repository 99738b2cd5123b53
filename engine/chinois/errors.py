"""Chinois's own refusals (the shared ones live in :mod:`engine.errors` and
:mod:`engine.trick`, which has ``must_follow_suit``)."""

from __future__ import annotations

from engine.errors import EngineError


class BidOutOfRangeError(EngineError):
    """A bid is a whole number from 0 to the number of cards in the round."""

    code = "bid_out_of_range"


class ForbiddenBidError(EngineError):
    """The dealer may not make the bids add up to the number of tricks ("tout sauf")."""

    code = "forbidden_bid"
