"""The package lists every app the site runs (issue #36 item 7): a
non-editable install (``pip install .``) copies only the packages that
``pyproject.toml``'s ``[tool.setuptools.packages.find]`` finds, so a local app
in ``INSTALLED_APPS`` left out of it would be missing from the installed site
(``chat`` was, until this test)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from django.conf import settings
from setuptools import find_namespace_packages

ROOT = Path(__file__).resolve().parent.parent


def _packaged() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return set(find_namespace_packages(where=str(ROOT), include=include))


def _local_apps() -> list[str]:
    """The apps of ``INSTALLED_APPS`` that are folders of this repository."""
    apps = [app.split(".")[0] for app in settings.INSTALLED_APPS]
    return [app for app in apps if (ROOT / app / "__init__.py").is_file()]


def test_every_local_app_and_its_packages_are_packaged() -> None:
    packaged = _packaged()
    project = settings.ROOT_URLCONF.split(".")[0]
    assert {"accounts", "games", "chat", "notify"} <= set(_local_apps())
    for app in [project, *_local_apps()]:
        packages = {
            ".".join(path.parent.relative_to(ROOT).parts)
            for path in (ROOT / app).rglob("__init__.py")
        }
        assert packages - packaged == set(), app
