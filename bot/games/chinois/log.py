"""The table-log lines of Chinois actions."""

from __future__ import annotations

from bot.tables.rules import LogEntry
from engine.chinois.actions import Bid, Play
from engine.chinois.game import Applied


def describe(applied: Applied) -> list[LogEntry]:
    """The log lines of one applied action (keys of the ``log.chinois.*`` catalog entries)."""
    action = applied.action
    seat = action.seat
    out: list[LogEntry] = []
    if isinstance(action, Bid):
        out.append(LogEntry("log.chinois.bid", {"seat": seat, "bid": action.bid}))
        if applied.lead is not None:
            out.append(LogEntry("log.chinois.bids_done", {"lead": applied.lead}))
    elif isinstance(action, Play):
        out.append(LogEntry("log.chinois.play", {"seat": seat, "card": action.card}))
    if applied.trick is not None and applied.trick_taken_by is not None:
        plays = tuple((p.seat, int(p.card)) for p in applied.trick.plays)
        out.append(LogEntry("log.chinois.trick", {"seat": applied.trick_taken_by,
                                                  "plays": plays}))
    if applied.round_result is not None:
        result = applied.round_result
        out.append(LogEntry("log.chinois.round_over", {"round": result.round},
                            announce=True))
    if applied.winners is not None:
        if len(applied.winners) == 1:
            out.append(LogEntry("log.chinois.game_over", {"seat": applied.winners[0]},
                                announce=True))
        else:
            out.append(LogEntry("log.chinois.game_over_shared", {}, announce=True))
    return out
