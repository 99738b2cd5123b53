"""Write the Chinois golden replays under tests/fixtures/chinois/ and their expected output.

Each input is a game computer players played from a fixed seed, exported with
:func:`engine.chinois.replay.to_replay`; each ``.expected.json`` is what
``python -m engine replay`` prints for it. The rule tests check the rulings
case by case; these files pin the whole contract so that any change in output
shows. Run: ``python -m tests.engine.chinois.gen_fixtures``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.chinois.ai import make_player
from engine.chinois.replay import to_replay
from engine.chinois.selfplay import play_game
from engine.replay import run_replay

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "chinois"
SEED = 2024


def _write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(data) + "\n")
    expected = run_replay(data)
    (OUT / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def main() -> None:
    players = [make_player(level) for level in ("normal", "easy", "normal", "easy")]
    game = play_game(players, seed=SEED)
    whole = to_replay(game)
    _write("whole_game", whole)
    # Round 5 alone, as a bug report would give it, stopped in the middle of play.
    middle = {"game": "chinois", "trace": True, "deals": [dict(whole["deals"][4])]}
    middle["deals"][0]["actions"] = middle["deals"][0]["actions"][:9]
    _write("round_5_partial_trace", middle)
    # A 13-card round without trump, complete, with its trace.
    _write("no_trump_round", {"game": "chinois", "trace": True, "deals": [whole["deals"][13]]})
    # The dealer tries the forbidden bid in the first round where there is one.
    def forbidden(deal: dict[str, Any]) -> int:
        return len(deal["hands"][0]) - sum(a["bid"] for a in deal["actions"][:3])

    index = next(i for i, d in enumerate(whole["deals"])
                 if 0 <= forbidden(d) <= len(d["hands"][0]))
    deals = [dict(d) for d in whole["deals"][:index + 1]]
    deals[-1]["actions"] = [*deals[-1]["actions"][:3],
                            {"seat": deals[-1]["dealer"], "do": "bid", "bid": forbidden(deals[-1])}]
    _write("forbidden_bid", {"game": "chinois", "deals": deals})
    print(f"wrote fixtures to {OUT}")


if __name__ == "__main__":
    main()
