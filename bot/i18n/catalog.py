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

Values are escaped as they fill a sentence (:func:`fill`, and :mod:`bot.i18n.text`): a
name shows as written, never as a mention, a link or markup.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from bot.i18n.commands import spell
from bot.i18n.text import Text, clean, code, escape

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
_MARKUP = "*_~`|\\\u2068"


def de(name: str) -> str:
    """French *de* before ``name``: ``d’Alice``, ``d’Hugo``, ``d’Équipe A``, ``de Bob``
    (markdown and escapes before the name are passed over: ``d’**Alice**``)."""
    first = name.lstrip(_MARKUP)[:1].lower()
    return f"d’{name}" if first and first in _ELIDING else f"de {name}"


def plural(lang: str, n: object) -> str:
    """The plural category of the count ``n`` in ``lang``, as CLDR names them: ``one`` or
    ``other``. English, German and Greek say ``one`` of 1 alone; French of 0 and 1 (and of
    1.5: its whole part), the sign aside. Each language's CLDR rules give these for whole
    counts (French's ``many``, for exact millions, reads ``other`` here);
    ``tests/bot/test_plural.py`` holds them to Babel's CLDR data."""
    try:
        value = float(str(n).replace("−", "-"))
    except ValueError:
        return "other"
    if lang == "fr":
        return "one" if 0 <= abs(value) < 2 else "other"
    return "one" if abs(value) == 1 else "other"


PLURAL = "plural:"
"""The format spec of a count's plural forms: ``{n:plural:# day|# days}``."""

_FORMATTER = string.Formatter()


def fill(text: str, values: Mapping[str, Any], lang: str = DEFAULT) -> Text:
    """``text`` of ``lang`` with its ``{placeholders}`` filled in from ``values``, each
    value that is not the bot's own (:class:`Text`, a number) escaped for where the
    sentence puts it: :func:`~bot.i18n.text.code` inside a code span, else
    :func:`~bot.i18n.text.escape`. The one place where what people write enters the bot's
    sentences. A count's plural forms (``{n:plural:ONE|OTHER}``) and, in French, the
    names after *de* (``{name:de}``) are formed here too. The result reads
    (:attr:`Text.read`) with the values cleaned but not escaped. Raises as
    :meth:`str.format` does on a missing value."""
    out: list[str] = []
    read: list[str] = []
    in_code = False
    for literal, field, spec, conversion in _FORMATTER.parse(text):
        out.append(literal)
        read.append(literal)
        in_code ^= literal.count("`") % 2 == 1
        if field is None:
            continue
        value = _FORMATTER.get_field(field, (), values)[0]
        if conversion:
            value = _FORMATTER.convert_field(value, conversion)
        shown, said = _field(value, spec or "", in_code, lang)
        out.append(shown)
        read.append(said)
    return Text("".join(out), "".join(read))


def _field(value: Any, spec: str, in_code: bool, lang: str) -> tuple[str, str]:
    """A value as it shows in a sentence, and as it reads (cleaned, not escaped)."""
    if spec.startswith(PLURAL):
        # The form of the count's plural category, the sentence's own text, with ``#``
        # standing for the count (itself a value: escaped unless a number).
        one, _, other = spec.removeprefix(PLURAL).partition("|")
        form = one if plural(lang, value) == "one" else other or one
        shown, said = _field(value, "", in_code, lang)
        return form.replace("#", shown), form.replace("#", said)
    if isinstance(value, Text):
        if spec == "de":
            return de(value), de(value.read)
        return format(str(value), spec), format(value.read, spec)
    if isinstance(value, int | float):
        return (de(str(value)),) * 2 if spec == "de" else (format(value, spec),) * 2
    said = clean(str(value))
    if in_code:
        return code(str(value), spec), format(said, spec)
    if spec == "de":
        return de(escape(said)), de(said)
    # A width or precision counts what shows: the text as written, cut, then escaped.
    said = format(said, spec)
    return escape(said), said


DESCRIPTION = "alt."
"""The keys of images' descriptions (alt text), which Discord shows as they are, without
markdown: their values are cleaned, not escaped (see :func:`t`)."""


def t(locale: object, key: str, **values: Any) -> str:
    """The text of ``key`` in the language of ``locale``, with ``values`` filled in by
    :func:`fill`: a :class:`Text` whose values are escaped, unless a value is the bot's
    own (:class:`Text`, a number).

    An image's description (a key ``alt.…``) is no markdown: its values are cleaned,
    not escaped (:attr:`Text.read`), and it is a plain ``str``, escaped as any other
    text should it ever fill a message's sentence.

    A key missing from a catalog falls back to English, then to the key itself, so
    a gap shows up as a visible key rather than a crash. A command the text names
    (``{/tichu daily play}``) is written as the reader's client shows it
    (:mod:`bot.i18n.commands`).
    """
    lang = language(locale)
    names, english = catalog(lang), catalog(DEFAULT)
    text = spell(names.get(key) or english.get(key) or key, names, english)
    if key.startswith(DESCRIPTION):
        if not values:
            return text
        try:
            return fill(text, values, lang).read
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return text
    if values:
        try:
            return fill(text, values, lang)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return Text(text)
    return Text(text)
