"""``/<game> …``: one command group per game, the same thin commands for each.

:class:`GameCommands` is the group: what every game shares is written once, as its
``@app_commands.command`` methods (``table``, ``leave``, ``end``, ``abandon``,
``takeover``, ``settings``, ``rules``, ``leaderboard``, ``stats``, ``history``; the
records commands live in :mod:`bot.cogs.records`). Each game's group is an instance,
made from the game's spec, which brings the rest: the group's name, the ``new`` command
with the game's own options (``spec.new_command``), the game's descriptions of the
shared commands, and its variants rated apart, which ``leaderboard`` and ``stats`` ask
for (Tichu for four or six).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.cogs import records
from bot.games.base import GameSpec
from bot.i18n import LANGUAGES, plain, t
from bot.i18n import language as language_of
from bot.i18n.text import cut
from bot.i18n.translator import ls
from bot.store.models import GuildSettings, StoreError
from bot.tables import Table, TableError
from bot.tables.errors import store_refusal
from bot.views.pacing import Pacer
from bot.views.table import lobby_message

if TYPE_CHECKING:
    from bot.tables import TableService
    from bot.tables.lobby import Prepare

log = logging.getLogger(__name__)
Callback = Callable[..., Coroutine[Any, Any, None]]
NewCommand = Callback
"""The game's ``/<game> new`` callback (``spec.new_command``), with the game's options."""
Command = app_commands.Command[Any, ..., Any]
SCOPES = [app_commands.Choice(name=ls(f"scope.{scope}"), value=scope)
          for scope in records.SCOPES]
"""``leaderboard``'s boards: the server's, the global one (issue 53)."""
EVERYWHERE = frozenset({"leaderboard", "leaderboard_of"})
"""The shared commands that answer in direct messages too (the global board)."""
DEFAULT_TURN_TIMER = 90
"""Seconds per decision when neither the table nor the server says otherwise."""
DEFAULT_TABLES_PER_CHANNEL = 10
THREAD_NAME = 100
"""The most characters Discord takes in a thread's name."""


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


async def command_error(interaction: discord.Interaction[Any],
                        error: app_commands.AppCommandError) -> None:
    """A command's failure as one private sentence: a refusal's own, the store's when the
    database is away or busy, else "something went wrong" (logged in full)."""
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


def public_locale(settings: GuildSettings, interaction: discord.Interaction[Any]) -> str:
    """The language of a server's public messages: the admins' choice, else the locale
    Discord sends for Community servers, else English."""
    if settings.locale:
        return settings.locale
    if interaction.guild_locale is not None:
        return str(interaction.guild_locale.value)
    return "en"


def describe_as(command: Command, description: app_commands.locale_str) -> Command:
    """``command`` (a copy of one of the group's, its own) with ``description``.

    discord.py sends ``description`` as the English text and asks the translator for
    ``_locale_description``; it keeps both from the decorator, which cannot know the
    game (tests/bot/test_command_payload.py pins what Discord is sent)."""
    command.description = description.message
    command._locale_description = description
    return command


class Refused(app_commands.CheckFailure):
    """A check that refuses a command with a sentence (discord.py hands only its own
    errors to the error handlers; :meth:`GameCommands.on_error` reads ``original``)."""

    def __init__(self, error: TableError) -> None:
        super().__init__(error.code)
        self.original = error


class GameCommands(app_commands.Group):
    """A game's ``/<game>`` group; table refusals become ephemeral sentences.

    A shared command's method is named as its catalog keys: ``cmd.<method>.name``, and
    its game's description ``cmd.<game>.<method>.description`` (its docstring is for
    readers only)."""

    def __init__(self, bot: Host, spec: GameSpec, new: NewCommand,
                 anywhere: Sequence[app_commands.Group] = ()) -> None:
        """``anywhere``: subgroups that also work in direct messages, where the app is
        installed for a user (Tichu's ``daily`` and ``play``); the group then goes
        wherever Discord lets it, and its other commands answer there that they need a
        server."""
        game = spec.name
        anywhere = tuple(anywhere)
        if not anywhere:
            super().__init__(name=ls(f"cmd.{game}.name"),
                             description=ls(f"cmd.{game}.description"), guild_only=True)
        else:
            super().__init__(
                name=ls(f"cmd.{game}.name"), description=ls(f"cmd.{game}.description"),
                allowed_contexts=app_commands.AppCommandContext(
                    guild=True, dm_channel=True, private_channel=True),
                allowed_installs=app_commands.AppInstallationType(guild=True, user=True))
        self.bot = bot
        self.game = game
        self.anywhere = anywhere
        shared = [self._of_game(command, spec) for command in self.commands]
        # The game's own ``new`` comes first, then the shared ones in their order.
        for command in shared:
            self.remove_command(command.name)
        self.add_command(app_commands.Command(name=ls("cmd.new.name"),
                                              description=ls(f"cmd.{game}.new.description"),
                                              callback=new))
        for command in shared:
            self.add_command(command)
        for subgroup in anywhere:
            self.add_command(subgroup)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Outside a server only the ``anywhere`` subgroup and the leaderboard (its global
        board) answer."""
        command = interaction.command
        parent = command.parent if isinstance(command, app_commands.Command) else None
        everywhere = isinstance(command, app_commands.Command) and \
            command.callback.__name__ in EVERYWHERE
        if interaction.guild_id is None and not everywhere \
                and not any(parent is g for g in self.anywhere):
            raise Refused(TableError("server_only"))
        return True

    def _of_game(self, command: Command | app_commands.Group, spec: GameSpec) -> Command:
        """A shared command as ``spec``'s group has it: with the game's description; and
        for a game with variants rated apart (Tichu for four or six), ``leaderboard`` and
        ``stats`` ask which one."""
        assert isinstance(command, app_commands.Command)
        key = command.callback.__name__
        description = ls(f"cmd.{self.game}.{key}.description")
        asking: dict[str, Callback] = {"leaderboard": self.leaderboard_of,
                                       "stats": self.stats_of}
        if key not in asking or len(spec.record_names) == 1:
            return describe_as(command, description)
        variants = [app_commands.Choice(name=ls(f"variant.{record}"), value=record)
                    for record in spec.record_names]
        of_variant: Command = app_commands.Command(name=ls(f"cmd.{key}.name"),
                                                   description=description, callback=asking[key])
        return app_commands.choices(players=variants)(of_variant)

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error)

    async def here(self, interaction: discord.Interaction[Any]) -> Table:
        """This game's table in the channel (or thread) of the command."""
        assert interaction.channel_id is not None
        return await self.bot.service.core.active_in(interaction.channel_id, self.game)

    @app_commands.command(name=ls("cmd.table.name"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again."""
        found = await self.here(interaction)
        if found.game is None:
            raise TableError("not_playing")
        await interaction.response.send_message(t(user_locale(interaction), "table.reposted"),
                                                ephemeral=True)
        await self.bot.repost(found)

    @app_commands.command(name=ls("cmd.leave.name"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the game: a computer takes the seat."""
        found = await self.here(interaction)
        await self.bot.service.seats.leave_game(found.id, interaction.user.id)
        await interaction.response.send_message(t(found.record.locale, "table.left",
                                                  name=interaction.user.display_name))

    @app_commands.command(name=ls("cmd.end.name"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Vote to end the game unrated."""
        found = await self.here(interaction)
        _, voting = await self.bot.service.seats.vote_end(found.id, interaction.user.id)
        await interaction.response.send_message(
            t(user_locale(interaction), "table.vote_counted" if voting else "table.vote_taken"),
            ephemeral=True)

    @app_commands.command(name=ls("cmd.abandon.name"))
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (its host, or who manages the server)."""
        found = await self.here(interaction)
        perms = interaction.permissions
        await self.bot.service.lobby.abandon(found.id, interaction.user.id,
                                             can_manage=bool(perms and perms.manage_guild))
        await interaction.response.send_message(t(found.record.locale, "table.abandoned",
                                                  name=interaction.user.display_name))

    @app_commands.command(name=ls("cmd.takeover.name"))
    @app_commands.describe(seat=ls("cmd.takeover.seat"))
    @app_commands.rename(seat=ls("cmd.takeover.seat.name"))
    async def takeover(self, interaction: discord.Interaction[Any],
                       seat: app_commands.Range[int, 1, 6]) -> None:
        """Hand an idle seat to a computer for good (the host)."""
        found = await self.here(interaction)
        await self.bot.service.seats.takeover(found.id, interaction.user.id, seat - 1)
        await interaction.response.send_message(t(found.record.locale, "table.takeover",
                                                  seat=seat))

    @app_commands.command(name=ls("cmd.settings.name"))
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
    async def settings(self, interaction: discord.Interaction[Any], language: str | None = None,
                       turn_timer: app_commands.Range[int, 0, 3600] | None = None,
                       target: app_commands.Range[int, 50, 10000] | None = None,
                       tables: app_commands.Range[int, 1, 50] | None = None) -> None:
        """Show the server's settings; who manages the server changes them."""
        assert interaction.guild_id is not None
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            raise TableError("not_manager")
        repo = self.bot.service.repo
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

    @app_commands.command(name=ls("cmd.rules.name"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """How to play the game."""
        await interaction.response.send_message(t(user_locale(interaction), f"rules.{self.game}"),
                                                ephemeral=True)

    @app_commands.command(name=ls("cmd.leaderboard.name"))
    @app_commands.describe(scope=ls("cmd.leaderboard.scope"))
    @app_commands.rename(scope=ls("cmd.leaderboard.scope.name"))
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          scope: str | None = None) -> None:
        """The server's best players, or the global board's."""
        await records.leaderboard_command(self.bot, interaction, self.game, scope)

    @app_commands.command(name=ls("cmd.stats.name"))
    @app_commands.describe(user=ls("cmd.stats.user"))
    @app_commands.rename(user=ls("cmd.stats.user.name"))
    async def stats(self, interaction: discord.Interaction[Any],
                    user: discord.User | None = None) -> None:
        """A player's statistics."""
        await records.stats_command(self.bot, interaction, self.game, user or interaction.user)

    @app_commands.command(name=ls("cmd.history.name"))
    @app_commands.describe(user=ls("cmd.history.user"))
    @app_commands.rename(user=ls("cmd.history.user.name"))
    async def history(self, interaction: discord.Interaction[Any],
                      user: discord.User | None = None) -> None:
        """A player's last games, to open and export."""
        await records.history_command(self.bot, interaction, self.game,
                                      user or interaction.user)

    # ``leaderboard`` and ``stats`` of a game with variants rated apart: the same, with
    # the variant asked (its choices are the game's, added when the group is made).

    @app_commands.describe(players=ls("cmd.variant"), scope=ls("cmd.leaderboard.scope"))
    @app_commands.rename(players=ls("cmd.variant.name"), scope=ls("cmd.leaderboard.scope.name"))
    @app_commands.choices(scope=SCOPES)
    async def leaderboard_of(self, interaction: discord.Interaction[Any],
                             players: str | None = None, scope: str | None = None) -> None:
        await records.leaderboard_command(self.bot, interaction, players or self.game, scope)

    @app_commands.describe(user=ls("cmd.stats.user"), players=ls("cmd.variant"))
    @app_commands.rename(user=ls("cmd.stats.user.name"), players=ls("cmd.variant.name"))
    async def stats_of(self, interaction: discord.Interaction[Any],
                       user: discord.User | None = None, players: str | None = None) -> None:
        await records.stats_command(self.bot, interaction, players or self.game,
                                    user or interaction.user)


async def open_table(bot: Host, spec: GameSpec, interaction: discord.Interaction[Any],
                     options: dict[str, Any], prepare: Prepare | None = None) -> None:
    """``/<game> new``: a lobby in this channel, and a thread for the table if possible.
    Options left out take the server's defaults (the turn timer is on unless set to 0).
    ``prepare``: what the opening adds once the limits have room (a duplicate table's
    event, :meth:`bot.tables.lobby.Lobby.open_lobby`)."""
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
    table = await service.lobby.open_lobby(
        game=spec.name, guild_id=interaction.guild_id, channel_id=channel_id,
        host_id=interaction.user.id, host_name=interaction.user.display_name,
        locale=public_locale(settings, interaction), options=options,
        limit=settings.tables_per_channel or DEFAULT_TABLES_PER_CHANNEL, prepare=prepare)
    message = lobby_message(table, table.record.locale)
    assert message.view is not None, "a table just opened is a lobby, with its buttons"
    await interaction.response.send_message(message.content, view=message.view)
    sent = await interaction.original_response()
    table.record.options = {**table.record.options, "lobby_message_id": sent.id}
    thread_id: int | None = None
    if isinstance(interaction.channel, discord.TextChannel):
        try:
            await bot.pacer.wait()  # a channel write, under the global limit like the others
            thread = await sent.create_thread(  # a thread's name is no markdown
                name=cut(plain(t(table.record.locale, "thread.name",
                                 game=t(table.record.locale, f"game.{spec.name}"),
                                 id=table.id)), THREAD_NAME),
                auto_archive_duration=1440)
            thread_id = thread.id
        except discord.HTTPException:
            log.info("no thread for table %s: the table plays in the channel", table.id)
    table.record.thread_id = thread_id
    await service.repo.update_table(table.id, options=table.record.options, thread_id=thread_id)


def game_group(bot: Host, spec: GameSpec, new: NewCommand,
               anywhere: Sequence[app_commands.Group] = ()) -> GameCommands:
    """The command group of ``spec``, with its own ``new`` callback (and ``anywhere``,
    subgroups that work in direct messages too)."""
    return GameCommands(bot, spec, new, anywhere)
