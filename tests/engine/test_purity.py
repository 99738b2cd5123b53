"""engine/ is pure: stdlib and pydantic only, and nothing from bot/."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).parents[2] / "engine"
FORBIDDEN = {"discord", "PIL", "aiosqlite", "bot", "aiohttp", "sqlite3"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_io_libraries() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        bad = imported_modules(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ENGINE.parent)} imports {sorted(bad)}"


def test_importing_the_engine_loads_none_of_them() -> None:
    code = (
        "import sys, engine.replay, engine.tichu.game, engine.tichu.ai.selfplay\n"
        "import engine.replay as r; r._runners()\n"
        f"bad = {sorted(FORBIDDEN)!r}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
