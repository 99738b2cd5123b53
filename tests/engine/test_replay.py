"""The replay contract: golden files, the CLI, its trace and its refusals of bad files."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import main, run_replay
from tests.engine.replay_support import check_golden, golden_files, replay_cli

FIXTURES = Path(__file__).parents[1] / "fixtures" / "replay"
GOLDEN = golden_files("replay")




@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    check_golden(path)


def test_golden_set_covers_the_required_games() -> None:
    names = {p.stem for p in GOLDEN}
    assert {"complete_deal", "double_victory", "game_to_1000"} <= names
    whole = json.loads((FIXTURES / "game_to_1000.expected.json").read_text())
    assert whole["phase"] == "game_over" and whole["winner"] in (0, 1)
    assert max(whole["scores"]) >= 1000
    double = json.loads((FIXTURES / "double_victory.expected.json").read_text())
    first, second = double["out"]
    assert double["phase"] == "deal_over" and first % 2 == second % 2


def test_command_line_runs_a_file() -> None:
    path = FIXTURES / "complete_deal.json"
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(path.with_suffix(".expected.json").read_text())


def test_trace_has_one_entry_per_applied_action() -> None:
    data = json.loads((FIXTURES / "partial_deal_trace.json").read_text())
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


def test_rejected_action_stops_the_replay() -> None:
    out = run_replay(json.loads((FIXTURES / "rejected_action.json").read_text()))
    assert out["ok"] is False
    assert set(out["error"]) >= {"index", "deal", "message"}


def minimal(**changes: Any) -> dict[str, Any]:
    deck = json.loads((FIXTURES / "complete_deal.json").read_text())
    deck["deals"] = [{"hands": deck["deals"][0]["hands"], "actions": []}]
    deck.update(changes)
    return deck


def test_fresh_deal_output() -> None:
    code, out, _ = replay_cli(minimal())
    state = json.loads(out)
    assert code == 0
    assert state == {
        "ok": True, "error": None, "phase": "grand", "turn": None, "wish": None,
        "hands": state["hands"], "trick": [], "calls": [None] * 4, "out": [],
        "deal_scores": None, "scores": [0, 0], "winner": None,
    }
    assert all(len(h) == 14 for h in state["hands"])


def test_tokens_are_case_insensitive_and_ten_accepted() -> None:
    data = minimal()
    hands = data["deals"][0]["hands"]
    hands[0] = [t.lower().replace("T", "10") if t.startswith("T") else t.lower() for t in hands[0]]
    code, out, _ = replay_cli(data)
    assert code == 0 and json.loads(out)["hands"] == json.loads(replay_cli(minimal())[1])["hands"]


@pytest.mark.parametrize(
    ("data", "raw", "needle"),
    [
        (None, "{not json", "bad JSON"),
        (None, "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (None, '{"game": "tichu", "target": ' + "9" * 5000 + "}", "bad JSON"),
        (None, "[1, 2]", "object"),
        ({"game": "chess"}, None, "unknown game"),
        (minimal(deals=[]), None, "deals"),
        (minimal(target=0), None, "target"),
        (minimal(deals=[{"hands": [["2c"]] * 4}]), None, "cards"),
        (minimal(deals=[{"hands": [["ZZ"] * 14] * 4}]), None, "ZZ"),
        (minimal(deals=[{"hands": minimal()["deals"][0]["hands"][:3]}]), None, "4 hands"),
        (minimal(deals=[{"hands": [minimal()["deals"][0]["hands"][0]] * 4}]), None, "twice"),
        (minimal(deals=[{"hands": minimal()["deals"][0]["hands"], "actions": [{"do": "pass"}]}]),
         None, "seat"),
        (minimal(deals=[{"hands": minimal()["deals"][0]["hands"],
                         "actions": [{"seat": 0, "do": "dance"}]}]), None, "dance"),
        (minimal(deals=[{"hands": minimal()["deals"][0]["hands"],
                         "actions": [{"seat": 0, "do": "play", "cards": ["XX"]}]}]), None, "XX"),
        (minimal(deals=[{"hands": minimal()["deals"][0]["hands"]},
                        {"hands": minimal()["deals"][0]["hands"]}]), None, "not over"),
    ],
)
def test_malformed_files_exit_2_with_one_line(data: Any, raw: str | None, needle: str) -> None:
    code, out, err = replay_cli(data, raw=raw)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err


def test_unreadable_file(tmp_path: Path) -> None:
    err = io.StringIO()
    assert main(str(tmp_path / "missing.json"), io.StringIO(), err) == 2
    assert "cannot read" in err.getvalue()


def test_illegal_action_is_not_a_format_error() -> None:
    data = minimal()
    data["deals"][0]["actions"] = [{"seat": 0, "do": "pass"}]
    code, out, _ = replay_cli(data)
    state = json.loads(out)
    assert code == 0 and state["ok"] is False
    assert state["error"]["index"] == 0 and state["error"]["deal"] == 0
    assert state["phase"] == "grand"


def test_a_play_of_no_card_is_a_rejection_not_a_format_error() -> None:
    data = json.loads((FIXTURES / "partial_deal_trace.json").read_text())
    before = run_replay(data)
    actions = data["deals"][0]["actions"]
    actions.append({"seat": before["turn"], "do": "play", "cards": []})
    code, out, err = replay_cli(data)
    state = json.loads(out)
    assert code == 0, err
    assert state["ok"] is False and state["error"]["code"] == "not_a_combination"
    assert state["error"]["index"] == len(actions) - 1 and state["error"]["deal"] == 0
    assert {k: v for k, v in state.items() if k not in ("ok", "error", "trace")} == \
        {k: v for k, v in before.items() if k not in ("ok", "error", "trace")}


H0 = json.loads((FIXTURES / "complete_deal.json").read_text())["deals"][0]["hands"][0]


@pytest.mark.parametrize(
    ("give", "refusal"),
    [
        ({"1": H0[0], "2": H0[1]}, "bad_exchange"),  # two cards
        ({"1": H0[0], "2": H0[1], "3": H0[2], "0": H0[3]}, "bad_exchange"),  # one to itself
        ({"1": H0[0], "2": H0[0], "3": H0[2]}, "duplicate_card"),
        ({"1": H0[0], "2": H0[1], "3": "2s" if "2s" not in H0 else "3s"}, "card_not_in_hand"),
    ],
)
def test_a_four_player_exchange_breaking_a_rule_is_a_rejection(give: dict[str, str],
                                                               refusal: str) -> None:
    data = minimal()
    data["deals"][0]["actions"] = [
        *({"seat": s, "do": "decline_grand"} for s in range(4)),
        {"seat": 0, "do": "exchange", "give": give},
    ]
    code, out, _ = replay_cli(data)
    state = json.loads(out)
    assert code == 0 and state["ok"] is False and state["phase"] == "exchange"
    assert state["error"]["index"] == 4 and state["error"]["code"] == refusal
