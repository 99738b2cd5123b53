"""A count takes its plural in its sentence's language (``{n:plural:ONE|OTHER}``): each
language's plural rule is CLDR's (Babel's data), and every sentence that has plural forms
reads right for one and for many."""

from __future__ import annotations

import string

import pytest
from babel import Locale

from bot.i18n import LANGUAGES, t
from bot.i18n.catalog import PLURAL, catalog, plural


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_languages_plural_rule_is_cldrs(lang: str) -> None:
    rule = Locale.parse(lang).plural_form
    for n in [*range(0, 2001), 10_000, 1_000_001, -1, -2]:
        expected = rule(abs(n))
        # French's "many" (exact millions: "1 000 000 de parties") reads as "other"
        assert plural(lang, n) == ("other" if expected == "many" else expected), (lang, n)


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "1-day streak", "3-day streak"),
    ("fr", "1 jour d’affilée", "3 jours d’affilée"),
    ("de", "1 Tag in Folge", "3 Tage in Folge"),
    ("el", "1 μέρα στη σειρά", "3 μέρες στη σειρά"),
])
def test_a_streak_of_one_day_is_one_day(lang: str, one: str, many: str) -> None:
    assert t(lang, "daily.score", pct="50%", streak=1).endswith(one)
    assert t(lang, "daily.score", pct="50%", streak=3).endswith(many)


def test_french_counts_zero_in_the_singular() -> None:
    assert t("fr", "alt.cards", n=0) == "0 carte"
    assert t("en", "alt.cards", n=0) == "0 cards"
    assert t("de", "alt.cards", n=1) == "1 Karte"
    assert t("el", "alt.tricks", n=1) == "1 χαρτωσιά"
    assert t("el", "alt.tricks", n=2) == "2 χαρτωσιές"
    assert t("fr", "alt.points", points="−25") == "−25 points"


def plural_fields(text: str) -> list[tuple[str, str]]:
    return [(name, spec) for _, name, spec, _ in string.Formatter().parse(text)
            if name and spec and spec.startswith(PLURAL)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_has_both_forms_and_reads_for_one_and_many(lang: str) -> None:
    found = 0
    for key, text in catalog(lang).items():
        fields = plural_fields(text)
        if not fields:
            continue
        found += 1
        for _, spec in fields:
            forms = spec.removeprefix(PLURAL).split("|")
            assert len(forms) == 2 and all(forms), (lang, key, spec)
        values = {name: 0 for _, name, _, _ in string.Formatter().parse(text) if name}
        for n in (1, 2):
            shown = t(lang, key, **{**values, **{name: n for name, _ in fields}})
            assert PLURAL not in shown and "{" not in shown, (lang, key, shown)
    assert found >= 10, lang
