"""Every user-facing sentence, looked up by key in the player's language.

Catalogs are JSON files beside this module (``en.json``, ``fr.json``, ``de.json``,
``el.json``) with the same keys and the same ``{placeholders}``; a test keeps them in
step. A locale without a catalog (``ja``, ``es-ES`` …) reads English.

A French sentence that puts a name after *de* writes ``{name:de}``: the name comes
with its preposition, elided before a vowel or a mute h (``d’Alice``, ``de Bob``).
French only: the other languages write plain ``{name}``.

A count takes its plural through ``{n:plural:ONE|OTHER}``: the form of the count's
plural category in the sentence's language (:func:`plural`), ``#`` standing for the
count itself: ``{streak:plural:# Tag|# Tage} in Folge`` reads ``1 Tag in Folge``,
``3 Tage in Folge``; ``{n:plural:# carte|# cartes}`` reads ``0 carte`` in French.
A sentence that names a command writes its English path in braces, in every language
(``{/privacy standings}``); the reader reads the names their client shows
(``/datenschutz wertungen``): :mod:`bot.i18n.commands`.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

from bot.i18n.commands import spell

LANGUAGES = ("en", "fr", "de", "el")
"""English, French, German and Greek: each has every catalog, and Discord's locale of
the same code (``de``, ``el``; ``fr``; ``en-US``, ``en-GB``) reads it."""
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The flat key → text mapping of one language: ``<lang>.json`` (shared sentences)
    merged with each game's ``<game>.<lang>.json``."""
    folder = resources.files("bot.i18n")
    data: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        name = entry.name
        if name == f"{lang}.json" or name.endswith(f".{lang}.json"):
            data.update(json.loads(entry.read_text(encoding="utf-8")))
    return data


def language(locale: object) -> str:
    """``fr``, ``fr-FR`` or a discord.Locale for French → ``fr`` (``de``, ``el`` alike);
    a language without a catalog (``ja``, ``es-ES``), or none → ``en``."""
    code = str(getattr(locale, "value", locale) or "").lower()
    base = code.split("-")[0]
    return base if base in LANGUAGES else DEFAULT


_ELIDING = frozenset("aeiouyhàâäéèêëîïôöùûüÿœæ")
_MARKUP = "*_~`|"


def de(name: str) -> str:
    """French *de* before ``name``: ``d’Alice``, ``d’Hugo``, ``d’Équipe A``, ``de Bob``
    (markdown around the name is kept: ``d’**Alice**``)."""
    first = name.lstrip(_MARKUP)[:1].lower()
    return f"d’{name}" if first and first in _ELIDING else f"de {name}"


def plural(lang: str, n: object) -> str:
    """The plural category of the count ``n`` in ``lang``, as CLDR names them: ``one`` or
    ``other``. English, German and Greek say ``one`` of 1 alone; French of 0 and 1 (and of
    1.5: its whole part), the sign aside. Each language's CLDR rules give these for whole counts (French's
    ``many``, for exact millions, reads ``other`` here); ``tests/bot/test_plural.py`` holds
    them to Babel's CLDR data."""
    try:
        value = float(str(n).replace("−", "-"))
    except ValueError:
        return "other"
    if lang == "fr":
        return "one" if 0 <= abs(value) < 2 else "other"
    return "one" if abs(value) == 1 else "other"


PLURAL = "plural:"
"""The format spec of a count's plural forms: ``{n:plural:# day|# days}``."""


class _Formatter(string.Formatter):
    """``str.format`` plus the ``de`` format of French sentences (``{name:de}``) and the
    plural forms of a count (``{n:plural:ONE|OTHER}``) in the sentence's language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "de":
            return de(str(value))
        if format_spec.startswith(PLURAL):
            one, _, other = format_spec.removeprefix(PLURAL).partition("|")
            form = one if plural(self.lang, value) == "one" else other or one
            return form.replace("#", str(value))
        return str(super().format_field(value, format_spec))


_FORMATTERS = {lang: _Formatter(lang) for lang in LANGUAGES}


def format_text(lang: str, text: str, values: dict[str, Any]) -> str:
    """``text`` of ``lang`` with ``values`` filled in: its plural forms and, in French,
    the names after *de*. Raises as :meth:`str.format` does on a missing value."""
    if ":de}" in text or PLURAL in text:
        return _FORMATTERS.get(lang, _FORMATTERS[DEFAULT]).format(text, **values)
    return text.format(**values)


def t(locale: object, key: str, **values: Any) -> str:
    """The text of ``key`` in the language of ``locale``, with ``values`` filled in.

    A key missing from a catalog falls back to English, then to the key itself, so
    a gap shows up as a visible key rather than a crash. A command the text names
    (``{/tichu daily play}``) is written as the reader's client shows it
    (:mod:`bot.i18n.commands`).
    """
    lang = language(locale)
    names, english = catalog(lang), catalog(DEFAULT)
    text = spell(names.get(key) or english.get(key) or key, names, english)
    if values:
        try:
            return format_text(lang, text, values)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return text
    return text
