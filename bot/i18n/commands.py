"""Commands named in sentences, by the names the reader's Discord client shows.

A German client shows ``/privacy standings`` as ``/datenschutz wertungen``: a sentence
that named the English command would name one the reader cannot find. So a catalogue
never writes a command's name; it writes the command's English path between braces,
the same in every language (``Type {/tichu daily play} for today's boards.``), and
:func:`spell` writes it in the reader's language from the ``cmd.*`` keys the command
tree is translated by (:class:`bot.i18n.translator.CatalogTranslator`): a name changed
in a catalogue changes the sentences that name it.

:data:`COMMANDS` gives each named command the keys of its names, from the top-level
command down (an option last: ``{/tichu new practice}:true``). The tree itself is built
above this layer (:mod:`bot.cogs.tree`); ``tests/bot/test_command_mentions.py`` builds it
and checks each entry against the names Discord is sent, in every language, and that no
catalogue text names a command in any other way.

Why plain names and not Discord's clickable mentions (``</privacy standings:id>``): a
client shows such a mention with the name it is written with, and one written with a
localized name does not run the command, so a mention would show a German reader the
English name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

COMMANDS: dict[str, tuple[str, ...]] = {
    "tichu daily": ("cmd.tichu.name", "cmd.daily.name"),
    "tichu daily play": ("cmd.tichu.name", "cmd.daily.name", "cmd.daily.play.name"),
    "tichu new event": ("cmd.tichu.name", "cmd.new.name", "cmd.tichu.new.event.name"),
    "tichu new practice": ("cmd.tichu.name", "cmd.new.name", "cmd.tichu.new.practice.name"),
    "privacy erase": ("cmd.privacy.name", "cmd.privacy.erase.name"),
    "privacy standings": ("cmd.privacy.name", "cmd.privacy.standings.name"),
}
"""A command's English path (as sentences write it) → the catalogue keys of its names."""

MENTION = re.compile(r"\{/([^{}]+)\}")
"""``{/tichu daily play}`` in a catalogue's text."""


def command_name(path: str, names: Mapping[str, str], english: Mapping[str, str]) -> str:
    """``/tichu täglich spielen`` for ``tichu daily play`` and the German catalogue
    ``names``: the path as a client of that language shows it (the ``english`` name of a
    key the catalogue lacks, as Discord shows the default name where a localization is
    missing)."""
    return "/" + " ".join(names.get(key) or english.get(key) or key for key in COMMANDS[path])


def spell(text: str, names: Mapping[str, str], english: Mapping[str, str]) -> str:
    """``text`` with each ``{/path}`` written as :func:`command_name`; a path that is not
    in :data:`COMMANDS` is written as it stands (``/path``): never a crash."""
    if "{/" not in text:
        return text
    return MENTION.sub(lambda m: command_name(m.group(1), names, english)
                       if m.group(1) in COMMANDS else "/" + m.group(1), text)
