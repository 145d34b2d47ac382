"""makemessages (xgettext) does not look inside f-strings: a gettext call there is
never extracted, so its text would stay English on every page."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext"}


def _calls_inside_fstrings(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in GETTEXT
                ):
                    lines.append(inner.lineno)
    return lines


def test_the_check_finds_a_call_inside_an_fstring():
    assert _calls_inside_fstrings("x = f\"<b>{_('Resign')}</b>\"") == [1]
    assert _calls_inside_fstrings('label = _("Resign")\nx = f"<b>{label}</b>"') == []


def test_no_gettext_call_inside_an_fstring():
    found = {
        str(path.relative_to(ROOT)): lines
        for package in ("accounts", "azulsite", "games")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := _calls_inside_fstrings(path.read_text(encoding="utf-8")))
    }
    assert found == {}
