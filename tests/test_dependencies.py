"""The apps depend on one another one way: notify → chat → games → accounts
(issue #24; chat, issue #26).

accounts imports none of the others; games imports accounts, never chat nor
notify (the game page draws the chat with chat's template tag); chat imports
games and accounts, and announces a message (``chat.signals``) for notify:
what the game side has to say it announces (``games.signals``), and notify
subscribes in ``NotifyConfig.ready()``; the accounts side announces a block
(``accounts.signals``) and games answers it. No import between the apps hides
inside a function to dodge a cycle. The project package (``azulsite``) composes
the apps (settings, URLs, the settings page); an app may import only those of
its modules that import no app (``site_url``, ``jsonbody``, ``bodies``).
Read with ``ast``, so nothing is imported to check it; migrations are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "games", "chat", "notify")
PROJECT = "azulsite"
ALLOWED = {
    "accounts": set(),
    "games": {"accounts"},
    "chat": {"accounts", "games"},
    "notify": {"accounts", "games", "chat"},
}
"""Which apps each app may import: one direction, no cycle."""


def _modules(package: str) -> list[Path]:
    return sorted(
        path
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def _imports(path: Path) -> list[tuple[str, int, str | None]]:
    """``(module imported, line, enclosing function or None)`` for each absolute
    import in ``path``."""
    found: list[tuple[str, int, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                found.extend((a.name, child.lineno, function) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0:
                found.append((child.module or "", child.lineno, function))
            visit(child, function)

    visit(ast.parse(path.read_text(), filename=str(path)), None)
    return found


def _package(module: str) -> str:
    return module.split(".")[0]


def _cross_imports(package: str) -> list[tuple[str, str, int, str | None]]:
    """``(file, module, line, function)`` for each import of another of our
    packages from ``package``."""
    ours = {*APPS, PROJECT}
    return [
        (str(path.relative_to(ROOT)), module, line, function)
        for path in _modules(package)
        for module, line, function in _imports(path)
        if _package(module) in ours - {package}
    ]


@pytest.mark.parametrize("package", [*APPS, PROJECT])
def test_no_import_between_the_apps_hides_inside_a_function(package):
    hidden = [
        f"{file}:{line} imports {module} inside {function}()"
        for file, module, line, function in _cross_imports(package)
        if function is not None
    ]
    assert hidden == []


@pytest.mark.parametrize("app", APPS)
def test_each_app_imports_only_the_apps_below_it(app):
    imported = {
        f"{file}:{line} imports {module}"
        for file, module, line, _function in _cross_imports(app)
        if _package(module) in APPS and _package(module) not in ALLOWED[app]
    }
    assert imported == set()


def test_the_allowed_directions_have_no_cycle():
    """accounts, games, chat, then notify: each may import only those before it."""
    order = list(APPS)
    for app, below in ALLOWED.items():
        assert all(order.index(other) < order.index(app) for other in below)


def test_apps_import_only_the_project_modules_that_import_no_app():
    used = {
        module
        for app in APPS
        for _file, module, _line, _function in _cross_imports(app)
        if _package(module) == PROJECT
    }
    assert used  # the check below reads real imports
    for module in used:
        path = ROOT / (module.replace(".", "/") + ".py")
        apps_imported = {
            imported
            for imported, _line, _function in _imports(path)
            if _package(imported) in (*APPS, PROJECT)
        }
        assert apps_imported == set(), module


def test_the_scan_sees_an_import_hidden_in_a_function(tmp_path):
    """The reader finds what the tests above forbid (a test that could not fail
    would pass on anything)."""
    source = tmp_path / "example.py"
    source.write_text(
        "from games import clock\n\n\ndef late():\n    from notify.tasks import x\n"
    )
    assert _imports(source) == [("games", 1, None), ("notify.tasks", 5, "late")]
