"""``/tichu …``: thin commands over the table service."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.i18n.translator import ls
from bot.tables import TableError
from bot.views.table import lobby_message

if TYPE_CHECKING:
    from bot.app import TichuBot

log = logging.getLogger(__name__)


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def _guild_locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.guild_locale.value if interaction.guild_locale else "en")


class TichuCog(commands.Cog):
    """The Tichu commands."""

    tichu = app_commands.Group(name=ls("tichu", "cmd.tichu.name"),
                               description=ls("Play Tichu", "cmd.tichu.description"),
                               guild_only=True)

    def __init__(self, bot: TichuBot) -> None:
        self.bot = bot

    async def _refuse(self, interaction: discord.Interaction[Any], code: str,
                      **values: Any) -> None:
        text = t(_locale(interaction), f"error.{code}", **values)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await self._refuse(interaction, original.code, **original.values)
            return
        log.error("command failed", exc_info=original)
        await self._refuse(interaction, "internal")

    @tichu.command(name=ls("new", "cmd.new.name"),
                   description=ls("Open a Tichu table in this channel", "cmd.new.description"))
    @app_commands.describe(target=ls("Points to win (default 1000)", "cmd.new.target"),
                           turn_timer=ls("Seconds per turn before a computer plays (off by default)",
                                         "cmd.new.turn_timer"))
    @app_commands.rename(target=ls("target", "cmd.new.target.name"),
                         turn_timer=ls("turn_timer", "cmd.new.turn_timer.name"))
    async def new(self, interaction: discord.Interaction[Any],
                  target: app_commands.Range[int, 50, 10000] = 1000,
                  turn_timer: app_commands.Range[int, 10, 3600] | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        service = self.bot.service
        if await service.active_in(interaction.channel_id) is not None:
            await self._refuse(interaction, "table_here")
            return
        table = await service.open_lobby(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host_id=interaction.user.id, host_name=interaction.user.display_name,
            locale=_guild_locale(interaction), target=target, turn_timer=turn_timer)
        message = lobby_message(table, table.record.locale)
        await interaction.response.send_message(message.content, view=message.view)
        sent = await interaction.original_response()
        options = {**table.record.options, "lobby_message_id": sent.id}
        table.record.options = options
        thread_id: int | None = None
        if isinstance(interaction.channel, discord.TextChannel):
            try:
                thread = await sent.create_thread(
                    name=t(table.record.locale, "thread.name", id=table.id)[:100],
                    auto_archive_duration=1440)
                thread_id = thread.id
            except discord.HTTPException:
                log.info("no thread for table %s: the table plays in the channel", table.id)
        table.record.thread_id = thread_id
        await service.repo.update_table(table.id, options=options, thread_id=thread_id)

    async def _table_here(self, interaction: discord.Interaction[Any]):  # type: ignore[no-untyped-def]
        assert interaction.channel_id is not None
        table = await self.bot.service.active_in(interaction.channel_id)
        if table is None:
            raise TableError("no_table_here")
        return table

    @tichu.command(name=ls("table", "cmd.table.name"),
                   description=ls("Post the table message again", "cmd.table.description"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._table_here(interaction)
        if table.game is None:
            raise TableError("not_playing")
        await interaction.response.send_message(t(_locale(interaction), "table.reposted"),
                                                ephemeral=True)
        await self.bot.presenter.repost(table)

    @tichu.command(name=ls("abandon", "cmd.abandon.name"),
                   description=ls("End the table here (host or Manage Server)",
                                  "cmd.abandon.description"))
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._table_here(interaction)
        perms = interaction.permissions
        await self.bot.service.abandon(table.id, interaction.user.id,
                                       can_manage=bool(perms and perms.manage_guild))
        await interaction.response.send_message(t(table.record.locale, "table.abandoned",
                                                  name=interaction.user.display_name))

    @tichu.command(name=ls("takeover", "cmd.takeover.name"),
                   description=ls("Hand an idle seat to a computer player for good (host)",
                                  "cmd.takeover.description"))
    @app_commands.describe(seat=ls("Seat number, 1 to 4", "cmd.takeover.seat"))
    @app_commands.rename(seat=ls("seat", "cmd.takeover.seat.name"))
    async def takeover(self, interaction: discord.Interaction[Any],
                       seat: app_commands.Range[int, 1, 4]) -> None:
        table = await self._table_here(interaction)
        await self.bot.service.takeover(table.id, interaction.user.id, seat - 1)
        await interaction.response.send_message(
            t(table.record.locale, "table.takeover", seat=seat))

    @tichu.command(name=ls("rules", "cmd.rules.name"),
                   description=ls("How to play Tichu", "cmd.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(t(_locale(interaction), "rules.summary"),
                                                ephemeral=True)

    @tichu.command(name=ls("leaderboard", "cmd.leaderboard.name"),
                   description=ls("This server's best Tichu players", "cmd.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        rows = await self.bot.service.repo.leaderboard(interaction.guild_id, "tichu", limit=10)
        if not rows:
            await interaction.response.send_message(t(locale, "leaderboard.empty"))
            return
        lines = [t(locale, "leaderboard.header")]
        for rank, row in enumerate(rows, start=1):
            lines.append(t(locale, "leaderboard.row", rank=rank, name=row.name, games=row.games,
                           wins=row.wins, rate=round(100 * row.win_rate),
                           called=row.stats.get("tichu_called", 0) + row.stats.get("grand_called", 0),
                           won=row.stats.get("tichu_won", 0) + row.stats.get("grand_won", 0)))
        embed = discord.Embed(title=t(locale, "leaderboard.title"), description="\n".join(lines),
                              colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed)

    @tichu.command(name=ls("stats", "cmd.stats.name"),
                   description=ls("A player's Tichu statistics", "cmd.stats.description"))
    @app_commands.describe(user=ls("Whose statistics (default: yours)", "cmd.stats.user"))
    @app_commands.rename(user=ls("user", "cmd.stats.user.name"))
    async def stats(self, interaction: discord.Interaction[Any],
                    user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        who = user or interaction.user
        row = await self.bot.service.repo.player_stats(interaction.guild_id, "tichu", who.id)
        if row is None:
            await interaction.response.send_message(
                t(locale, "stats.none", name=who.display_name), ephemeral=True)
            return
        s = row.stats
        text = t(locale, "stats.body", games=row.games, wins=row.wins,
                 rate=round(100 * row.win_rate), deals=s.get("deals", 0),
                 tichu_called=s.get("tichu_called", 0), tichu_won=s.get("tichu_won", 0),
                 grand_called=s.get("grand_called", 0), grand_won=s.get("grand_won", 0),
                 doubles=s.get("double_victories", 0), bombs=s.get("bombs", 0),
                 per_deal=round(s.get("points", 0) / max(1, s.get("deals", 0)), 1))
        embed = discord.Embed(title=t(locale, "stats.title", name=who.display_name),
                              description=text, colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed)
