"""Tichu under the replay contract: deals and actions in, the state as JSON out.

Four players by default; ``"players": 6`` selects the six-player variant, where
each deal may name its ``dealer`` (default seat 5 for the first deal, then one
seat on per deal), hands hold 10/10/9/9/9/9 cards, exchanges go to the two
partners and a Dog play may name the partner who gets the lead (``to``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, parse_card, rank_token
from engine.errors import BadActionError, EngineError, GameOverError
from engine.run import Run
from engine.tichu.actions import Action, Exchange, action_from_json, action_to_json
from engine.tichu.cards import sort_key
from engine.tichu.game import DEFAULT_DEALER, SEAT_COUNTS, TichuGame, check_deal
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.view import Phase


@dataclass(frozen=True, slots=True)
class ReplayDeal:
    """One deal of a replay file: its dealer (six players), hands and actions."""

    dealer: int | None
    hands: list[list[Card]]
    actions: list[Action]


@dataclass(frozen=True, slots=True)
class ReplayFile:
    target: int
    players: int
    deals: list[ReplayDeal]


def _hands(deal: Mapping[str, Any], index: int, players: int) -> list[list[Card]]:
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise BadActionError(f"deal {index}: 'hands' must list {players} hands")
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
        # Only the action's shape and card tokens are read here: whatever breaks a
        # rule (an exchange to an opponent, a Dog's lead to one, a card not held) is
        # the game's to refuse, as a rejected action of the output, not a bad file.
        try:
            action = action_from_json(a)
        except EngineError as exc:
            raise BadActionError(f"deal {index}, action {i}: {exc}") from None
        out.append(action)
    return out


def _dealer(deal: Mapping[str, Any], index: int, default: int) -> int:
    dealer = deal.get("dealer", default)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 6:
        raise BadActionError(f"deal {index}: 'dealer' must be a seat from 0 to 5, not {dealer!r}")
    return dealer


def read_file(data: Mapping[str, Any]) -> ReplayFile:
    """Read a Tichu replay file: target, seat count and, per deal, dealer, hands, actions."""
    target = data.get("target", 1000)
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise BadActionError("'target' must be a positive whole number")
    players = data.get("players", 4)
    if isinstance(players, bool) or players not in SEAT_COUNTS:
        raise BadActionError(f"'players' must be 4 or 6, not {players!r}")
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise BadActionError("'deals' must be a non-empty list")
    parsed = []
    dealer: int | None = None
    for i, deal in enumerate(deals):
        if not isinstance(deal, Mapping):
            raise BadActionError(f"deal {i} must be an object")
        if players == 6:
            dealer = _dealer(deal, i, DEFAULT_DEALER if dealer is None else (dealer + 1) % 6)
        hands = _hands(deal, i, players)
        try:
            check_deal(hands, players, dealer)
        except EngineError as exc:
            raise BadActionError(f"deal {i}: {exc}") from None
        parsed.append(ReplayDeal(dealer, hands, _actions(deal, i)))
    return ReplayFile(target, players, parsed)


def _trace_entry(game: TichuGame, seat: int) -> dict[str, Any]:
    if not 0 <= seat < game.n_seats:
        return {"seat": seat, "legal": [], "can_pass": False}
    view = game.view(seat)
    legal = sorted(format_cards(sorted(p.cards, key=sort_key)) for p in legal_plays(view))
    return {"seat": seat, "legal": legal, "can_pass": can_pass(view)}


def state_json(game: TichuGame) -> dict[str, Any]:
    """The contract's output fields for the game as it stands (six players add
    ``triple_victory``)."""
    phase = game.phase
    over = phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    state = {
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
    if game.n_seats == 6:
        state["triple_victory"] = (game.history[-1].triple_victory is not None
                                   if over and game.history else None)
    return state


def to_replay(game: TichuGame, *, trace: bool = False) -> dict[str, Any]:
    """The replay file of a game: every deal's hands and actions, as the contract has them."""
    deals: list[dict[str, Any]] = []
    for (hands, acts), dealer in zip(game.deal_log, game.dealers, strict=True):
        deal: dict[str, Any] = {} if dealer is None else {"dealer": dealer}
        deal["hands"] = [format_cards(h) for h in hands]
        deal["actions"] = [action_to_json(a) for a in acts]
        deals.append(deal)
    out: dict[str, Any] = {"game": "tichu"}
    if game.n_seats != 4:
        out["players"] = game.n_seats
    out["target"] = game.target
    out["deals"] = deals
    if trace:
        out["trace"] = True
    return out


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a Tichu replay file (already parsed from JSON)."""
    game, run = replay_game(data)
    return run.output(state_json(game))


def replay_game(data: Mapping[str, Any]) -> tuple[TichuGame, Run]:
    """The game a replay file leads to, and the run (its refusal and trace, if any)."""
    read = read_file(data)
    run = Run(data)
    first = read.deals[0]
    game = TichuGame(target=read.target, hands=first.hands, players=read.players,
                     dealer=first.dealer)
    for d, deal in enumerate(read.deals):
        if d > 0:
            if game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
                raise BadActionError(f"deal {d - 1} is not over but deal {d} follows")
            if game.phase is Phase.GAME_OVER:
                run.refuse(d, 0, GameOverError("the game is over"))
                break
            game.next_deal(deal.hands, deal.dealer)
        if not run.play(game, d, deal.actions, lambda g, a: _trace_entry(g, a.seat)):
            break
    return game, run


def seen_by(data: Mapping[str, Any], seats: Collection[int]) -> dict[str, Any]:
    """A Tichu replay file as ``seats`` saw it: every action all the table saw (calls,
    plays, passes, gifts, Grand Tichu decisions), their own hands and exchanges, but
    nothing of the other seats' hands (``null``) and of the others' exchanges only the
    cards given to ``seats``. So it names no card another seat held unseen: one never
    played, or passed between two other seats. It no longer plays back (the other hands
    are missing), and says whose it is with ``"seen_by"``. Raises
    :class:`~engine.errors.BadActionError` for a file that cannot be read."""
    read = read_file(data)
    mine = {s for s in seats if 0 <= s < read.players}
    deals: list[dict[str, Any]] = []
    for deal in read.deals:
        out: dict[str, Any] = {} if deal.dealer is None else {"dealer": deal.dealer}
        out["hands"] = [format_cards(h) if s in mine else None
                        for s, h in enumerate(deal.hands)]
        actions = []
        for action in deal.actions:
            shown = action_to_json(action)
            if isinstance(action, Exchange) and action.seat not in mine:
                shown["give"] = {str(to): format_cards([card])[0]
                                 for to, card in action.give if to in mine}
            actions.append(shown)
        out["actions"] = actions
        deals.append(out)
    result: dict[str, Any] = {"game": "tichu"}
    if read.players != 4:
        result["players"] = read.players
    result["target"] = read.target
    result["deals"] = deals
    result["seen_by"] = sorted(mine)
    return result
