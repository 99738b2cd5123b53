"""Chinois's learned values: the shipped files load, a bad one is refused in one sentence
naming it, the features are the same for hands alike up to the colours, ``hard`` bids a
legal bid the network ranks first (``normal``'s in the 13-card rounds), and the learned
play plays the card its network ranks first."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.chinois import features, values
from engine.chinois.ai import (
    HardPlayer,
    NormalPlayer,
    estimate_tricks,
    make_player,
    near_bids,
    shown_voids,
)
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.view import Phase
from engine.mlp import ModelError
from tests.engine.chinois.helpers import bids, position


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A copy of the shipped models, read instead of them for the test."""
    for kind in values.KINDS:
        shipped = values.SHIPPED / values.file_name(kind)
        (tmp_path / shipped.name).write_bytes(shipped.read_bytes())
    values.use_directory(tmp_path)
    yield tmp_path
    values.use_directory(values.SHIPPED)


def test_the_shipped_models_load_with_their_cards() -> None:
    values.check()
    for kind in values.KINDS:
        network = values.network(kind)
        assert network.kind == kind and network.meta["features"] == features.layout_digest(kind)
        card = (values.SHIPPED / values.file_name(kind)).with_suffix(".md").read_text()
        assert "tools.train_chinois" in card and "score_rmse" in card


@pytest.mark.parametrize("damage", ["missing", "truncated", "other-kind"])
def test_a_bad_model_file_is_refused_naming_it(folder: Path, damage: str) -> None:
    path = folder / values.file_name("bid")
    if damage == "missing":
        path.unlink()
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:500])
    else:
        path.write_bytes((folder / values.file_name("play")).read_bytes())
    with pytest.raises(ModelError) as caught:
        values.check()
    text = str(caught.value)
    assert text.startswith(f"The model file {path}") and text.endswith(".")
    assert "\n" not in text


def test_suits_are_named_by_role_not_colour() -> None:
    # The same hand with clubs and diamonds swapped, spades trump in both.
    one = position(3, ["Ac Kc 2d", "3h 4h 5h", "6h 7h 8h", "9h Th Jh"], trump_card="2s")
    two = position(3, ["Ad Kd 2c", "3h 4h 5h", "6h 7h 8h", "9h Th Jh"], trump_card="2s")
    views = [g.view(g.turn) for g in (one, two)]
    rows = [features.bid_rows(v, [1], 1.0) for v in views]
    assert np.array_equal(rows[0], rows[1])
    assert features.suit_order(tuple(parse_cards(["Ac", "Kc", "2d"])), 3)[0] == 3


def test_hard_bids_the_best_valued_near_bid() -> None:
    game = bids(position(5, ["As Ks Qs 2c 3c", "4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc",
                             "2d 3d 4d 5d 6d"], trump_card="2s"))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert view.phase is Phase.BID
    estimate = estimate_tricks(view.hand, view.trump_card, view.cards_per_seat)
    options = near_bids(view, estimate)
    worth = values.network("bid").values(features.bid_rows(view, options, estimate))
    action = make_player("hard").act(view, random.Random(0))
    assert isinstance(make_player("hard"), HardPlayer)
    assert action is not None and getattr(action, "bid", None) == options[int(np.argmax(worth))]
    assert set(options) <= set(legal_bids(view))


def test_the_dealer_never_bids_the_forbidden_number() -> None:
    # Round 3 is dealt by seat 1; the three before it bid 1, 1, 0: 1 is forbidden.
    game = bids(position(3, ["2c 3c 4c", "As Ks Qs", "5c 6c 7c", "8c 9c Tc"],
                         trump_card="2s"), 1, 1, 0)
    view = game.view(1)
    assert view.forbidden_bid == 1 and view.turn == 1
    for seed in range(3):
        action = HardPlayer().act(view, random.Random(seed))
        assert action is not None and getattr(action, "bid", None) != 1


def test_in_the_13_card_rounds_hard_bids_like_normal() -> None:
    game = position(13, ["Ac Ad Ah As Kc", "2c", "3c", "4c"])
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert view.trump_card is None
    assert HardPlayer().bid(view) == NormalPlayer().bid(view)


def test_the_learned_play_plays_the_best_valued_legal_card() -> None:
    game = bids(position(4, ["Ah Kh 2c 3c", "Qh 4c 5c 6c", "Jh 7c 8c 9c", "Th Tc Jc Qc"],
                         trump_card="2s"), 1, 1, 1, 0)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    legal = legal_cards(view)
    worth = values.network("play").values(features.play_rows(view, legal, shown_voids(view)))
    action = HardPlayer(learned_play=True).act(view, random.Random(0))
    assert action is not None and getattr(action, "card", None) == legal[int(np.argmax(worth))]
