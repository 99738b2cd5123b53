"""The players' pages in French, German and Greek (issue 52), checked against the bot so
that a translation cannot quietly say something else:

- each of :data:`PAGES` has its ``<page>.<lang>.md`` for every language of the bot, and
  the site builds each language (``mkdocs.yml``: the ``i18n`` plugin, the navigation's
  titles translated);
- a translation says which English page it translates, by its digest: a change to the
  English page fails here until its translations follow it;
- the same figures, the same links (a picture in the page's language where there is
  one: ``hand-de.png``), the same headings' anchors;
- every command a page names, by the names its reader's client shows, and its options
  too (``/tichu neu spieler:6``);
- every label of the bot that the English page quotes (**My hand**, *Pass*), quoted as
  the bot shows it in that language, and the plays the English page names in words, as
  the bot names them.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from bot.i18n import LANGUAGES
from bot.i18n.catalog import catalog
from bot.i18n.names import combo_name
from engine.cards import parse_cards
from engine.tichu.combos import readings
from tests.command_names import Node, command_tree, named_wrongly, option_names

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ("players/commands.md", "players/play-now.md", "players/hand-panel.md",
         "players/coach.md", "players/duplicate.md")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
CASES = [(page, lang) for page in PAGES for lang in TRANSLATED]
SOURCE = re.compile(r"\A<!-- Translated from (\S+), sha256 ([0-9a-f]{64})\. ")
FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{2,6} .*?(?:\{#([\w-]+)\})?$", re.M)
CODE = re.compile(r"`([^`\n]+)`")
QUOTED = re.compile(r"(?<![*\w])\*\*?([^*\n]+?)\*\*?(?![*\w])")
PLAYS = {"Pair of 7s": "7c 7d", "Straight 3–7": "3c 4d 5h 6s 7c", "Bomb: four 8s":
         "8c 8d 8h 8s"}
"""The plays the hand panel's page names in words, and their cards."""


def translation(page: str, lang: str) -> Path:
    return DOCS / page.replace(".md", f".{lang}.md")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def prose(markdown: str) -> str:
    """``markdown`` without its code blocks and the translation's first line, each
    paragraph on one line."""
    return re.sub(r"(?<!\n)\n[ \t]*(?![\n|#!-])", " ",
                  re.sub(r"```.*?```", "", re.sub(r"\A<!--.*?-->\n", "", markdown), flags=re.S))


@pytest.fixture(scope="module")
def tree() -> Node:
    return command_tree()


def test_the_site_builds_each_language_and_translates_the_players_titles() -> None:
    config = yaml.safe_load(text(ROOT / "mkdocs.yml"))
    plugin = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    languages = {entry["locale"]: entry for entry in plugin["languages"]}
    assert list(languages) == list(LANGUAGES) and languages["en"]["default"]
    assert plugin["docs_structure"] == "suffix"
    players = next(item["Players"] for item in config["nav"] if "Players" in item)
    titles = {next(iter(entry)) for entry in players if next(iter(entry.values())) in PAGES}
    assert len(titles) == len(PAGES)
    for lang in TRANSLATED:
        assert titles | {"Players"} <= set(languages[lang]["nav_translations"]), lang


@pytest.mark.parametrize(("page", "lang"), CASES)
def test_a_translation_is_of_the_english_page_as_it_stands(page: str, lang: str) -> None:
    path = translation(page, lang)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing"
    source = SOURCE.match(text(path))
    assert source and source.group(1) == Path(page).name, \
        f"{path.name} must start: <!-- Translated from {Path(page).name}, sha256 <digest>. …"
    digest = hashlib.sha256((DOCS / page).read_bytes()).hexdigest()
    assert source.group(2) == digest, (
        f"docs/{page} changed since {path.name} was translated from it: bring the "
        f"translation up to date, then write its digest: {digest}")


def numbers(markdown: str) -> Counter[str]:
    """The figures of a page (``0,8`` as ``0.8``), the links' targets left out."""
    return Counter(f.replace(",", ".") for f in FIGURE.findall(LINK.sub("", prose(markdown))))


@pytest.mark.parametrize(("page", "lang"), CASES)
def test_the_same_figures(page: str, lang: str) -> None:
    english, other = numbers(text(DOCS / page)), numbers(text(translation(page, lang)))
    assert english == other, (dict(english - other), dict(other - english))


def localized_link(target: str, lang: str) -> str:
    """An English page's link as its translation writes it: a picture in the language,
    where there is one (``../images/hand.png`` → ``../images/hand-de.png``)."""
    if target.endswith(".png"):
        local = target.removesuffix(".png") + f"-{lang}.png"
        if (DOCS / "players" / local).resolve().exists():
            return local
    return target


@pytest.mark.parametrize(("page", "lang"), CASES)
def test_the_same_links_and_anchors(page: str, lang: str) -> None:
    english, other = text(DOCS / page), text(translation(page, lang))
    assert sorted(localized_link(t, lang) for t in LINK.findall(prose(english))) == \
        sorted(LINK.findall(prose(other)))
    anchors = [m.group(1) for m in HEADING.finditer(prose(other))]
    slugs = [re.sub(r"[^\w]+", "-", m.group(0).lstrip("# ").lower()).strip("-")
             for m in HEADING.finditer(prose(english))]
    assert anchors == slugs, "each heading keeps the English page's anchor: {#anchor}"


@pytest.mark.parametrize(("page", "lang"), [(page, lang) for page in PAGES
                                            for lang in LANGUAGES])
def test_the_commands_are_named_as_the_readers_client_shows_them(
        tree: Node, page: str, lang: str) -> None:
    path = DOCS / page if lang == "en" else translation(page, lang)
    spans = CODE.findall(prose(text(path)))
    ours, others = option_names(tree, lang), set().union(
        *(option_names(tree, other) for other in LANGUAGES if other != lang))
    for span in spans:
        if span.startswith("/"):
            assert not named_wrongly(tree, lang, span), (path.name, span)
        for option in re.findall(r"(?:^|[\s\[])([^\W\d][\w-]*)(?::|\])", span):
            assert option in ours or option not in others, \
                f"{path.name}: option {option}: in `{span}` is not its name in {lang}"


def labels(lang: str) -> dict[str, list[str]]:
    """The bot's labels without placeholders, by their English text: ``lang``'s texts."""
    found: dict[str, list[str]] = {}
    for key, english in catalog("en").items():
        if "{" not in english and not key.startswith("cmd."):
            found.setdefault(english, []).append(catalog(lang)[key])
    return found


@pytest.mark.parametrize(("page", "lang"), CASES)
def test_the_bots_labels_are_quoted_as_the_bot_shows_them(page: str, lang: str) -> None:
    english, other = prose(text(DOCS / page)), prose(text(translation(page, lang)))
    shown = labels(lang)
    quoted = set(QUOTED.findall(other))
    for label in QUOTED.findall(english):
        if label in shown:
            assert quoted & set(shown[label]), (page, lang, label, shown[label])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plays_are_named_as_the_bot_names_them(lang: str) -> None:
    english = prose(text(DOCS / "players/hand-panel.md"))
    other = prose(text(translation("players/hand-panel.md", lang)))
    for words, cards in PLAYS.items():
        combo = readings(parse_cards(cards.split()))[0]
        assert combo_name("en", combo) == words and words in english
        assert combo_name(lang, combo) in other, (lang, combo_name(lang, combo))
