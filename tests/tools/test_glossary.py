"""The glossary (``bot/i18n/glossary.toml``): every term in every language, with its
source, and no catalogue (main, images' descriptions, Chinois's, Tysiacha's, the images'
labels, the slash commands) saying a term another way."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalog import LANGUAGES
from bot.i18n.glossary import load, parse
from tools.glossary import pattern, texts, violations


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_says_a_glossary_term_another_way(lang: str) -> None:
    found = violations(lang)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize(("lang", "key", "text", "words"), [
    # the exchange is schupfen: its old words, inflected, in any case
    ("de", "main:x", "Deine Karten sind WEITERGEGEBEN.", ["WEITERGEGEBEN"]),
    ("de", "alt:x", "Kartentausch: 2 von 4", ["Kartentausch"]),
    ("de", "labels:x", "Deine drei Tauschkarten", ["Tauschkarten"]),
    ("de", "main:x", "Bombe: Farbstraßen", ["Farbstraßen"]),
    # ohne Wertung is the word for unrated; any other Wertung is not
    ("de", "main:x", "Übung: ohne Wertung", []),
    ("de", "main:x", "Die Endwertung von gestern, ohne Wertung", ["Endwertung"]),
    ("de", "alt:x", "Vertrag: Alice spielt allein", ["Vertrag"]),
    ("el", "labels:x", "Λεβές", ["Λεβές"]),
    ("el", "alt:x", "Την τελευταία λεβέ πήρε", ["λεβέ"]),
    ("el", "main:x", "Δήλωσε **Grand Tichu**", ["Grand Tichu"]),
    ("el", "main:x", "Δήλωσε **Μεγάλο Tichu**", []),
    ("el", "alt:x", "έδωσε τα φύλλα", ["φύλλα"]),
    ("el", "main:x", "(χωρίς βαθμολογία)", ["χωρίς βαθμολογία"]),
    # a word is whole: Straße is no Straßenbombe, Stich no Stichwort
    ("de", "main:x", "Straße 3–7 und Straßenbombe 3–7", []),
    # a scope: contrat is Tysiacha's contract, not a Chinois bid
    ("fr", "tysiacha:x", "Contrat : 120", []),
    ("fr", "chinois:x", "Doré : contrat exact.", ["contrat"]),
    ("fr", "labels:bid", "Contrat {bid}", ["Contrat"]),
    # the rating is la cote; classement is the standings' and the leaderboard's only
    ("fr", "main:x", "Classement Elo : 1500", ["Classement Elo"]),
    ("fr", "main:x", "Classement du jour · cote 1500 · partie non classée", []),
    ("fr", "main:x", "la table est fermée (sans classement)", ["sans classement"]),
])
def test_a_planted_variant_is_found(lang: str, key: str, text: str, words: list[str]) -> None:
    found = violations(lang, given={key: text})
    assert [v.word for v in found] == words


def test_a_word_refused_by_two_terms_counts_once() -> None:
    found = violations("de", given={"main:x": "Wertung: 12", "main:y": "Wertung: 12"})
    assert len(found) == 1 and found[0].term == "rating, standings"


def test_every_term_has_every_language_and_its_source() -> None:
    glossary = load()
    assert len(glossary.terms) >= 30
    for term in glossary.terms:
        assert term.what, term.id
        for lang in LANGUAGES:
            entry = term.words[lang]
            assert entry.term and entry.forms, (term.id, lang)
            head = re.split(r"[ ,:;(]", entry.source, maxsplit=1)[0]
            assert head in glossary.sources, (term.id, lang, entry.source)


def test_no_word_is_both_approved_and_refused() -> None:
    for term in load().terms:
        for lang in LANGUAGES:
            entry = term.words[lang]
            for word in entry.forbidden:
                for form in entry.forms:
                    assert not pattern(word).fullmatch(form), (term.id, lang, word, form)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_word_is_in_the_texts(lang: str) -> None:
    """The glossary names the words the catalogues use: each term, or one of its forms,
    is in some text of its language."""
    corpus = "\n".join(texts(lang).values())
    for term in load().terms:
        entry = term.words[lang]
        assert any(pattern(form).search(corpus) for form in entry.forms), (term.id, lang)


def test_the_glossary_reads_as_the_file_says() -> None:
    glossary = parse("""
        [sources]
        here = "a test"
        [card]
        what = "a card"
        en = { term = "card", source = "here" }
        fr = { term = "carte", forms = ["carte", "cartes"], source = "here" }
        de = { term = "Karte", forbidden = ["*tausch*"], source = "here" }
        el = { term = "κάρτα", source = "here" }
        """)
    [term] = glossary.terms
    assert term.words["en"].forms == ("card",)
    assert term.words["fr"].forms == ("carte", "cartes")
    assert pattern("*tausch*").fullmatch("Kartentausch")
    assert not pattern("Wertung").search("Bewertung")
    with pytest.raises(KeyError):
        parse('[sources]\n[card]\nwhat = "a card"\nen = { term = "card", source = "x" }\n')
