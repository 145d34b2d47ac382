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
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "games", "chat", "leagues", "api", "notify")
PROJECT = "azulsite"
ALLOWED = {
    "accounts": set(),
    "games": {"accounts"},
    "chat": {"accounts", "games"},
    "leagues": {"accounts", "games"},
    "api": {"accounts", "games"},
    "notify": {"accounts", "games", "chat", "leagues"},
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


# Templates (issue #36 item 8): a template of an app may load the tag libraries
# and reverse the URLs only of that app and of the apps it may import. A
# template belongs to the package whose code names it (``render``, an
# inclusion tag: ``accounts/profile.html`` is drawn by ``games``), else to the
# app of its folder; the project's (``base.html``, the settings page) may use
# every app. A URL belongs to the package of its view, found through Django's
# resolver (``rules`` is routed by the project, drawn by ``games``).

TEMPLATES = ROOT / "templates"
FOLDER_APP = {"registration": "accounts"}
"""Template folders that are not an app's name: the log-in pages are accounts'."""
LOAD = re.compile(r"{%-?\s*load\s+(.+?)\s*-?%}", re.S)
URL = re.compile(r"""{%-?\s*url\s+(['"])([^'"]+)\1""")
KNOWN_TEMPLATE_REACH = {
    "games/game_detail.html loads chat (chat)",
    "games/replay.html loads chat (chat)",
    "accounts/profile.html reverses chat:player_report (chat)",
}
"""Reaches against the rule that are known, not wanted: the game page and the
replay draw the chat with chat's tag, and the profile links to chat's report
page; each is to move to a template of chat's (or the project's). The test
fails on any other, and on one of these once it is gone (strike it here)."""


def _template_owners() -> dict[str, set[str]]:
    """Template name → the packages whose code names it as a string."""
    names = {
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*")
        if path.is_file()
    }
    owners: dict[str, set[str]] = {name: set() for name in names}
    for package in (*APPS, PROJECT):
        for path in _modules(package):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Constant) and node.value in owners:
                    owners[node.value].add(package)
    for name, found in owners.items():
        if not found:
            folder = name.split("/")[0] if "/" in name else PROJECT
            found.add(FOLDER_APP.get(folder, folder))
    return owners


def _url_packages() -> dict[str, str]:
    """URL name (with its namespace) → the top package of its view."""
    from django.urls import URLResolver, get_resolver

    found: dict[str, str] = {}

    def walk(resolver: URLResolver, prefix: str) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                namespace = pattern.namespace
                walk(pattern, f"{prefix}{namespace}:" if namespace else prefix)
            elif pattern.name:
                view = pattern.callback
                module = getattr(view, "view_class", view).__module__
                found[prefix + pattern.name] = _package(module)

    walk(get_resolver(), "")
    return found


def _template_reach(text: str, urls: dict[str, str]) -> set[tuple[str, str]]:
    """``(what, app)`` for each of our tag libraries a template loads and each
    of our apps' URLs it reverses by a literal name."""
    libraries = {
        path.stem: app
        for app in APPS
        for path in (ROOT / app / "templatetags").glob("*.py")
        if path.stem != "__init__"
    }
    reach: set[tuple[str, str]] = set()
    for load in LOAD.finditer(text):
        words = load.group(1).split()
        if "from" in words:
            words = words[words.index("from") + 1 :]
        reach |= {(f"loads {w}", libraries[w]) for w in words if w in libraries}
    for _quote, name in URL.findall(text):
        if urls.get(name) in APPS:
            reach.add((f"reverses {name}", urls[name]))
    return reach


def test_templates_use_only_the_apps_their_app_may_import():
    owners, urls = _template_owners(), _url_packages()
    assert owners["accounts/profile.html"] == {"games"}  # the owners are read
    assert urls["rules"] == "games" and urls["chat:panel"] == "chat"
    reaches = set()
    for name, packages in owners.items():
        text = (TEMPLATES / name).read_text()
        for what, app in _template_reach(text, urls):
            for owner in packages - {PROJECT}:
                if app != owner and app not in ALLOWED[owner]:
                    reaches.add(f"{name} {what} ({app})")
    assert reaches == KNOWN_TEMPLATE_REACH


def test_the_template_scan_sees_loads_and_urls():
    """The reader finds what the test above forbids."""
    text = (
        "{% load i18n chat %}{% load presence from presence %}"
        "<a href=\"{% url 'games:detail' 1 %}\">{% url 'login' %}</a>"
    )
    urls = {"games:detail": "games", "login": "django"}
    assert _template_reach(text, urls) == {
        ("loads chat", "chat"),
        ("loads presence", "accounts"),
        ("reverses games:detail", "games"),
    }
