"""Build Tysiacha positions for tests: choose the cards that matter, the rest is filled in."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.cards import Card, parse_card, parse_cards
from engine.errors import EngineError
from engine.tysiacha.actions import Action, Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.ai import NormalPlayer, pending_seats
from engine.tysiacha.cards import DECK
from engine.tysiacha.deal import Deal, active_seats, make_deal
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.scoring import Rounding
from engine.tysiacha.view import Phase, TysiachaView


def _fill(hands: list[list[Card]], sizes: list[int], rest: list[Card]) -> None:
    for h, size in zip(hands, sizes, strict=True):
        while len(h) < size:
            h.append(rest.pop(0))


def deal_for(partial: list[str], prikup: str = "", *, dealer: int = 2, players: int = 3) -> Deal:
    """A deal where seat s holds ``partial[s]`` and the prikup ``prikup`` (space-separated
    tokens), completed to 7 and 3 cards with the rest of the deck in a fixed order."""
    hands = [parse_cards(p.split()) for p in partial]
    pk = parse_cards(prikup.split())
    used = {c for h in hands for c in h} | set(pk)
    rest = [c for c in DECK if c not in used]
    random.Random(7).shuffle(rest)
    active = active_seats(dealer, players)
    _fill(hands, [7 if s in active else 0 for s in range(players)], rest)
    _fill([pk], [3], rest)
    return make_deal(dealer, hands, pk, players)


def position(partial: list[str], prikup: str = "", *, dealer: int = 2, players: int = 3,
             rounding: Rounding = Rounding.TEN) -> TysiachaGame:
    """A game at the start of the bidding of :func:`deal_for`'s deal."""
    return TysiachaGame(players=players, rounding=rounding,
                        deal=deal_for(partial, prikup, dealer=dealer, players=players))


def play_position(hands: list[str], *, contract: int = 100, raise_to: int | None = None,
                  rounding: Rounding = Rounding.TEN) -> TysiachaGame:
    """A game in phase play where seats 0, 1, 2 hold ``hands`` (8 cards each, completed
    from the rest of the deck) after seat 0 won the bidding at ``contract`` (seat 2
    deals, so seat 0 opens), took the prikup and gave seat 1 and seat 2 the last card
    of their hand."""
    play_hands = [parse_cards(h.split()) for h in hands]
    used = {c for h in play_hands for c in h}
    rest = [c for c in DECK if c not in used]
    random.Random(7).shuffle(rest)
    _fill(play_hands, [8, 8, 8], rest)
    gifts = (play_hands[1][-1], play_hands[2][-1])
    ten = [*play_hands[0], *gifts]
    dealt = [ten[:7], play_hands[1][:-1], play_hands[2][:-1]]
    game = TysiachaGame(rounding=rounding, deal=make_deal(2, dealt, ten[7:]))
    game.apply(Bid(0, contract))
    game.apply(Pass(1))
    game.apply(Pass(2))
    if raise_to is not None:
        game.apply(Raise(0, raise_to))
    game.apply(Give(0, ((1, gifts[0]), (2, gifts[1]))))
    return game


def act(text: str) -> Action:
    """Parse a one-line action: ``"0 bid 100"``, ``"1 pass"``, ``"0 raise 120"``,
    ``"0 concede"``, ``"0 give 1=9c 2=Jd"``, ``"1 redeal"``, ``"0 play Kh marriage"``."""
    words = text.split()
    seat, verb, rest = int(words[0]), words[1], words[2:]
    if verb == "bid":
        return Bid(seat, int(rest[0]))
    if verb == "raise":
        return Raise(seat, int(rest[0]))
    if verb == "pass":
        return Pass(seat)
    if verb == "concede":
        return Concede(seat)
    if verb == "redeal":
        return Redeal(seat)
    if verb == "give":
        return Give(seat, tuple((int(w.split("=")[0]), parse_card(w.split("=")[1])) for w in rest))
    if verb == "play":
        return Play(seat, parse_card(rest[0]), rest[1:] == ["marriage"])
    raise ValueError(f"unknown test action {text!r}")


def run(game: TysiachaGame, *lines: str) -> TysiachaGame:
    """Apply each line with :func:`act`; any refusal fails the test."""
    for line in lines:
        game.apply(act(line))
    return game


def refused(game: TysiachaGame, action: Action | str) -> str:
    """Apply an action that must be refused without changing anything; return the code."""
    seats = (None, *range(game.n_seats))
    before = [game.view(s) for s in seats]
    with pytest.raises(EngineError) as info:
        game.apply(act(action) if isinstance(action, str) else action)
    assert [game.view(s) for s in seats] == before
    return info.value.code


def played_deal(seed: str, rng: random.Random, player: NormalPlayer | None = None
                ) -> Iterator[tuple[TysiachaGame, int, TysiachaView, Action]]:
    """A deal of ``TysiachaGame(seed=seed)`` played by ``player`` (the normal player by
    default) at every seat: each decision as the game, the seat, its view and the
    action, yielded before the action is applied."""
    player = player or NormalPlayer()
    game = TysiachaGame(seed=seed)
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        for seat in pending_seats(game.view(None)):
            view = game.view(seat)
            action = player.act(view, rng)
            if action is None:
                continue
            yield game, seat, view, action
            game.apply(action)  # refuses any illegal action
            break
