"""Templates a person can read (issue #36 item 6): no line over 200 characters,
and no template compares a status string (the seat view or the review's view
answers ``over``, ``active``, ``failed``)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = ("templates", "games", "accounts", "chat", "leagues", "notify")
LONGEST = 200

STILL_TO_TIDY: dict[str, int] = {}
"""The long lines left, by template: a count only goes down (to none, when the
template leaves this list). These lines' raw HTML is what tests read (attribute
runs, text with its spaces), so they break only where those tests still match."""


def _templates() -> list[Path]:
    """Every template: the pages' HTML, and the e-mails' and pushes' text."""
    return sorted(
        path
        for folder in TEMPLATE_DIRS
        for path in (ROOT / folder).rglob("*")
        if ".venv" not in path.parts
        and (
            path.suffix == ".html"
            or (path.suffix == ".txt" and "templates" in path.parts)
        )
    )


def test_no_template_line_is_over_200_characters() -> None:
    """A long line breaks inside a tag, between block items or at a space already
    drawn; a long text to translate goes in {% blocktranslate trimmed %}, wrapped
    at its spaces (the msgid stays the same)."""
    long_lines = Counter(
        str(path.relative_to(ROOT))
        for path in _templates()
        for line in path.read_text(encoding="utf-8").splitlines()
        if len(line) > LONGEST
    )
    grown = {
        name: count
        for name, count in long_lines.items()
        if count > STILL_TO_TIDY.get(name, 0)
    }
    assert not grown, f"template lines over {LONGEST} characters: {grown}"


def test_no_template_compares_a_status() -> None:
    compared = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _templates()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"status\s*(==|!=)", line)
    ]
    assert not compared, f"a status compared in a template: {compared}"
