"""MkDocs hooks (``mkdocs.yml``): the pages link to the repository's files, which the site
does not hold.

Read in the repository, ``[play.py](../engine/duplicate/play.py)`` opens the file. On the
site the hook writes it as the file's path in code (```engine/duplicate/play.py```) and
a link to a file that does not exist is a warning, so ``mkdocs build --strict`` fails on
it as on a broken link between pages.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s#]+)(#[^)\s]*)?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
log = logging.getLogger("mkdocs.hooks.repository_links")


def repository_links(markdown: str, page: Path, docs: Path) -> str:
    """``markdown`` of the page at ``page`` (a file under ``docs``) with every link that
    leaves ``docs`` for a file of the repository written as that file's path in code."""

    def rewrite(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if "://" in target or target.startswith(("mailto:", "/")):
            return match.group(0)
        resolved = (page.parent / target).resolve()
        if resolved.is_relative_to(docs.resolve()):
            return match.group(0)  # a page or a file of the site: MkDocs checks it
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            log.warning("%s links to %s, which is not a file of the repository",
                        page.relative_to(docs), target)
            return match.group(0)
        path = resolved.relative_to(ROOT).as_posix() + ("/" if resolved.is_dir() else "")
        if text.startswith("`") and text.endswith("`"):
            return f"`{path}`"
        return f"{text} (`{path}`)"

    parts: list[str] = []
    last = 0
    for fence in FENCE.finditer(markdown):  # code blocks hold examples, not links
        parts.append(LINK.sub(rewrite, markdown[last:fence.start()]))
        parts.append(fence.group(0))
        last = fence.end()
    parts.append(LINK.sub(rewrite, markdown[last:]))
    return "".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs' hook: every page's markdown before it is rendered."""
    docs = Path(config["docs_dir"])
    return repository_links(markdown, docs / page.file.src_path, docs)
