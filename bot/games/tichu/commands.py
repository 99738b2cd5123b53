"""``/tichu new``: its options (the other commands are shared)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.base import OpenTable
from bot.i18n.translator import ls

MAX_BOARDS = 12
"""The most boards a duplicate table plays (``/tichu new duplicate:``)."""


def new_command(open_table: OpenTable) -> Any:
    @app_commands.describe(target=ls("cmd.new.target"),
                           turn_timer=ls("cmd.new.turn_timer"),
                           players=ls("cmd.tichu.new.players"),
                           duplicate=ls("cmd.tichu.new.duplicate"),
                           event=ls("cmd.tichu.new.event"),
                           practice=ls("cmd.tichu.new.practice"))
    @app_commands.rename(target=ls("cmd.new.target.name"),
                         turn_timer=ls("cmd.new.turn_timer.name"),
                         players=ls("cmd.tichu.new.players.name"),
                         duplicate=ls("cmd.tichu.new.duplicate.name"),
                         event=ls("cmd.tichu.new.event.name"),
                         practice=ls("cmd.tichu.new.practice.name"))
    @app_commands.choices(players=[app_commands.Choice(name="4", value=4),
                                   app_commands.Choice(name="6", value=6)])
    async def new(interaction: discord.Interaction[Any],
                  target: app_commands.Range[int, 50, 10000] | None = None,
                  turn_timer: app_commands.Range[int, 0, 3600] | None = None,
                  players: int = 4,
                  duplicate: app_commands.Range[int, 1, MAX_BOARDS] | None = None,
                  event: app_commands.Range[str, 1, 12] | None = None,
                  practice: bool = False) -> None:
        options: dict[str, Any] = {"target": target, "turn_timer": turn_timer,
                                   "players": players}
        if duplicate is not None or event is not None:
            # A duplicate table: fresh boards (a new event), or those of an event's code.
            options = {"turn_timer": turn_timer, "players": players, "duplicate": duplicate,
                       "event": event}
        if practice:
            # Unrated, with the coach's hints on each person's panel (never duplicate).
            options["practice"] = True
        await open_table(interaction, options)
    return new
