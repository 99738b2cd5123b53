"""``/<game> …``: one command group per game, the same thin commands for each.

Every group has ``new`` (its options are the game's own), ``table``, ``rules``,
``leaderboard``, ``stats``, ``takeover`` and ``abandon``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

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
        assert interaction.guild_id is not None
        locale = user_locale(interaction)
        rows = await bot.service.repo.leaderboard(interaction.guild_id, name, limit=10)
        if not rows:
            await interaction.response.send_message(t(locale, "leaderboard.empty"))
            return
        lines = [t(locale, "leaderboard.header")]
        for rank, row in enumerate(rows, start=1):
            lines.append(t(locale, "leaderboard.row", rank=rank, name=row.name, games=row.games,
                           wins=row.wins, rate=round(100 * row.win_rate),
                           extra=spec_extra(locale, name, row.stats)))
        embed = discord.Embed(title=t(locale, f"leaderboard.title.{name}"),
                              description="\n".join(lines), colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed)

    @app_commands.describe(user=ls("cmd.stats.user"))
    @app_commands.rename(user=ls("cmd.stats.user.name"))
    async def stats(interaction: discord.Interaction[Any],
                    user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        locale = user_locale(interaction)
        who = user or interaction.user
        row = await bot.service.repo.player_stats(interaction.guild_id, name, who.id)
        if row is None:
            await interaction.response.send_message(
                t(locale, "stats.none", name=who.display_name), ephemeral=True)
            return
        s = row.stats
        text = t(locale, "stats.body", games=row.games, wins=row.wins,
                 rate=round(100 * row.win_rate))
        details = t(locale, f"stats.{name}", **{k: s.get(k, 0) for k in STAT_KEYS},
                    per_deal=round(s.get("points", 0) / max(1, s.get("deals", 0)), 1))
        embed = discord.Embed(title=t(locale, f"stats.title.{name}", name=who.display_name),
                              description=f"{text}\n{details}", colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed)

    commands: list[tuple[str, Callable[..., Awaitable[None]]]] = [
        ("table", table), ("abandon", abandon), ("takeover", takeover), ("rules", rules),
        ("leaderboard", leaderboard), ("stats", stats)]
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
