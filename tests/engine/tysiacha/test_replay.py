"""The Tysiacha section of the replay contract: golden files (a whole game to 1000 with
a barrel episode among them), the CLI, the trace, defaults, and refusals of bad files."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import run_replay
from tests.engine.replay_support import check_golden, golden_files, replay_cli

FIXTURES = Path(__file__).parents[2] / "fixtures" / "tysiacha"
GOLDEN = golden_files("tysiacha")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data




@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    check_golden(path)


def test_whole_game_reaches_1000() -> None:
    out = run_replay(load("whole_game"))
    assert out["ok"] and out["phase"] == "game_over"
    assert out["winner"] == max(range(3), key=lambda s: out["scores"][s])
    assert out["scores"][out["winner"]] >= 1000 and out["turn"] is None


def test_whole_game_has_a_barrel_episode() -> None:
    data = load("whole_game")
    barrels = []
    for n in range(1, len(data["deals"]) + 1):
        out = run_replay({**data, "deals": data["deals"][:n]})
        barrels.append((out["barrel"][2], out["scores"][2], out["redeal"]))
    entered = next(i for i, (b, _, _) in enumerate(barrels) if b == 3)
    # On at 880 with three deals; the redeal uses none; the third deal ends it at 760.
    assert barrels[entered:] == [(3, 880, False), (2, 880, False), (2, 880, True),
                                 (1, 880, False), (None, 760, False)]


def test_four_player_table() -> None:
    data = load("four_players")
    assert data["players"] == 4
    for deal in data["deals"]:
        assert deal["hands"][deal["dealer"]] == []
    out = run_replay(data)
    assert out["ok"] and len(out["scores"]) == 4 and out["winner"] is not None


def test_command_line_runs_a_file() -> None:
    path = FIXTURES / "whole_game.json"
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(path.with_suffix(".expected.json").read_text())


def test_trace_lists_bids_gifts_and_cards() -> None:
    data = load("partial_trace")
    out = run_replay(data)
    actions = data["deals"][0]["actions"]
    assert len(out["trace"]) == len(actions)
    for entry, action in zip(out["trace"], actions, strict=True):
        assert entry["seat"] == action["seat"]
        if action["do"] not in ("bid", "pass"):
            assert entry["can_pass"] is False
        if action["do"] == "bid":
            assert action["bid"] in entry["legal"]
        elif action["do"] == "pass":
            assert entry["can_pass"] is True
        elif action["do"] == "raise":
            assert action["bid"] in entry["legal"]
        elif action["do"] == "give":
            assert action["give"] in entry["legal"] and len(entry["legal"]) == 90
        elif action["do"] == "play":
            assert action["card"] in entry["legal"]
            if action.get("marriage"):
                assert action["card"] in entry["marriages"]
    assert out["marriages"] and out["trump"] == out["marriages"][-1]["suit"]


def test_redeal_keeps_the_dealer_by_default() -> None:
    data = load("redeal_defaults")
    assert "dealer" not in data["deals"][1] and "dealer" not in data["deals"][2]
    first = run_replay({**data, "deals": data["deals"][:1]})
    second = run_replay({**data, "deals": data["deals"][:2]})
    third = run_replay(data)
    assert second["redeal"] is True and second["deal_scores"] == [0, 0, 0]
    assert second["dealer"] == third["dealer"] == (first["dealer"] + 1) % 3
    assert second["scores"] == first["scores"]


def test_rejected_action_stops_the_replay() -> None:
    out = run_replay(load("rejected_action"))
    assert out["ok"] is False and out["error"]["code"] == "must_open"
    assert out["error"]["index"] == 0 and out["error"]["deal"] == 1
    assert out["phase"] == "bidding" and out["deal_scores"] is None


def _deal() -> dict[str, Any]:
    return {"prikup": ["9c", "9d", "9h"],
            "hands": [["9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd"],
                      ["Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc"],
                      ["Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"]]}


def _with(**changes: Any) -> dict[str, Any]:
    deal = _deal()
    deal.update(changes)
    return {"game": "tysiacha", "deals": [deal]}


def test_fresh_deal_output() -> None:
    code, out, _ = replay_cli(_with())
    state = json.loads(out)
    assert code == 0
    assert state == {
        "ok": True, "error": None, "phase": "bidding", "turn": 0, "dealer": 2,
        "hands": state["hands"], "prikup": ["9c", "9d", "9h"], "trick": [],
        "bids": [None] * 3, "passed": [False] * 3, "soloist": None, "contract": None,
        "trump": None, "marriages": [], "points": [0, 0, 0], "tricks_won": [0, 0, 0],
        "barrel": [None] * 3, "misses": [0] * 3, "concessions": [0] * 3, "redeal": False,
        "deal_scores": None, "scores": [0, 0, 0], "winner": None,
    }
    assert [len(h) for h in state["hands"]] == [7, 7, 7]


def test_concede_and_scores_per_seat() -> None:
    actions = [{"seat": 0, "do": "bid", "bid": 100}, {"seat": 1, "do": "pass"},
               {"seat": 2, "do": "pass"}, {"seat": 0, "do": "raise", "bid": 105},
               {"seat": 0, "do": "concede"}]
    out = run_replay(_with(actions=actions))
    assert out["phase"] == "deal_over" and out["soloist"] == 0 and out["contract"] == 105
    assert out["deal_scores"] == [0, 60, 60] and out["concessions"] == [1, 0, 0]


FOUR = {"game": "tysiacha", "players": 4, "deals": [{
    "prikup": ["9c", "9d", "9h"],
    "hands": [["9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd"], ["Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc"],
              [], ["Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"]]}]}


@pytest.mark.parametrize(
    ("data", "raw", "needle"),
    [
        (None, "{oops", "bad JSON"),
        ({"game": "tysiacha"}, None, "deals"),
        ({"game": "tysiacha", "deals": [1]}, None, "object"),
        ({**_with(), "players": 5}, None, "3 or 4"),
        ({**_with(), "players": "x"}, None, "players"),
        ({**_with(), "rounding": 3}, None, "rounding"),
        (_with(hands=_deal()["hands"][:2]), None, "3 hands"),
        (_with(hands=[*_deal()["hands"][:2], [*_deal()["hands"][2], "9c"]]), None, "card count"),
        (_with(prikup=["9c", "9d"]), None, "prikup"),
        (_with(prikup=["9c", "9d", "Jh"]), None, "twice"),
        (_with(prikup=["9c", "9d", "2h"]), None, "not a Tysiacha card"),
        (_with(prikup=["9c", "9d", "ZZ"]), None, "ZZ"),
        (_with(prikup=None), None, "prikup"),
        (_with(dealer=3), None, "dealer"),
        (_with(actions=[{"seat": 0, "do": "dance"}]), None, "dance"),
        (_with(actions=[{"do": "pass"}]), None, "seat"),
        (_with(actions=[{"seat": 0, "do": "bid"}]), None, "bid"),
        (_with(actions=[{"seat": 0, "do": "give", "give": ["9c"]}]), None, "give"),
        (_with(actions=[{"seat": 0, "do": "play", "card": "9s", "marriage": "yes"}]), None,
         "marriage"),
        (_with(actions=[{"seat": 0, "do": "play"}]), None, "card"),
        # Tichu's special cards are unknown tokens here, whatever the other games register.
        (_with(actions=[{"seat": 0, "do": "play", "card": "PHOENIX"}]), None, "PHOENIX"),
        (_with(actions=[{"seat": 0, "do": "give", "give": {"1": "DRAGON", "2": "9s"}}]), None,
         "DRAGON"),
        ({"game": "tysiacha", "deals": [_deal(), _deal()]}, None, "not over"),
        ({**FOUR, "deals": [{**FOUR["deals"][0], "dealer": 0}]}, None, "dealer sits out"),
        ({**FOUR, "players": 3}, None, "3 hands"),
    ],
)
def test_malformed_files_exit_2_with_one_line(data: Any, raw: str | None, needle: str) -> None:
    code, out, err = replay_cli(data, raw=raw)
    assert code == 2, out
    assert out == ""
    assert err.count("\n") == 1 and needle in err, err


def test_four_player_file_defaults_to_dealer_2() -> None:
    out = run_replay(copy.deepcopy(FOUR))
    assert out["ok"] and out["dealer"] == 2 and out["turn"] == 3 and out["hands"][2] == []


def test_command_line_refuses_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(prikup=["9c", "9d", "2h"])))
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_illegal_action_is_not_a_format_error() -> None:
    code, out, _ = replay_cli(_with(actions=[{"seat": 1, "do": "bid", "bid": 100}]))
    state = json.loads(out)
    assert code == 0 and state["ok"] is False and state["error"]["code"] == "not_your_turn"


def test_game_over_then_another_deal() -> None:
    data = load("whole_game")
    data["deals"].append(_deal())
    out = run_replay(data)
    assert out["ok"] is False and out["error"]["code"] == "game_over"
    assert out["error"]["deal"] == len(data["deals"]) - 1 and out["phase"] == "game_over"


BIDDING = [{"seat": 0, "do": "bid", "bid": 100}, {"seat": 1, "do": "pass"},
           {"seat": 2, "do": "pass"}]
"""Seat 0 wins the bidding and holds the prikup (9c 9d 9h); its opponents are seats 1 and 2."""
GIVE = {"seat": 0, "do": "give", "give": {"1": "9c", "2": "9d"}}


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 0, "do": "give", "give": {"1": "9c", "2": "9d", "0": "9h"}}, "bad_gift"),
        ({"seat": 0, "do": "give", "give": {"0": "9c", "1": "9d"}}, "bad_gift"),
        ({"seat": 0, "do": "give", "give": {"1": "9c"}}, "bad_gift"),
        ({"seat": 0, "do": "give", "give": {"1": "9c", "2": "9c"}}, "duplicate_card"),
        ({"seat": 0, "do": "give", "give": {"1": "Kd", "2": "9c"}}, "card_not_in_hand"),
        ({"seat": 1, "do": "give", "give": {"0": "Jh", "2": "Js"}}, "not_your_turn"),
        ({"seat": 0, "do": "raise", "bid": 103}, "bad_bid_step"),
    ],
)
def test_a_give_or_raise_breaking_a_rule_is_a_rejection(action: dict[str, Any], code: str) -> None:
    status, text, err = replay_cli(_with(actions=[*BIDDING, action]))
    assert status == 0, err
    state = json.loads(text)
    assert state["ok"] is False and state["phase"] == "prikup"
    assert state["error"]["index"] == 3 and state["error"]["deal"] == 0
    assert state["error"]["code"] == code


def test_playing_a_known_card_not_in_the_deck_is_a_rejection() -> None:
    status, text, _ = replay_cli(_with(actions=[*BIDDING, GIVE,
                                                {"seat": 0, "do": "play", "card": "2h"}]))
    state = json.loads(text)
    assert status == 0 and state["ok"] is False and state["phase"] == "play"
    assert state["error"]["index"] == 4 and state["error"]["code"] == "card_not_in_hand"
