"""No label is cut short: every image kind in every language, in its fullest cases
(``python -m tools.fit``), draws each label whole or in its translator's short form; only
names are cut. The check finds a planted label too long for its room."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.i18n.catalog import LANGUAGES
from bot.render import labels
from tools.fit import cut_labels, cuts, main, sweep


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_is_cut_in_any_image(lang: str) -> None:
    found = {case: texts for case, texts in cuts([lang]).items() if texts}
    assert not found, found


def test_the_sweep_draws_every_image_kind() -> None:
    names = set(sweep("el"))
    for kind in ("table-play", "table-grand", "table-exchange", "table-gift", "table-bomb",
                 "table-lead", "table-six-", "table-duplicate", "hand", "hand-six", "hand-ten",
                 "exchange-", "exchange-six", "position", "deal-summary", "deal-summary-six",
                 "game-over", "game-over-six", "chinois-max", "tysiacha-three",
                 "tysiacha-four", "chinois-sheet", "tysiacha-sheet", "french-hand", "prikup",
                 "leaderboard", "standings", "rating-chart"):
        assert any(name.startswith(kind) for name in names), kind


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The Greek labels, to plant a label in (the caches of the merged catalogues are
    emptied before and after)."""
    labels.catalog.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    labels.catalog.cache_clear()


def test_a_planted_label_without_a_short_form_is_found(planted: pytest.MonkeyPatch) -> None:
    planted.setitem(labels.EL, "last_trick", "Η τελευταία χαρτωσιά του γύρου")
    planted.delitem(labels.EL, "last_trick.short")
    found = cuts(["el"], ["table-play-short"])
    assert found[("table-play-short", "el")], found


def test_a_planted_label_takes_its_short_form(planted: pytest.MonkeyPatch) -> None:
    planted.setitem(labels.EL, "last_trick", "Η τελευταία χαρτωσιά του γύρου")
    planted.setitem(labels.EL, "last_trick.short", "Τελ. χαρτωσιά")
    assert cuts(["el"], ["table-play-short"]) == {("table-play-short", "el"): []}


def test_a_legend_left_short_is_found(planted: pytest.MonkeyPatch) -> None:
    planted.delitem(labels.EL, "from_left.short")
    planted.setitem(labels.EL, "from_left", "από τον αντίπαλο στα αριστερά σου")
    assert cuts(["el"], ["hand"])[("hand", "el")]


@pytest.mark.parametrize(("text", "free", "cut"), [
    ("Maximilian Ho…", ["Maximilian Hohenstein"], False),  # a name alone
    ("Hohenst…", ["Maximilian Hohenstein"], False),  # its second line
    ("DragonS…", ["xX_DragonSlayer_Xx"], False),  # a name broken at an underscore
    ("& Wilhelmina Fairwe…", ["Alice, Chloé & Wilhelmina Fairweather"], False),
    ("Ανοίγει: Jean-C…", ["Jean-Christophe"], False),  # the label whole, then the name
    ("Runde 12 · Maximilian Ho… spielt allein für 120", ["Maximilian Hohenstein"], False),
    ("deciding…", [], False),  # the label ends so
    ("Τελευταία χ…", ["Χρήστος"], True),
    ("Maximilian Hohenstein spielt a…", ["Maximilian Hohenstein"], True),
    ("★ Maximilian Hohenstein & Анастас…", ["Maximilian Hohenstein & Анастасия Петрова"],
     True),  # the label's end (win!) was dropped
    ("Échange des… · 2/4", ["Alice"], True),
])
def test_a_cut_name_is_told_from_a_cut_label(text: str, free: list[str], cut: bool) -> None:
    lang = "el" if "Ανοίγει" in text or "Τελευταία" in text else "de" if "Runde" in text \
        else "en"
    assert bool(cut_labels([text], lang, free)) is cut


def test_the_command_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "--kind", "exchange-partial"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("cut labels: 0 ")
