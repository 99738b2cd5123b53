"""The glossary of the game's words (``glossary.toml`` beside the catalogues): each game
term, one word or phrase per language, its approved forms, the other words it replaces
and where the word comes from.

The bot does not read it at run time; ``python -m tools.glossary`` checks the catalogues
against it and ``python -m tools.docs`` makes its page.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.i18n.catalog import LANGUAGES

GLOSSARY = "glossary.toml"
"""The glossary's file, beside the catalogues in :mod:`bot.i18n`."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A term in one language: the word, its approved forms, the words it replaces, and
    where the word comes from."""

    term: str
    forms: tuple[str, ...]
    forbidden: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class Term:
    """A game term: what it means, the texts it is checked in, its word per language."""

    id: str
    what: str
    scope: tuple[str, ...]
    words: Mapping[str, Entry]


@dataclass(frozen=True, slots=True)
class Glossary:
    """Every term, and the sources their words come from (by id)."""

    terms: tuple[Term, ...]
    sources: Mapping[str, str]


def parse(text: str) -> Glossary:
    """The glossary of a TOML text (see ``bot/i18n/glossary.toml`` for its shape); a term
    without every language raises KeyError."""
    data = tomllib.loads(text)
    sources = data.pop("sources")
    terms = []
    for term_id, body in data.items():
        words = {}
        for lang in LANGUAGES:
            entry = body[lang]
            words[lang] = Entry(entry["term"], tuple(entry.get("forms", [entry["term"]])),
                                tuple(entry.get("forbidden", [])), entry["source"])
        terms.append(Term(term_id, body["what"], tuple(body.get("scope", [])), words))
    return Glossary(tuple(terms), sources)


@cache
def load() -> Glossary:
    """The glossary of ``bot/i18n/glossary.toml``."""
    return parse(resources.files("bot.i18n").joinpath(GLOSSARY).read_text(encoding="utf-8"))
