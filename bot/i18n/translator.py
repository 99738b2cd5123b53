"""Localised command names and descriptions, from the same catalogs as everything else."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import DEFAULT, catalog, language
from bot.i18n.commands import spell


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str`` values that carry a catalog ``key`` into each language
    of the catalogs but English (French, German, Greek); other locales get English."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        lang = language(locale)
        if key is None or lang == DEFAULT:
            return None
        text = catalog(lang).get(key)
        return None if text is None else spell(text, catalog(lang), catalog(DEFAULT))


def ls(key: str) -> app_commands.locale_str:
    """A command name or description: the English text of ``key``, which the
    translator turns into other languages (a description may name a command:
    ``{/tichu daily}``, :mod:`bot.i18n.commands`)."""
    english = catalog(DEFAULT)
    return app_commands.locale_str(spell(english.get(key, key), english, english), key=key)
