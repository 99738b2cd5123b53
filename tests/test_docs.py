"""The README and docs/ serve whoever clones the repository: every link they hold leads
to a file of the repository, and none leads outside it (no web page, no folder beside
the project)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    # Code spans and blocks hold commands and examples, not links.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository(document: Path) -> None:
    for target in links(document):
        assert "://" not in target and not target.startswith("mailto:"), \
            f"{document.name} links outside the repository: {target}"
        file = target.split("#", 1)[0]
        if not file:
            continue  # an anchor in the same document
        resolved = (document.parent / file).resolve()
        assert resolved.is_relative_to(ROOT), f"{document.name} leaves the repository: {target}"
        assert resolved.exists(), f"{document.name} links to a missing file: {target}"


def test_the_documents_name_no_folder_beside_the_project() -> None:
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        assert "shared/spec" not in text and "../shared" not in text, document.name
