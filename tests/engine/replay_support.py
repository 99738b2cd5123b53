"""What the three games' replay tests share: the golden files and the CLI on a string."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine.replay import main, run_replay

FIXTURES = Path(__file__).parents[1] / "fixtures"


def golden_files(folder: str) -> list[Path]:
    """The replay inputs of ``tests/fixtures/<folder>`` (each beside its ``.expected.json``)."""
    return sorted(p for p in (FIXTURES / folder).glob("*.json")
                  if not p.name.endswith(".expected.json"))


def check_golden(path: Path) -> None:
    """The file replays to exactly its expected output."""
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    assert run_replay(json.loads(path.read_text())) == expected


def stdin_cli(command: Callable[[str, TextIO, TextIO], int], data: Any, *,
              raw: str | None = None) -> tuple[int, str, str]:
    """An engine command (``main(path, out, err)``) on ``-`` with ``data`` as JSON (or the
    ``raw`` text) on standard input, in process: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(raw if raw is not None else json.dumps(data))
    try:
        code = command("-", out, err)
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def replay_cli(data: Any, *, raw: str | None = None) -> tuple[int, str, str]:
    """``python -m engine replay -`` on ``data`` (or the ``raw`` text): status, stdout, stderr."""
    return stdin_cli(main, data, raw=raw)
