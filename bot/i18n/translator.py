"""Localised command names and descriptions, from the same catalogs as everything else."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import catalog


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str`` values that carry a catalog ``key`` into French."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if key is None or locale is not discord.Locale.french:
            return None
        return catalog("fr").get(key)


def ls(key: str) -> app_commands.locale_str:
    """A command name or description: the English text of ``key``, which the
    translator turns into other languages."""
    return app_commands.locale_str(catalog("en").get(key, key), key=key)
