"""``bot.render`` is a one-way stack: no module imports, even inside a function or for
typing, one that (directly or not) imports it back; and it never reaches up into the bot."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import bot.render

PACKAGE = "bot.render"
ROOT = Path(bot.render.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def resolve(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = importer if MODULES[importer].name == "__init__.py" else importer.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_of(name: str) -> set[str]:
    """Every module ``name`` imports, wherever the import statement sits."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(name, node)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in MODULES)
    return found


def graph() -> dict[str, set[str]]:
    return {name: {m for m in imports_of(name) if m in MODULES and m != name}
            for name in MODULES}


def test_the_graph_sees_function_level_imports() -> None:
    assert "bot.render.art" in imports_of("bot.render.cards")  # imported inside a function


def test_no_import_cycle() -> None:
    try:
        order = list(TopologicalSorter(graph()).static_order())
    except CycleError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"import cycle in bot.render: {' -> '.join(exc.args[1])}")
    assert set(order) == set(MODULES)


def test_nothing_below_imports_the_facade_or_the_examples() -> None:
    for name, deps in graph().items():
        if name not in (PACKAGE, f"{PACKAGE}.examples"):
            assert PACKAGE not in deps and f"{PACKAGE}.examples" not in deps, name


def test_render_imports_only_the_engine_and_itself_from_the_project() -> None:
    for name in MODULES:
        for dep in imports_of(name):
            top = dep.split(".")[0]
            if top in ("bot", "engine", "tests", "tools"):
                assert dep.startswith((f"{PACKAGE}.", "engine.")) or dep in (PACKAGE, "engine"), (
                    name, dep)
