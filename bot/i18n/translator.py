"""Localised command names and descriptions, from the same catalogs as everything else."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import DEFAULT, catalog, language


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str`` values that carry a catalog ``key`` into each language
    of the catalogs but English (French, German, Greek); other locales get English."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        lang = language(locale)
        if key is None or lang == DEFAULT:
            return None
        return catalog(lang).get(key)


def ls(key: str) -> app_commands.locale_str:
    """A command name or description: the English text of ``key``, which the
    translator turns into other languages."""
    return app_commands.locale_str(catalog("en").get(key, key), key=key)
