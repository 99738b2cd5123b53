"""Chinois's own clicks on a seat's private message: a bid, a card. Already acknowledged
and checked for staleness by the controller; the engine checks the rest."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import Responder
from bot.tables import Table, TableError, ids
from engine.chinois.actions import Bid, Play
from engine.chinois.deal import DECK

CARDS = {int(c): c for c in DECK}


async def handle(controller: Responder, interaction: discord.Interaction[Any], table: Table,
                 seat: int, cid: ids.ComponentId, values: list[str], locale: str) -> None:
    choice = values[0] if len(values) == 1 else ""
    if not choice.isdigit():
        raise TableError("forged")
    number = int(choice)
    if cid.action == "bid":
        await controller.act(interaction, table, cid, lambda s: Bid(s, number), locale)
        return
    if cid.action == "play":
        card = CARDS.get(number)
        if card is None:
            raise TableError("forged")
        await controller.act(interaction, table, cid, lambda s: Play(s, card), locale)
        return
    raise TableError("forged")
