"""Persistent components: every button and select of the bot is a DynamicItem, so it
still works after a restart. Their callbacks hand the click to the controller.

Discord shows no markdown in a label, an option or a placeholder: each shows its text
as it reads (:func:`bot.i18n.plain`: a name as written, not escaped), within Discord's
length (80 characters for a button's label, 100 for an option's, 150 for a
placeholder)."""

from __future__ import annotations

import re
from typing import Any, Protocol, TypeAlias

import discord

from bot.i18n.text import cut, plain
from bot.tables import ids

LABEL = 80
OPTION = 100
PLACEHOLDER = 150


def label_text(text: str | None, limit: int = LABEL) -> str | None:
    """A label, an option or a placeholder as Discord shows it: as it reads, cut to
    ``limit`` characters."""
    return None if text is None else cut(plain(text), limit)


def options_text(options: list[discord.SelectOption]) -> list[discord.SelectOption]:
    """Each option's label and description as they read, within 100 characters."""
    for option in options:
        option.label = label_text(option.label, OPTION) or ""
        if option.description is not None:
            option.description = label_text(option.description, OPTION)
    return options


class ClickHandler(Protocol):
    """What handles our clicks: the controller of the views layer, found on the client."""

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str,
                     values: list[str]) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ClickHandler:
    handler: ClickHandler = interaction.client.controller
    return handler


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.BUTTON_TEMPLATE):
    """Any button of ours; the custom ID says what it does."""

    def __init__(self, custom_id: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | discord.PartialEmoji | None = None, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label_text(label),
                                           style=style,
                                           emoji=emoji, disabled=disabled, row=row))
        self.custom_id_text = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> GameButton:
        if not isinstance(item, discord.ui.Button):
            raise TypeError(f"a button template matched a {type(item).__name__}")
        return cls(item.custom_id or "", label=item.label, style=item.style, emoji=item.emoji,
                   disabled=item.disabled)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).handle(interaction, self.custom_id_text, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.SELECT_TEMPLATE):
    """Any select menu of ours; the custom ID says what it does, the values what was chosen."""

    def __init__(self, custom_id: str, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, min_values: int = 1, max_values: int = 1,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id,
                                           options=options_text(options or []),
                                           placeholder=label_text(placeholder, PLACEHOLDER),
                                           min_values=min_values,
                                           max_values=max_values, row=row))
        self.custom_id_text = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> GameSelect:
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"a select template matched a {type(item).__name__}")
        made = cls(item.custom_id or "", options=list(item.options), placeholder=item.placeholder,
                   min_values=item.min_values, max_values=item.max_values)
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).handle(interaction, self.custom_id_text,
                                           list(self.item.values))


Control: TypeAlias = GameButton | GameSelect
"""One of our persistent components, as the games' panels and table messages list them."""


def view_of(*items: Control) -> discord.ui.View:
    """A timeout-less view holding ``items`` (rows as the items say)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
