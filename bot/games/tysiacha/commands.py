"""``/tysiacha new``: its options (the other commands are shared)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.base import OpenTable
from bot.i18n.translator import ls


def new_command(open_table: OpenTable) -> Any:
    @app_commands.describe(
        players=ls("cmd.tysiacha.new.players"),
        rounding=ls("cmd.tysiacha.new.rounding"),
        turn_timer=ls("cmd.new.turn_timer"))
    @app_commands.rename(players=ls("cmd.tysiacha.new.players.name"),
                         rounding=ls("cmd.tysiacha.new.rounding.name"),
                         turn_timer=ls("cmd.new.turn_timer.name"))
    @app_commands.choices(
        players=[app_commands.Choice(name="3", value=3), app_commands.Choice(name="4", value=4)],
        rounding=[app_commands.Choice(name="10", value=10), app_commands.Choice(name="5", value=5)])
    async def new(interaction: discord.Interaction[Any], players: int = 3, rounding: int = 10,
                  turn_timer: app_commands.Range[int, 0, 3600] | None = None) -> None:
        await open_table(interaction,
                         {"players": players, "rounding": rounding, "turn_timer": turn_timer})
    return new
