"""``/privacy``: what the bot stores about you, a copy of it, and erasing it (issue 42).

One top-level group, since a person's data spans every game; it answers in servers and
in direct messages (the app installed for a user), always privately:

- ``/privacy show``: what is stored about you, counted, and your choice below;
- ``/privacy export``: one JSON file of everything stored about you
  (:func:`bot.store.personal.export_document`), compressed if it is too big to send. The
  store's rows are read beside the live tables' work and the file is made in the
  background process (:func:`bot.store.export.make_export`), one export at a time per
  bot process; a person may export once in ``EXPORT_COOLDOWN`` seconds (:class:`Turns`);
- ``/privacy erase``: asks first; its button (``tichu:b:0:-:perase:<your id>``) erases
  (:meth:`~bot.store.base.StoreBase.erase_person`), and only for the person it names;
- ``/privacy standings on|off``: whether you appear by name in the daily's standings
  across servers (off until you choose).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot import workers
from bot.cogs.games import command_error
from bot.games.ui import GameButton, view_of
from bot.i18n import Text, t
from bot.i18n.translator import ls
from bot.store.codec import utc_now
from bot.store.export import ExportFile, Packed, TooLate, make_export
from bot.store.models import PersonAtTableError, Repository
from bot.tables import TableError, ids

if TYPE_CHECKING:
    from bot.tables import TableService

log = logging.getLogger(__name__)

PRIVACY_ACTIONS = {"perase"}
"""The erase's confirmation button (its argument: the person it is for)."""
FILE_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit for a bot when the interaction does not give its own
(``attachment_size_limit``, discord.py's ``filesize_limit``)."""
DOCS_PAGE = "docs/privacy.md"
EXPORT_DEADLINE = 13 * 60
"""Seconds an export may take (waiting its turn included) before the person is told the
bot is too busy: an interaction's token, which sends the file, lasts 15 minutes."""


class Host(Protocol):
    """The bot, as the privacy commands use it."""

    service: TableService

    @property
    def privacy_url(self) -> str | None: ...

    @property
    def export_cooldown(self) -> float:
        """Seconds between two exports of one person (``EXPORT_COOLDOWN``)."""


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def _repo(host: Host) -> Repository:
    return host.service.repo


def where(host: Host, locale: str) -> str:
    """Where the full description lives: the operator's page, else the docs'."""
    url = host.privacy_url
    return t(locale, "privacy.where_url", url=Text(url)) if url else \
        t(locale, "privacy.where_docs", page=DOCS_PAGE)


async def show_text(host: Host, user_id: int, locale: str) -> str:
    counts = await _repo(host).person_counts(user_id)
    appear = await _repo(host).standings_choice(user_id)
    choice = t(locale, "privacy.standings_on" if appear else "privacy.standings_off")
    if counts.empty:
        body = t(locale, "privacy.show_empty")
    else:
        body = t(locale, "privacy.show", games=counts.games, actions=counts.actions,
                 tables=counts.tables, ratings=counts.ratings, daily=counts.daily,
                 events=counts.events, reviews=counts.reviews)
    return "\n".join([body, choice, where(host, locale)])


def export_file(made: Packed, user_id: int, locale: str = "en") -> discord.File:
    """The export as a file to send: its name says whether it is gzipped, its description
    what it is, in the person's language."""
    name = f"tichu-data-{user_id}.json" + (".gz" if made.packed else "")
    packed = t(locale, "privacy.file_gz") if made.packed else ""
    return discord.File(io.BytesIO(made.data), filename=name,
                        description=t(locale, "privacy.file_alt", packed=packed))


class Turns:
    """When each person may export again: in this process's memory, so a refusal costs
    no store read. A restart forgets it. With several bot processes, a person's commands
    in a server go to the process of that server's shard and those in direct messages
    to shard 0's, so at worst a person exports once per process within the cooldown."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next: dict[int, float] = {}

    def left(self, user_id: int) -> float | None:
        """Seconds until ``user_id`` may export again (None: now)."""
        left = self._next.get(user_id, 0.0) - self._clock()
        return left if left > 0 else None

    def take(self, user_id: int, cooldown: float) -> None:
        """``user_id`` exports now: the next one in ``cooldown`` seconds. The people whose
        wait is over are forgotten, so the record holds only the last cooldown's exports."""
        now = self._clock()
        for person in [p for p, at in self._next.items() if at <= now]:
            del self._next[person]
        if cooldown > 0:
            self._next[user_id] = now + cooldown

    def give_back(self, user_id: int) -> None:
        """The export failed (nothing was sent): the person may try again at once."""
        self._next.pop(user_id, None)


async def build_export(repo: Repository, user_id: int, limit: int, deadline: float
                       ) -> ExportFile | None:
    """A person's export file, at most ``limit`` bytes (None: too big even gzipped): the
    rows read in one snapshot, beside the live tables' work; the file made in the
    background process, held while live work runs (it comes before the unattended work,
    as a review a person waits for). Its making stops at ``deadline`` (``time.time()``)."""
    parts = await repo.export_rows(user_id)
    return await workers.offload_background(make_export, user_id, utc_now(), parts, limit,
                                            deadline, rank=workers.FOR_A_PERSON)


def confirm_view(user_id: int, locale: str) -> discord.ui.View:
    return view_of(GameButton(ids.button(0, "perase", str(user_id)),
                              label=t(locale, "privacy.erase_button"),
                              style=discord.ButtonStyle.danger))


async def erase(host: Host, interaction: discord.Interaction[Any], cid: ids.ComponentId) -> str:
    """The confirmation's click: erase the clicker, if the button is theirs."""
    user_id = interaction.user.id
    locale = _locale(interaction)
    if cid.table != 0 or cid.arg != str(user_id):
        raise TableError("privacy_not_yours")
    try:
        erased = await _repo(host).erase_person(user_id)
    except PersonAtTableError:
        raise TableError("privacy_at_table") from None
    if erased.counts.empty:
        return t(locale, "privacy.erase_nothing")
    host.service.core.forget_person(user_id)
    log.info("a person erased their data: %d games, %d reviews; %d games re-rated",
             erased.counts.games, erased.counts.reviews, erased.games_rerated)
    return t(locale, "privacy.erased", games=erased.counts.games)


async def handle_component(host: Host, interaction: discord.Interaction[Any],
                           cid: ids.ComponentId, values: list[str]) -> None:
    """A click on the erase's confirmation (already acknowledged as an update)."""
    if cid.action != "perase":
        raise TableError("forged")
    text = await erase(host, interaction, cid)
    await interaction.edit_original_response(content=text, view=None)


class PrivacyCommands(app_commands.Group):
    """``/privacy show|export|erase|standings``, everywhere, each answer private."""

    def __init__(self, host: Host) -> None:
        super().__init__(
            name=ls("cmd.privacy.name"), description=ls("cmd.privacy.description"),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True))
        self.host = host
        self.turns = Turns()
        self.making = asyncio.Semaphore(1)
        """One export at a time in this process: a heavy player's rows are tens of
        megabytes, held until their file is made."""

    @app_commands.command(name=ls("cmd.privacy.show.name"),
                          description=ls("cmd.privacy.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await show_text(self.host, interaction.user.id, _locale(interaction))
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("cmd.privacy.export.name"),
                          description=ls("cmd.privacy.export.description"))
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        locale = _locale(interaction)
        user_id = interaction.user.id
        left = self.turns.left(user_id)
        if left is not None:  # no store read, no work: one sentence
            await interaction.response.send_message(
                t(locale, "privacy.export_wait", when=f"<t:{int(time.time() + left) + 1}:R>"),
                ephemeral=True)
            return
        self.turns.take(user_id, self.host.export_cooldown)
        deadline = time.time() + EXPORT_DEADLINE
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            limit = int(getattr(interaction, "filesize_limit", 0) or FILE_LIMIT)
            async with asyncio.timeout(EXPORT_DEADLINE):
                async with self.making:
                    made = await build_export(_repo(self.host), user_id, limit, deadline)
        except (TimeoutError, TooLate):
            self.turns.give_back(user_id)
            await interaction.followup.send(t(locale, "privacy.export_busy"), ephemeral=True)
            return
        except BaseException:
            self.turns.give_back(user_id)
            raise
        if made is None:
            await interaction.followup.send(t(locale, "privacy.export_too_big"), ephemeral=True)
            return
        log.info("a person exported their data: %d games, %.1f MiB of JSON, sent as %.1f MiB%s",
                 made.games, made.file.size / 2**20, len(made.file.data) / 2**20,
                 " gzipped" if made.file.packed else "")
        key = "privacy.export_empty" if made.empty else "privacy.export_done"
        await interaction.followup.send(t(locale, key, games=made.games),
                                        file=export_file(made.file, user_id, locale), ephemeral=True)

    @app_commands.command(name=ls("cmd.privacy.erase.name"),
                          description=ls("cmd.privacy.erase.description"))
    async def erase(self, interaction: discord.Interaction[Any]) -> None:
        locale = _locale(interaction)
        await interaction.response.send_message(
            t(locale, "privacy.erase_confirm"), view=confirm_view(interaction.user.id, locale),
            ephemeral=True)

    @app_commands.command(name=ls("cmd.privacy.standings.name"),
                          description=ls("cmd.privacy.standings.description"))
    @app_commands.describe(appear=ls("cmd.privacy.standings.appear"))
    @app_commands.rename(appear=ls("cmd.privacy.standings.appear.name"))
    @app_commands.choices(appear=[
        app_commands.Choice(name=ls("cmd.privacy.standings.on"), value="on"),
        app_commands.Choice(name=ls("cmd.privacy.standings.off"), value="off")])
    async def standings(self, interaction: discord.Interaction[Any],
                        appear: app_commands.Choice[str]) -> None:
        locale = _locale(interaction)
        await _repo(self.host).set_standings(interaction.user.id, appear.value == "on")
        await interaction.response.send_message(
            t(locale, "privacy.set_on" if appear.value == "on" else "privacy.set_off"),
            ephemeral=True)

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error)
