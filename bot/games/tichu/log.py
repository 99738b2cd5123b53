"""The table-log lines of Tichu actions."""

from __future__ import annotations

from bot.tables.rules import LogEntry
from engine.tichu.actions import CallTichu, DeclineGrand, Exchange, Gift, GrandTichu, Pass, Play
from engine.tichu.game import Applied


def describe(applied: Applied) -> list[LogEntry]:
    """The log lines of one applied action (keys of the ``log.*`` catalog entries)."""
    action = applied.action
    seat = action.seat
    out: list[LogEntry] = []
    if isinstance(action, GrandTichu):
        out.append(LogEntry("log.grand_tichu", {"seat": seat}))
    elif isinstance(action, CallTichu):
        out.append(LogEntry("log.tichu", {"seat": seat}))
    elif isinstance(action, DeclineGrand | Exchange):
        pass
    elif isinstance(action, Pass):
        out.append(LogEntry("log.pass", {"seat": seat}))
    elif isinstance(action, Gift):
        out.append(LogEntry("log.gift", {"seat": seat, "to": action.to}))
    elif isinstance(action, Play) and action.to is not None:
        out.append(LogEntry("log.dog", {"seat": seat, "to": action.to}))
    elif applied.combo is not None:
        key = "log.bomb" if applied.combo.is_bomb else "log.play"
        out.append(LogEntry(key, {"seat": seat, "combo": applied.combo,
                                  "wish": getattr(action, "wish", None)}))
    if applied.exchange_done:
        out.append(LogEntry("log.exchange_done", {"lead": applied.lead}))
    if applied.wish_fulfilled:
        out.append(LogEntry("log.wish_fulfilled", {"seat": seat}))
    if applied.went_out:
        out.append(LogEntry("log.out", {"seat": seat}))
    if applied.trick_taken_by is not None:
        out.append(LogEntry("log.trick", {"seat": applied.trick_taken_by}))
    if applied.deal_result is not None:
        out.append(LogEntry("log.deal_over", {"number": applied.deal_result.number,
                                              "scores": applied.deal_result.scores},
                            announce=True))
    if applied.winner is not None:
        out.append(LogEntry("log.game_over", {"team": applied.winner}, announce=True))
    return out
