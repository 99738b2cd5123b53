"""The reference pages made from the code (``python -m tools.docs``) are the ones in
``docs/reference/``, and ``.env.example`` lists exactly the keys the bot reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Settings
from bot.i18n import LANGUAGES
from bot.store.personal import KEPT
from tools import docs

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"
KEY = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=", re.M)
"""A key of ``.env.example``, set (``KEY=value``) or left commented out (``# KEY=``)."""


@pytest.fixture(scope="module")
def generated() -> dict[Path, str]:
    return docs.pages()


def test_the_generated_pages_are_the_committed_ones(generated: dict[Path, str]) -> None:
    stale = [str(path.relative_to(ROOT)) for path in docs.stale(generated)]
    assert stale == [], f"{stale} differ from the code: run python -m tools.docs"


def test_there_is_a_settings_page_a_stored_page_and_a_commands_page_per_language(
        generated: dict[Path, str]) -> None:
    names = {path.name for path in generated}
    assert names == {"settings.md", "stored.md", "glossary.md"} | {f"commands-{lang}.md"
                                                                   for lang in LANGUAGES}


def test_the_stored_page_lists_every_table_and_the_retention(
        generated: dict[Path, str]) -> None:
    page = generated[docs.REFERENCE / "stored.md"]
    for entry in KEPT:
        assert f"| `{entry.table}`" in page
    retention = Settings.model_fields["left_guild_retention"].default
    assert f"(default {retention:g})" in page


def test_every_setting_is_on_its_page_with_its_description(generated: dict[Path, str]) -> None:
    page = generated[docs.REFERENCE / "settings.md"]
    for name, field in Settings.model_fields.items():
        assert field.description, f"Settings.{name} needs a description for its page"
        assert f"| `{name.upper()}` |" in page
    assert "| `TICHU_ASSETS_DIR` |" in page


def test_the_commands_pages_speak_their_language(generated: dict[Path, str]) -> None:
    english = generated[docs.REFERENCE / "commands-en.md"]
    french = generated[docs.REFERENCE / "commands-fr.md"]
    assert "### `/tichu new [target]" in english and "Open a Tichu table" in english
    assert "### `/tichu nouvelle [objectif]" in french and "Jouer au Tichu" in french
    for group in ("tichu", "chinois", "tysiacha"):
        assert f"## `/{group}`" in english
    assert "### `/tichu daily standings [day]`" in english
    assert "## `/privacy`" in english and "### `/privacy standings appear:`" in english


def test_a_drifted_page_is_named(tmp_path: Path, generated: dict[Path, str]) -> None:
    page = tmp_path / "settings.md"
    page.write_text("old", encoding="utf-8")
    assert docs.stale({page: "new", tmp_path / "missing.md": "x"}) == [
        page, tmp_path / "missing.md"]
    page.write_text("new", encoding="utf-8")
    assert docs.stale({page: "new"}) == []


def env_example_keys(text: str) -> list[str]:
    return KEY.findall(text)


def test_env_example_lists_exactly_the_settings() -> None:
    keys = env_example_keys(ENV_EXAMPLE.read_text(encoding="utf-8"))
    assert len(keys) == len(set(keys)), "a key is listed twice in .env.example"
    missing = sorted(docs.setting_keys() - set(keys))
    unknown = sorted(set(keys) - docs.setting_keys())
    assert (missing, unknown) == ([], []), (
        f".env.example lacks {missing} and lists {unknown}, which the bot does not read")


def test_the_env_example_reader_counts_commented_keys() -> None:
    text = "# a comment: postgresql://u:p@h/db\nDATABASE_POOL_SIZE=10\n# MODEL_DIR=\n" \
           "#   HEARTBEAT_FILE=/tmp/x\n  # RUN_JOBS: prose, not a key\n"
    assert env_example_keys(text) == ["DATABASE_POOL_SIZE", "MODEL_DIR", "HEARTBEAT_FILE"]


def test_the_keys_read_outside_the_model_are_read() -> None:
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "bot").rglob("*.py"))
    for key in docs.OUTSIDE_THE_MODEL:
        assert f'"{key}"' in code, f"{key} is no longer read by the bot: drop it from tools.docs"
