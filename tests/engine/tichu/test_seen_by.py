"""A replay as one seat saw it (issue 51, finding 6): its own hand and exchange, every
action the table saw, and no card another seat held unseen (never played, or passed
between two other seats), for four and six players."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from engine.cards import Card, parse_card
from engine.errors import BadActionError
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.replay import seen_by, to_replay


def named(data: Any) -> set[Card]:
    """Every card a JSON document names (its card tokens, wherever they are)."""
    found: set[Card] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= named(value)
    elif isinstance(data, list):
        for value in data:
            found |= named(value)
    elif isinstance(data, str):
        with contextlib.suppress(ValueError):
            found.add(parse_card(data))
    return found


def one_deal(players: int, seed: int) -> tuple[TichuGame, dict[str, Any]]:
    game = TichuGame(seed=f"seen-by-{seed}", players=players)
    play_deal(game, [EasyPlayer() for _ in range(players)], random.Random(seed))
    return game, to_replay(game)


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (4, 2), (4, 3), (6, 1), (6, 2)])
def test_a_seat_sees_its_cards_and_the_table_s_but_no_hidden_card(players: int,
                                                                  seed: int) -> None:
    game, full = one_deal(players, seed)
    [(hands, actions)] = game.deal_log
    played = {c for a in actions if a.__class__.__name__ == "Play" for c in a.cards}
    unseen = 0
    for seat in range(players):
        seen = seen_by(full, [seat])
        assert seen["seen_by"] == [seat] and json.loads(json.dumps(seen)) == seen
        [deal] = seen["deals"]
        assert [h is None for h in deal["hands"]] == [s != seat for s in range(players)]
        assert [parse_card(c) for c in deal["hands"][seat]] == list(hands[seat])
        given_to_me = {c for a in actions if a.__class__.__name__ == "Exchange"
                       for to, c in a.give if to == seat}
        knows = set(hands[seat]) | played | given_to_me
        assert named(seen) <= knows
        hidden = {c for s in range(players) if s != seat for c in hands[s]} - knows
        unseen += len(hidden)
        assert not named(seen) & hidden
        # Every action is there, in order, the others' exchanges cut to what came here.
        assert [(a["seat"], a["do"]) for a in deal["actions"]] == \
            [(a["seat"], a["do"]) for a in full["deals"][0]["actions"]]
        for action in deal["actions"]:
            if action["do"] == "exchange" and action["seat"] != seat:
                assert set(action["give"]) <= {str(seat)}
    assert unseen, "the last seat out kept cards nobody else saw"
    # Two seats (a pair at a duplicate table): each one's cards, still not the others'.
    pair = seen_by(full, [0, 2])
    assert [h is None for h in pair["deals"][0]["hands"]][:4] == [False, True, False, True]


def test_an_unreadable_file_is_refused() -> None:
    with pytest.raises(BadActionError):
        seen_by({"game": "tichu", "deals": []}, [0])
