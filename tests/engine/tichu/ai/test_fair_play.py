"""Fair play: a computer player decides from its seat's view alone.

Two games that look the same from a seat (equal views) but differ in the other
seats' hidden cards must get the same decision from that seat, for every level.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine.tichu.actions import Action
from engine.tichu.ai import make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase


def _fresh(level: str) -> Player:
    if level == "search":
        return SearchPlayer(budget_ms=None, max_samples=3)
    return make_player(level)


def permute_hidden(game: TichuGame, seat: int, rng: random.Random) -> TichuGame:
    """A copy where the cards the seat cannot see are dealt again among the other
    seats (same counts; a card the seat gave stays with the seat it went to)."""
    other = copy.deepcopy(game)
    fixed = {int(c) for c in (game.gives[seat] or {}).values()}
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in other.hands[s] if int(c) not in fixed]
    rng.shuffle(pool)
    for s in others:
        keep = [c for c in other.hands[s] if int(c) in fixed]
        take = len(other.hands[s]) - len(keep)
        other.hands[s] = keep + pool[:take]
        del pool[:take]
    return other


def positions(seed: int, count: int) -> list[tuple[TichuGame, int]]:
    """Positions from a normal self-play deal: (game, seat to ask)."""
    game = TichuGame(seed=seed)
    normal = [make_player("normal")] * 4
    out: list[tuple[TichuGame, int]] = []
    rng = random.Random(seed)

    def observe(g: TichuGame, seat: int, action: Action, spent: float) -> None:
        if g.phase is Phase.PLAY and len(out) < count and g.turn is not None:
            out.append((copy.deepcopy(g), g.turn))

    play_deal(game, normal, rng, observe)
    return out[::max(1, len(out) // 8)]


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "search"])
def test_same_view_same_decision(level: str) -> None:
    rng = random.Random(5)
    checked = 0
    for game, seat in positions(3, 60):
        twin = permute_hidden(game, seat, rng)
        assert twin.hands != game.hands or all(len(h) <= 1 for h in game.hands)
        view, twin_view = game.view(seat), twin.view(seat)
        assert view == twin_view
        a = _fresh(level).act(view, random.Random(9))
        b = _fresh(level).act(twin_view, random.Random(9))
        assert a == b
        checked += 1
    assert checked >= 5


def test_players_get_nothing_but_views() -> None:
    # The driver hands each seat game.view(seat); a player that wanted more would
    # need the game, which no player module imports for its own decisions.
    import engine.tichu.ai.bidding as bidding
    import engine.tichu.ai.normal as normal
    import engine.tichu.ai.tactics as tactics

    for module in (bidding, normal, tactics):
        assert "TichuGame" not in vars(module), module.__name__
