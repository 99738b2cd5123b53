"""``/privacy``: what the bot stores about you, a copy of it, and erasing it (issue 42).

One top-level group, since a person's data spans every game; it answers in servers and
in direct messages (the app installed for a user), always privately:

- ``/privacy show``: what is stored about you, counted, and your choice below;
- ``/privacy export``: one JSON file of everything stored about you
  (:func:`bot.store.personal.export_document`), compressed if it is too big to send;
- ``/privacy erase``: asks first; its button (``tichu:b:0:-:perase:<your id>``) erases
  (:meth:`~bot.store.base.StoreBase.erase_person`), and only for the person it names;
- ``/privacy standings on|off``: whether you appear by name in the daily's standings
  across servers (off until you choose).
"""

from __future__ import annotations

import gzip
import io
import json
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.cogs.games import command_error
from bot.games.ui import GameButton, view_of
from bot.i18n import Text, t
from bot.i18n.translator import ls
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


class Host(Protocol):
    """The bot, as the privacy commands use it."""

    service: TableService

    @property
    def privacy_url(self) -> str | None: ...


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


def export_file(document: dict[str, Any], user_id: int, limit: int,
                locale: str = "en") -> discord.File | None:
    """The export as a file under ``limit`` bytes: JSON, or gzipped JSON; None if even that
    is too big. Its description says what it is, in the person's language."""
    data = json.dumps(document, ensure_ascii=False, indent=1).encode()
    name = f"tichu-data-{user_id}.json"
    packed = ""
    if len(data) > limit:
        data = gzip.compress(data, mtime=0)
        name += ".gz"
        packed = t(locale, "privacy.file_gz")
        if len(data) > limit:
            return None
    return discord.File(io.BytesIO(data), filename=name,
                        description=t(locale, "privacy.file_alt", packed=packed))


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
    host.service.forget_person(user_id)
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
        await interaction.response.defer(ephemeral=True, thinking=True)
        document = await _repo(self.host).export_person(interaction.user.id)
        limit = int(getattr(interaction, "filesize_limit", 0) or FILE_LIMIT)
        file = export_file(document, interaction.user.id, limit, locale)
        if file is None:
            await interaction.followup.send(t(locale, "privacy.export_too_big"), ephemeral=True)
            return
        key = "privacy.export_empty" if document["empty"] else "privacy.export_done"
        await interaction.followup.send(t(locale, key, games=len(document["games"])),
                                        file=file, ephemeral=True)

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
