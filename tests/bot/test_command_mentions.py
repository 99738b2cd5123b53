"""Every sentence that names a command names it as the reader's Discord client shows it
(issue 52): ``/datenschutz wertungen`` to a German reader, never ``/privacy standings``.

The names a client shows are those of the command tree as Discord is sent it
(:func:`tools.docs.command_payload`, pinned by ``tests/fixtures/commands.json``): a
node's localization in the reader's language, else its default name. Each text of every
catalogue (sentences, images' descriptions, the images' labels, the commands' own
descriptions) is read in its language, and every ``/`` that starts a command is followed
along the tree by the names of that language only: it must name a command, and the word
after it must not be another language's name of the next command down.
"""

from __future__ import annotations

import string
from collections.abc import Iterator

import discord
import pytest

from bot.i18n import LANGUAGES, t
from bot.i18n.catalog import catalog
from bot.i18n.commands import COMMANDS, MENTION, command_name, spell
from bot.i18n.translator import CatalogTranslator
from bot.render import labels
from tests.command_names import COMMAND_LIKE, Node, command_tree, named_wrongly, paths


@pytest.fixture(scope="module")
def tree() -> Node:
    return command_tree()



def texts(lang: str) -> Iterator[tuple[str, str]]:
    """Every text of ``lang``: the catalogues (commands' names and descriptions, sentences,
    images' descriptions) and the images' labels."""
    yield from catalog(lang).items()
    yield from ((f"label.{key}", text) for key, text in labels.CATALOG[lang].items())


def filled(lang: str, key: str, text: str) -> str:
    """``text`` as a reader reads it: commands spelt, each placeholder a plain word."""
    values = {name.split(".")[0].split("[")[0]: "x"
              for _, name, _, _ in string.Formatter().parse(text) if name}
    try:
        return spell(text, catalog(lang), catalog("en")).format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return spell(text, catalog(lang), catalog("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_named_command_is_written_as_the_readers_client_shows_it(
        tree: Node, lang: str) -> None:
    shown = dict(paths(tree, lang))
    for path in COMMANDS:
        assert path in shown, f"{path}: no such command in the tree"
        assert command_name(path, catalog(lang), catalog("en")) == shown[path], (lang, path)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_names_a_command_but_through_the_tree(tree: Node, lang: str) -> None:
    """A command is named only as ``{/english path}`` (never typed out), of a command in
    :data:`COMMANDS`, and what the reader reads names it in their language."""
    for key, text in texts(lang):
        assert not COMMAND_LIKE.search(MENTION.sub("", text)), \
            f"{lang} {key} types a command's name out; write {{/english path}}: {text}"
        for path in MENTION.findall(text):
            assert path in COMMANDS, f"{lang} {key}: {{/{path}}} is not in COMMANDS"
        read = filled(lang, key, text)
        assert not named_wrongly(tree, lang, read), (lang, key, named_wrongly(tree, lang, read))


def test_the_check_catches_a_name_the_client_does_not_show(tree: Node) -> None:
    """The reading above fails on the findings of issue 52 and accepts the names shown."""
    assert named_wrongly(tree, "de", "ändern mit /privacy standings)") == \
        ["/privacy standings"]
    assert named_wrongly(tree, "fr", "(/tichu new entrainement:true)") == \
        ["/tichu new entrainement"]
    assert named_wrongly(tree, "el", "το /tichu ημερήσιο play") == ["/tichu ημερήσιο play"]
    assert not named_wrongly(tree, "de", "ändern mit /datenschutz wertungen)")
    assert not named_wrongly(tree, "en", "/tichu daily is what you can play; 3/4 km/h")


def test_every_named_command_is_named_somewhere() -> None:
    """No entry of :data:`COMMANDS` outlives the sentences that named it."""
    named = {path for text in catalog("en").values() for path in MENTION.findall(text)}
    assert named == set(COMMANDS)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_sentences_read_the_localized_names(lang: str) -> None:
    """Where the issue found them: the texts of /privacy and of the daily challenge."""
    expected = {
        "privacy.standings_on": "privacy standings", "error.privacy_not_yours":
        "privacy erase", "error.daily_other_day": "tichu daily play",
        "error.server_only": "tichu daily", "error.hint_not_here": "tichu new practice"}
    for key, path in expected.items():
        names = [catalog(lang)[k] for k in COMMANDS[path]]
        assert "/" + " ".join(names) in t(lang, key), (lang, key)
    names = " ".join(catalog(lang)[k] for k in COMMANDS["tichu new event"])
    assert t(lang, "lobby.event", code="K7Q2XM").count(f"`/{names}:K7Q2XM`") == 1


async def test_the_translator_spells_as_the_sentences_do() -> None:
    """What the translator sends Discord (a description) names commands as ``t`` does."""
    translator = CatalogTranslator()
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_description, None)
    for lang in ("fr", "de", "el"):
        sent = await translator.translate(
            discord.app_commands.locale_str("x", key="error.server_only"),
            discord.Locale(lang), context)
        assert sent == t(lang, "error.server_only") and "{/" not in sent


def test_an_unknown_command_reads_as_written() -> None:
    assert spell("see {/nothing here}", catalog("de"), catalog("en")) == "see /nothing here"
