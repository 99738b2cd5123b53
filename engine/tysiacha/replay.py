"""Tysiacha under the replay contract: deals and actions in, the state as JSON out.

Trace entries (``"trace": true``) list in ``legal``, for the acting seat:
during the bidding the bids it may make (``can_pass`` says whether it may
pass); for the soloist holding the prikup, the contracts it may raise to, or,
when the traced action is a ``give``, every gift it may make as an object
from opponent seat to card (lower seat first); during play the cards it may
play, with ``marriages`` listing those it may lead declaring a marriage. A
seat that may not act then (a ``redeal`` out of turn, say) gets an empty list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card, format_cards
from engine.errors import BadActionError, EngineError, GameOverError
from engine.run import Run
from engine.trick import by_suit, card_list, whole_number
from engine.tysiacha.actions import Action, Give, action_from_json, action_to_json
from engine.tysiacha.cards import card_points
from engine.tysiacha.deal import FIRST_DEALER, check_cards, check_players, make_deal
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import (
    can_pass,
    legal_bids,
    legal_cards,
    legal_gifts,
    legal_raises,
    marriage_leads,
)
from engine.tysiacha.scoring import Rounding
from engine.tysiacha.view import Phase

SUITS = "cdhs"


def _actions(data: Mapping[str, Any]) -> list[Action]:
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise BadActionError("'actions' must be a list")
    out = []
    for i, a in enumerate(raw):
        try:
            out.append(action_from_json(a))
        except EngineError as exc:
            raise BadActionError(f"action {i}: {exc}") from None
    return out


ParsedDeal = tuple[int | None, list[list[Card]], list[Card], list[Action]]


def _parse_deal(data: Any, players: int) -> ParsedDeal:
    """A deal's dealer (None: the schedule's), hands, prikup and actions. Everything
    that does not depend on who deals is checked here, before any action is run."""
    if not isinstance(data, Mapping):
        raise BadActionError("a deal must be an object")
    dealer = data.get("dealer")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise BadActionError(f"'hands' must list {players} hands (one per seat)")
    parsed = [card_list(h, f"hand {s}") for s, h in enumerate(hands)]
    prikup = card_list(data.get("prikup"), "'prikup'")
    check_cards(parsed, prikup, players)
    return (None if dealer is None else whole_number(dealer, "'dealer'"), parsed, prikup,
            _actions(data))


def _options(data: Mapping[str, Any]) -> tuple[int, Rounding]:
    players = whole_number(data.get("players", 3), "'players'")
    check_players(players)
    rounding = whole_number(data.get("rounding", 10), "'rounding'")
    if rounding not in (10, 5):
        raise BadActionError(f"'rounding' is 10 or 5, not {rounding}")
    return players, Rounding(rounding)


def _trace_entry(game: TysiachaGame, action: Action) -> dict[str, Any]:
    seat = action.seat
    entry: dict[str, Any] = {"seat": seat, "legal": [], "can_pass": False}
    if not 0 <= seat < game.n_seats or seat != game.turn:
        return entry
    view = game.view(seat)
    if view.phase is Phase.BIDDING:
        entry.update(legal=list(legal_bids(view)), can_pass=can_pass(view))
    elif view.phase is Phase.PRIKUP and isinstance(action, Give):
        entry["legal"] = [{str(t): str(c) for t, c in gift} for gift in legal_gifts(view)]
    elif view.phase is Phase.PRIKUP:
        entry["legal"] = list(legal_raises(view))
    elif view.phase is Phase.PLAY:
        entry["legal"] = format_cards(sorted(legal_cards(view), key=by_suit))
        entry["marriages"] = format_cards(sorted(marriage_leads(view), key=by_suit))
    return entry


def state_json(game: TysiachaGame) -> dict[str, Any]:
    """The contract's output fields for the game as it stands."""
    phase = game.phase
    over = phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    last = game.history[-1] if over and game.history else None
    return {
        "phase": phase.value,
        "turn": game.turn,
        "dealer": game.dealer,
        "hands": [format_cards(sorted(h, key=by_suit)) for h in game.hands],
        "prikup": format_cards(game.deal.prikup),
        "trick": [{"seat": p.seat, "card": str(p.card)} for p in game.trick.plays],
        "bids": list(game.bids),
        "passed": list(game.passed),
        "soloist": game.soloist,
        "contract": game.contract,
        "trump": None if game.trump is None else SUITS[game.trump],
        "marriages": [{"seat": s, "suit": SUITS[suit]} for s, suit in game.marriages],
        "points": [card_points(p) for p in game.won],
        "tricks_won": list(game.tricks_taken),
        "barrel": list(game.barrel),
        "misses": list(game.misses),
        "concessions": list(game.concessions),
        "redeal": last is not None and last.redeal_by is not None,
        "deal_scores": None if last is None else list(last.scores),
        "scores": list(game.scores),
        "winner": game.winner,
    }


def to_replay(game: TysiachaGame, *, trace: bool = False) -> dict[str, Any]:
    """The replay file of a game: every deal's cards and actions, as the contract has them."""
    out: dict[str, Any] = {"game": "tysiacha", "players": game.n_seats,
                           "rounding": int(game.rounding)}
    out["deals"] = [
        {
            "dealer": deal.dealer,
            "prikup": format_cards(deal.prikup),
            "hands": [format_cards(h) for h in deal.hands],
            "actions": [action_to_json(a) for a in actions],
        }
        for deal, actions in game.deal_log
    ]
    if trace:
        out["trace"] = True
    return out


def parse_file(data: Mapping[str, Any]) -> tuple[int, Rounding, list[ParsedDeal]]:
    """Read a Tysiacha replay file: the table's options and, per deal, its parts."""
    players, rounding = _options(data)
    raw = data.get("deals")
    if not isinstance(raw, list) or not raw:
        raise BadActionError("'deals' must be a non-empty list")
    deals = []
    for i, d in enumerate(raw):
        try:
            deals.append(_parse_deal(d, players))
        except EngineError as exc:
            raise BadActionError(f"deal {i}: {exc}") from None
    return players, rounding, deals


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a Tysiacha replay file (already parsed from JSON)."""
    game, run = replay_game(data)
    return run.output(state_json(game))


def replay_game(data: Mapping[str, Any]) -> tuple[TysiachaGame, Run]:
    """The game a replay file leads to, and the run (its refusal and trace, if any)."""
    players, rounding, deals = parse_file(data)
    run = Run(data)
    game: TysiachaGame | None = None
    for d, (dealer, hands, prikup, actions) in enumerate(deals):
        if game is not None and game.phase is Phase.GAME_OVER:
            run.refuse(d, 0, GameOverError("the game is over"))
            break
        if game is not None and game.phase is not Phase.DEAL_OVER:
            raise BadActionError(f"deal {d - 1} is not over but deal {d} follows")
        # The default dealer follows the game's schedule: one seat on per deal,
        # the same seat after a redeal.
        if dealer is None:
            dealer = FIRST_DEALER % players if game is None else game.next_dealer
        try:
            deal = make_deal(dealer, hands, prikup, players)
        except EngineError as exc:
            raise BadActionError(f"deal {d}: {exc}") from None
        if game is None:
            game = TysiachaGame(players=players, rounding=rounding, deal=deal)
        else:
            game.next_deal(deal)
        if not run.play(game, d, actions, _trace_entry):
            break
    assert game is not None
    return game, run
