"""``python -m tools.review_quality``: its blunders are made as described, and it prints
its three figures (run here on one tiny case, with few samples)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from engine.duplicate.play import board_player
from engine.tichu.actions import Action, Pass, Play
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.legal import legal_plays
from engine.tichu.replay import read_file, replay
from engine.tichu.view import Phase, TichuView
from tools.review_quality import (
    TRUE_COST,
    Blundering,
    Case,
    expected_cost,
    hard_deal,
    make_case,
    run,
    true_cost,
    truly_costly,
)


def test_a_dragon_case_gives_the_dragon_to_an_opponent() -> None:
    case = make_case("dragon", 0, "t", hard_samples=2)
    assert case is not None
    action = case.replay["deals"][0]["actions"][case.index]
    assert action["do"] == "exchange" and action["seat"] == case.seat
    to = next(int(t) for t, c in action["give"].items() if c == "DRAGON")
    assert to % 2 != case.seat % 2
    assert replay(case.replay)["ok"]
    game, blunder = _at(case)
    assert truly_costly(game, blunder, hard_samples=2)  # it loses with the real cards


def test_the_tool_prints_the_three_figures() -> None:
    text = run(per_kind=1, hard_deals=1, hard_samples=2, seed="t", jobs=1,
               kinds=("grand",))
    assert "1. blunders ranked first" in text and "grand" in text
    assert "2. hard (the search player) v itself" in text and "3. CPU seconds" in text


def test_the_learned_hard_plays_the_deals_of_figure_2_when_asked(tmp_path: Path) -> None:
    text = run(per_kind=0, hard_deals=1, hard_samples=2, seed="t", jobs=1, kinds=(),
               cases=str(tmp_path), hard_level="hard")
    assert "2. hard (the learned player) v itself" in text and "in 1 deals" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-hard-hard-0.json"]
    learned = json.loads((tmp_path / "t-hard-hard-0.json").read_text())
    assert learned == hard_deal(0, "t", 2, "hard")  # its own play, seeded
    assert learned != hard_deal(0, "t", 2, "search")


def test_kept_cases_are_made_once_and_taken_back_as_they_are(tmp_path: Path) -> None:
    def dragon_line() -> str:
        text = run(per_kind=1, hard_deals=1, hard_samples=2, seed="t", jobs=1,
                   kinds=("dragon",), cases=str(tmp_path))
        return next(line.split()[1] for line in text.splitlines() if "dragon" in line)

    assert dragon_line() == "1/1"
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["t-2-dragon-0.json", "t-2-hard-0.json"]
    path = tmp_path / "t-2-dragon-0.json"
    case = json.loads(path.read_text())
    assert case == dataclasses.asdict(make_case("dragon", 0, "t", hard_samples=2))
    case["index"] = -1  # taken back as it is, never made again
    path.write_text(json.dumps(case))
    assert dragon_line() == "0/1"
    path.write_text('{"kind": "dragon", "se')  # a file cut short is made again
    assert dragon_line() == "1/1" and json.loads(path.read_text())["index"] != -1


def test_a_pass_case_passes_where_one_play_goes_out_and_truly_loses() -> None:
    case = make_case("pass", 0, "t", hard_samples=2)
    assert case is not None
    game, blunder = _at(case)
    assert isinstance(blunder, Pass) and blunder.seat == case.seat
    view = game.view(case.seat)
    out = [p for p in legal_plays(view) if len(p.cards) == len(view.hand)]
    assert out and view.trick[-1].seat % 2 != case.seat % 2
    better = Play(case.seat, out[0].cards, None, out[0].phoenix)
    assert expected_cost(game, blunder, better, hard_samples=2) >= TRUE_COST


def test_a_pass_costs_what_the_seat_knew_not_what_the_hidden_cards_were() -> None:
    case = make_case("pass", 2, "t", hard_samples=2)
    assert case is not None
    game, blunder = _at(case)
    # Seats 1 and 2 swap a card the reviewed seat never saw (neither played nor given).
    swapped, _ = _at(case, swap=("Kc", "3h"))
    assert swapped.hands != game.hands
    view = game.view(case.seat)
    assert swapped.view(case.seat) == view
    out = next(p for p in legal_plays(view) if len(p.cards) == len(view.hand))
    better = Play(case.seat, out.cards, None, out.phoenix)
    # With the real cards the swap matters; from what the seat knew it cannot.
    assert true_cost(swapped, blunder, better, hard_samples=2) != \
        true_cost(game, blunder, better, hard_samples=2)
    assert expected_cost(swapped, blunder, better, hard_samples=2, deals=4) == \
        expected_cost(game, blunder, better, hard_samples=2, deals=4)


def test_a_pass_that_loses_nothing_is_turned_down() -> None:
    # With nothing to lose the pass is no blunder: the seat plays on as hard does.
    wrapper = Blundering(board_player("hard", 2), None, _pass_always, confirm=lambda g, a: False)
    game = TichuGame(seed="turned-down")
    wrapper.game = game
    play_deal(game, [wrapper] * 4, random.Random(0))
    assert wrapper.done is None and wrapper.rejected > 0
    assert game.phase is not Phase.PLAY


def _at(case: Case, swap: tuple[str, str] | None = None) -> tuple[TichuGame, Action]:
    """The case's game just before its blunder, and the blunder; ``swap`` exchanges two
    cards (named) between the hands they were dealt in."""
    read = read_file(case.replay)
    deal = read.deals[0]
    hands = [list(h) for h in deal.hands]
    if swap is not None:
        x, y = (next(c for h in hands for c in h if str(c) == name) for name in swap)
        a = next(h for h in hands if x in h)
        b = next(h for h in hands if y in h)
        a[a.index(x)], b[b.index(y)] = y, x
    game = TichuGame(target=read.target, hands=hands, players=read.players)
    for action in deal.actions[:case.index]:
        game.apply(action)
    return game, deal.actions[case.index]


def _pass_always(view: TichuView) -> Action | None:
    if view.phase is Phase.PLAY and view.turn == view.seat and view.trick:
        assert view.seat is not None
        return Pass(view.seat)
    return None
