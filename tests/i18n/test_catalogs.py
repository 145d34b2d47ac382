"""The catalogs: every message of the code and templates is translated into vi,
pt_BR and ko, with the same placeholders, and the committed .mo match the .po.

The messages are extracted afresh (``makemessages`` into a copy of the project),
so a new string without a translation fails here, not in front of a player.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("vi", "pt_BR", "ko")
PLURAL_FORMS = {"vi": 1, "pt_BR": 2, "ko": 1}
PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0-9.]*[sdif]")
SOURCES = ("accounts", "azulsite", "games", "templates", "static", "manage.py")


def _po(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project whose catalogs ``makemessages`` just regenerated."""
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is missing (apt-get install gettext)")
        pytest.skip("GNU gettext is missing (apt-get install gettext)")
    copy = tmp_path_factory.mktemp("project")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, copy / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(source, copy / name)
    shutil.copytree(ROOT / "locale", copy / "locale")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
        + [f"--locale={language}" for language in LANGUAGES],
        cwd=copy,
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(copy)},
    )
    return copy


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_in_code_and_templates_is_translated(
    extracted: Path, language: str
) -> None:
    fresh = polib.pofile(
        str(extracted / "locale" / language / "LC_MESSAGES" / "django.po")
    )
    missing = [entry.msgid for entry in fresh.untranslated_entries()]
    fuzzy = [entry.msgid for entry in fresh.fuzzy_entries()]
    assert len(fresh) > 500
    assert not missing, f"untranslated in {language}: {missing[:10]}"
    assert not fuzzy, f"fuzzy (guessed) in {language}: {fuzzy[:10]}"
    committed = {(e.msgctxt, e.msgid) for e in _po(language)}
    regenerated = {(e.msgctxt, e.msgid) for e in fresh}
    assert committed == regenerated, (
        "locale/ is stale: run makemessages --no-obsolete and translate; "
        f"new {sorted(regenerated - committed, key=str)[:5]}, "
        f"gone {sorted(committed - regenerated, key=str)[:5]}"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_placeholders_and_plural_forms(language: str) -> None:
    po = _po(language)
    assert po.metadata["Plural-Forms"].startswith(f"nplurals={PLURAL_FORMS[language]};")
    assert not po.metadata_is_fuzzy  # a fuzzy header is ignored by msgfmt
    for entry in po:
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            wanted |= set(PLACEHOLDER.findall(entry.msgid_plural))
            forms = list(entry.msgstr_plural.values())
            assert len(forms) == PLURAL_FORMS[language], entry.msgid
        else:
            forms = [entry.msgstr]
        for form in forms:
            assert form.strip(), entry.msgid
            got = set(PLACEHOLDER.findall(form))
            # a singular form may name its count in words ("one tile")
            assert got <= wanted and (got == wanted or entry.msgid_plural), (
                language,
                entry.msgid,
                form,
            )


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalog_matches_its_source(language: str) -> None:
    mo = polib.mofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): e.msgstr or e.msgstr_plural for e in mo}
    source = {
        (e.msgctxt, e.msgid): e.msgstr
        or {int(k): v for k, v in e.msgstr_plural.items()}
        for e in _po(language)
        if e.translated()
    }
    assert compiled.keys() - {(None, "")} == source.keys(), "run compilemessages"
    for key, text in source.items():
        assert compiled[key] == text, f"run compilemessages ({key[1][:40]})"


def test_glossary_lists_the_game_terms_in_every_language() -> None:
    glossary = (ROOT / "locale" / "GLOSSARY.md").read_text()
    vi, pt, ko = _po("vi"), _po("pt_BR"), _po("ko")
    for english, msgid in [
        ("pattern lines", "Pattern lines"),
        ("floor line", "Floor line"),
        ("wall", "Wall"),
        ("centre", "Centre"),
    ]:
        assert english in glossary.lower()
        for catalog in (vi, pt, ko):
            assert catalog.find(msgid).msgstr.lower() in glossary.lower()
