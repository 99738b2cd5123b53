"""Every command answers ``--help``: each ``python -m NAME`` of ``bot``, ``engine`` and
``tools`` prints its usage and exits 0, starting no work and needing no token, database
or Discord; and refuses an option it does not know with argparse's exit status 2.

The commands are found in the source (a package's ``__main__.py``, a module with an
``if __name__ == "__main__":`` block), so a new one is covered without being listed.
"""

from __future__ import annotations

import ast
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "engine", "tools")
TIMEOUT = 120
"""Seconds a command may take to answer: a guard against one that starts its work
instead (a benchmark, the bot), not a measure of speed."""
KNOWN = frozenset({"bot", "bot.worker", "bot.store", "bot.health", "engine", "tools.bench",
                   "tools.bench_render", "tools.demo", "tools.train"})
"""Commands the discovery must find, so that it cannot silently find nothing."""
IGNORES_UNKNOWN_OPTIONS = {
    "tools.bench_bot": "reads its options with parse_known_args, so an unknown option "
                       "starts the whole benchmark (a bot process and a local Discord)",
}
"""The commands that do not refuse an unknown option, and why; none passes options on
to another program (pytest, mkdocs) on purpose. Each is left out of
:func:`test_an_unknown_option_is_refused`, which would start its work."""


def is_main_block(node: ast.stmt) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":``."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    return (isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def entry_points() -> list[str]:
    """The module names that ``python -m`` runs, in :data:`PACKAGES`: each package with a
    ``__main__.py``, each module with a ``__main__`` block at its top level."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__main__":
                found.add(".".join(parts[:-1]))
                continue
            source = path.read_text(encoding="utf-8")
            if "__main__" in source and any(map(is_main_block, ast.parse(source).body)):
                found.add(".".join(parts))
    return sorted(found)


ENTRY_POINTS = entry_points()


def environment() -> dict[str, str]:
    """This environment without the bot's token and database: ``--help`` needs neither."""
    return {key: value for key, value in os.environ.items()
            if key != "DISCORD_TOKEN" and not key.startswith("DATABASE")}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m`` with ``args`` from the top of the repository, standard input closed.
    A command still running after :data:`TIMEOUT` is killed with the processes it started
    (a benchmark's bot, its database), and the test fails."""
    command = [sys.executable, "-m", *args]
    with subprocess.Popen(command, cwd=ROOT, env=environment(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            pytest.fail(f"{' '.join(args)} still ran after {TIMEOUT} s: it started working\n"
                        f"{stdout[-2000:]}{stderr[-2000:]}")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def usage_of(name: str) -> re.Pattern[str]:
    """The first line of ``name``'s usage: its program name is ``python -m NAME``."""
    return re.compile(rf"usage: python -m {re.escape(name)}(\s|$)")


def test_the_discovery_finds_the_known_commands() -> None:
    assert set(ENTRY_POINTS) >= KNOWN, sorted(KNOWN - set(ENTRY_POINTS))
    assert set(IGNORES_UNKNOWN_OPTIONS) <= set(ENTRY_POINTS)  # no stale exception


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_help_prints_the_usage_and_exits_0(name: str) -> None:
    done = run(name, "--help")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr or done.stdout
    assert usage_of(name).match(done.stdout), done.stdout[:500]


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.skip(reason=IGNORES_UNKNOWN_OPTIONS[name]))
    if name in IGNORES_UNKNOWN_OPTIONS else name for name in ENTRY_POINTS])
def test_an_unknown_option_is_refused(name: str) -> None:
    done = run(name, "--no-such-option")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr or done.stdout
    assert done.stdout == ""
    assert usage_of(name).match(done.stderr) and "error: " in done.stderr, done.stderr
