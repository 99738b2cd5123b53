"""Chinois under the replay contract: rounds and actions in, the state as JSON out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import format_cards, parse_card
from engine.chinois.actions import Action, action_from_json, action_to_json
from engine.chinois.deal import Deal, make_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.rules import N_SEATS, rating
from engine.chinois.view import Phase
from engine.errors import BadActionError, EngineError
from engine.run import Run
from engine.trick import by_suit, card_list, whole_number

SUITS = "cdhs"


def _deal(data: Any, index: int) -> tuple[Deal, list[Action]]:
    if not isinstance(data, Mapping):
        raise BadActionError(f"deal {index} must be an object")
    where = f"deal {index}"
    try:
        round_ = whole_number(data.get("round", index + 1), "'round'")
        dealer = data.get("dealer")
        hands = data.get("hands")
        if not isinstance(hands, list) or len(hands) != N_SEATS:
            raise BadActionError(f"'hands' must list {N_SEATS} hands")
        parsed = [card_list(h, f"hand {s}") for s, h in enumerate(hands)]
        token = data.get("trump_card")
        trump = None if token is None else parse_card(token)
        deal = make_deal(round_, parsed, trump,
                         None if dealer is None else whole_number(dealer, "'dealer'"))
        raw = data.get("actions", [])
        if not isinstance(raw, list):
            raise BadActionError("'actions' must be a list")
        actions = []
        for i, a in enumerate(raw):
            try:
                actions.append(action_from_json(a))
            except EngineError as exc:
                raise BadActionError(f"action {i}: {exc}") from None
    except EngineError as exc:
        raise BadActionError(f"{where}: {exc}") from None
    return deal, actions


def parse_file(data: Mapping[str, Any]) -> list[tuple[Deal, list[Action]]]:
    """Read a Chinois replay file: per deal, the checked deal and its actions."""
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise BadActionError("'deals' must be a non-empty list")
    parsed = [_deal(d, i) for i, d in enumerate(deals)]
    for i in range(1, len(parsed)):
        if parsed[i][0].round <= parsed[i - 1][0].round:
            raise BadActionError(
                f"deal {i}: round {parsed[i][0].round} cannot follow round {parsed[i - 1][0].round}")
    return parsed


def _trace_entry(game: ChinoisGame, seat: int) -> dict[str, Any]:
    if not 0 <= seat < N_SEATS:
        return {"seat": seat, "legal": [], "can_pass": False}
    view = game.view(seat)
    legal: list[Any]
    if view.phase is Phase.BID:
        legal = list(legal_bids(view))
    else:
        legal = format_cards(sorted(legal_cards(view), key=by_suit))
    return {"seat": seat, "legal": legal, "can_pass": False}


def state_json(game: ChinoisGame) -> dict[str, Any]:
    """The contract's output fields for the game as it stands."""
    phase = game.phase
    over = phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    last = game.history[-1] if over and game.history else None
    out: dict[str, Any] = {
        "phase": phase.value,
        "turn": game.turn,
        "round": game.round,
        "dealer": game.dealer,
        "trump": None if game.trump is None else SUITS[game.trump],
        "trump_card": None if game.deal.trump_card is None else str(game.deal.trump_card),
        "hands": [format_cards(sorted(h, key=by_suit)) for h in game.hands],
        "trick": [{"seat": p.seat, "card": str(p.card)} for p in game.trick.plays],
        "bids": list(game.bids),
        "tricks_won": list(game.tricks_won),
        "deal_scores": None if last is None else list(last.scores),
        "scores": list(game.scores),
        "winner": None if game.winners is None else list(game.winners),
    }
    if game.winners is not None:
        out["ratings"] = [rating(s).value for s in game.scores]
    return out


def to_replay(game: ChinoisGame, *, trace: bool = False) -> dict[str, Any]:
    """The replay file of a game: every round's deal and actions, as the contract has them."""
    deals = []
    for deal, actions in game.deal_log:
        deals.append({
            "round": deal.round,
            "dealer": deal.dealer,
            "trump_card": None if deal.trump_card is None else str(deal.trump_card),
            "hands": [format_cards(h) for h in deal.hands],
            "actions": [action_to_json(a) for a in actions],
        })
    out: dict[str, Any] = {"game": "chinois", "deals": deals}
    if trace:
        out["trace"] = True
    return out


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a Chinois replay file (already parsed from JSON)."""
    game, run = replay_game(data)
    return run.output(state_json(game))


def replay_game(data: Mapping[str, Any]) -> tuple[ChinoisGame, Run]:
    """The game a replay file leads to, and the run (its refusal and trace, if any)."""
    deals = parse_file(data)
    run = Run(data)
    game = ChinoisGame(deal=deals[0][0])
    for d, (deal, actions) in enumerate(deals):
        if d > 0:
            # Rounds strictly increase up to 28, so no deal can follow a finished game.
            if game.phase is not Phase.DEAL_OVER:
                raise BadActionError(f"deal {d - 1} is not over but deal {d} follows")
            game.next_deal(deal)
        if not run.play(game, d, actions, lambda g, a: _trace_entry(g, a.seat)):
            break
    return game, run
