"""Seeded random deals play out exactly as before the engine's speed-ups.

A small random driver (not the computer players, which change on their own)
plays deals through the public API: Grand Tichu and Tichu calls, the exchange,
plays and passes chosen from :func:`play_options`, out-of-turn bombs, wishes,
the Dog's lead and the Dragon's gift. The digest covers every action, what
:meth:`~TichuGame.apply` answered, every view after it and how each deal ended,
for four and six seats. It was taken before the speed-ups, so any change of
behaviour (a different legal list, order, view, refusal or score) shows here.
"""

from __future__ import annotations

import hashlib
import random

from engine.errors import EngineError
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import DOG, MAHJONG
from engine.tichu.game import TichuGame
from engine.tichu.legal import dog_targets, gift_targets, legal_plays, play_options
from engine.tichu.view import Phase

EXPECTED = "1674c9431d0e99ba9ee20c4f71d37d224a381942f22428fad1e62079e61d91bb"


def _choose(game: TichuGame, rng: random.Random) -> Action:
    n = game.n_seats
    if game.phase is Phase.GRAND:
        seat = next(s for s in range(n) if not game.grand_decided[s])
        return GrandTichu(seat) if rng.random() < 0.05 else DeclineGrand(seat)
    if game.phase is Phase.EXCHANGE:
        seat = next(s for s in range(n) if game.gives[s] is None)
        if game.calls[seat] is None and rng.random() < 0.05:
            return CallTichu(seat)
        view = game.view(seat)
        targets = view.exchange_targets(seat)
        cards = rng.sample(list(view.hand), len(targets))
        return Exchange(seat, tuple(zip(targets, cards, strict=True)))
    turn = game.turn
    assert turn is not None
    if game.phase is Phase.GIFT:
        return Gift(turn, rng.choice(gift_targets(game.view(turn))))
    if game.trick:
        for step in range(1, n):
            seat = (turn + step) % n
            bombs = legal_plays(game.view(seat))
            if bombs and rng.random() < 0.5:
                return Play(seat, rng.choice(bombs).cards)
    view = game.view(turn)
    if game.calls[turn] is None and not game.has_played[turn] and rng.random() < 0.03:
        return CallTichu(turn)
    plays, may_pass = play_options(view)
    if may_pass and (not plays or rng.random() < 0.4):
        return Pass(turn)
    play = rng.choice(plays)
    wish = rng.choice([None, *range(2, 15)]) if MAHJONG in play.cards else None
    to = None
    if play.cards == (DOG,):
        partners = dog_targets(view)
        to = rng.choice(partners) if len(partners) > 1 else None
    phoenix = play.phoenix if rng.random() < 0.5 else None
    return Play(turn, play.cards, wish, phoenix, to)


def _refused(game: TichuGame, rng: random.Random) -> str:
    """Try a few wrong actions: each must be refused the same way, changing nothing."""
    out = []
    n = game.n_seats
    for _ in range(2):
        seat = rng.randrange(n)
        hand = game.hands[seat]
        wrong: Action = rng.choice([
            Pass(seat), CallTichu(seat), DeclineGrand(seat), Gift(seat, (seat + 1) % n),
            Play(seat, tuple(rng.sample(hand, min(len(hand), rng.randrange(1, 4))))),
            Play(seat, (rng.randrange(56),)),
        ])
        if not game.can(wrong):
            try:
                game.check(wrong)
            except EngineError as exc:
                out.append(f"{type(exc).__name__}:{exc}")
    return repr(out)


def digest(deals: int = 25) -> str:
    sha = hashlib.sha256()
    for n in (4, 6):
        for seed in range(deals):
            game = TichuGame(seed=seed, players=n)
            rng = random.Random(seed)
            while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
                sha.update(_refused(game, rng).encode())
                action = _choose(game, rng)
                done = game.apply(action)
                views = [game.view(s) for s in (None, *range(n))]
                sha.update(repr((action, done, views)).encode())
            sha.update(repr((game.history, game.scores, game.won, game.hands)).encode())
    return sha.hexdigest()


def test_seeded_deals_play_out_as_before() -> None:
    assert digest() == EXPECTED
