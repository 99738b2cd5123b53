"""Write tests/fixtures/tichu_legal_counts.json: legal-play counts of known hands.

The counts come from the brute-force enumeration in tests (every subset read and
compared), not from the generator under test. Run: ``python -m tools.gen_legal_fixtures``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from engine.cards import format_cards, parse_cards
from engine.tichu.cards import DECK, PHOENIX, sort_key
from engine.tichu.combos import readings
from tests.engine.tichu.brute import brute_force_plays

TOPS = [None, "6c 6d", "7h", "PHOENIX", "2c 3d 4h 5s 6c", "5c 5d 5h 8c 8d", "4c 4d 5c 5d",
        "Tc Td Th", "6c 6d 6h 6s", "3h 4h 5h 6h 7h", "DRAGON"]
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tichu_legal_counts.json"


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(prog="python -m tools.gen_legal_fixtures",
                            description=__doc__.split("\n\n")[0]).parse_args(argv)
    rng = random.Random(2024)
    cases = []
    named = [
        "MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ah",
        "PHOENIX 2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c",
        "PHOENIX 5c 5d 5h 5s 6c 7c 8c 9c Tc Jc Qc Kc Ac",
        "DOG DRAGON PHOENIX MAHJONG 2c 2d 2h 9s 9h Tc Td Js Qs Ks",
    ]
    hands = [parse_cards(h.split()) for h in named]
    for i in range(24):
        if i % 2:
            hands.append([*rng.sample([c for c in DECK if c != PHOENIX], 13), DECK[PHOENIX]])
        else:
            hands.append(rng.sample(list(DECK), 14))
    for i, hand in enumerate(hands):
        for top_text in (TOPS if i < 8 else [None, rng.choice(TOPS[1:])]):
            top = readings(parse_cards(top_text.split()))[0] if top_text else None
            plays = brute_force_plays(hand, top)
            cases.append({
                "hand": format_cards(sorted(hand, key=sort_key)),
                "top": top_text.split() if top_text else None,
                "count": len(plays),
                "by_kind": dict(sorted(Counter(c.kind.value for c in plays.values()).items())),
            })
    lines = ",\n".join("  " + json.dumps(case) for case in cases)
    OUT.write_text("[\n" + lines + "\n]\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
