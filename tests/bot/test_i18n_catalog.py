"""Every catalog key is used, every key the code uses is in every catalog.

The keys the code uses are found three ways:

* literal strings in ``bot/`` that are keys (``t(locale, "hand.out")``,
  ``LogEntry("log.pass", …)``, ``{Phase.BIDDING: "tysiacha.table.turn_bid"}`` …);
* key families built by f-strings (``f"level.{level}"``): every such f-string in
  ``bot/`` must have its shape listed in :data:`FAMILIES`, with the values the code
  fills in, taken from the same place the code takes them (specs, enums, constants);
* the command tree's ``locale_str`` keys, which discord.py's translator looks up
  (``cmd.*``, the ``language.*`` and ``variant.*`` choices): collected by building every
  game's command group and translating it with a recording translator.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
KEY = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+)+")


def catalog_files() -> dict[str, dict[str, dict[str, str]]]:
    """``{"en.json": {"en": {...}, "fr": {...}}, "chinois.json": {...}, …}``: each
    catalog file by its group (shared, or one game's) and language."""
    from bot.i18n.catalog import LANGUAGES

    groups: dict[str, dict[str, dict[str, str]]] = {}
    for entry in resources.files("bot.i18n").iterdir():
        for lang in LANGUAGES:
            if entry.name == f"{lang}.json" or entry.name.endswith(f".{lang}.json"):
                group = entry.name.removesuffix(f"{lang}.json") or "shared."
                groups.setdefault(group, {})[lang] = json.loads(
                    entry.read_text(encoding="utf-8"))
    return groups


def english_keys() -> set[str]:
    from bot.i18n.catalog import catalog

    return set(catalog("en"))


# ------------------------------------------------------------------ the source
def sources() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(BOT.rglob("*.py"))]


def shape(node: ast.JoinedStr) -> str:
    """``f"level.{record.bot_level}"`` → ``level.{}``."""
    return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)


def literal_strings() -> set[str]:
    """Every plain string literal of ``bot/`` (not the pieces of f-strings)."""
    found: set[str] = set()
    for _, tree in sources():
        inside = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                  for v in node.values}
        found |= {node.value for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in inside}
    return found


def key_shapes(prefixes: set[str]) -> dict[str, list[str]]:
    """The shapes of the f-strings of ``bot/`` that build catalog keys (they start with a
    catalog prefix: ``level.{}``, ``hand.confirm_{}`` …), each with where it is built."""
    found: dict[str, list[str]] = {}
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = shape(node)
                head = re.match(r"([a-z0-9_]+)\.", text)
                if (head and head.group(1) in prefixes) or text in FAMILIES:
                    found.setdefault(text, []).append(
                        f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


# ------------------------------------------------------------- dynamic families
def spec_names() -> list[str]:
    from bot.games.registry import all_specs

    return list(all_specs())


def scopes() -> tuple[str, ...]:
    from bot.cogs.records import SCOPES

    return SCOPES


def record_names() -> list[str]:
    from bot.games.registry import all_specs

    return [r for spec in all_specs().values() for r in spec.record_names]


def variant_records() -> list[str]:
    """The records of games rated in variants (Tichu for four or six): the commands
    ask which one; and those a game's history names (its duplicate boards too)."""
    from bot.games.registry import all_specs

    return [r for spec in all_specs().values() if len(spec.history_names) > 1
            for r in spec.history_names]


def history_names() -> list[str]:
    from bot.games.registry import all_specs

    return [r for spec in all_specs().values() for r in spec.history_names]


def levels() -> list[str]:
    from bot.games.registry import all_specs

    return sorted({level for spec in all_specs().values() for level in spec.levels})


def table_statuses() -> list[str]:
    from bot.store.models import TableStatus

    return [s.value for s in TableStatus]


def error_codes() -> list[str]:
    """``error.<code>``: the codes of the table refusals raised or sent in ``bot/``, and
    the store refusals."""
    from bot.tables.errors import RECONNECTING, store_refusal

    text = "\n".join(p.read_text(encoding="utf-8") for p in BOT.rglob("*.py"))
    codes = set(re.findall(r'TableError\("([a-z_]+)"', text))
    codes |= set(re.findall(r'refuse\([^,()]+, "([a-z_]+)"', text))
    codes |= {store_refusal(code) for code in (*RECONNECTING, "anything else")}
    return sorted(codes)


def engine_codes() -> list[str]:
    """``engine.<code>`` (sent as the refusal ``error.engine.<code>``): every refusal of
    the engine's rules: shared, of tricks (Chinois, Tysiacha) and of each game. Not the
    errors of loading a replay (``engine.run``), which no click can cause."""
    from engine import errors, trick
    from engine.chinois import errors as chinois_errors
    from engine.errors import EngineError
    from engine.tichu import errors as tichu_errors
    from engine.tysiacha import errors as tysiacha_errors

    return sorted({value.code for module in (errors, trick, tichu_errors, chinois_errors,
                                             tysiacha_errors)
                   for value in vars(module).values()
                   if isinstance(value, type) and issubclass(value, EngineError)})


def chinois_ratings() -> list[str]:
    from engine.chinois.rules import Rating

    return [r.value for r in Rating]


def exchange_slots() -> list[str]:
    from bot.games.tichu.hand import EXCHANGE_SLOTS

    return [slot for slots in EXCHANGE_SLOTS.values() for slot in slots]


def play_kinds() -> list[str]:
    from bot.games.tichu.hand import KIND_ORDER

    return list(KIND_ORDER)


def languages() -> list[str]:
    from bot.i18n.catalog import LANGUAGES

    return list(LANGUAGES)


FAMILIES: dict[str, Callable[[], Iterable[str]]] = {
    # bot/cogs/games.py and bot/views/controller.py: refusals.
    "error.{}": lambda: [f"error.{c}" for c in error_codes()],
    "engine.{}": lambda: [f"error.engine.{c}" for c in engine_codes()],
    # One per game (GameSpec.name) or per rated variant (GameSpec.record_names).
    "rules.{}": lambda: [f"rules.{g}" for g in spec_names()],
    "lobby.title.{}": lambda: [f"lobby.title.{g}" for g in spec_names()],
    "lobby.help.{}": lambda: [f"lobby.help.{g}" for g in spec_names()],
    "game.{}": lambda: [f"game.{g}" for g in {*spec_names(), *history_names()}],
    "variant.{}": lambda: [f"variant.{r}" for r in variant_records()],
    "leaderboard.title.{}": lambda: [f"leaderboard.title.{r}" for r in record_names()],
    "leaderboard.extra.{}": lambda: [f"leaderboard.extra.{r}" for r in record_names()],
    # bot/cogs/games.py: the leaderboard's boards (issue 53).
    "scope.{}": lambda: [f"scope.{s}" for s in scopes()],
    "stats.{}": lambda: [f"stats.{r}" for r in record_names()],
    "stats.title.{}": lambda: [f"stats.title.{r}" for r in record_names()],
    # The command tree (its keys are collected from the tree itself, below).
    "cmd.{}.name": lambda: [],
    "cmd.{}.description": lambda: [],
    "cmd.{}.new.description": lambda: [],
    "cmd.{}.{}.description": lambda: [],
    "language.{}": lambda: [f"language.{code}" for code in ("auto", *languages())],
    # Enums and constants of the engine and the bot.
    "level.{}": lambda: [f"level.{level}" for level in levels()],
    "lobby.status.{}": lambda: [f"lobby.status.{s}" for s in table_statuses()],
    "chinois.rating.{}": lambda: [f"chinois.rating.{r}" for r in chinois_ratings()],
    "team.{}": lambda: ["team.0", "team.1"],  # seat % 2, the winning team of Tichu
    "select.give_{}": lambda: [f"select.give_{s}" for s in exchange_slots()],
    "kind.{}": lambda: [f"kind.{k}" for k in play_kinds()],
    # bot/games/tichu/hand.py: the calls asked for confirmation, the second questions
    # of a play (choice_step).
    "hand.confirm_{}": lambda: ["hand.confirm_tichu", "hand.confirm_grand"],
    "button.confirm_{}": lambda: ["button.confirm_tichu", "button.confirm_grand"],
    "hand.choose_{}": lambda: ["hand.choose_wish", "hand.choose_phoenix", "hand.choose_dog"],
    # bot/cogs/records.py: the leaderboard's columns, the two kinds of partner.
    "ratings.col.{}": lambda: [f"ratings.col.{c}"
                               for c in ("rank", "name", "rating", "games", "rate")],
    "stats.partner.{}": lambda: ["stats.partner.team", "stats.partner.table"],
    # bot/cogs/daily.py: the daily standings' columns.
    "daily.col.{}": lambda: [f"daily.col.{c}"
                             for c in ("rank", "name", "score", "boards", "trend")],
    # bot/cogs/daily.py: the seats of a daily board around its person.
    "daily.seat.{}": lambda: [f"daily.seat.{s}" for s in ("right", "partner", "left")],
    # bot/games/tichu/coach.py: the engine's reasons of a hint, kinds of decision and
    # the options that are not plays.
    "coach.reason.{}": lambda: [f"coach.reason.{r}" for r in coach_reasons()],
    "coach.kind.{}": lambda: [f"coach.kind.{k}" for k in coach_kinds()],
    "coach.do.{}": lambda: [f"coach.do.{d}" for d in coach_words()],
    # bot/views/surfaces.py, bot/games/shared.py: the phrases said at a table (issue 53).
    "talk.{}": lambda: [f"talk.{p}" for p in phrases()],
}


def phrases() -> tuple[str, ...]:
    from bot.tables.phrases import PHRASES

    return PHRASES


def coach_reasons() -> tuple[str, ...]:
    from engine.review import REASONS

    return tuple(REASONS)


def coach_kinds() -> tuple[str, ...]:
    from engine.review import KINDS

    return tuple(KINDS)


def coach_words() -> tuple[str, ...]:
    from bot.games.tichu.coach import WORDS

    return WORDS


def family_keys() -> set[str]:
    return {key for family in FAMILIES.values() for key in family()}


class Recorder(app_commands.Translator):
    """Records the catalog key of every string the command tree asks to translate."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if key is not None:
            self.keys.add(key)
        return None


def command_keys() -> set[str]:
    from bot.cogs.tree import command_groups

    async def collect() -> set[str]:
        client = discord.Client(intents=discord.Intents.none())
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
        recorder = Recorder()
        for group in command_groups(object(), lambda spec: lambda *args: None):
            await group.get_translated_payload(tree, recorder)
        return recorder.keys

    return asyncio.run(collect())


def used_keys(prefixes: set[str]) -> set[str]:
    literal = {s for s in literal_strings() if KEY.fullmatch(s) and s.split(".")[0] in prefixes}
    return literal | family_keys() | command_keys()


# ------------------------------------------------------------------ the tests
def test_every_key_building_f_string_is_a_known_family() -> None:
    prefixes = {key.split(".")[0] for key in english_keys()}
    unknown = {text: where for text, where in key_shapes(prefixes).items()
               if text not in FAMILIES}
    assert not unknown, f"add these key families to FAMILIES: {unknown}"


def test_no_family_is_stale() -> None:
    prefixes = {key.split(".")[0] for key in english_keys()}
    assert set(FAMILIES) <= set(key_shapes(prefixes))


def test_every_key_the_code_uses_is_in_the_catalog() -> None:
    english = english_keys()
    prefixes = {key.split(".")[0] for key in english}
    missing = used_keys(prefixes) - english
    assert not missing, sorted(missing)


def test_every_catalog_key_is_used() -> None:
    english = english_keys()
    prefixes = {key.split(".")[0] for key in english}
    unused = english - used_keys(prefixes)
    assert not unused, sorted(unused)


@pytest.mark.parametrize("group", sorted(catalog_files()))
def test_every_language_has_the_english_keys(group: str) -> None:
    files = catalog_files()[group]
    english = set(files["en"])
    for lang, entries in files.items():
        assert set(entries) == english, (group, lang, set(entries) ^ english)


def test_the_command_keys_are_found() -> None:
    keys = command_keys()
    assert {"cmd.settings.name", "cmd.tichu.name", "cmd.tysiacha.new.rounding.name",
            "language.auto", "variant.tichu6"} <= keys


# ------------------------------------------------------- the translated commands
def translated_groups() -> list[dict[str, Any]]:
    """Every game's command group as sent to Discord, translated by the bot's own
    translator into every locale."""
    from bot.cogs.tree import command_groups
    from bot.i18n.translator import CatalogTranslator

    async def build() -> list[dict[str, Any]]:
        client = discord.Client(intents=discord.Intents.none())
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
        return [await group.get_translated_payload(tree, CatalogTranslator())
                for group in command_groups(object(), lambda spec: lambda *args: None)]

    return asyncio.run(build())


def discord_name(name: str) -> bool:
    """Discord's rule for chat command and option names: 1 to 32 of letters, numbers,
    ``-``, ``_`` and ``'`` (any script: Greek too), lowercase where the letter has one."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(
        c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name)


def siblings(nodes: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    """``nodes`` and, below each, its options: every list of names Discord keeps apart."""
    yield nodes
    for node in nodes:
        yield from siblings(node.get("options") or [])


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_command_is_translated_within_discords_limits(lang: str) -> None:
    """Each language names and describes every command, option and choice: names Discord
    accepts, distinct among siblings, descriptions and choice names of 1 to 100."""
    locale = discord.Locale(lang).value
    for nodes in siblings(translated_groups()):
        names = []
        for node in nodes:
            name = node["name_localizations"][locale]
            assert discord_name(name), (lang, node["name"], name)
            names.append(name)
            description = node["description_localizations"][locale]
            assert 1 <= len(description) <= 100, (lang, node["name"], description)
            assert not description.startswith("cmd."), (lang, node["name"])
            for choice in node.get("choices") or []:  # numbers (4, 6) are not translated
                shown = (choice.get("name_localizations") or {}).get(locale, choice["name"])
                assert 1 <= len(shown) <= 100, (lang, choice["name"], shown)
        assert len(set(names)) == len(names), (lang, names)
