"""Message catalogs (English, French, German and Greek) and the command translator."""

from bot.i18n.catalog import LANGUAGES, language, t

__all__ = ["LANGUAGES", "language", "t"]
