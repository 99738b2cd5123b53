"""tools.arena_openspiel (issue 54): a tiny match against OpenSpiel's IS-MCTS in which both
engines agree along every deal, and the report's shape; never speed or strength.

OpenSpiel is not in .venv: the match runs in-process where ``pyspiel`` imports, else in
``.venv-openspiel`` (``make openspiel-env``) when it exists, else it is skipped. The deal's
encoding, the 13-card rounds (this engine only) and the sentence without OpenSpiel need
no OpenSpiel and always run."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.chinois.actions import Action, Bid, Play
from engine.chinois.ai import NormalPlayer, shown_voids
from engine.chinois.deal import seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase
from tools import arena_openspiel
from tools.arena_openspiel import (
    Settings,
    chance_actions,
    fair_deal,
    from_spiel,
    load_pyspiel,
    our_card,
    play_pairs,
    spiel_card,
    to_spiel,
    undealt,
)

ROOT = Path(__file__).resolve().parents[2]
OPENSPIEL_VENV = ROOT / ".venv-openspiel"


def python_with_openspiel() -> str | None:
    if load_pyspiel() is not None:
        return sys.executable
    installed = (OPENSPIEL_VENV / ".installed").exists()  # (make's stamp: fully installed)
    return str(OPENSPIEL_VENV / "bin" / "python") if installed else None


def openspiel_python() -> str:
    """A Python that has OpenSpiel (this one, or ``.venv-openspiel``'s); else the test is
    skipped."""
    python = python_with_openspiel()
    if python is None:
        pytest.skip("open_spiel is not installed here and there is no .venv-openspiel "
                    "(make openspiel-env)")
    return python


def run(python: str, *args: str, pythonpath: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m tools.arena_openspiel`` from the top of the repository."""
    env = None if pythonpath is None else dict(os.environ, PYTHONPATH=pythonpath)
    return subprocess.run([python, "-m", "tools.arena_openspiel", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_cards_and_bids_map_one_to_one() -> None:
    deck = seeded_deal("test", 13).hands
    cards = [c for hand in deck for c in hand]
    assert sorted(spiel_card(c) for c in cards) == list(range(52))
    assert all(our_card(spiel_card(c)) == c for c in cards)
    # oh_hell names its cards C2 D2 S2 H2 C3 ...: our hearts are its 3, our spades its 2
    assert [spiel_card(c) for c in sorted(cards)[:4]] == [0, 1, 3, 2]
    assert to_spiel(Bid(1, 3)) == 55 and from_spiel(55, 1, Phase.BID) == Bid(1, 3)
    assert from_spiel(to_spiel(Play(2, cards[0])), 2, Phase.PLAY) == Play(2, cards[0])


def test_the_chance_outcomes_deal_round_the_table_then_turn_the_trump() -> None:
    deal = seeded_deal("test", 3)
    outcomes = chance_actions(deal)
    assert deal.trump_card is not None
    assert outcomes[:2] == [3, deal.dealer]
    assert outcomes[2:6] == [spiel_card(deal.hands[s][0]) for s in range(4)]
    assert len(outcomes) == 2 + 12 + 1 and outcomes[-1] == spiel_card(deal.trump_card)
    with pytest.raises(ValueError, match="trump"):
        chance_actions(seeded_deal("test", 13))


def test_the_13_card_rounds_are_played_in_this_engine_and_reported_apart() -> None:
    settings = Settings("test", "normal", 20, (13,), "normal")
    results = list(play_pairs(2, settings))
    assert [r.opponent for r in results] == ["normal", "normal"]
    for result in results:
        # the same player on both sides deals the same game twice: value 0
        assert result.deals[0].actions == result.deals[1].actions
        assert result.value == 0 and result.deals[0].checked == 0
    text = arena_openspiel.report(results, settings, 1.0, 1)
    assert "13-card rounds (no trump; oh_hell cannot deal them), against this engine's " \
           "normal: 2 pairs" in text


def test_the_interval_is_students() -> None:
    # scipy.stats.t.ppf(0.975, df) for df 1, 4, 5, 30 and 600
    for df, t in ((1, 12.7062), (4, 2.7764), (5, 2.5706), (30, 2.0423), (600, 1.9639)):
        assert arena_openspiel.t975(df) == pytest.approx(t, abs=0.004)
    mean, low, high = arena_openspiel.interval([1.0, 3.0])
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - 12.706, 2.0 + 12.706))


def test_without_openspiel_one_sentence_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "pyspiel.py").write_text("raise ImportError('not here')\n", encoding="utf-8")
    done = run(sys.executable, "--pairs", "1", pythonpath=str(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("arena_openspiel: open_spiel is not installed")


def test_a_tiny_match_agrees_in_both_engines_and_reports() -> None:
    python = openspiel_python()
    done = run(python, "--level", "normal", "--pairs", "2", "--sims", "20", "--rounds", "1,7",
               "--seed", "test", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("normal, Chinois rounds 1,7: 2 pairs (4 deals) in ")
    assert lines[0].endswith(" job(s); not fair: IS-MCTS searches the true state, knows the "
                             "pack")
    assert lines.pop(1) == ("against IS-MCTS(20) on oh_hell (uct_c 2, random rollouts, most "
                            "visited): 2 pairs")
    number = r"[+-]\d+\.\d\d"
    assert re.fullmatch(rf"  normal over IS-MCTS\(20\): {number} \(95% CI {number} to "
                        rf"{number}\) points a seat a deal; normal -?\d+\.\d\d, IS-MCTS\(20\) "
                        r"-?\d+\.\d\d a seat a deal", lines[1]), lines[1]
    assert re.fullmatch(r"  pairs won \d, tied \d, lost \d", lines[2])
    assert re.fullmatch(rf"  by cards a seat: 1: {number} ×1; 7: {number} ×1", lines[3])
    # rounds of 1 and 7 cards: 4 bids and 4 plays a trick, twice a pair
    decisions = 2 * (8 + 32)
    assert lines[4] == (f"  engines agreed: every legal set of {decisions} decisions and "
                        "every final score of 4 deals")
    assert lines[5].startswith("  ms a decision with a choice: normal p50 ")
    assert len(lines) == 6


def test_the_fair_world_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    moved = decisions = 0
    for round_ in (1, 7, 12):
        deal = seeded_deal("fair", round_)
        game, actions = ChinoisGame(deal=deal), list[Action]()
        player, rng = NormalPlayer(), random.Random("decisions")
        while game.phase in (Phase.BID, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            world = fair_deal(game, actions, random.Random(f"fair:{len(actions)}"))
            assert world == fair_deal(game, actions, random.Random(f"fair:{len(actions)}"))
            assert (world.round, world.dealer, world.trump_card) == \
                (deal.round, deal.dealer, deal.trump_card)
            assert world.hands[seat] == deal.hands[seat]
            voids = shown_voids(game.view(seat))
            for s in range(4):
                shown = [a.card for a in actions if isinstance(a, Play) and a.seat == s]
                assert set(shown) <= set(world.hands[s])
                left = set(world.hands[s]) - set(shown)
                assert len(left) == len(game.hands[s])
                if s != seat:
                    assert not any(c & 3 in voids[s] for c in left)
            decisions += 1
            moved += undealt(world) != undealt(deal)
            action = player.act(game.view(seat), rng)
            assert action is not None
            game.apply(action)
            actions.append(action)
    assert decisions == (4 + 4) + (4 + 28) + (4 + 48)
    assert moved > decisions / 2


FAIR_STATES = """
import json, random
from engine.chinois.ai import NormalPlayer
from engine.chinois.deal import seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.view import Phase
from tools.arena_openspiel import Mirror, fair_state, load_pyspiel, spiel_game

oh_hell = spiel_game(load_pyspiel())

def pack(state):
    n = state.history()[0]
    return set(range(52)) - set(state.history()[2:2 + 4 * n + 1])

out = dict(decisions=0, same_legal=0, same_infostate=0, other_pack=0)
for round_ in (1, 7, 12):
    deal = seeded_deal("fair", round_)
    game, true, actions = ChinoisGame(deal=deal), Mirror(oh_hell, deal), []
    player, rng = NormalPlayer(), random.Random("decisions")
    while game.phase in (Phase.BID, Phase.PLAY):
        seat, legal = game.turn, true.check(game)
        state = fair_state(oh_hell, game, actions, random.Random(f"fair:{len(actions)}"))
        out["decisions"] += 1
        out["same_legal"] += (state.current_player() == seat
                              and sorted(state.legal_actions()) == legal)
        out["same_infostate"] += (state.information_state_string(seat)
                                  == true.state.information_state_string(seat))
        out["other_pack"] += pack(state) != pack(true.state)
        action = player.act(game.view(seat), rng)
        game.apply(action)
        true.apply(action)
        actions.append(action)
print(json.dumps(out))
"""
"""Every decision of three deals (1, 7 and 12 cards) played by ``normal``: the fair state's
player to move, legal actions and information state against the true state's, and how
often its pack differs from the true one."""


def test_the_fair_state_offers_the_true_legal_actions_and_another_pack() -> None:
    python = openspiel_python()
    runs = [subprocess.run([python, "-c", FAIR_STATES], cwd=ROOT, capture_output=True,
                           text=True, timeout=600, check=False) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout  # seeded: the same worlds each time
    out = json.loads(runs[0].stdout)
    decisions = (4 + 4) + (4 + 28) + (4 + 48)
    assert out["decisions"] == out["same_legal"] == out["same_infostate"] == decisions
    assert out["other_pack"] > decisions / 2

def test_a_tiny_fair_match_agrees_in_both_engines_and_says_so() -> None:
    python = openspiel_python()
    done = run(python, "--level", "normal", "--pairs", "2", "--sims", "20", "--rounds", "1,7",
               "--seed", "test", "--quiet", "--fair")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("normal, Chinois rounds 1,7: 2 pairs (4 deals) in ")
    assert lines[0].endswith(" job(s); fair: IS-MCTS searches a redealt world, not the pack")
    assert lines[5] == ("  engines agreed: every legal set of 80 decisions and every final "
                        "score of 4 deals")
