"""Write the golden replay files under tests/fixtures/replay/ and their expected output.

Each input is a game the ``easy`` computer players played from a fixed seed,
exported with :func:`engine.tichu.replay.to_replay`; each ``.expected.json`` is
what ``python -m engine replay`` prints for it. The rule tests check the rulings
case by case; these files pin the whole contract so that any change in output
shows. Run: ``python -m tools.gen_replay_fixtures``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.replay import run_replay
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.game import TichuGame
from engine.tichu.replay import to_replay

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "replay"


def _first_game(predicate: Any, **kwargs: Any) -> TichuGame:
    for seed in range(1000):
        game = play_game([EasyPlayer()] * 4, seed=seed, **kwargs)
        if predicate(game):
            return game
    raise RuntimeError("no seed found")


def _write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(data) + "\n")
    expected = run_replay(data)
    (OUT / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(prog="python -m tools.gen_replay_fixtures",
                            description=__doc__.split("\n\n")[0]).parse_args(argv)
    one = _first_game(lambda g: g.history[0].double_victory is None and any(g.calls), max_deals=1)
    _write("complete_deal", to_replay(one))
    double = _first_game(lambda g: g.history[0].double_victory is not None, max_deals=1)
    _write("double_victory", to_replay(double))
    whole = _first_game(lambda g: g.winner is not None and len(g.history) > 4)
    _write("game_to_1000", to_replay(whole))
    # A deal stopped part-way, with the trace of every action.
    partial = to_replay(one, trace=True)
    partial["deals"][0]["actions"] = partial["deals"][0]["actions"][:40]
    _write("partial_deal_trace", partial)
    # A rejected action: the same seat plays twice in a row.
    bad = to_replay(one)
    actions = bad["deals"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if a["do"] == "play")
    actions.insert(first_play + 1, dict(actions[first_play]))
    _write("rejected_action", bad)
    print(f"wrote fixtures to {OUT}")


if __name__ == "__main__":
    main()
