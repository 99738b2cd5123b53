"""``/chinois new``: its options (the other commands are shared)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.base import OpenTable
from bot.i18n.translator import ls


def new_command(open_table: OpenTable) -> Any:
    @app_commands.describe(turn_timer=ls("cmd.new.turn_timer"))
    @app_commands.rename(turn_timer=ls("cmd.new.turn_timer.name"))
    async def new(interaction: discord.Interaction[Any],
                  turn_timer: app_commands.Range[int, 0, 3600] | None = None) -> None:
        await open_table(interaction, {"turn_timer": turn_timer})
    return new
