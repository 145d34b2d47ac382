"""games/engine is pure Python: it imports nothing from Django or the site."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
ALLOWED_PREFIXES = ("games.engine",)
FORBIDDEN = ("django", "channels", "daphne", "asgiref", "accounts", "azulsite")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_sources_import_no_site_or_framework_module() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if name.startswith(ALLOWED_PREFIXES):
                continue
            assert top not in FORBIDDEN, f"{path.name} imports {name}"
            assert top != "games", f"{path.name} imports {name} outside the engine"


def test_importing_the_engine_loads_no_framework() -> None:
    code = (
        "import sys, games.engine.record, games.engine.classic, games.engine.__main__\n"
        "import pkgutil, importlib, games.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__):\n"
        "    importlib.import_module('games.engine.' + m.name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(','.join(bad))\n"
    )
    root = ENGINE.parents[1]
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == ""
