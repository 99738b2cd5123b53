"""Per-player figures of a finished Tysiacha game, derived from the game itself."""

from __future__ import annotations

from bot.store.models import GamePlayerResult, GameResult
from bot.tables.table import Table
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.replay import to_replay
from engine.tysiacha.scoring import BARREL
from engine.tysiacha.view import DealKind


def player_stats(game: TysiachaGame, seat: int) -> dict[str, int]:
    """Counters for one seat: deals played, contracts taken and won, barrels, concessions,
    points scored."""
    stats = {"deals": 0, "contracts": 0, "contracts_won": 0, "barrels": 0, "concessions": 0,
             "points": 0}
    total = 0
    for result in game.history:
        if result.kind is DealKind.REDEAL:
            continue
        active = result.dealer != seat or game.n_seats == 3
        stats["deals"] += active
        if result.soloist == seat:
            stats["contracts"] += 1
            stats["contracts_won"] += bool(result.made)
            stats["concessions"] += result.kind is DealKind.CONCEDED
        before = total
        total += result.scores[seat]
        stats["points"] += result.scores[seat]
        if total == BARREL and before != BARREL:
            stats["barrels"] += 1
    return stats


def game_result(table: Table) -> GameResult:
    """The record of a finished game for the store."""
    game = table.game
    assert game is not None
    players = [
        GamePlayerResult(
            seat=s.seat, user_id=s.user_id, bot_level=s.bot_level, name=s.name,
            team=s.seat, won=game.winner == s.seat, stats={},
        )
        for s in table.seats
    ]
    return GameResult(table_id=table.id, guild_id=table.record.guild_id, game="tysiacha",
                      scores=list(game.scores), winner=game.winner, players=players,
                      replay=to_replay(game))
