"""Per-player figures of a finished Tichu game. The stored figures are computed from the
stored replay (see :meth:`bot.games.base.GameModules.result`)."""

from __future__ import annotations

from bot.games.tichu.boards import RECORD_NAME
from bot.store.models import GamePlayerResult, GameResult
from bot.tables.table import Table
from engine.duplicate.play import BoardsGame
from engine.tichu.actions import Play
from engine.tichu.combos import readings
from engine.tichu.game import TichuGame
from engine.tichu.replay import to_replay
from engine.tichu.view import Call


def player_stats(game: TichuGame, seat: int) -> dict[str, int]:
    """Counters for one seat: calls made and won, double victories (triple victories with
    six players), bombs, deals, points (its team's)."""
    sweep = "triple_victories" if game.n_seats == 6 else "double_victories"
    stats = {"deals": 0, "tichu_called": 0, "tichu_won": 0, "grand_called": 0, "grand_won": 0,
             sweep: 0, "bombs": 0, "points": 0}
    team = seat % 2
    for result in game.history:
        stats["deals"] += 1
        stats["points"] += result.scores[team]
        call = result.calls[seat]
        first = result.out[0] if result.out else None
        if call is Call.TICHU:
            stats["tichu_called"] += 1
            stats["tichu_won"] += first == seat
        elif call is Call.GRAND_TICHU:
            stats["grand_called"] += 1
            stats["grand_won"] += first == seat
        if result.sweep == team:
            stats[sweep] += 1
    for action in game.actions:
        if isinstance(action, Play) and action.seat == seat:
            found = readings(action.cards)
            if found and found[0].is_bomb:
                stats["bombs"] += 1
    return stats


def game_result(table: Table) -> GameResult:
    """The record of a finished game for the store: six-player games are stored and rated
    as ``tichu6`` (their own pool); the replay is a ``tichu`` file with ``"players": 6``.
    Games of duplicate boards and practice games are kept unrated."""
    game = table.game
    assert game is not None
    players = [
        GamePlayerResult(
            seat=s.seat, user_id=s.user_id, bot_level=s.bot_level, name=s.name,
            team=s.seat % 2, won=game.winner == s.seat % 2, stats={},
        )
        for s in table.seats
    ]
    name = RECORD_NAME if isinstance(game, BoardsGame) else "tichu6" if game.n_seats == 6 \
        else "tichu"
    return GameResult(table_id=table.id, guild_id=table.record.guild_id, game=name,
                      scores=list(game.scores), winner=game.winner, players=players,
                      replay=to_replay(game),
                      rated=not isinstance(game, BoardsGame)
                      and not table.record.options.get("practice"))
