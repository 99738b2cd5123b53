"""Write the Tysiacha golden replays under tests/fixtures/tysiacha/ and their expected output.

Each input is a game computer players played from a fixed seed, exported with
:func:`engine.tysiacha.replay.to_replay`; each ``.expected.json`` is what
``python -m engine replay`` prints for it. The seeds were picked so that the
whole games hold every episode the rules know: a seat landing on the barrel
and falling off it, concessions, a redeal on four nines, marriages, misses.
Run: ``python -m tests.engine.tysiacha.gen_fixtures``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engine.replay import run_replay
from engine.tysiacha.ai import make_player
from engine.tysiacha.replay import to_replay
from engine.tysiacha.scoring import Rounding
from engine.tysiacha.selfplay import play_game

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "tysiacha"
WHOLE_SEED = 191
"""Seat 2 lands on the barrel in deal 14, uses it up over deals 15 and 17 (deal 16
is a redeal) and falls in deal 18, when seat 1 wins."""
FOUR_SEED = 44


def _write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(data) + "\n")
    expected = run_replay(data)
    (OUT / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def main() -> None:
    normal = make_player("normal")
    whole = to_replay(play_game([normal] * 3, seed=WHOLE_SEED))
    _write("whole_game", whole)
    _write("four_players", to_replay(play_game([normal] * 4, seed=FOUR_SEED, n_players=4)))
    easy = make_player("easy")
    five = play_game([normal, easy, normal], seed=5, rounding=Rounding.FIVE, max_deals=6)
    _write("rounding_five", to_replay(five))
    # Around the redeal: only the first deal names its dealer; the next two take the
    # default, which stays with the same dealer after a redeal.
    redeal_at = next(i for i, d in enumerate(whole["deals"]) if d["actions"][-1]["do"] == "redeal")
    around = copy.deepcopy(whole["deals"][redeal_at - 1:redeal_at + 2])
    for deal in around[1:]:
        del deal["dealer"]
    _write("redeal_defaults", {"game": "tysiacha", "deals": around})
    # A deal with a marriage, stopped just after it, with the trace of every action.
    index, cut = next((i, j) for i, d in enumerate(whole["deals"])
                      for j, a in enumerate(d["actions"]) if a.get("marriage"))
    partial = copy.deepcopy(whole["deals"][index])
    partial["actions"] = partial["actions"][:cut + 2]
    _write("partial_trace", {"game": "tysiacha", "trace": True, "deals": [partial]})
    # A rejected action: the opener tries to pass.
    rejected = copy.deepcopy(whole)
    rejected["deals"] = rejected["deals"][:2]
    first = rejected["deals"][1]["actions"]
    first.insert(0, {"seat": first[0]["seat"], "do": "pass"})
    _write("rejected_action", rejected)
    print(f"wrote fixtures to {OUT}")


if __name__ == "__main__":
    main()
