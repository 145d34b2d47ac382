"""The README's layout names every room of the house (issue #36 item 5): each
module and package of the site's apps is mentioned in its "Layout" section, so
a newcomer finds where a thing lives in one guess, and a new module gets its
line there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "api", "azulsite", "chat", "games", "leagues", "notify")
OBVIOUS = {"__init__.py", "apps.py", "admin.py", "urls.py", "migrations", "tests"}
"""Django's own files, which every app has and the README need not list."""


def layout() -> str:
    text = (ROOT / "README.md").read_text()
    section = re.search(r"^## Layout\n(.*?)^## ", text, flags=re.M | re.S)
    assert section is not None, "README.md has a Layout section"
    return section.group(1)


def rooms(app: str) -> list[str]:
    found = []
    for path in sorted((ROOT / app).iterdir()):
        name = path.name + ("/" if path.is_dir() else "")
        if path.name in OBVIOUS or path.name.startswith(("_", ".")):
            continue
        if path.is_dir() and not (path / "__init__.py").exists():
            continue  # templates/, static/, locale/: not Python
        if path.is_file() and path.suffix != ".py":
            continue
        found.append(name)
    return found


def test_every_module_and_package_of_the_apps_is_in_the_readme_layout():
    text = layout()
    missing = [
        f"{app}/{room}"
        for app in APPS
        for room in rooms(app)
        if f"`{room}" not in text and f"`{app}/{room}" not in text
    ]
    assert missing == []
