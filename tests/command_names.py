"""The command tree as the clients of each language show it, and a reading of text along
it: which commands a text names by a name its reader's client does not show.

The names are those Discord is sent (:func:`tools.docs.command_payload`, pinned by
``tests/fixtures/commands.json``): a node's localization in the reader's language, else
its default name. ``tests/bot/test_command_mentions.py`` reads the catalogues with it,
``tests/test_docs_i18n.py`` the players' pages.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import LANGUAGES
from tools.docs import command_payload

COMMAND_LIKE = re.compile(r"(?<![\w/.:<>}\])])/(?=[^\W\d_])")
"""A ``/`` that starts a word, as a command does (not ``{n}/{total}``, ``km/h``, a URL)."""
WORDS = re.compile(r"[\w'-]+(?: [\w'-]+)*")


@dataclass
class Node:
    """A command, group or option: its name in each language, its children."""

    names: dict[str, str]
    children: list[Node] = field(default_factory=list)
    option: bool = False
    """An option a command takes (``players:6``), not a command or a group."""


def locale_of(lang: str) -> str:
    return "en-US" if lang == "en" else discord.Locale(lang).value


def node(item: dict[str, Any]) -> Node:
    local = item.get("name_localizations") or {}
    return Node({lang: local.get(locale_of(lang), item["name"]) for lang in LANGUAGES},
                [node(child) for child in item.get("options") or []],
                option=int(item.get("type", 1)) >= 3)


def command_tree() -> Node:
    """Every command group as Discord is sent it, under one root."""
    return Node({}, [node(group) for group in asyncio.run(command_payload())])


def paths(at: Node, lang: str, trail: tuple[Node, ...] = ()) -> Iterator[tuple[str, str]]:
    """(English path, the path a client of ``lang`` shows) of every node below ``at``."""
    for child in at.children:
        here = (*trail, child)
        yield (" ".join(n.names["en"] for n in here),
               "/" + " ".join(n.names[lang] for n in here))
        yield from paths(child, lang, here)


def named_wrongly(root: Node, lang: str, text: str) -> list[str]:
    """The commands ``text`` names by a name a client of ``lang`` does not show: each
    ``/`` that starts a command, followed as far as the words are ``lang``'s names."""
    wrong = []
    for start in COMMAND_LIKE.finditer(text):
        run = WORDS.match(text, start.end())
        words = run.group(0).split(" ") if run else []
        at, depth = root, 0
        for word in words:
            step = next((c for c in at.children if c.names[lang] == word), None)
            if step is None:
                break
            at, depth = step, depth + 1
        following = words[depth] if depth < len(words) else None
        foreign = following is not None and any(
            following in c.names.values() for c in at.children)
        if depth == 0 or foreign:
            wrong.append(text[start.start():start.end() + (run.end() - run.start() if run
                                                           else 0)])
    return wrong




def nodes(at: Node) -> Iterator[Node]:
    """Every node below ``at``."""
    for child in at.children:
        yield child
        yield from nodes(child)


def option_names(root: Node, lang: str) -> set[str]:
    """The names of every command's options as a client of ``lang`` shows them."""
    return {n.names[lang] for n in nodes(root) if n.option}
