"""Build Chinois positions for tests: choose some cards of each hand, the rest is filled in."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_card, parse_cards
from engine.chinois.actions import Action, Bid, Play
from engine.chinois.deal import DECK, Deal, make_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.rules import cards_in_round, has_trump
from engine.errors import EngineError


def deal_for(round_: int, partial: list[str], trump_card: str | None = None,
             dealer: int | None = None) -> Deal:
    """A deal of ``round_`` where seat s holds ``partial[s]`` (space-separated tokens),
    completed with the rest of the deck shuffled with a fixed seed. The trump card
    is ``trump_card`` or, in a round with trump, the first card left over."""
    n = cards_in_round(round_)
    hands = [parse_cards(p.split()) for p in partial]
    turned = None if trump_card is None else parse_card(trump_card)
    used = {c for h in hands for c in h} | ({turned} if turned is not None else set())
    rest = [c for c in DECK if c not in used]
    random.Random(7).shuffle(rest)
    for h in hands:
        while len(h) < n:
            h.append(rest.pop(0))
    if turned is None and has_trump(round_):
        turned = rest.pop(0)
    return make_deal(round_, hands, turned, dealer)


def position(round_: int, partial: list[str], trump_card: str | None = None,
             dealer: int | None = None) -> ChinoisGame:
    """A game starting at ``round_`` with the hands of :func:`deal_for`."""
    return ChinoisGame(deal=deal_for(round_, partial, trump_card, dealer))


def act(text: str) -> Action:
    """Parse a one-line action: ``"0 bid 2"`` or ``"1 play Ah"``."""
    seat, verb, arg = text.split()
    if verb == "bid":
        return Bid(int(seat), int(arg))
    if verb == "play":
        return Play(int(seat), parse_card(arg))
    raise ValueError(f"unknown test action {text!r}")


def run(game: ChinoisGame, *lines: str) -> ChinoisGame:
    """Apply each line with :func:`act`; any refusal fails the test."""
    for line in lines:
        game.apply(act(line))
    return game


def bids(game: ChinoisGame, *amounts: int) -> ChinoisGame:
    """Bid ``amounts`` in bidding order, from the seat after the dealer."""
    for amount in amounts:
        assert game.turn is not None
        game.apply(Bid(game.turn, amount))
    return game


def refused(game: ChinoisGame, action: Action | str) -> str:
    """Apply an action that must be refused without changing anything; return the code."""
    before = [game.view(s) for s in (None, 0, 1, 2, 3)]
    with pytest.raises(EngineError) as info:
        game.apply(act(action) if isinstance(action, str) else action)
    assert [game.view(s) for s in (None, 0, 1, 2, 3)] == before
    return info.value.code


def hand(game: ChinoisGame, seat: int) -> list[Card]:
    return list(game.hands[seat])
