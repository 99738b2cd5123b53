"""The coach's hint (issue 25): a hint of the right kind in each phase, the hard
player's move as ``best``, the options sorted, determinism, no hint when the seat has
nothing to decide, refusals, a hint that reads nothing the seat could not see, and a
few reason rules.

Positions come from deals played by ``normal`` players (fast); ``best`` is the learned
``hard`` player's move, and the options are valued by its evaluator (issue 39)."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.review import REASONS, Hint, hint
from engine.review.options import Abstain, option_json
from engine.run import ReplayFormatError
from engine.tichu.actions import CallTichu, Pass, Play
from engine.tichu.ai import bidding
from engine.tichu.ai.hard import HardPlayer
from engine.tichu.game import TichuGame
from engine.tichu.legal import bombs_in, can_call_tichu, legal_plays, play_options
from engine.tichu.replay import read_file
from engine.tichu.replay import replay as run_tichu_replay
from engine.tichu.view import Phase, TichuView
from tests.engine.review.test_review import _swap_hidden, played


def cut(data: dict[str, Any], stop: int) -> dict[str, Any]:
    """The replay with its last deal's actions cut before ``stop``."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    del out["deals"][-1]["actions"][stop:]
    return out


def positions(data: dict[str, Any]) -> Iterator[tuple[int, TichuGame]]:
    """Each index of the (one-deal) replay's actions, with the game just before it."""
    read = read_file(data)
    game = TichuGame(hands=read.deals[0].hands)
    for i, action in enumerate(read.deals[0].actions):
        yield i, game
        game.apply(action)
    yield len(read.deals[0].actions), game


def find(test: Callable[[TichuGame, int], int | None], tries: int = 40,
         prefix: str = "hint") -> tuple[dict[str, Any], int]:
    """A (cut replay, seat) at the first position of normal deals where ``test`` gives
    a seat."""
    for k in range(tries):
        data = played(f"{prefix}-{k}")
        for i, game in positions(data):
            seat = test(game, i)
            if seat is not None:
                return cut(data, i), seat
    raise AssertionError("no such position")


def hard_decides(data: dict[str, Any], seat: int) -> Any:
    """The hard player's move, asked as a table asks it: from the seat's view."""
    read = read_file(data)
    game = TichuGame(hands=read.deals[0].hands)
    for action in read.deals[0].actions:
        game.apply(action)
    view = game.view(seat)
    return HardPlayer().act(view, random.Random(1))


def check(found: Hint | None, data: dict[str, Any], seat: int) -> Hint:
    """The shape every hint has, and ``best`` the hard player's move."""
    assert found is not None
    assert found.seat == seat and found.reason in REASONS
    assert 2 <= len(found.options) <= 3
    values = [v for _, v in found.options]
    assert values == sorted(values, reverse=True)
    assert found.best in [o for o, _ in found.options]
    hard = hard_decides(data, seat)
    assert found.best == (Abstain(seat, "bomb") if hard is None else hard)
    js = found.to_json()
    assert set(js) == {"seat", "kind", "best", "options", "reason"}
    assert js["best"] == option_json(found.best)
    assert all(set(o) == {"option", "value"} and round(o["value"], 1) == o["value"]
               for o in js["options"])
    assert json.loads(json.dumps(js)) == js
    return found


def _on_turn_with_choice(game: TichuGame, i: int) -> int | None:
    if game.phase is not Phase.PLAY or game.turn is None or i < 12:
        return None
    seat = game.turn
    plays, may_pass = play_options(game.view(seat))
    return seat if len(plays) + may_pass > 2 else None


@pytest.fixture(scope="module")
def deal() -> dict[str, Any]:
    return played("hint-0")


def test_a_grand_tichu_hint_before_the_seat_decides(deal: dict[str, Any]) -> None:
    data = cut(deal, 0)
    found = check(hint(data, 2), data, 2)
    assert found.kind == "grand" and {o["do"] for o in
                                      (option_json(o) for o, _ in found.options)} == \
        {"grand_tichu", "decline_grand"}
    assert found.reason in ("strong_hand", "weak_hand")
    # Once it has decided, the seat has no Grand Tichu decision left.
    data = json.loads(json.dumps(data))
    data["deals"][0]["actions"] = [{"seat": 2, "do": "decline_grand"}]
    assert hint(data, 2) is None


def test_an_exchange_hint_until_the_seat_has_given(deal: dict[str, Any]) -> None:
    actions = deal["deals"][0]["actions"]
    first = next(i for i, a in enumerate(actions) if a["do"] == "exchange")
    seat = actions[first]["seat"]
    data = cut(deal, first)
    found = check(hint(data, seat), data, seat)
    assert found.kind in ("exchange", "tichu")
    if found.kind == "exchange":
        assert len({option_json(o)["seat"] for o, _ in found.options}) == 1
    # Once it has given (the others not yet), the seat has nothing to decide.
    assert hint(cut(deal, first + 1), seat) is None


def test_a_play_hint_on_the_seat_s_turn_and_none_for_the_others() -> None:
    data, seat = find(_on_turn_with_choice)
    found = check(hint(data, seat), data, seat)
    assert found.kind in ("play", "pass", "wish", "tichu")
    read = read_file(data)
    game = TichuGame(hands=read.deals[0].hands)
    for action in read.deals[0].actions:
        game.apply(action)
    for other in range(4):
        if other != seat and not (game.trick and bombs_in(game.hands[other])):
            assert hint(data, other) is None


def test_the_same_input_gives_the_same_hint() -> None:
    data, seat = find(_on_turn_with_choice)
    a = hint(data, seat)
    assert a is not None and a == hint(data, seat)
    assert a.to_json() == hint(data, seat).to_json()  # type: ignore[union-attr]


def _out_of_turn_bomb(game: TichuGame, i: int) -> int | None:
    if game.phase is not Phase.PLAY or not game.trick:
        return None
    for seat in range(4):
        if seat != game.turn and bombs_in(game.hands[seat]) and legal_plays(game.view(seat)):
            return seat
    return None


def test_a_bomb_out_of_turn_is_a_bomb_or_wait_hint() -> None:
    data, seat = find(_out_of_turn_bomb, tries=200, prefix="bomb")
    found = check(hint(data, seat), data, seat)
    assert found.kind == "bomb"
    kinds = {type(o) for o, _ in found.options}
    assert kinds == {Play, Abstain}


def _gift(game: TichuGame, i: int) -> int | None:
    return game.turn if game.phase is Phase.GIFT else None


def test_the_dragon_s_gift_is_a_gift_hint() -> None:
    data, seat = find(_gift, tries=100, prefix="gift")
    found = check(hint(data, seat), data, seat)
    assert found.kind == "gift" and len(found.options) == 2
    assert found.reason in ("gift_weaker", "close_call", "best_value")


def test_no_hint_once_the_deal_is_over(deal: dict[str, Any]) -> None:
    assert all(hint(deal, s) is None for s in range(4))


@pytest.mark.parametrize("mangle, message", [
    (lambda d: {**d, "game": "chinois"}, "Tichu"),
    (lambda d: {**d, "deals": [{"hands": [["2c"], [], [], []]}]}, "deal 0"),
    (lambda d: {**d, "deals": [{**d["deals"][0], "actions": [
        {"seat": 0, "do": "gift", "to": 1}]}]}, "deal 0"),
])
def test_malformed_data_raises(deal: dict[str, Any],
                               mangle: Callable[[dict[str, Any]], dict[str, Any]],
                               message: str) -> None:
    with pytest.raises(ReplayFormatError, match=message):
        hint(mangle(cut(deal, 0)), 0)


@pytest.mark.parametrize("seat", [4, -1, "0"])
def test_a_seat_not_at_the_table_raises(deal: dict[str, Any], seat: Any) -> None:
    with pytest.raises(ReplayFormatError, match="seat"):
        hint(cut(deal, 0), seat)


@pytest.mark.parametrize("stop", [3, 6, 30])
def test_a_hint_reads_nothing_the_seat_could_not_see(deal: dict[str, Any], stop: int) -> None:
    data = cut(deal, stop)
    seat = read_file(deal).deals[0].actions[stop].seat
    swapped = _swap_hidden(data, seat)
    assert swapped["deals"][0]["hands"] != data["deals"][0]["hands"]
    mine = hint(data, seat)
    assert mine is not None
    assert mine == hint(swapped, seat)


def _goes_out(game: TichuGame, i: int) -> int | None:
    if game.phase is not Phase.PLAY or game.turn is None:
        return None
    seat = game.turn
    view = game.view(seat)
    partner_called = game.calls[(seat + 2) % 4] is not None
    plays, may_pass = play_options(view)
    whole = any(len(p.cards) == len(view.hand) for p in plays)
    return seat if whole and not partner_called and len(plays) + may_pass > 1 else None


def test_a_hand_that_can_go_out_now_goes_out() -> None:
    data, seat = find(_goes_out, prefix="out")
    found = check(hint(data, seat), data, seat)
    assert found.reason == "goes_out"
    assert isinstance(found.best, Play)


def _partner_on_top(game: TichuGame, i: int) -> int | None:
    """The seat on turn may beat its partner's trick, and the partner has not called."""
    if game.phase is not Phase.PLAY or game.turn is None or not game.trick:
        return None
    seat = game.turn
    partner = (seat + 2) % 4
    if game.trick[-1].seat != partner or game.calls[partner] is not None or \
            not game.hands[partner]:
        return None
    view: TichuView = game.view(seat)
    plays = [p for p in legal_plays(view) if not p.is_bomb]
    return seat if plays else None


def test_a_pass_over_a_calling_partner_gives_partner_tichu() -> None:
    data, seat = find(_partner_on_top, prefix="partner")
    partner = (seat + 2) % 4
    actions = data["deals"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if a["do"] == "play")
    # The partner calls Tichu before the first card (a call changes no play's legality).
    actions.insert(first_play, {"seat": partner, "do": "tichu"})
    assert run_tichu_replay(data)["error"] is None
    found = check(hint(data, seat), data, seat)
    assert found.best == Pass(seat) and found.reason == "partner_tichu"
    assert found.kind == "pass"


def test_every_reason_code_is_distinct_and_documented() -> None:
    # (``engine.review.hint`` is the function: the package exports it under the
    # module's name)
    module = importlib.import_module("engine.review.hint")
    assert len(set(REASONS)) == len(REASONS) and 6 <= len(REASONS) <= 12
    assert all(f"``{code}``" in (module.__doc__ or "") for code in REASONS)


def _clear_tichu(game: TichuGame, i: int) -> int | None:
    if game.phase is not Phase.PLAY or game.turn is None:
        return None
    view = game.view(game.turn)
    clear = bidding.TICHU_THRESHOLD + 1.5
    return game.turn if can_call_tichu(view) and bidding.wants_tichu(view, clear) else None


def test_a_clear_tichu_hand_before_its_first_card_gets_a_tichu_hint() -> None:
    data, seat = find(_clear_tichu, tries=100, prefix="tichu")
    found = check(hint(data, seat), data, seat)
    assert found.kind == "tichu" and found.best == CallTichu(seat)
    assert {type(o) for o, _ in found.options} == {CallTichu, Abstain}
    assert found.reason == "strong_hand"


def test_the_options_are_valued_by_the_evaluator_the_hard_player_decides_with() -> None:
    data, seat = find(lambda game, i: _on_turn_with_choice(game, i) if i > 30 else None,
                      prefix="valued")
    read = read_file(data)
    game = TichuGame(hands=read.deals[0].hands)
    for action in read.deals[0].actions:
        game.apply(action)
    player = HardPlayer()
    view = game.view(seat)
    player.act(view, random.Random(1))
    found = check(hint(data, seat), data, seat)
    # The hard player's own candidates are among the hint's options, valued alike.
    best_value = next(v for o, v in found.options if o == found.best)
    assert best_value == pytest.approx(max(player.last_values), abs=1e-3)
