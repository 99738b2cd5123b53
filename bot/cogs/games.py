"""``/<game> …``: one command group per game, the same thin commands for each.

Every group has ``new`` (its options are the game's own), ``table``, ``rules``,
``leaderboard``, ``stats``, ``history``, ``takeover`` and ``abandon`` (the records
commands live in :mod:`bot.cogs.records`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs import records
from bot.games.base import GameSpec
from bot.i18n import t
from bot.i18n.translator import ls
from bot.tables import Table, TableError
from bot.views.table import lobby_message

if TYPE_CHECKING:
    from bot.app import TichuBot

log = logging.getLogger(__name__)
NewCommand = Callable[..., Awaitable[None]]


def user_locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def guild_locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.guild_locale.value if interaction.guild_locale else "en")


async def refuse(interaction: discord.Interaction[Any], code: str, **values: Any) -> None:
    text = t(user_locale(interaction), f"error.{code}", **values)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class GameGroup(app_commands.Group):
    """A game's command group; table refusals become ephemeral sentences."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await refuse(interaction, original.code, **original.values)
            return
        log.error("command failed", exc_info=original)
        await refuse(interaction, "internal")


async def open_table(bot: TichuBot, spec: GameSpec, interaction: discord.Interaction[Any],
                     options: dict[str, Any]) -> None:
    """``/<game> new``: a lobby in this channel, and a thread for the table if possible."""
    assert interaction.guild_id is not None and interaction.channel_id is not None
    service = bot.service
    if await service.active_in(interaction.channel_id) is not None:
        await refuse(interaction, "table_here")
        return
    table = await service.open_lobby(
        game=spec.name, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        host_id=interaction.user.id, host_name=interaction.user.display_name,
        locale=guild_locale(interaction), options=options)
    message = lobby_message(table, table.record.locale)
    await interaction.response.send_message(message.content, view=message.view)
    sent = await interaction.original_response()
    table.record.options = {**table.record.options, "lobby_message_id": sent.id}
    thread_id: int | None = None
    if isinstance(interaction.channel, discord.TextChannel):
        try:
            thread = await sent.create_thread(
                name=t(table.record.locale, "thread.name",
                       game=t(table.record.locale, f"game.{spec.name}"), id=table.id)[:100],
                auto_archive_duration=1440)
            thread_id = thread.id
        except discord.HTTPException:
            log.info("no thread for table %s: the table plays in the channel", table.id)
    table.record.thread_id = thread_id
    await service.repo.update_table(table.id, options=table.record.options, thread_id=thread_id)


def game_group(bot: TichuBot, spec: GameSpec, new: NewCommand) -> GameGroup:
    """The command group of ``spec``, with its own ``new`` callback."""
    name = spec.name
    group = GameGroup(name=ls(f"cmd.{name}.name"),
                      description=ls(f"cmd.{name}.description"),
                      guild_only=True)
    group.add_command(app_commands.Command(
        name=ls("cmd.new.name"),
        description=ls(f"cmd.{name}.new.description"),
        callback=new))

    async def here(interaction: discord.Interaction[Any]) -> Table:
        assert interaction.channel_id is not None
        table = await bot.service.active_in(interaction.channel_id)
        if table is None or table.spec.name != name:
            raise TableError("no_table_here")
        return table

    async def table(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        if found.game is None:
            raise TableError("not_playing")
        await interaction.response.send_message(t(user_locale(interaction), "table.reposted"),
                                                ephemeral=True)
        await bot.presenter.repost(found)

    async def abandon(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        perms = interaction.permissions
        await bot.service.abandon(found.id, interaction.user.id,
                                  can_manage=bool(perms and perms.manage_guild))
        await interaction.response.send_message(t(found.record.locale, "table.abandoned",
                                                  name=interaction.user.display_name))

    @app_commands.describe(seat=ls("cmd.takeover.seat"))
    @app_commands.rename(seat=ls("cmd.takeover.seat.name"))
    async def takeover(interaction: discord.Interaction[Any],
                       seat: app_commands.Range[int, 1, 6]) -> None:
        found = await here(interaction)
        await bot.service.takeover(found.id, interaction.user.id, seat - 1)
        await interaction.response.send_message(t(found.record.locale, "table.takeover",
                                                  seat=seat))

    async def rules(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(t(user_locale(interaction), f"rules.{name}"),
                                                ephemeral=True)

    async def leaderboard(interaction: discord.Interaction[Any]) -> None:
        await records.leaderboard_command(bot, interaction, name)

    @app_commands.describe(user=ls("cmd.stats.user"))
    @app_commands.rename(user=ls("cmd.stats.user.name"))
    async def stats(interaction: discord.Interaction[Any],
                    user: discord.User | None = None) -> None:
        await records.stats_command(bot, interaction, name, user or interaction.user)

    @app_commands.describe(user=ls("cmd.history.user"))
    @app_commands.rename(user=ls("cmd.history.user.name"))
    async def history(interaction: discord.Interaction[Any],
                      user: discord.User | None = None) -> None:
        await records.history_command(bot, interaction, name, user or interaction.user)

    commands: list[tuple[str, Callable[..., Awaitable[None]]]] = [
        ("table", table), ("abandon", abandon), ("takeover", takeover), ("rules", rules),
        ("leaderboard", leaderboard), ("stats", stats), ("history", history)]
    for command, callback in commands:
        group.add_command(app_commands.Command(
            name=ls(f"cmd.{command}.name"),
            description=ls(f"cmd.{name}.{command}.description"),
            callback=callback))
    return group


STAT_KEYS = ("deals", "tichu_called", "tichu_won", "grand_called", "grand_won",
             "double_victories", "bombs", "points", "exact_bids", "contracts", "contracts_won",
             "barrels", "concessions")


def spec_extra(locale: str, game: str, stats: dict[str, int]) -> str:
    """The game's own column of the leaderboard."""
    return t(locale, f"leaderboard.extra.{game}", **{k: stats.get(k, 0) for k in STAT_KEYS})
