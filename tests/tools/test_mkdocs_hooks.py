"""The docs site's hook: a link from a page to a file of the repository outside ``docs/``
becomes the file's path in code, and a link to a missing file is a warning (which fails
the strict build)."""

from __future__ import annotations

import logging

import pytest

from tools.mkdocs_hooks import ROOT, repository_links

DOCS = ROOT / "docs"
PAGE = DOCS / "operators" / "health.md"


def test_a_link_to_a_repository_file_becomes_its_path() -> None:
    text = "See [`play.py`](../../engine/duplicate/play.py) and [the source](../../tools/docs.py)."
    assert repository_links(text, PAGE, DOCS) == (
        "See `engine/duplicate/play.py` and the source (`tools/docs.py`).")


def test_a_folder_keeps_its_slash_and_pages_and_images_stay_links() -> None:
    text = ("[fixtures](../../tests/fixtures/replay/) [outages](outages.md#x) "
            "![t](../images/table.png) [web](https://example.org)")
    assert repository_links(text, PAGE, DOCS) == (
        "fixtures (`tests/fixtures/replay/`) [outages](outages.md#x) "
        "![t](../images/table.png) [web](https://example.org)")


def test_code_blocks_are_left_alone() -> None:
    text = "```\n[a](../../engine/nope.py)\n```\n"
    assert repository_links(text, PAGE, DOCS) == text


def test_a_missing_file_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.repository_links"):
        assert repository_links("[x](../../engine/nope.py)", PAGE, DOCS) == (
            "[x](../../engine/nope.py)")
    assert "not a file of the repository" in caplog.text

