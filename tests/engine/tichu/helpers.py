"""Build Tichu positions for tests: choose the play-phase hands, get there in a few actions."""

from __future__ import annotations

import random

from engine.cards import Card, parse_card, parse_cards, rank_from_token
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DECK
from engine.tichu.game import TichuGame, hand_sizes
from engine.tichu.view import exchange_targets


def fill_hands(partial: list[str], sizes: list[int] | None = None) -> list[list[Card]]:
    """Complete partial hands (space-separated tokens) to ``sizes`` cards each (14 by
    default) with the rest of the deck, shuffled with a fixed seed."""
    hands = [parse_cards(p.split()) for p in partial]
    sizes = sizes or [14] * len(hands)
    used = {c for h in hands for c in h}
    rest = [c for c in DECK if c not in used]
    random.Random(7).shuffle(rest)
    for h, size in zip(hands, sizes, strict=True):
        while len(h) < size:
            h.append(rest.pop(0))
    return hands


def dealt_for(play_hands: list[list[Card]]) -> tuple[list[list[Card]], list[Exchange]]:
    """Dealt hands and exchanges after which the seats hold ``play_hands``.

    Seat t receives the last cards of its play hand, one from each seat that gives
    to it (each other seat with four players, each partner with six), in seat order.
    """
    n = len(play_hands)
    gifts: dict[tuple[int, int], Card] = {}
    for t, hand in enumerate(play_hands):
        senders = [s for s in range(n) if t in exchange_targets(s, n)]
        for s, c in zip(senders, hand[-len(senders):], strict=True):
            gifts[(s, t)] = c
    dealt = []
    exchanges = []
    for s, hand in enumerate(play_hands):
        targets = sorted(exchange_targets(s, n))
        given = [(t, gifts[(s, t)]) for t in targets]
        dealt.append(list(hand[:-len(targets)]) + [c for _, c in given])
        exchanges.append(Exchange(s, tuple(given)))
    return dealt, exchanges


def position(partial: list[str], *, calls: dict[int, str] | None = None,
             target: int = 1000, dealer: int | None = None) -> TichuGame:
    """A game in phase play where seat s holds ``partial[s]`` completed to a full hand.

    Four entries: four players, 14 cards each. Six entries: six players with
    ``dealer`` (default 5) dealing, so the two seats after it hold 10 cards.
    ``calls`` maps a seat to "grand" (Grand Tichu) or "tichu" (called before passing).
    """
    n = len(partial)
    if n == 6 and dealer is None:
        dealer = 5
    play_hands = fill_hands(partial, hand_sizes(n, dealer))
    dealt, exchanges = dealt_for(play_hands)
    game = TichuGame(target=target, hands=dealt, players=n, dealer=dealer)
    calls = calls or {}
    for s in range(n):
        game.apply(GrandTichu(s) if calls.get(s) == "grand" else DeclineGrand(s))
    for s in range(n):
        if calls.get(s) == "tichu":
            game.apply(CallTichu(s))
    for ex in exchanges:
        game.apply(ex)
    return game


def act(text: str) -> Action:
    """Parse a one-line action: ``"0 play 5c 5d wish=7 phoenix=9"``, ``"0 play DOG to=2"``, ``"1 pass"``,
    ``"2 gift 1"``, ``"3 tichu"``."""
    words = text.split()
    seat, verb, rest = int(words[0]), words[1], words[2:]
    if verb == "pass":
        return Pass(seat)
    if verb == "tichu":
        return CallTichu(seat)
    if verb == "gift":
        return Gift(seat, int(rest[0]))
    if verb == "play":
        options = dict(w.split("=") for w in rest if "=" in w)
        cards = tuple(parse_card(w) for w in rest if "=" not in w)
        wish = rank_from_token(options["wish"]) if "wish" in options else None
        phoenix = rank_from_token(options["phoenix"]) if "phoenix" in options else None
        to = int(options["to"]) if "to" in options else None
        return Play(seat, cards, wish, phoenix, to)
    raise ValueError(f"unknown test action {text!r}")


def run(game: TichuGame, *lines: str) -> TichuGame:
    """Apply each line with :func:`act`; any refusal fails the test."""
    for line in lines:
        game.apply(act(line))
    return game
