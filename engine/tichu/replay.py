"""Tichu under the replay contract: deals and actions in, the state as JSON out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card, format_cards, parse_card, rank_token
from engine.errors import BadActionError, EngineError, GameOverError
from engine.replay import Run
from engine.tichu.actions import Action, action_from_json, action_to_json
from engine.tichu.cards import sort_key
from engine.tichu.game import TichuGame, check_deal
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.view import Phase


def _hands(deal: Mapping[str, Any], index: int) -> list[list[Card]]:
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise BadActionError(f"deal {index}: 'hands' must list 4 hands")
    parsed: list[list[Card]] = []
    for s, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise BadActionError(f"deal {index}: hand {s} must be a list of cards")
        try:
            parsed.append([parse_card(t) for t in hand])
        except EngineError as exc:
            raise BadActionError(f"deal {index}, hand {s}: {exc}") from None
    return parsed


def _actions(deal: Mapping[str, Any], index: int) -> list[Action]:
    actions = deal.get("actions", [])
    if not isinstance(actions, list):
        raise BadActionError(f"deal {index}: 'actions' must be a list")
    out = []
    for i, a in enumerate(actions):
        try:
            out.append(action_from_json(a))
        except EngineError as exc:
            raise BadActionError(f"deal {index}, action {i}: {exc}") from None
    return out


def parse_file(data: Mapping[str, Any]) -> tuple[int, list[tuple[list[list[Card]], list[Action]]]]:
    """Read a Tichu replay file: its target and, per deal, the hands and actions."""
    target = data.get("target", 1000)
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise BadActionError("'target' must be a positive whole number")
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise BadActionError("'deals' must be a non-empty list")
    parsed = []
    for i, deal in enumerate(deals):
        if not isinstance(deal, Mapping):
            raise BadActionError(f"deal {i} must be an object")
        hands = _hands(deal, i)
        try:
            check_deal(hands)
        except EngineError as exc:
            raise BadActionError(f"deal {i}: {exc}") from None
        parsed.append((hands, _actions(deal, i)))
    return target, parsed


def _trace_entry(game: TichuGame, seat: int) -> dict[str, Any]:
    if not 0 <= seat < game.n_seats:
        return {"seat": seat, "legal": [], "can_pass": False}
    view = game.view(seat)
    legal = sorted(format_cards(sorted(p.cards, key=sort_key)) for p in legal_plays(view))
    return {"seat": seat, "legal": legal, "can_pass": can_pass(view)}


def state_json(game: TichuGame) -> dict[str, Any]:
    """The contract's output fields for the game as it stands."""
    phase = game.phase
    over = phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    return {
        "phase": phase.value,
        "turn": game.turn if phase in (Phase.PLAY, Phase.GIFT) else None,
        "wish": None if game.wish is None else rank_token(game.wish),
        "hands": [format_cards(sorted(h, key=sort_key)) for h in game.hands],
        "trick": [
            {"seat": p.seat, "cards": format_cards(sorted(p.combo.cards, key=sort_key))}
            for p in game.trick
        ],
        "calls": [None if c is None else c.value for c in game.calls],
        "out": list(game.out),
        "deal_scores": list(game.history[-1].scores) if over and game.history else None,
        "scores": list(game.scores),
        "winner": game.winner,
    }


def to_replay(game: TichuGame, *, trace: bool = False) -> dict[str, Any]:
    """The replay file of a game: every deal's hands and actions, as the contract has them."""
    out: dict[str, Any] = {
        "game": "tichu",
        "target": game.target,
        "deals": [
            {"hands": [format_cards(h) for h in hands], "actions": [action_to_json(a) for a in acts]}
            for hands, acts in game.deal_log
        ],
    }
    if trace:
        out["trace"] = True
    return out


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a Tichu replay file (already parsed from JSON)."""
    game, run = replay_game(data)
    return run.output(state_json(game))


def replay_game(data: Mapping[str, Any]) -> tuple[TichuGame, Run]:
    """The game a replay file leads to, and the run (its refusal and trace, if any)."""
    target, deals = parse_file(data)
    run = Run(data)
    game = TichuGame(target=target, hands=deals[0][0])
    for d, (hands, actions) in enumerate(deals):
        if d > 0:
            if game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
                raise BadActionError(f"deal {d - 1} is not over but deal {d} follows")
            if game.phase is Phase.GAME_OVER:
                run.refuse(d, 0, GameOverError("the game is over"))
                break
            game.next_deal(hands)
        if not run.play(game, d, actions, lambda g, a: _trace_entry(g, a.seat)):
            break
    return game, run
