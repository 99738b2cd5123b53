"""The Chinois section of the replay contract: golden files, the CLI, the trace, defaults,
and refusals of bad files (exit 2 with a one-line message)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.chinois.game import ChinoisGame
from engine.chinois.replay import to_replay
from engine.chinois.rules import cards_in_round, scheduled_dealer
from engine.replay import run_replay
from tests.engine.replay_support import check_golden, golden_files, replay_cli

FIXTURES = Path(__file__).parents[2] / "fixtures" / "chinois"
GOLDEN = golden_files("chinois")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data




@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    check_golden(path)


def test_whole_game_of_28_rounds() -> None:
    data = load("whole_game")
    assert [d["round"] for d in data["deals"]] == list(range(1, 29))
    assert [d["dealer"] for d in data["deals"]] == [scheduled_dealer(r) for r in range(1, 29)]
    out = run_replay(data)
    assert out["ok"] and out["phase"] == "game_over" and out["round"] == 28
    assert out["winner"] == [s for s in range(4) if out["scores"][s] == max(out["scores"])]
    assert len(out["ratings"]) == 4 and out["turn"] is None
    assert out["hands"] == [[], [], [], []] and sum(out["tricks_won"]) == 1


def test_command_line_runs_a_file() -> None:
    path = FIXTURES / "whole_game.json"
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(path.with_suffix(".expected.json").read_text())


@pytest.mark.parametrize("name", ["round_5_partial_trace", "no_trump_round"])
def test_trace_lists_legal_bids_and_cards(name: str) -> None:
    data = load(name)
    out = run_replay(data)
    actions = data["deals"][0]["actions"]
    assert len(out["trace"]) == len(actions)
    for entry, action in zip(out["trace"], actions, strict=True):
        assert entry["seat"] == action["seat"] and entry["can_pass"] is False
        if action["do"] == "bid":
            assert action["bid"] in entry["legal"]
            assert all(isinstance(b, int) for b in entry["legal"])
        else:
            assert action["card"] in entry["legal"]


def test_dealer_trace_leaves_out_the_forbidden_bid() -> None:
    data = load("forbidden_bid")
    last = data["deals"][-1]
    forbidden = last["actions"][-1]["bid"]
    last["actions"][-1]["bid"] = 0 if forbidden else 1
    data["trace"] = True
    out = run_replay(data)
    assert out["ok"]
    entry = out["trace"][-1]
    n = len(last["hands"][0])
    assert entry["seat"] == last["dealer"]
    assert entry["legal"] == [b for b in range(n + 1) if b != forbidden]


def test_rejected_action_stops_the_replay() -> None:
    out = run_replay(load("forbidden_bid"))
    assert out["ok"] is False and out["error"]["code"] == "forbidden_bid"
    assert out["error"]["index"] == 3 and out["error"]["deal"] == len(load("forbidden_bid")["deals"]) - 1
    assert out["phase"] == "bid" and out["bids"].count(None) == 1


def test_round_5_output_fields() -> None:
    out = run_replay(load("round_5_partial_trace"))
    assert out["round"] == 5 and out["dealer"] == scheduled_dealer(5)
    assert out["trump"] in ("c", "d", "h", "s") and out["trump_card"][1] == out["trump"]
    assert out["deal_scores"] is None and out["winner"] is None and out["scores"] == [0] * 4
    assert all(set(t) == {"seat", "card"} for t in out["trick"])
    assert sum(len(h) for h in out["hands"]) + len(out["trick"]) + 4 * sum(out["tricks_won"]) == 20


def test_no_trump_round_output() -> None:
    out = run_replay(load("no_trump_round"))
    assert out["round"] == 14 and out["trump"] is None and out["trump_card"] is None
    assert out["phase"] == "deal_over" and sum(out["tricks_won"]) == 13
    assert out["deal_scores"] == out["scores"]


def test_defaults_round_from_position_and_dealer_from_schedule() -> None:
    data = load("whole_game")
    for d in data["deals"]:
        del d["round"]
        del d["dealer"]
    assert run_replay(data) == json.loads((FIXTURES / "whole_game.expected.json").read_text())


def test_explicit_dealer_and_round() -> None:
    game = ChinoisGame(seed=1)
    data = to_replay(game)
    data["deals"][0]["dealer"] = 1
    data["deals"][0]["actions"] = [{"seat": 2, "do": "bid", "bid": 1}]
    out = run_replay(data)
    assert out["ok"] and out["dealer"] == 1 and out["turn"] == 3 and out["bids"][2] == 1


def test_tokens_are_case_insensitive_and_ten_accepted() -> None:
    data = load("no_trump_round")
    lowered = copy.deepcopy(data)
    lowered["deals"][0]["hands"] = [[t.lower().replace("t", "10") for t in h]
                                    for h in data["deals"][0]["hands"]]
    assert run_replay(lowered)["hands"] == run_replay(data)["hands"]


def _round_1() -> dict[str, Any]:
    return {"game": "chinois",
            "deals": [{"trump_card": "2c", "hands": [["Ah"], ["Kh"], ["Qh"], ["Jh"]]}]}


ROUND_2 = {"round": 2, "trump_card": "2c",
           "hands": [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"], ["Jh", "Jd"]]}


def _with(**deal: Any) -> dict[str, Any]:
    data = _round_1()
    data["deals"][0].update(deal)
    return data


@pytest.mark.parametrize(
    ("data", "raw", "needle"),
    [
        (None, "{not json", "bad JSON"),
        ({"game": "chinois"}, None, "deals"),
        ({"game": "chinois", "deals": []}, None, "deals"),
        ({"game": "chinois", "deals": [7]}, None, "object"),
        (_with(hands=[["Ah"], ["Kh"], ["Qh"]]), None, "4 hands"),
        (_with(hands=[["Ah", "Kd"], ["Kh"], ["Qh"], ["Jh"]]), None, "hand 0 has 2"),
        (_with(hands=[["Ah"], ["Ah"], ["Qh"], ["Jh"]]), None, "twice"),
        (_with(hands=[["ZZ"], ["Kh"], ["Qh"], ["Jh"]]), None, "ZZ"),
        (_with(hands="Ah"), None, "hands"),
        (_with(trump_card="Ah"), None, "also in a hand"),
        (_with(trump_card=None), None, "trump card"),
        (_with(trump_card="XX"), None, "XX"),
        (_with(round=13), None, "13 cards"),
        (_with(round=29), None, "round"),
        (_with(round="five"), None, "round"),
        (_with(dealer=4), None, "dealer"),
        (_with(actions=[{"do": "bid", "bid": 0}]), None, "seat"),
        (_with(actions=[{"seat": 0, "do": "dance"}]), None, "dance"),
        (_with(actions=[{"seat": 0, "do": "bid"}]), None, "bid"),
        (_with(actions=[{"seat": 0, "do": "bid", "bid": "x"}]), None, "whole number"),
        (_with(actions=[{"seat": 0, "do": "play", "card": "QQ"}]), None, "QQ"),
        (_with(actions=[{"seat": 0, "do": "play"}]), None, "card"),
        # Tichu's special cards are unknown tokens here, whatever the other games register.
        (_with(actions=[{"seat": 0, "do": "bid", "bid": 0}, {"seat": 0, "do": "play",
                                                             "card": "DOG"}]), None, "DOG"),
        (_with(actions="bid"), None, "actions"),
        ({"game": "chinois", "deals": [_round_1()["deals"][0], ROUND_2]}, None, "not over"),
        ({"game": "chinois", "deals": [ROUND_2, {**_round_1()["deals"][0], "round": 1}]}, None,
         "cannot follow"),
    ],
)
def test_malformed_files_exit_2_with_one_line(data: Any, raw: str | None, needle: str) -> None:
    code, out, err = replay_cli(data, raw=raw)
    assert code == 2, out
    assert out == ""
    assert err.count("\n") == 1 and needle in err, err


def test_command_line_refuses_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(round=29)))
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_illegal_action_is_not_a_format_error() -> None:
    code, out, _ = replay_cli(_with(actions=[{"seat": 1, "do": "bid", "bid": 0}]))
    state = json.loads(out)
    assert code == 0 and state["ok"] is False
    assert state["error"]["code"] == "not_your_turn" and state["phase"] == "bid"


def test_fresh_round_output() -> None:
    code, out, _ = replay_cli(_round_1())
    assert code == 0
    assert json.loads(out) == {
        "ok": True, "error": None, "phase": "bid", "turn": 0, "round": 1, "dealer": 3,
        "trump": "c", "trump_card": "2c", "hands": [["Ah"], ["Kh"], ["Qh"], ["Jh"]],
        "trick": [], "bids": [None] * 4, "tricks_won": [0] * 4, "deal_scores": None,
        "scores": [0] * 4, "winner": None,
    }
    assert cards_in_round(1) == 1


@pytest.mark.parametrize(
    ("actions", "code"),
    [
        ([{"seat": 0, "do": "bid", "bid": 2}], "bid_out_of_range"),
        ([{"seat": 0, "do": "bid", "bid": -1}], "bid_out_of_range"),
        ([{"seat": 0, "do": "bid", "bid": 0}, {"seat": 1, "do": "bid", "bid": 0},
          {"seat": 2, "do": "bid", "bid": 0}, {"seat": 3, "do": "bid", "bid": 1}],
         "forbidden_bid"),
        ([{"seat": 0, "do": "bid", "bid": 0}, {"seat": 1, "do": "bid", "bid": 0},
          {"seat": 2, "do": "bid", "bid": 0}, {"seat": 3, "do": "bid", "bid": 0},
          {"seat": 0, "do": "play", "card": "Kh"}], "card_not_in_hand"),
        ([{"seat": 0, "do": "bid", "bid": 0}, {"seat": 1, "do": "bid", "bid": 0},
          {"seat": 2, "do": "bid", "bid": 0}, {"seat": 3, "do": "bid", "bid": 0},
          {"seat": 0, "do": "play", "card": "2d"}], "card_not_in_hand"),
        ([{"seat": 0, "do": "play", "card": "Ah"}], "wrong_phase"),
    ],
)
def test_an_action_breaking_a_rule_is_a_rejection_naming_it(actions: list[dict[str, Any]],
                                                           code: str) -> None:
    status, text, err = replay_cli(_with(actions=actions))
    assert status == 0, err
    state = json.loads(text)
    assert state["ok"] is False and state["error"]["code"] == code
    assert state["error"]["index"] == len(actions) - 1 and state["error"]["deal"] == 0
