"""Every language the images' descriptions are written in, spoken in these tests.

The alt-text catalogs (``bot/i18n/alt.<lang>.json``) come in German and Greek before the
rest of those languages' catalogs does: :func:`spoken` makes the bot speak each of them,
so the descriptions are checked in every language they exist in (a sentence that is not
yet in a language falls back to English, as the catalog does for a missing key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import catalog

ALT_LANGUAGES = tuple(sorted(path.name.split(".")[1] for path in
                             (Path(catalog.__file__).parent).glob("alt.*.json")))
"""The languages of the alt-text catalogs: en, fr, and those on their way (de, el)."""


@pytest.fixture
def spoken(monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    """The bot speaks every language of :data:`ALT_LANGUAGES`; they are returned."""
    languages = tuple(dict.fromkeys((*catalog.LANGUAGES, *ALT_LANGUAGES)))
    monkeypatch.setattr(catalog, "LANGUAGES", languages)
    return languages
