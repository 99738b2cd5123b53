"""Message catalogs (English and French) and the command translator."""

from bot.i18n.catalog import LANGUAGES, language, t

__all__ = ["LANGUAGES", "language", "t"]
