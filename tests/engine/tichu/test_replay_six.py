"""The six-player replay contract: golden files, the CLI, the trace, the dealer
defaults, the refusals of malformed files (exit 2) and the rejections of actions
that break a rule (exit 0, ``ok: false``, the error naming the action)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import run_replay
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.replay import replay_game, state_json, to_replay
from tests.engine.replay_support import FIXTURES, check_golden, golden_files, replay_cli

SIX = FIXTURES / "tichu_six"
GOLDEN = golden_files("tichu_six")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SIX / f"{name}.json").read_text())
    return data


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SIX / f"{name}.expected.json").read_text())
    return data


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    check_golden(path)


def test_golden_set_covers_five_out_triple_victory_and_a_whole_game() -> None:
    assert {p.stem for p in GOLDEN} >= {"five_out", "triple_victory", "whole_game"}
    five = expected("five_out")
    assert five["phase"] == "deal_over" and len(five["out"]) == 5
    assert five["triple_victory"] is False and sum(five["deal_scores"]) != 0
    assert len(five["hands"]) == 6 and len(five["calls"]) == 6
    triple = expected("triple_victory")
    assert triple["triple_victory"] is True and len(triple["out"]) == 3
    assert len({s % 2 for s in triple["out"]}) == 1
    whole = expected("whole_game")
    assert whole["phase"] == "game_over" and whole["winner"] in (0, 1)
    assert max(whole["scores"]) >= 1000 and len(load("whole_game")["deals"]) > 3
    # The five-out file leaves the dealer to its default and names a Dog's partner.
    data = load("five_out")
    assert data["players"] == 6 and "dealer" not in data["deals"][0]
    assert any(a.get("to") is not None for a in data["deals"][0]["actions"])


def test_command_line_runs_a_six_player_file() -> None:
    path = SIX / "triple_victory.json"
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected("triple_victory")


def test_trace_lists_the_legal_card_sets_as_for_four_players() -> None:
    data = load("partial_trace")
    out = run_replay(data)
    actions = data["deals"][0]["actions"]
    assert len(out["trace"]) == len(actions)
    for entry, action in zip(out["trace"], actions, strict=True):
        assert entry["seat"] == action["seat"]
        if action["do"] == "play":
            assert sorted(action["cards"]) in [sorted(s) for s in entry["legal"]]
        if action["do"] == "pass":
            assert entry["can_pass"]
        if action["do"] in ("grand_tichu", "decline_grand", "exchange"):
            assert entry["legal"] == [] and entry["can_pass"] is False
        assert len({tuple(s) for s in entry["legal"]}) == len(entry["legal"])


def test_to_replay_round_trips_a_game_and_keeps_four_player_files_unchanged() -> None:
    game = play_game([EasyPlayer()] * 6, seed=21, max_deals=3)
    data = json.loads(json.dumps(to_replay(game)))
    assert data["players"] == 6
    assert [d["dealer"] for d in data["deals"]] == game.dealers
    again, run = replay_game(data)
    assert run.error is None and state_json(again) == state_json(game)
    four = to_replay(play_game([EasyPlayer()] * 4, seed=21, max_deals=1))
    assert "players" not in four and "dealer" not in four["deals"][0]
    assert "triple_victory" not in run_replay(four)


def test_later_dealers_default_to_one_seat_on() -> None:
    game = play_game([EasyPlayer()] * 6, seed=2, max_deals=3)
    assert game.dealers[0] != 5
    data = json.loads(json.dumps(to_replay(game)))
    for deal in data["deals"][1:]:
        del deal["dealer"]
    out = run_replay(data)
    assert out["ok"] is True and out["scores"] == list(game.scores)
    # Without the first dealer either, seat 5 is assumed and the counts no longer fit.
    del data["deals"][0]["dealer"]
    code, _, err = replay_cli(data)
    assert code == 2 and "seat 5 deals" in err


def six_file(**changes: Any) -> dict[str, Any]:
    data = load("five_out")
    data["deals"] = [{"hands": data["deals"][0]["hands"],
                      "actions": data["deals"][0]["actions"][:12]}]
    data.update(changes)
    return data


def with_action(action: dict[str, Any]) -> dict[str, Any]:
    data = six_file()
    data["deals"][0]["actions"] = [action]
    return data


def test_fresh_six_player_deal_output() -> None:
    code, out, _ = replay_cli(six_file(deals=[{"hands": six_file()["deals"][0]["hands"]}]))
    state = json.loads(out)
    assert code == 0
    assert state["phase"] == "grand" and state["calls"] == [None] * 6
    assert [len(h) for h in state["hands"]] == [10, 10, 9, 9, 9, 9]
    assert state["triple_victory"] is None and state["scores"] == [0, 0]


HANDS = load("five_out")["deals"][0]["hands"]
SEAT0 = HANDS[0]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (six_file(players=5), "4 or 6"),
        (six_file(players=True), "4 or 6"),
        (six_file(deals=[{"hands": HANDS[:4]}]), "6 hands"),
        (six_file(deals=[{"dealer": 0, "hands": HANDS}]), "seat 0 deals"),
        (six_file(deals=[{"dealer": 6, "hands": HANDS}]), "dealer"),
        (six_file(deals=[{"dealer": "5", "hands": HANDS}]), "dealer"),
        (six_file(deals=[{"hands": [HANDS[0], HANDS[2], HANDS[1], *HANDS[3:]]}]), "cards"),
        (with_action({"seat": 0, "do": "play", "cards": ["DOG"], "to": "x"}), "to"),
        # Unknown card tokens stay format errors in the actions the six-player game adds.
        (with_action({"seat": 0, "do": "exchange", "give": {"2": "ZZ", "4": SEAT0[1]}}), "ZZ"),
        (with_action({"seat": 0, "do": "exchange", "give": ["2", SEAT0[0]]}), "give"),
        (with_action({"seat": 0, "do": "exchange", "give": {"x": SEAT0[0], "4": SEAT0[1]}}),
         "exchange target"),
        (with_action({"seat": 4, "do": "play", "cards": ["D0G"], "to": 2}), "D0G"),
        (six_file(game="tichu6"), "unknown game"),
    ],
)
def test_malformed_six_player_files_exit_2_with_one_line(data: Any, needle: str) -> None:
    code, out, err = replay_cli(data)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err


def test_a_dog_naming_no_partner_while_two_hold_cards_is_a_refused_action() -> None:
    data = load("five_out")
    actions = data["deals"][0]["actions"]
    dog = next(i for i, a in enumerate(actions) if a.get("to") is not None)
    out = run_replay(data)
    assert out["ok"] is True
    # Naming no partner while two hold cards is refused at play time, not a format error.
    bad = copy.deepcopy(data)
    del bad["deals"][0]["actions"][dog]["to"]
    code, text, _ = replay_cli(bad)
    state = json.loads(text)
    assert code == 0 and state["ok"] is False
    assert state["error"]["index"] == dog and state["error"]["code"] == "bad_dog_target"


def at(index: int, action: dict[str, Any], name: str = "five_out", deal: int = 0) -> dict[str, Any]:
    """The golden file ``name`` cut at action ``index`` of ``deal``, where ``action`` replaces it."""
    data = load(name)
    data["deals"] = data["deals"][:deal + 1]
    data["deals"][deal]["actions"] = [*data["deals"][deal]["actions"][:index], action]
    return data


def rejected(data: dict[str, Any], index: int, code: str, deal: int = 0) -> dict[str, Any]:
    """Replay on the CLI: read (exit 0) and stopped at action ``index`` of ``deal``,
    refused with ``code``; the state is the one just before that action."""
    status, text, err = replay_cli(data)
    assert status == 0, err
    state: dict[str, Any] = json.loads(text)
    assert state["ok"] is False
    assert set(state["error"]) >= {"index", "deal", "message"}
    assert state["error"]["index"] == index and state["error"]["deal"] == deal
    assert state["error"]["code"] == code and state["error"]["message"]
    before = copy.deepcopy(data)
    del before["deals"][deal]["actions"][index]
    assert {k: v for k, v in state.items() if k not in ("ok", "error")} == \
        {k: v for k, v in run_replay(before).items() if k not in ("ok", "error")}
    return state


EXCHANGE = 6
"""five_out: the first exchange (seat 0, partners 2 and 4), in phase exchange."""
DOG = 12
"""five_out: seat 4 leads the Dog (partners 0 and 2 hold cards; opponents 1, 3, 5)."""


@pytest.mark.parametrize(
    "give",
    [
        {"1": SEAT0[0], "2": SEAT0[1]},  # to an opponent
        {"2": SEAT0[0], "4": SEAT0[1], "3": SEAT0[2]},  # three cards
        {"2": SEAT0[0], "4": SEAT0[1], "0": SEAT0[2]},  # three cards, one to itself
        {"2": SEAT0[0]},  # one card
        {"2": SEAT0[0], "02": SEAT0[1]},  # one partner named twice
        {"2": SEAT0[0], "9": SEAT0[1]},  # no such seat
    ],
)
def test_six_player_exchange_breaking_a_rule_is_a_rejection(give: dict[str, str]) -> None:
    state = rejected(at(EXCHANGE, {"seat": 0, "do": "exchange", "give": give}), EXCHANGE,
                     "bad_exchange")
    assert state["phase"] == "exchange" and "each partner (2 and 4)" in state["error"]["message"]


def test_six_player_exchange_to_an_opponent_in_a_later_deal_names_that_deal() -> None:
    data = load("whole_game")
    actions = data["deals"][2]["actions"]
    index = next(i for i, a in enumerate(actions) if a["do"] == "exchange")
    seat = actions[index]["seat"]
    cards = list(actions[index]["give"].values())
    opponent = (seat + 1) % 6
    bad = at(index, {"seat": seat, "do": "exchange",
                     "give": {str(opponent): cards[0], str((seat + 2) % 6): cards[1]}},
             name="whole_game", deal=2)
    rejected(bad, index, "bad_exchange", deal=2)


@pytest.mark.parametrize("to", [1, 3, 5, 4, 9])
def test_six_player_dog_passed_to_an_opponent_is_a_rejection(to: int) -> None:
    state = rejected(at(DOG, {"seat": 4, "do": "play", "cards": ["DOG"], "to": to}), DOG,
                     "bad_dog_target")
    assert state["phase"] == "play" and state["turn"] == 4 and "DOG" in state["hands"][4]


def test_six_player_to_on_a_play_without_the_dog_is_a_rejection() -> None:
    hand = run_replay(at(DOG, {"seat": 4, "do": "pass"}))["hands"][4]
    card = next(c for c in hand if c != "DOG")
    state = rejected(at(DOG, {"seat": 4, "do": "play", "cards": [card], "to": 2}), DOG,
                     "bad_dog_target")
    assert "Dog" in state["error"]["message"]


def test_six_player_exchange_of_a_card_not_held_is_a_rejection() -> None:
    other = HANDS[1][0]
    rejected(at(EXCHANGE, {"seat": 0, "do": "exchange", "give": {"2": other, "4": SEAT0[1]}}),
             EXCHANGE, "card_not_in_hand")
