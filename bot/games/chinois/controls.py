"""Chinois's own clicks on a seat's private message, read into moves: a bid, a card.

:func:`read` is pure: the table service has decided the click is not stale, and the
engine checks the move."""

from __future__ import annotations

from bot.tables import Table, TableError, ids
from bot.tables.clicks import Move
from engine.chinois.actions import Bid, Play
from engine.chinois.deal import DECK

CARDS = {int(c): c for c in DECK}


def read(table: Table, seat: int, click: ids.Click) -> Move:
    """The move of a click by ``seat``."""
    choice = click.one() or ""
    if not choice.isdigit():
        raise TableError("forged")
    number = int(choice)
    if click.action == "bid":
        return Move(Bid(seat, number))
    if click.action == "play":
        card = CARDS.get(number)
        if card is None:
            raise TableError("forged")
        return Move(Play(seat, card))
    raise TableError("forged")
