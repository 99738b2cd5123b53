"""The catalogs of every language: same keys, same placeholders, every refusal code
covered; each Discord locale reads its language, or English."""

from __future__ import annotations

import re
import string

import discord
import pytest

from bot.i18n import LANGUAGES, language, t
from bot.i18n.catalog import catalog
from bot.i18n.names import combo_name
from engine import errors as core_errors
from engine.cards import parse_cards
from engine.errors import EngineError
from engine.tichu import errors as tichu_errors
from engine.tichu.combos import readings


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_catalogs_have_the_same_keys_and_placeholders(lang: str) -> None:
    en, other = catalog("en"), catalog(lang)
    assert set(en) == set(other)
    for key in en:
        assert fields(en[key]) == fields(other[key]), key
        assert other[key].strip(), key


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "fr"])
def test_only_french_puts_a_name_after_de(lang: str) -> None:
    """``{name:de}`` is French grammar; every other language writes plain ``{name}``."""
    for key, text in catalog(lang).items():
        assert all(spec != "de" for _, _, spec, _ in string.Formatter().parse(text)), key


def engine_codes() -> set[str]:
    codes = set()
    for module in (core_errors, tichu_errors):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, EngineError):
                codes.add(value.code)
    return codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_engine_refusal_has_a_sentence(lang: str) -> None:
    for code in engine_codes():
        assert f"error.engine.{code}" in catalog(lang)


def test_every_table_refusal_in_the_code_has_a_sentence() -> None:
    from pathlib import Path

    source = "\n".join(p.read_text() for p in Path("bot").rglob("*.py"))
    codes = set(re.findall(r'TableError\("([a-z_]+)"', source))
    codes |= set(re.findall(r'refuse\([^,]+, "([a-z_]+)"', source))
    assert codes
    for code in codes:
        assert f"error.{code}" in catalog("en"), code


@pytest.mark.parametrize(("locale", "lang"), [
    ("fr", "fr"), ("fr-FR", "fr"), ("en-US", "en"), ("en-GB", "en"), ("de", "de"),
    ("de-AT", "de"), ("el", "el"), (discord.Locale.french, "fr"), (discord.Locale.german, "de"),
    (discord.Locale.greek, "el"), (discord.Locale.american_english, "en"),
    # No catalog: English.
    ("ja", "en"), (discord.Locale.japanese, "en"), ("es-ES", "en"), ("zh-CN", "en"),
    ("", "en"), (None, "en"),
])
def test_language_of_a_locale(locale: object, lang: str) -> None:
    assert language(locale) == lang


def test_a_locale_without_a_catalog_reads_english() -> None:
    assert t("ja", "hand.out") == t("en", "hand.out") == catalog("en")["hand.out"]
    assert t(discord.Locale.greek, "card.dog") == "Σκύλος"
    assert t("de", "card.dog") == "Hund"


@pytest.mark.parametrize(
    ("cards", "en", "fr", "de", "el"),
    [
        ("7c 7d", "Pair of 7s", "Paire de 7", "Pärchen 7er", "Ζευγάρι 7"),
        ("Ac Ad Ah", "Three Aces", "Brelan d’As", "Drilling Asse", "Τριάδα Άσσων"),
        ("3c 4d 5h 6s 7c", "Straight 3–7", "Suite 3–7", "Straße 3–7", "Κέντα 3–7"),
        ("Tc Jd Qh Ks Ac", "Straight 10–Ace", "Suite 10–As", "Straße 10–Ass",
         "Κέντα 10–Άσσος"),
        ("8c 8d 8h 8s", "Bomb: four 8s", "Bombe : carré de 8", "Viererbombe: 8er",
         "Βόμβα: καρέ 8"),
        ("3h 4h 5h 6h 7h", "Bomb: straight flush 3–7", "Bombe : quinte flush 3–7",
         "Straßenbombe 3–7", "Βόμβα: κέντα χρώμα 3–7"),
        ("Kc Kd Kh 5c 5d", "Full house: Kings over 5s", "Full : Rois par les 5",
         "Full House: Könige und 5er", "Φουλ Ρηγάδων με ζευγάρι 5"),
        ("3c 3d 4c 4d", "Stairs 3–4 (2 pairs)", "Suite de paires 3–4 (2 paires)",
         "Treppe 3–4 (2 Pärchen)", "Σκάλα 3–4 (2 ζευγάρια)"),
        ("DRAGON", "Single: Dragon", "Carte seule : Dragon", "Einzelkarte: Drache",
         "Μονή κάρτα: Δράκος"),
        ("MAHJONG", "Single: Mahjong", "Carte seule : Moineau", "Einzelkarte: Mah Jong",
         "Μονή κάρτα: Μα Τζονγκ"),
    ],
)
def test_combinations_named_in_words(cards: str, en: str, fr: str, de: str, el: str) -> None:
    combo = readings(parse_cards(cards.split()))[0]
    assert combo_name("en", combo) == en
    assert combo_name("fr", combo) == fr
    assert combo_name("de", combo) == de
    assert combo_name("el", combo) == el


def test_missing_values_never_crash() -> None:
    assert t("en", "log.play") == catalog("en")["log.play"]
    assert t("fr", "no.such.key") == "no.such.key"


def test_game_catalogs_never_override_one_another() -> None:
    from importlib import resources

    for lang in LANGUAGES:
        seen: dict[str, str] = {}
        for entry in resources.files("bot.i18n").iterdir():
            if entry.name == f"{lang}.json" or entry.name.endswith(f".{lang}.json"):
                import json

                for key in json.loads(entry.read_text(encoding="utf-8")):
                    assert key not in seen, f"{key} in both {seen.get(key)} and {entry.name}"
                    seen[key] = entry.name


def alt_catalogs() -> dict[str, dict[str, str]]:
    """The catalogs of the images' descriptions (``alt.<lang>.json``), by language: English
    and French, and the languages on their way (German, Greek) before they join
    :data:`~bot.i18n.catalog.LANGUAGES`."""
    import json
    from importlib import resources

    return {entry.name.split(".")[1]: json.loads(entry.read_text(encoding="utf-8"))
            for entry in resources.files("bot.i18n").iterdir()
            if re.fullmatch(r"alt\.[a-z]{2}\.json", entry.name)}


def test_the_descriptions_are_written_in_every_language_with_the_same_placeholders() -> None:
    catalogs = alt_catalogs()
    assert {"en", "fr", "de", "el"} <= set(catalogs)
    english = catalogs["en"]
    assert english and all(key.startswith("alt.") for key in english)
    for lang, entries in catalogs.items():
        assert set(entries) == set(english), (lang, set(entries) ^ set(english))
        for key, text in english.items():
            assert fields(entries[key]) == fields(text), (lang, key)
            assert entries[key].strip(), (lang, key)
