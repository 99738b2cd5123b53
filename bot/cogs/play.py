"""``/<game> play now|stop|block|unblock`` (Tichu, Chinois, Tysiacha): the queue of
"Play now" (issue 53), in every server with the bot and in its direct messages.

- ``now [rated] [fill] [partner]`` queues the person (with a partner, as one team, in
  Tichu) for a table in direct messages (of four; Tysiacha's of three; Tichu's
  ``players`` option: four or six, each its own pools). Every refusal
  is one private sentence and nothing is written: already queued, seated at a table in
  play, a partner who is a bot or is at a table, a cooldown after repeated declines.
  Before queueing, the bot sends the person (and the partner) a DM; if Discord refuses
  it, the person is told how to allow DMs, and is not queued;
- ``stop`` leaves the queue; the answer counts who waits in each pool (no names);
- ``block user`` / ``unblock user``: two people one of whom blocked the other are never
  seated together by the queue.

The matchmaker (:mod:`bot.tables.matchmaker`) pairs the queue; a join that lets the pool
fill a table runs its wave at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import discord
from discord import app_commands

from bot.cogs.games import command_error
from bot.i18n import t
from bot.i18n.translator import ls
from bot.store.codec import utc_now
from bot.store.models import Pool, PoolCount, QueueEntry, QueueRefusedError
from bot.tables import TableError
from bot.tables.matching import DECLINE_MEMORY, cooldown_until
from bot.views.queue import ReadyChecks, pool_name

if TYPE_CHECKING:
    from bot.tables import TableService

FILL_CHOICES = (60, 120, 300)
"""Fill with computers after so many seconds (0 in the option: never)."""


def join_refusal(code: str) -> TableError:
    """The sentence of the store's refusal of a join."""
    if code == "already_queued":
        return TableError("queue_already")
    if code == "partner_queued":
        return TableError("queue_partner_queued")
    if code == "partner_blocked":
        return TableError("queue_partner_blocked")
    if code == "self_partner":
        return TableError("queue_self_partner")
    return TableError("queue_refused")


class Host(Protocol):
    """The bot, as the queue's commands use it."""

    service: TableService
    ready_checks: ReadyChecks


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def counts_text(counts: list[PoolCount], locale: str) -> str:
    """Who waits in each pool, counted (never who)."""
    if not counts:
        return t(locale, "queue.nobody")
    return "\n".join(
        "• " + t(locale, "queue.count" if c.pool.rated else "queue.count_unrated",
                 game=pool_name(c.pool, locale), seats=c.pool.seats, people=c.people)
        for c in counts)


class PlayCommands(app_commands.Group):
    """``/<game> play …`` for one game (the queue's pools of its four-seat table)."""

    def __init__(self, host: Host, game: str, description: app_commands.locale_str,
                 seats: int = 4) -> None:
        super().__init__(name=ls("cmd.play.name"), description=description)
        self.host = host
        self.game = game
        self.seats = seats

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error)

    @app_commands.command(name=ls("cmd.play.now.name"),
                          description=ls("cmd.play.now.description"))
    @app_commands.describe(rated=ls("cmd.play.now.rated"), fill=ls("cmd.play.now.fill"),
                           partner=ls("cmd.play.now.partner"))
    @app_commands.rename(rated=ls("cmd.play.now.rated.name"), fill=ls("cmd.play.now.fill.name"),
                         partner=ls("cmd.play.now.partner.name"))
    @app_commands.choices(fill=[
        app_commands.Choice(name=ls("cmd.play.fill.60"), value=60),
        app_commands.Choice(name=ls("cmd.play.fill.120"), value=120),
        app_commands.Choice(name=ls("cmd.play.fill.300"), value=300),
        app_commands.Choice(name=ls("cmd.play.fill.never"), value=0)])
    async def now(self, interaction: discord.Interaction[Any], rated: bool = True,
                  fill: int = 0, partner: discord.User | None = None) -> None:
        await self.queue(interaction, rated=rated, fill=fill, partner=partner,
                         seats=self.seats)

    async def queue(self, interaction: discord.Interaction[Any], *, rated: bool, fill: int,
                    partner: discord.User | None, seats: int) -> None:
        """``now``'s work: queue the person, answer privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = _locale(interaction)
        text = await self.join(interaction.user, locale, interaction.guild_id, rated=rated,
                               fill=fill or None, partner=partner, seats=seats)
        await interaction.followup.send(text, ephemeral=True)

    async def join(self, user: discord.abc.User, locale: str, guild_id: int | None, *,
                   rated: bool, fill: int | None,
                   partner: discord.abc.User | None, seats: int | None = None) -> str:
        """Queue the person (at a table of ``seats``, the group's if None); the answer,
        or a TableError (nothing written)."""
        host = self.host
        repo = host.service.repo
        pool = Pool(self.game, self.seats if seats is None else seats, rated)
        if partner is not None:
            if partner.bot:
                raise TableError("queue_partner_bot")
            if partner.id == user.id:
                raise TableError("queue_self_partner")
            if self.game != "tichu":
                raise TableError("queue_no_teams")
        if await repo.queue_entry(user.id) is not None:
            raise TableError("queue_already")
        if partner is not None and await repo.queue_entry(partner.id) is not None:
            raise TableError("queue_partner_queued")
        core = host.service.core
        if await core.at_live_table(user.id):
            raise TableError("queue_at_table")
        if partner is not None and await core.at_live_table(partner.id):
            raise TableError("queue_partner_at_table")
        now = utc_now()
        for person in (user, partner):
            if person is None:
                continue
            until = cooldown_until(await repo.recent_declines(person.id, now - DECLINE_MEMORY),
                                   now)
            if until is not None:
                minutes = max(1, round((until - now).total_seconds() / 60))
                if person is user:
                    raise TableError("queue_cooldown", minutes=minutes)
                raise TableError("queue_partner_cooldown", minutes=minutes)
        ready = host.ready_checks
        if not await ready.greet(user.id, locale, pool):
            raise TableError("queue_dms_closed")
        if partner is not None and not await ready.greet(partner.id, locale, pool):
            raise TableError("queue_partner_dms_closed")
        record = "tichu6" if pool.game == "tichu" and pool.seats == 6 else pool.game
        rating = await repo.queue_rating(user.id, record) or 0.0
        partner_rating = None if partner is None else \
            await repo.queue_rating(partner.id, record) or 0.0
        try:
            await repo.queue_join(QueueEntry(
                user_id=user.id, pool=pool, locale=locale, rating=rating,
                partner_id=None if partner is None else partner.id,
                partner_rating=partner_rating, fill_after=fill, guild_id=guild_id))
        except QueueRefusedError as exc:
            raise join_refusal(exc.code) from None
        ready.names[user.id] = user.display_name
        if partner is not None:
            ready.names[partner.id] = partner.display_name
        counts = {c.pool: c for c in await repo.queue_counts()}
        if (found := counts.get(pool)) is not None and found.waiting >= pool.seats:
            host.service.matchmaker.poke()
        return t(locale, "queue.joined", game=pool_name(pool, locale))

    @app_commands.command(name=ls("cmd.play.stop.name"),
                          description=ls("cmd.play.stop.description"))
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        locale = _locale(interaction)
        repo = self.host.service.repo
        left = await repo.queue_leave(interaction.user.id)
        head = t(locale, "queue.left" if left is not None else "queue.not_queued")
        await interaction.response.send_message(
            f"{head}\n{counts_text(await repo.queue_counts(), locale)}", ephemeral=True)

    @app_commands.command(name=ls("cmd.play.block.name"),
                          description=ls("cmd.play.block.description"))
    @app_commands.describe(user=ls("cmd.play.block.user"))
    @app_commands.rename(user=ls("cmd.play.block.user.name"))
    async def block(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        locale = _locale(interaction)
        if user.id == interaction.user.id:
            raise TableError("queue_block_self")
        try:
            await self.host.service.repo.block(interaction.user.id, user.id)
        except QueueRefusedError as exc:
            if exc.code == "block_self":
                raise TableError("queue_block_self") from None
            raise TableError("queue_too_many_blocks") from None
        await interaction.response.send_message(
            t(locale, "queue.blocked", name=user.display_name), ephemeral=True)

    @app_commands.command(name=ls("cmd.play.unblock.name"),
                          description=ls("cmd.play.unblock.description"))
    @app_commands.describe(user=ls("cmd.play.unblock.user"))
    @app_commands.rename(user=ls("cmd.play.unblock.user.name"))
    async def unblock(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        locale = _locale(interaction)
        had = await self.host.service.repo.unblock(interaction.user.id, user.id)
        await interaction.response.send_message(
            t(locale, "queue.unblocked" if had else "queue.not_blocked",
              name=user.display_name), ephemeral=True)


class TichuPlayCommands(PlayCommands):
    """Tichu's ``/tichu play``: ``now`` asks how many players (four, or six: Tichu for
    six, its own pools); ``stop``, ``block`` and ``unblock`` are every game's."""

    # discord.py collects a group's commands from its own class only: ``now`` here, the
    # others below.
    __discord_app_commands_group_children__: ClassVar[
        list[app_commands.Command[Any, ..., Any] | app_commands.Group]] = []

    @app_commands.command(name=ls("cmd.play.now.name"),
                          description=ls("cmd.play.now.description"))
    @app_commands.describe(rated=ls("cmd.play.now.rated"), fill=ls("cmd.play.now.fill"),
                           partner=ls("cmd.play.now.partner"),
                           players=ls("cmd.tichu.new.players"))
    @app_commands.rename(rated=ls("cmd.play.now.rated.name"), fill=ls("cmd.play.now.fill.name"),
                         partner=ls("cmd.play.now.partner.name"),
                         players=ls("cmd.tichu.new.players.name"))
    @app_commands.choices(fill=[
        app_commands.Choice(name=ls("cmd.play.fill.60"), value=60),
        app_commands.Choice(name=ls("cmd.play.fill.120"), value=120),
        app_commands.Choice(name=ls("cmd.play.fill.300"), value=300),
        app_commands.Choice(name=ls("cmd.play.fill.never"), value=0)],
        players=[app_commands.Choice(name="4", value=4), app_commands.Choice(name="6", value=6)])
    async def now_at(self, interaction: discord.Interaction[Any], rated: bool = True,
                     fill: int = 0, partner: discord.User | None = None,
                     players: int = 4) -> None:
        await self.queue(interaction, rated=rated, fill=fill, partner=partner, seats=players)


TichuPlayCommands.__discord_app_commands_group_children__ = [
    *TichuPlayCommands.__discord_app_commands_group_children__,
    *(child for child in PlayCommands.__discord_app_commands_group_children__
      if not (isinstance(child, app_commands.Command) and child.callback.__name__ == "now"))]
