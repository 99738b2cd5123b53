"""``/tichu new``: its options (the other commands are shared)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.games import open_table
from bot.games.tichu.spec import TICHU
from bot.i18n.translator import ls

if TYPE_CHECKING:
    from bot.app import TichuBot


def new_command(bot: TichuBot) -> Any:
    @app_commands.describe(target=ls("cmd.new.target"),
                           turn_timer=ls("cmd.new.turn_timer"))
    @app_commands.rename(target=ls("cmd.new.target.name"),
                         turn_timer=ls("cmd.new.turn_timer.name"))
    async def new(interaction: discord.Interaction[Any],
                  target: app_commands.Range[int, 50, 10000] = 1000,
                  turn_timer: app_commands.Range[int, 10, 3600] | None = None) -> None:
        await open_table(bot, TICHU, interaction, {"target": target, "turn_timer": turn_timer})
    return new
