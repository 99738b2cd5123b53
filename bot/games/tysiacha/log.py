"""The table-log lines of Tysiacha actions (keys of the ``tysiacha.log.*`` entries)."""

from __future__ import annotations

from bot.i18n.names import SUIT_SYMBOLS
from bot.tables.rules import LogEntry
from engine.tysiacha.actions import Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.cards import MARRIAGE_VALUES
from engine.tysiacha.game import Applied
from engine.tysiacha.view import DealKind


def describe(applied: Applied) -> list[LogEntry]:
    """The log lines of one applied action; the prikup, each deal's end and the game's
    end are also announced (the presenter posts an image for them)."""
    action = applied.action
    seat = action.seat
    out: list[LogEntry] = []
    if isinstance(action, Bid):
        out.append(LogEntry("tysiacha.log.bid", {"seat": seat, "bid": action.bid}))
    elif isinstance(action, Pass):
        out.append(LogEntry("tysiacha.log.pass", {"seat": seat}))
    elif isinstance(action, Raise):
        out.append(LogEntry("tysiacha.log.raise", {"seat": seat, "bid": action.bid}))
    elif isinstance(action, Concede):
        out.append(LogEntry("tysiacha.log.concede", {"seat": seat}))
    elif isinstance(action, Give):
        out.append(LogEntry("tysiacha.log.give", {"seat": seat}))
    elif isinstance(action, Redeal):
        out.append(LogEntry("tysiacha.log.redeal", {"seat": seat}))
    elif isinstance(action, Play):
        if action.marriage:
            suit = action.card & 3
            out.append(LogEntry("tysiacha.log.marriage",
                                {"seat": seat, "card": action.card, "suit": SUIT_SYMBOLS[suit],
                                 "points": MARRIAGE_VALUES[suit]}))
        else:
            out.append(LogEntry("tysiacha.log.play", {"seat": seat, "card": action.card}))
    if applied.soloist is not None:
        # The prikup and the contract are read back from the game's deal log when the
        # announcement is drawn (by this very action), even if play has moved on.
        out.append(LogEntry("tysiacha.log.prikup", {"seat": applied.soloist, "action": action},
                            announce=True))
    if applied.trick_taken_by is not None:
        out.append(LogEntry("tysiacha.log.trick", {"seat": applied.trick_taken_by}))
    result = applied.deal_result
    if result is not None and result.kind is not DealKind.REDEAL:
        out.append(LogEntry("tysiacha.log.deal_over",
                            {"number": result.number, "seat_scores": result.scores},
                            announce=applied.winner is None))
    if applied.winner is not None:
        out.append(LogEntry("tysiacha.log.game_over", {"seat": applied.winner}, announce=True))
    return out

