"""``/<game> …``: one command group per game, the same thin commands for each.

Every group has ``new`` (its options are the game's own), ``table``, ``rules``,
``leave``, ``end``, ``settings``, ``leaderboard``, ``stats``, ``history``,
``takeover`` and ``abandon`` (the records commands live in :mod:`bot.cogs.records`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.cogs import records
from bot.games.base import GameSpec
from bot.i18n import LANGUAGES, t
from bot.i18n import language as language_of
from bot.i18n.translator import ls
from bot.store.models import GuildSettings, StoreError
from bot.tables import Table, TableError
from bot.tables.errors import store_refusal
from bot.views.pacing import Pacer
from bot.views.table import lobby_message

if TYPE_CHECKING:
    from bot.tables import TableService

log = logging.getLogger(__name__)
NewCommand = Callable[..., Awaitable[None]]
DEFAULT_TURN_TIMER = 90
"""Seconds per decision when neither the table nor the server says otherwise."""
DEFAULT_TABLES_PER_CHANNEL = 10


class Host(Protocol):
    """The bot, as the game commands use it."""

    service: TableService
    pacer: Pacer

    async def repost(self, table: Table) -> None: ...


def user_locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


async def refuse(interaction: discord.Interaction[Any], code: str, **values: Any) -> None:
    text = t(user_locale(interaction), f"error.{code}", **values)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def public_locale(settings: GuildSettings, interaction: discord.Interaction[Any]) -> str:
    """The language of a server's public messages: the admins' choice, else the locale
    Discord sends for Community servers, else English."""
    if settings.locale:
        return settings.locale
    if interaction.guild_locale is not None:
        return str(interaction.guild_locale.value)
    return "en"


class GameGroup(app_commands.Group):
    """A game's command group; table refusals become ephemeral sentences."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await refuse(interaction, original.code, **original.values)
            return
        if isinstance(original, StoreError) and store_refusal(original.code) != "store_failed":
            log.warning("command %s refused: the store failed (%s)",
                        interaction.command and interaction.command.qualified_name, original)
            await refuse(interaction, store_refusal(original.code))
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=original)
        await refuse(interaction, "internal")


async def open_table(bot: Host, spec: GameSpec, interaction: discord.Interaction[Any],
                     options: dict[str, Any]) -> None:
    """``/<game> new``: a lobby in this channel, and a thread for the table if possible.
    Options left out take the server's defaults (the turn timer is on unless set to 0)."""
    assert interaction.guild_id is not None and interaction.channel_id is not None
    service = bot.service
    settings = await service.repo.guild_settings(interaction.guild_id)
    options = dict(options)
    if options.get("turn_timer") is None:
        options["turn_timer"] = settings.turn_timer if settings.turn_timer is not None \
            else DEFAULT_TURN_TIMER
    if "target" in options and options["target"] is None:
        options["target"] = settings.target or 1000
    channel_id = interaction.channel_id
    if isinstance(interaction.channel, discord.Thread) and interaction.channel.parent_id:
        channel_id = interaction.channel.parent_id
    table = await service.open_lobby(
        game=spec.name, guild_id=interaction.guild_id, channel_id=channel_id,
        host_id=interaction.user.id, host_name=interaction.user.display_name,
        locale=public_locale(settings, interaction), options=options,
        limit=settings.tables_per_channel or DEFAULT_TABLES_PER_CHANNEL)
    message = lobby_message(table, table.record.locale)
    await interaction.response.send_message(message.content, view=message.view)
    sent = await interaction.original_response()
    table.record.options = {**table.record.options, "lobby_message_id": sent.id}
    thread_id: int | None = None
    if isinstance(interaction.channel, discord.TextChannel):
        try:
            await bot.pacer.wait()  # a channel write, under the global limit like the others
            thread = await sent.create_thread(
                name=t(table.record.locale, "thread.name",
                       game=t(table.record.locale, f"game.{spec.name}"), id=table.id)[:100],
                auto_archive_duration=1440)
            thread_id = thread.id
        except discord.HTTPException:
            log.info("no thread for table %s: the table plays in the channel", table.id)
    table.record.thread_id = thread_id
    await service.repo.update_table(table.id, options=table.record.options, thread_id=thread_id)


def game_group(bot: Host, spec: GameSpec, new: NewCommand) -> GameGroup:
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
        return await bot.service.active_in(interaction.channel_id, name)

    async def table(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        if found.game is None:
            raise TableError("not_playing")
        await interaction.response.send_message(t(user_locale(interaction), "table.reposted"),
                                                ephemeral=True)
        await bot.repost(found)

    async def abandon(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        perms = interaction.permissions
        await bot.service.abandon(found.id, interaction.user.id,
                                  can_manage=bool(perms and perms.manage_guild))
        await interaction.response.send_message(t(found.record.locale, "table.abandoned",
                                                  name=interaction.user.display_name))

    async def leave(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        await bot.service.leave_game(found.id, interaction.user.id)
        await interaction.response.send_message(t(found.record.locale, "table.left",
                                                  name=interaction.user.display_name))

    async def end(interaction: discord.Interaction[Any]) -> None:
        found = await here(interaction)
        _, voting = await bot.service.vote_end(found.id, interaction.user.id)
        await interaction.response.send_message(
            t(user_locale(interaction), "table.vote_counted" if voting else "table.vote_taken"),
            ephemeral=True)

    @app_commands.describe(seat=ls("cmd.takeover.seat"))
    @app_commands.rename(seat=ls("cmd.takeover.seat.name"))
    async def takeover(interaction: discord.Interaction[Any],
                       seat: app_commands.Range[int, 1, 6]) -> None:
        found = await here(interaction)
        await bot.service.takeover(found.id, interaction.user.id, seat - 1)
        await interaction.response.send_message(t(found.record.locale, "table.takeover",
                                                  seat=seat))

    @app_commands.describe(language=ls("cmd.settings.language"),
                           turn_timer=ls("cmd.settings.turn_timer"),
                           target=ls("cmd.settings.target"),
                           tables=ls("cmd.settings.tables"))
    @app_commands.rename(language=ls("cmd.settings.language.name"),
                         turn_timer=ls("cmd.new.turn_timer.name"),
                         target=ls("cmd.new.target.name"),
                         tables=ls("cmd.settings.tables.name"))
    @app_commands.choices(language=[
        app_commands.Choice(name=ls(f"language.{code}"), value=code)
        for code in ("auto", *LANGUAGES)])
    async def settings(interaction: discord.Interaction[Any], language: str | None = None,
                       turn_timer: app_commands.Range[int, 0, 3600] | None = None,
                       target: app_commands.Range[int, 50, 10000] | None = None,
                       tables: app_commands.Range[int, 1, 50] | None = None) -> None:
        assert interaction.guild_id is not None
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            raise TableError("not_manager")
        repo = bot.service.repo
        current = await repo.guild_settings(interaction.guild_id)
        if language is not None:
            current.locale = None if language == "auto" else language
        if turn_timer is not None:
            current.turn_timer = turn_timer
        if target is not None:
            current.target = target
        if tables is not None:
            current.tables_per_channel = tables
        if any(v is not None for v in (language, turn_timer, target, tables)):
            await repo.save_guild_settings(interaction.guild_id, current)
        locale = user_locale(interaction)
        shown = current.locale or public_locale(current, interaction)
        await interaction.response.send_message(t(
            locale, "settings.show",
            language=t(locale, f"language.{language_of(shown)}") + ("" if current.locale else
                                                        " " + t(locale, "settings.auto")),
            timer=current.turn_timer if current.turn_timer is not None else DEFAULT_TURN_TIMER,
            target=current.target or 1000,
            tables=current.tables_per_channel or DEFAULT_TABLES_PER_CHANNEL), ephemeral=True)

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

    # A game with variants rated apart (Tichu for four or six) asks which one.
    variants = [app_commands.Choice(name=ls(f"variant.{record}"), value=record)
                for record in spec.record_names]

    @app_commands.describe(players=ls("cmd.variant"))
    @app_commands.rename(players=ls("cmd.variant.name"))
    @app_commands.choices(players=variants)
    async def leaderboard_of(interaction: discord.Interaction[Any],
                             players: str | None = None) -> None:
        await records.leaderboard_command(bot, interaction, players or name)

    @app_commands.describe(user=ls("cmd.stats.user"), players=ls("cmd.variant"))
    @app_commands.rename(user=ls("cmd.stats.user.name"), players=ls("cmd.variant.name"))
    @app_commands.choices(players=variants)
    async def stats_of(interaction: discord.Interaction[Any], user: discord.User | None = None,
                       players: str | None = None) -> None:
        await records.stats_command(bot, interaction, players or name, user or interaction.user)

    if len(variants) > 1:
        leaderboard, stats = leaderboard_of, stats_of  # type: ignore[assignment]

    @app_commands.describe(user=ls("cmd.history.user"))
    @app_commands.rename(user=ls("cmd.history.user.name"))
    async def history(interaction: discord.Interaction[Any],
                      user: discord.User | None = None) -> None:
        await records.history_command(bot, interaction, name, user or interaction.user)

    commands: list[tuple[str, Callable[..., Awaitable[None]]]] = [
        ("table", table), ("leave", leave), ("end", end), ("abandon", abandon),
        ("takeover", takeover), ("settings", settings), ("rules", rules),
        ("leaderboard", leaderboard), ("stats", stats), ("history", history)]
    for command, callback in commands:
        group.add_command(app_commands.Command(
            name=ls(f"cmd.{command}.name"),
            description=ls(f"cmd.{name}.{command}.description"),
            callback=callback))
    return group
