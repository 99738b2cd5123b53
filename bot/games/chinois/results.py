"""Per-player figures of a finished game of Chinois, derived from the game itself."""

from __future__ import annotations

from bot.store.models import GamePlayerResult, GameResult
from bot.tables.table import Table
from engine.chinois.game import ChinoisGame
from engine.chinois.replay import to_replay


def player_stats(game: ChinoisGame, seat: int) -> dict[str, int]:
    """Counters for one seat: rounds played, exact bids, points."""
    return {
        "deals": len(game.history),
        "exact_bids": sum(r.bids[seat] == r.tricks[seat] for r in game.history),
        "points": game.scores[seat],
    }


def game_result(table: Table) -> GameResult:
    """The record of a finished game for the store: the single top seat wins, or nobody
    alone on a shared win (every seat sharing it is still marked as won)."""
    game = table.game
    assert game is not None
    winners = tuple(game.winners or ())
    players = [
        GamePlayerResult(seat=s.seat, user_id=s.user_id, bot_level=s.bot_level, name=s.name,
                         team=s.seat, won=s.seat in winners, stats={})
        for s in table.seats
    ]
    return GameResult(table_id=table.id, guild_id=table.record.guild_id, game="chinois",
                      scores=list(game.scores),
                      winner=winners[0] if len(winners) == 1 else None, players=players,
                      replay=to_replay(game))
