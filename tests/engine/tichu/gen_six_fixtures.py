"""Write the six-player Tichu golden replays under tests/fixtures/tichu_six/.

Each input is a game the ``easy`` computer players played from a fixed seed,
exported with :func:`engine.tichu.replay.to_replay`; each ``.expected.json`` is
what ``python -m engine replay`` prints for it. The files pin the six-player
contract (``"players": 6``, dealers, the Dog's ``to``, ``triple_victory``):

- ``five_out``: a deal that ends with five seats out, its ``dealer`` left out
  (the default, seat 5), with a Dog played to a named partner;
- ``triple_victory``: a deal that ends 300-0;
- ``whole_game``: a game to 1000, every deal naming its dealer;
- ``partial_trace``: the first 40 actions of ``five_out`` with the trace;
- ``rejected_action``: a seat plays twice in a row.

Run: ``python -m tests.engine.tichu.gen_six_fixtures``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.replay import run_replay
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_game
from engine.tichu.game import TichuGame
from engine.tichu.replay import to_replay

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "tichu_six"


def _first_game(predicate: Callable[[TichuGame], bool], **kwargs: Any) -> TichuGame:
    for seed in range(2000):
        game = play_game([EasyPlayer()] * 6, seed=seed, **kwargs)
        if predicate(game):
            return game
    raise RuntimeError("no seed found")


def _write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(data) + "\n")
    expected = run_replay(data)
    (OUT / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def _dog_to(game: TichuGame) -> bool:
    return any(getattr(a, "to", None) is not None for a in game.actions)


def main() -> None:
    five = _first_game(lambda g: g.history[0].triple_victory is None and g.dealers[0] == 5
                       and any(g.calls) and _dog_to(g), max_deals=1)
    data = to_replay(five)
    for deal in data["deals"]:
        del deal["dealer"]  # the default dealer of the first deal
    _write("five_out", data)
    triple = _first_game(lambda g: g.history[0].triple_victory is not None, max_deals=1)
    _write("triple_victory", to_replay(triple))
    whole = _first_game(lambda g: g.winner is not None and len(g.history) > 3)
    _write("whole_game", to_replay(whole))
    partial = to_replay(five, trace=True)
    partial["deals"][0]["actions"] = partial["deals"][0]["actions"][:40]
    _write("partial_trace", partial)
    bad = to_replay(five)
    actions = bad["deals"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if a["do"] == "play")
    actions.insert(first_play + 1, dict(actions[first_play]))
    _write("rejected_action", bad)
    print(f"wrote fixtures to {OUT}")


if __name__ == "__main__":
    main()
