"""Message catalogs (English, French, German and Greek) and the command translator.

:func:`t` fills a catalogue sentence; what people write is escaped as it fills one
(:mod:`bot.i18n.text`)."""

from bot.i18n.catalog import LANGUAGES, language, t
from bot.i18n.text import Text, join, plain

__all__ = ["LANGUAGES", "Text", "join", "language", "plain", "t"]
