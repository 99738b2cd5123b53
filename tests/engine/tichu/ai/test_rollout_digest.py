"""Rollouts play out exactly as before the engine's speed-ups.

The ``hard`` player's search builds games at a seat's position
(:func:`~engine.tichu.ai.search.game_at`), applies a candidate
(:func:`~engine.tichu.ai.search.apply_candidate`) and plays the deal out with
the rollout policy (:func:`~engine.tichu.ai.search.rollout`). For positions of
seeded deals between random players (four and six seats) and seeded guesses of the hidden cards, the
digest covers every action each rollout applied and its score. It was taken
before the speed-ups, so a rollout that plays differently (a different legal
list, order, plan or engine answer) shows here, independently of how the hands
are sampled.
"""

from __future__ import annotations

import hashlib
import random

from engine.tichu.ai.easy import EasyPlayer
from engine.tichu.ai.search import apply_candidate, game_at, rollout
from engine.tichu.cards import MAHJONG
from engine.tichu.game import TichuGame
from engine.tichu.legal import play_options
from engine.tichu.view import Phase
from tools.bench_compare import deal_back

EXPECTED = "2ebfe698dca30e2860fce7b3c53149b710871b068304ac7909e201bdf90ee872"


def digest(deals: int = 6, every: int = 5, guesses: int = 2) -> str:
    sha = hashlib.sha256()
    for n in (4, 6):
        for seed in range(deals):
            game = TichuGame(seed=seed, players=n)
            players = [EasyPlayer()] * n
            rng = random.Random(seed)
            step = 0
            while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
                turn = game.turn
                if game.phase is Phase.PLAY and turn is not None and step % every == 0:
                    view = game.view(turn)
                    plays, may_pass = play_options(view)
                    candidates = [*plays[:3], *([None] if may_pass else [])]
                    hands = [[int(c) for c in h] for h in game.hands]
                    for g in range(guesses):
                        guessed = deal_back(hands, turn, random.Random(f"{seed}:{step}:{g}"))
                        for combo in candidates:
                            made = game_at(view, guessed)
                            wish = 14 if combo is not None and MAHJONG in combo.cards else None
                            apply_candidate(made, turn, combo, wish)
                            score = rollout(made, turn % 2)
                            sha.update(repr((score, made.actions)).encode())
                step += 1
                for s in ([] if turn is None else [turn]) + list(range(n)):
                    action = players[s].act(game.view(s), rng)
                    if action is not None:
                        game.apply(action)
                        break
    return sha.hexdigest()


def test_rollouts_play_out_as_before() -> None:
    assert digest() == EXPECTED
