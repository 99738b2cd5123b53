"""``/tichu new``: its options (the other commands are shared)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.base import OpenTable
from bot.i18n.translator import ls


def new_command(open_table: OpenTable) -> Any:
    @app_commands.describe(target=ls("cmd.new.target"),
                           turn_timer=ls("cmd.new.turn_timer"),
                           players=ls("cmd.tichu.new.players"))
    @app_commands.rename(target=ls("cmd.new.target.name"),
                         turn_timer=ls("cmd.new.turn_timer.name"),
                         players=ls("cmd.tichu.new.players.name"))
    @app_commands.choices(players=[app_commands.Choice(name="4", value=4),
                                   app_commands.Choice(name="6", value=6)])
    async def new(interaction: discord.Interaction[Any],
                  target: app_commands.Range[int, 50, 10000] | None = None,
                  turn_timer: app_commands.Range[int, 0, 3600] | None = None,
                  players: int = 4) -> None:
        await open_table(interaction, {"target": target, "turn_timer": turn_timer,
                                       "players": players})
    return new
