"""The other side of :mod:`tools.versus` and :mod:`tools.versus_tricks`: a computer player
of another tree (Tichu, Chinois or Tysiacha), served over JSON lines on stdin and stdout.

Run by :mod:`tools.versus` as ``python tools/versus_server.py TREE``: ``TREE``
goes first on ``sys.path`` before anything imports ``engine``, so the engine
and its players are that tree's (checked: the first line written names the
file of the ``engine`` imported). Only the replay contract's functions are
used (``TichuGame(hands=, players=, dealer=)``, ``apply``, ``view``,
``action_to_json`` / ``action_from_json``, ``make_player``, ``parse_card``),
which every tree since the six-player variant has.

One request a line, one answer a line for those that ask a question:

``{"op": "start", "hands": [[card, ...], ...], "players": 4, "dealer": null, "level": "hard", "seed": "..."}``
    A fresh deal from these hands (as dealt), a fresh player of ``level`` and a
    ``random.Random(seed)`` for its decisions. Answer ``{"ok": true}``. With
    ``"game": "tysiacha"`` (and ``"prikup"``) or ``"game": "chinois"`` (and ``"round"``,
    ``"trump_card"``), a deal of that game (its ``make_deal``), a player of its
    ``make_player``.
``{"op": "apply", "action": {...}}``
    Apply an action to this copy of the deal. No answer (an error is kept and
    given as the answer to the next question).
``{"op": "ask", "seat": 1}``
    The seat's decision from its view: ``{"action": {...} or null, "seconds": s}``
    (wall time of the decision, ``time.perf_counter``).
``{"op": "end"}``
    The deal's score as this copy has it: ``{"scores": [a, b], "actions": n}``.

Any failure answers ``{"error": "..."}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

SEARCH_LEVELS = ("search", "search-full")
"""Levels any tree serves beside its own: the determinized Monte Carlo search (``hard``
in the trees before the learned evaluator, ``search`` after), with its clock
(``search``) or without it, playing all its samples (``search-full``: the search at
its full strength whatever the machine's load, and deterministic)."""


def player_of(level: str) -> Any:
    """A fresh player of ``level``: a level of the tree's ``make_player``, or one of
    :data:`SEARCH_LEVELS`."""
    from engine.tichu.ai import make_player

    if level in SEARCH_LEVELS:
        import importlib

        try:
            search = importlib.import_module("engine.tichu.ai.searcher").SearchPlayer
        except ImportError:  # a tree from before the learned evaluator
            search = importlib.import_module("engine.tichu.ai.hard").HardPlayer
        return search() if level == "search" else search(budget_ms=None)
    return make_player(level)


def trick_game(request: dict[str, Any]) -> tuple[Any, Any, tuple[Any, Any]]:
    """The deal of a ``start`` request for Chinois or Tysiacha, a player of its level, and
    the game's (``action_from_json``, ``action_to_json``)."""
    import importlib

    from engine.cards import parse_card

    name = request["game"]
    if name not in ("chinois", "tysiacha"):
        raise ValueError(f"unknown game {name!r}")
    deal = importlib.import_module(f"engine.{name}.deal")
    actions = importlib.import_module(f"engine.{name}.actions")
    ai = importlib.import_module(f"engine.{name}.ai")
    hands = [[parse_card(c) for c in hand] for hand in request["hands"]]
    if name == "tysiacha":
        from engine.tysiacha.game import TysiachaGame

        game: Any = TysiachaGame(players=request["players"], deal=deal.make_deal(
            request["dealer"], hands, [parse_card(c) for c in request["prikup"]],
            request["players"]))
    else:
        from engine.chinois.game import ChinoisGame

        trump = request["trump_card"]
        game = ChinoisGame(deal=deal.make_deal(request["round"], hands, None if trump is None
                                               else parse_card(trump), request["dealer"]))
    return game, ai.make_player(request["level"]), (actions.action_from_json,
                                                    actions.action_to_json)


def serve(tree: Path) -> None:
    import random

    import engine
    from engine.cards import parse_card
    from engine.tichu.actions import action_from_json, action_to_json
    from engine.tichu.game import TichuGame

    def say(answer: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    say({"engine": engine.__file__, "tree": str(tree)})
    codec: tuple[Any, Any] = (action_from_json, action_to_json)
    game: Any = None
    player: Any = None
    rng = random.Random()
    failed: str | None = None
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        if failed is not None:
            if op != "apply":
                say({"error": failed})
            continue
        try:
            if op == "apply":
                game.apply(codec[0](request["action"]))
            elif op == "ask":
                seat = request["seat"]
                view = game.view(seat)
                began = time.perf_counter()
                action = player.act(view, rng)
                seconds = time.perf_counter() - began
                say({"action": None if action is None else codec[1](action),
                     "seconds": seconds})
            elif op == "start" and "game" in request:
                game, player, codec = trick_game(request)
                rng = random.Random(request["seed"])
                say({"ok": True})
            elif op == "start":
                codec = (action_from_json, action_to_json)
                hands = [[parse_card(c) for c in hand] for hand in request["hands"]]
                game = TichuGame(hands=hands, players=request["players"],
                                 dealer=request["dealer"])
                player = player_of(request["level"])
                rng = random.Random(request["seed"])
                say({"ok": True})
            elif op == "end":
                scores = list(game.history[-1].scores) if game.history else None
                say({"scores": scores, "actions": len(game.actions)})
            else:
                say({"error": f"unknown request {op!r}"})
        except Exception:  # (told to the parent, which stops the run)
            failed = f"{op}: {_last_lines()}"
            if op != "apply":
                say({"error": failed})


def _last_lines() -> str:
    """The exception being handled, its innermost frame and message on one line."""
    return " | ".join(line.strip() for line in traceback.format_exc().strip().splitlines()[-3:])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.versus_server",
        description="The other side of python -m tools.versus, which starts it: a Tichu "
        "computer player of another source tree, served over JSON lines on standard input "
        "and output.")
    parser.add_argument("tree", type=Path,
                        help="the source tree whose engine and players are served")
    tree = parser.parse_args(argv).tree.resolve()
    here = Path(__file__).resolve().parent
    # The tree under test first; never this file's folder nor this file's tree.
    sys.path[:] = [str(tree)] + [p for p in sys.path
                                 if p and Path(p).resolve() not in (here, here.parent)]
    try:
        serve(tree)
    except Exception:  # (an import error in the other tree, told plainly)
        print(json.dumps({"error": _last_lines()}), flush=True)


if __name__ == "__main__":
    main()
