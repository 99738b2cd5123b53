"""``requirements.lock``: every package the project installs, pinned with its hashes.

``make lock`` writes it with uv (``uv pip compile``, for CPython 3.11 on Linux, the runtime
dependencies and the ``dev`` extra), then ``python -m tools.lock stamp`` adds one line: the
digest of ``pyproject.toml``'s dependency lists. Everything installs from this one file:

- ``make run`` / ``make test`` (and so CI): ``pip install --require-hashes -r
  requirements.lock``, after ``python -m tools.lock check`` has made sure the lock was
  written from today's ``pyproject.toml`` (one line, and exit 1, when it was not);
- the Docker image: ``python tools/lock.py runtime`` gives the part of the lock the bot
  needs at run time (the runtime dependencies and everything they pull in, with their
  hashes), which the builder stage turns into wheels; ``select NAME...`` gives single
  entries (pip and setuptools for the build).

The runtime part follows uv's ``# via`` annotations from the runtime dependencies in
``pyproject.toml`` down: a package is in it when one of the packages it is there for is.
That may take a package that only another package's extra needs (harmless), never leaves
one out. Only the standard library is used here: the builder stage runs it before anything
is installed, and as a script, since the package ``tools`` imports the project, which the
stage has not copied yet (``tests/test_image.py`` runs the stage's steps that way).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
PYPROJECT = ROOT / "pyproject.toml"
PROJECT_VIA = "(pyproject.toml)"
"""How uv's annotation names the project itself: ``# via tichu-table (pyproject.toml)``."""
DIGEST_PREFIX = "# pyproject.toml dependencies: sha256="


def canonical(name: str) -> str:
    """A distribution's name as PEP 503 compares it (``Discord.py`` is ``discord-py``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The distribution named by a requirement string (``discord.py>=2.4,<3`` →
    ``discord-py``)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return canonical(match.group(1))


@dataclass(frozen=True)
class Entry:
    """One pinned package of the lock: its lines (the pin and its hashes, as written) and
    the packages it is there for (canonical names; ``PROJECT_VIA`` for the project)."""

    name: str
    version: str
    text: str
    via: frozenset[str]


def parse(lock: str) -> dict[str, Entry]:
    """The lock's entries by canonical name. Raises ValueError on an entry without a
    hash or a pin, which pip's ``--require-hashes`` would refuse anyway."""
    entries: dict[str, Entry] = {}
    blocks = re.split(r"\n(?=[A-Za-z0-9])", "\n" + lock)
    for block in blocks:
        if not block.strip() or block.lstrip().startswith("#"):
            continue
        pin, _, rest = block.partition("\n")
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", pin)
        if match is None:
            raise ValueError(f"requirements.lock: not pinned with ==: {pin.strip()}")
        name = canonical(match.group(1))
        lines = [line.strip() for line in rest.splitlines()]
        hashes = [line for line in lines if line.startswith("--hash=")]
        if not hashes:
            raise ValueError(f"requirements.lock: {name} has no hash")
        via: set[str] = set()
        comments = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
        for index, comment in enumerate(comments):
            if comment.startswith("via"):
                # "via a, b" (line style), "via a" or "via" then one name a line (split style)
                named = [comment.removeprefix("via").strip(), *comments[index + 1:]]
                for each in ",".join(named).split(","):
                    each = each.strip()
                    if each:
                        via.add(PROJECT_VIA if each.endswith(PROJECT_VIA) else
                                canonical(each.split()[0]))
                break
        text = "\n".join([pin.rstrip()] + [f"    {line}" for line in hashes])
        entries[name] = Entry(name, match.group(2), text, frozenset(via))
    return entries


def dependencies(pyproject: str) -> dict[str, list[str]]:
    """``pyproject.toml``'s requirement strings: ``runtime`` and each optional extra."""
    project = tomllib.loads(pyproject)["project"]
    lists = {"runtime": list(project.get("dependencies", []))}
    lists.update(project.get("optional-dependencies", {}))
    return lists


def digest(pyproject: str) -> str:
    """The digest of the dependency lists (order and spacing do not count)."""
    lists = {key: sorted(re.sub(r"\s+", "", each) for each in value)
             for key, value in dependencies(pyproject).items()}
    return hashlib.sha256(json.dumps(lists, sort_keys=True).encode()).hexdigest()


def stamped(lock: str, pyproject: str) -> str:
    """The lock with its digest line set to ``pyproject``'s (after uv's header)."""
    lines = [line for line in lock.splitlines() if not line.startswith(DIGEST_PREFIX)]
    at = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    lines.insert(at, DIGEST_PREFIX + digest(pyproject))
    return "\n".join(lines) + "\n"


def staleness(lock: str, pyproject: str) -> str | None:
    """Why the lock does not match ``pyproject``, in one line, or None if it does."""
    found = [line.removeprefix(DIGEST_PREFIX) for line in lock.splitlines()
             if line.startswith(DIGEST_PREFIX)]
    if not found:
        return "requirements.lock has no digest of pyproject.toml's dependencies: run make lock"
    if found[0] != digest(pyproject):
        return ("requirements.lock is out of date with pyproject.toml's dependencies: run "
                "make lock (and commit both)")
    entries = parse(lock)
    missing = sorted({requirement_name(each) for group in dependencies(pyproject).values()
                      for each in group} - set(entries))
    if missing:
        return f"requirements.lock lacks {', '.join(missing)}: run make lock"
    return None


def runtime(lock: str, pyproject: str) -> list[Entry]:
    """The entries the bot needs at run time: its runtime dependencies and, through the
    ``via`` annotations, everything they are there for, in the lock's order."""
    entries = parse(lock)
    wanted = {requirement_name(each) for each in dependencies(pyproject)["runtime"]}
    missing = sorted(wanted - set(entries))
    if missing:
        raise ValueError(f"requirements.lock lacks {', '.join(missing)}: run make lock")
    changed = True
    while changed:
        changed = False
        for entry in entries.values():
            if entry.name not in wanted and entry.via & wanted:
                wanted.add(entry.name)
                changed = True
    return [entry for entry in entries.values() if entry.name in wanted]


def select(lock: str, names: list[str]) -> list[Entry]:
    """The entries of ``names`` (ValueError for one the lock does not pin)."""
    entries = parse(lock)
    missing = [name for name in names if canonical(name) not in entries]
    if missing:
        raise ValueError(f"requirements.lock lacks {', '.join(missing)}: run make lock")
    return [entries[canonical(name)] for name in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.lock", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lock", type=Path, default=LOCK,
                        help="the lock file to read or stamp (default: requirements.lock)")
    parser.add_argument("--pyproject", type=Path, default=PYPROJECT,
                        help="the project file whose dependencies it follows "
                             "(default: pyproject.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="exit 1 with one line if the lock is out of date")
    commands.add_parser("stamp", help="write the digest of pyproject.toml into the lock")
    commands.add_parser("runtime", help="print the runtime part of the lock")
    chosen = commands.add_parser("select", help="print the entries of these packages")
    chosen.add_argument("names", nargs="+", help="the packages, as the lock names them")
    args = parser.parse_args(argv)
    lock = args.lock.read_text(encoding="utf-8")
    pyproject = args.pyproject.read_text(encoding="utf-8")
    try:
        if args.command == "check":
            problem = staleness(lock, pyproject)
            if problem is not None:
                print(problem, file=sys.stderr)
                return 1
        elif args.command == "stamp":
            args.lock.write_text(stamped(lock, pyproject), encoding="utf-8")
        else:
            picked = (runtime(lock, pyproject) if args.command == "runtime"
                      else select(lock, args.names))
            print("\n".join(entry.text for entry in picked))
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
