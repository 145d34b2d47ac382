"""The catalogs: extract the site's messages afresh and list what needs a translator.

    .venv/bin/python tools/messages.py            # update locale/, list the gaps
    .venv/bin/python tools/messages.py --compile  # then compile the .mo files

``makemessages`` runs in a copy of the project that holds only what the site
serves — its packages, templates, static files and manage.py, never tests/,
bench/ or tools/ — so the catalogs hold exactly the messages a player can read.
``tests/i18n/test_catalogs.py`` extracts with :func:`extract` too and fails on
any message this script lists. Translate the listed entries in
``locale/<language>/LC_MESSAGES/django.po`` (the game terms: ``locale/GLOSSARY.md``),
then run it again with ``--compile``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("vi", "pt_BR", "ko")
NOT_SOURCES = {"tests", "bench", "tools", "deploy", "docs", "locale", "staticfiles"}


def sources(root: Path = ROOT) -> list[str]:
    """What makemessages reads: every top-level package of the site (a new app
    is one more), its templates and static files, and manage.py."""
    packages = sorted(
        path.name
        for path in root.iterdir()
        if (path / "__init__.py").is_file() and path.name not in NOT_SOURCES
    )
    return [*packages, "templates", "static", "manage.py"]


def extract(copy: Path, root: Path = ROOT) -> Path:
    """Copy the site's sources and catalogs from ``root`` into ``copy`` and
    regenerate the catalogs there; returns ``copy``."""
    for name in sources(root):
        source = root / name
        if source.is_dir():
            shutil.copytree(
                source, copy / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(source, copy / name)
    shutil.copytree(root / "locale", copy / "locale")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
        + [f"--locale={language}" for language in LANGUAGES],
        cwd=copy,
        check=True,
        capture_output=True,
        # The copy has no tests/: the site's own settings, with DEBUG on.
        env={
            **os.environ,
            "PYTHONPATH": str(copy),
            "DJANGO_SETTINGS_MODULE": "azulsite.settings",
            "DEBUG": "true",
        },
    )
    return copy


def catalog(root: Path, language: str) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / "django.po"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--compile", action="store_true", help="compile the .mo files afterwards"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        extract(Path(tmp))
        for language in LANGUAGES:
            shutil.copy(catalog(Path(tmp), language), catalog(ROOT, language))
    gaps = 0
    for language in LANGUAGES:
        po = polib.pofile(str(catalog(ROOT, language)))
        todo = po.untranslated_entries() + po.fuzzy_entries()
        gaps += len(todo)
        print(f"{language}: {len(po)} messages, {len(todo)} to translate")
        for entry in todo:
            context = f" [{entry.msgctxt}]" if entry.msgctxt else ""
            print(f"  {entry.msgid!r}{context}")
    if args.compile:
        subprocess.run(
            [sys.executable, "manage.py", "compilemessages", "-i", ".venv"],
            cwd=ROOT,
            check=True,
            env={**os.environ, "DEBUG": "true"},
        )
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
