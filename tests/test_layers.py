"""The architecture as a test: ``engine`` is pure, ``bot`` is a one-way stack, ``tools``
sits on top of both, and no module of any of them imports itself back through others.
Neither ``engine`` nor ``bot`` imports ``tools`` or ``tests`` (the demo, the benchmarks and
the local Discord are above the product, never inside it).

Every import counts — at module level, inside functions, and typing-only ones —
except an import under ``if TYPE_CHECKING:`` that points down the stack.

:data:`LAYERS` is the one definition of the stack; the drawing in
``docs/architecture.md`` must say the same (:func:`test_the_drawing_is_the_stack`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    ("engine",),
    ("bot.config", "bot.i18n", "bot.render", "bot.store", "bot.ratings", "bot.workers",
     "bot.health", "bot.jobs", "bot.metrics"),
    ("bot.tables",),
    ("bot.games",),
    ("bot.views",),
    ("bot.cogs",),
    ("bot.app", "bot.__main__", "bot.worker", "bot"),
    ("tools",),
]
"""Bottom to top: a module may import its own layer and the layers below."""
PACKAGES = ("engine", "bot", "tools")
"""The packages whose modules the stack orders."""
PRODUCT = ("engine", "bot")
"""What ships: it never imports the layers above it (``tools``) nor the tests."""
ABOVE_THE_PRODUCT = frozenset({"tools", "tests"})
DRAWING = ROOT / "docs" / "architecture.md"
ARROWS = frozenset("↓│▼|v ")
"""What a connector line of the drawing is made of."""


def drawn_layers(text: str) -> list[tuple[str, ...]]:
    """The layers of the drawing, top to bottom: the fenced block opened by
    ````` ```layers `````; each line is a layer (module names separated by spaces, then
    an optional ``# comment``) or a connector made only of arrows, and a connector
    stands between every two layers."""
    lines = text.splitlines()
    opened = [i for i, line in enumerate(lines) if line.strip() == "```layers"]
    assert len(opened) == 1, "the drawing needs exactly one ```layers block"
    layers: list[tuple[str, ...]] = []
    joined = True
    for line in lines[opened[0] + 1:]:
        if line.strip() == "```":
            break
        names = line.split("#", 1)[0].strip()
        if not names or set(names) <= ARROWS:
            joined = joined or bool(names)
            continue
        assert joined, f"no arrow above {names!r} in the drawing"
        layers.append(tuple(names.split()))
        joined = False
    else:
        raise AssertionError("the ```layers block is not closed")
    return layers


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


def rank(module: str) -> int:
    best = -1
    best_len = -1
    for index, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    assert best >= 0, f"{module} belongs to no layer"
    return best


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, bool]]:
    """The project modules ``name`` imports, each with whether it is typing-only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for inner in child.body:
                    visit_one(inner, True)
                for inner in child.orelse:
                    visit_one(inner, typing_only)
                continue
            visit_one(child, typing_only)

    def visit_one(node: ast.AST, typing_only: bool) -> None:
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            # ``from package import module`` depends on the module, not on the package's
            # other modules; ``from module import name`` depends on the module.
            named = [f"{base}.{a.name}" for a in node.names]
            targets = [t for t in named if t in known] or [base]
            if any(t not in known for t in named):
                targets.append(base)
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.append((target, typing_only))
        visit(node, typing_only)

    visit(tree, False)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target, typing_only in imports(name, path, known):
            if typing_only and rank(target) < rank(name):
                continue  # a typing-only import pointing down the stack
            edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_bot_imports_only_down_the_stack() -> None:
    upward = sorted(f"{name} -> {target}" for name, targets in graph().items()
                    for target in targets if rank(target) > rank(name))
    assert upward == []


def imported_roots(path: Path) -> set[str]:
    """The top-level package of every absolute import in ``path``, wherever it stands
    (typing-only ones included)."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.partition(".")[0])
    return roots


def test_the_product_never_imports_tools_or_tests() -> None:
    found = sorted(f"{name} -> {', '.join(sorted(imported_roots(path) & ABOVE_THE_PRODUCT))}"
                   for name, path in modules().items()
                   if name.partition(".")[0] in PRODUCT
                   and imported_roots(path) & ABOVE_THE_PRODUCT)
    assert found == []


def test_every_tool_has_a_layer() -> None:
    tools = [name for name in modules() if name.partition(".")[0] == "tools"]
    assert "tools.demo" in tools
    assert {rank(name) for name in tools} == {len(LAYERS) - 1}


def test_the_drawing_is_the_stack() -> None:
    drawn = drawn_layers(DRAWING.read_text(encoding="utf-8"))
    assert drawn == [tuple(layer) for layer in reversed(LAYERS)], (
        "docs/architecture.md draws another stack than tests/test_layers.py enforces")


def test_the_drawing_reader_reads_layers_and_arrows() -> None:
    text = "x\n```layers\nbot.b bot.c  # top\n  ↓\nengine\n```\n"
    assert drawn_layers(text) == [("bot.b", "bot.c"), ("engine",)]
    with pytest.raises(AssertionError, match="no arrow"):
        drawn_layers("```layers\nbot.b\nengine\n```\n")


def test_the_checker_sees_cycles_and_upward_imports() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert rank("bot.views.controller") > rank("bot.games.tichu.hand") > rank("bot.tables")
    assert rank("engine.tichu.game") < rank("bot.store.sqlite")
    assert rank("tools.demo") > rank("bot.__main__")


def test_the_import_reader_sees_every_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os.path\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from tests.emulator import server\n\ndef f() -> None:\n"
                      "    from tools.demo import main\n    from . import sibling\n",
                      encoding="utf-8")
    assert imported_roots(module) == {"os", "typing", "tests", "tools"}
