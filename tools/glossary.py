"""The glossary of the game's words (``bot/i18n/glossary.toml``) and its check.

``python -m tools.glossary`` prints every text of the catalogues that says a glossary
term another way: the main catalogues, the images' descriptions, Chinois's and
Tysiacha's, the images' labels (:mod:`bot.render.labels`) and the slash commands' names
and descriptions as Discord gets them. It ends with the count, ``glossary violations:
N`` (the goal is 0; exit status 1 otherwise). ``tests/tools/test_glossary.py`` fails on
any, and ``python -m tools.docs`` makes the glossary's page from the same file
(:mod:`bot.i18n.glossary` reads it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bot.i18n.catalog import LANGUAGES
from bot.i18n.glossary import Glossary, load


@dataclass(frozen=True, slots=True)
class Violation:
    """A text that says a term another way."""

    lang: str
    key: str
    term: str
    word: str
    text: str

    def __str__(self) -> str:
        return f"{self.lang}  {self.key}: «{self.word}» for {self.term}: {self.text}"


def pattern(word: str) -> re.Pattern[str]:
    """A glossary word as a pattern: whole words, any case; ``*`` at an end stands for any
    letters there, a space for any spaces."""
    core = r"\s+".join(re.escape(part) for part in word.strip("*").split())
    left = r"\w*" if word.startswith("*") else r"(?<!\w)"
    right = r"\w*" if word.endswith("*") else r"(?!\w)"
    return re.compile(left + core + right, re.IGNORECASE)


def texts(lang: str) -> dict[str, str]:
    """Every text of ``lang`` a glossary term may be in, by where it is: ``main:<key>``,
    ``alt:<key>``, ``chinois:<key>``, ``tysiacha:<key>`` (the catalogue files), the images'
    labels as ``labels:<key>`` and the commands' names and descriptions as
    ``commands:<path>.name`` and ``.description`` (and their choices')."""
    from bot.render import labels

    out: dict[str, str] = {}
    folder = resources.files("bot.i18n")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == f"{lang}.json" or entry.name.endswith(f".{lang}.json"):
            group = entry.name.removesuffix(f"{lang}.json").rstrip(".") or "main"
            data = json.loads(entry.read_text(encoding="utf-8"))
            out |= {f"{group}:{key}": text for key, text in data.items()}
    out |= {f"labels:{key}": text for key, text in labels.CATALOG[lang].items()}
    out |= command_texts(lang)
    return out


@cache
def _payload() -> list[dict[str, Any]]:
    from tools.docs import command_payload

    return asyncio.run(command_payload())


def command_texts(lang: str) -> dict[str, str]:
    """The slash commands' names and descriptions as Discord shows them in ``lang``."""
    locale = {"en": "en-US"}.get(lang, lang)

    def local(item: dict[str, Any], field: str) -> str:
        return str((item.get(f"{field}_localizations") or {}).get(locale) or item[field])

    out: dict[str, str] = {}

    def walk(path: str, items: list[dict[str, Any]]) -> None:
        for item in items:
            here = f"{path}{'' if path.endswith(':') else '.'}{item['name']}"
            out[f"{here}.name"] = local(item, "name")
            if "description" in item:
                out[f"{here}.description"] = local(item, "description")
            for choice in item.get("choices") or []:
                out[f"{here}.choice.{choice['name']}"] = local(choice, "name")
            walk(here, item.get("options") or [])

    walk("commands:", _payload())
    return out


def _within(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def violations(lang: str, glossary: Glossary | None = None,
               given: Mapping[str, str] | None = None) -> list[Violation]:
    """The texts of ``lang`` (``given``, or all of them) that say a term of ``glossary``
    (the file's, by default) another way: once per text and word, however many terms
    refuse the word, and a text the commands share with a catalogue once."""
    glossary = glossary or load()
    corpus = dict(texts(lang) if given is None else given)
    forms = sorted({form for term in glossary.terms for form in term.words[lang].forms},
                   key=len, reverse=True)
    found: dict[tuple[str, str], Violation] = {}
    for term in glossary.terms:
        refused = [pattern(word) for word in term.words[lang].forbidden]
        if not refused:
            continue
        # a word inside an approved one of any term is no variant (ohne Wertung), but for
        # the words this term refuses (contrat is Tysiacha's contract, no Chinois bid)
        approved = [pattern(form) for form in forms
                    if not any(word.fullmatch(form) for word in refused)]
        for key, text in corpus.items():
            if term.scope and not key.startswith(term.scope):
                continue
            spans = [m.span() for form in approved for m in form.finditer(text)]
            for word in refused:
                hit = next((m for m in word.finditer(text) if not _within(spans, *m.span())),
                           None)
                if hit is None:
                    continue
                seen = found.get((text, hit.group().lower()))
                if seen is None:
                    found[(text, hit.group().lower())] = Violation(lang, key, term.id,
                                                                   hit.group(), text)
                elif term.id not in seen.term.split(", "):
                    found[(text, hit.group().lower())] = Violation(
                        lang, seen.key, f"{seen.term}, {term.id}", seen.word, text)
    return sorted(found.values(), key=lambda v: (v.key, v.word))


def every_violation(langs: Iterable[str] = LANGUAGES) -> Iterator[Violation]:
    for lang in langs:
        yield from violations(lang)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.glossary", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", action="append", choices=LANGUAGES,
                        help="only this language (repeatable)")
    args = parser.parse_args(argv)
    found = list(every_violation(args.lang or LANGUAGES))
    for violation in found:
        print(violation)
    print(f"glossary violations: {len(found)} ({len(load().terms)} terms, "
          f"{len(args.lang or LANGUAGES)} languages)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
