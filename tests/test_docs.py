"""The documentation the code cites is in the repository, and says what is cited.

Code, docstrings, comments and templates cite ``docs/...`` pages, their numbered
sections (``docs/rules/azul.md §4.4``, or a bare ``§4.4`` in a module that names its
rules page), ``docs/stack.md`` pitfalls by number and ``docs/style.md`` sections by
their quoted heading. Each of those must exist; no citation may point at the
specifications that used to live outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCANNED = ("games", "accounts", "notify", "azulsite", "tests", "bench", "templates")
SCANNED += ("static", "deploy", "tools", "docs", "README.md")
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt", ".conf", ".toml", ".sh"}
THIS = Path(__file__).resolve()

DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*[\w/]")
OLD_CITATION = re.compile(
    r"spec/record\.md"
    r"|shared/(?:rules|notes|spec)/"
    r"|(?<![\w/-])(?:rules/)?(?:classic|pavilion)\.md"
    r"|(?<![\w/-])(?:STYLE|stack|record)\.md"
)
# "§4", "§4.3", "§7 (a)"; lists and ranges such as "§6, §7", "§4–§8", "§3-§8".
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)?)")
PAGE_SECTIONS = re.compile(
    r"(docs/[\w/-]+\.md)`{0,2}\)?((?:[ ,]*(?:and|–|-|/)?\s*§\s?\d+(?:\.\d+)?"
    r"(?:\s?\([ab]\))?)+)"
)
PITFALLS = re.compile(r"pitfalls? (\d+(?:, \d+)*)")
QUOTED_SECTION = re.compile(r"(docs/[\w/-]+\.md), \"([^\"]+)\"")
RFC_SECTION = re.compile(r"RFC \d+ §\s?\d+(?:\.\d+)?")


def _files() -> list[Path]:
    found: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in candidates:
            if (
                file.is_file()
                and file.suffix in SUFFIXES
                and file.resolve() != THIS
                and "locale" not in file.relative_to(ROOT).parts
            ):
                found.append(file)
    return found


FILES = _files()


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _where(path: Path, text: str, index: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, index) + 1}"


def _headings(page: Path) -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in _text(page).splitlines()
        if re.match(r"#{1,6} ", line)
    ]


def _numbers(page: Path) -> set[str]:
    """Section numbers of a page's headings: ``## 4. Factory offer`` gives "4",
    ``### 4.3 Placing`` gives "4.3"."""
    numbers = set()
    for heading in _headings(page):
        match = re.match(r"(\d+(?:\.\d+)?)\.?\s", heading)
        if match:
            numbers.add(match.group(1))
    return numbers


def _pitfalls(page: Path) -> set[str]:
    return {
        match.group(1)
        for heading in _headings(page)
        if (match := re.match(r"Pitfall (\d+):", heading))
    }


def test_the_scan_sees_the_citing_files() -> None:
    """The scan itself reads the modules that cite the docs (else it proves nothing)."""
    names = {str(path.relative_to(ROOT)) for path in FILES}
    assert {"games/engine/classic.py", "games/engine/record.py"} <= names
    assert sum(1 for path in FILES if DOCS_PATH.search(_text(path))) > 40


def test_every_cited_docs_path_exists() -> None:
    missing = []
    for path in FILES:
        text = _text(path)
        for match in DOCS_PATH.finditer(text):
            cited = match.group(0).rstrip(".")
            if not (ROOT / cited).exists():
                missing.append(f"{_where(path, text, match.start())}: {cited}")
    assert missing == []


def test_no_citation_points_outside_the_repository() -> None:
    old = []
    for path in FILES:
        if path.is_relative_to(DOCS):  # docs/ links its own pages relatively
            continue
        text = _text(path)
        for match in OLD_CITATION.finditer(text):
            old.append(f"{_where(path, text, match.start())}: {match.group(0)}")
    assert old == []


def test_every_cited_section_is_a_heading_of_its_page() -> None:
    unresolved = []
    for path in FILES:
        text = _text(path)
        for match in PAGE_SECTIONS.finditer(text):
            page = ROOT / match.group(1)
            numbers = _numbers(page) if page.exists() else set()
            for number in SECTION.findall(match.group(2)):
                if number not in numbers:
                    where = _where(path, text, match.start())
                    unresolved.append(f"{where}: {match.group(1)} §{number}")
    assert unresolved == []


def test_every_bare_section_resolves_in_a_rules_page_the_file_cites() -> None:
    unresolved = []
    for path in FILES:
        if path.is_relative_to(DOCS):
            continue
        text = RFC_SECTION.sub("", _text(path))
        pages = {
            ROOT / cited
            for cited in re.findall(r"docs/rules/[\w-]+\.md", text)
            if (ROOT / cited).exists()
        }
        numbers = set().union(*(_numbers(page) for page in pages))
        for match in SECTION.finditer(text):
            if match.group(1) not in numbers:
                where = _where(path, text, match.start())
                unresolved.append(f"{where}: §{match.group(1)}")
    assert unresolved == []


def test_every_cited_pitfall_is_a_heading_of_the_stack_page() -> None:
    known = _pitfalls(DOCS / "stack.md")
    assert known, "docs/stack.md numbers its pitfalls"
    unresolved = []
    for path in FILES:
        text = _text(path)
        if path.is_relative_to(DOCS) or "docs/stack.md" not in text:
            continue
        for match in PITFALLS.finditer(text):
            for number in match.group(1).split(", "):
                if number not in known:
                    where = _where(path, text, match.start())
                    unresolved.append(f"{where}: pitfall {number}")
    assert unresolved == []


def test_every_quoted_section_is_a_heading_of_its_page() -> None:
    unresolved = []
    for path in FILES:
        text = _text(path)
        for match in QUOTED_SECTION.finditer(text):
            page = ROOT / match.group(1)
            headings = _headings(page) if page.exists() else []
            if not any(heading.startswith(match.group(2)) for heading in headings):
                where = _where(path, text, match.start())
                unresolved.append(f'{where}: {match.group(1)}, "{match.group(2)}"')
    assert unresolved == []


@pytest.mark.parametrize(
    "page", sorted(DOCS.rglob("*.md")), ids=lambda page: str(page.relative_to(DOCS))
)
def test_links_between_docs_pages_resolve(page: Path) -> None:
    """Relative links in docs/ (``[record format](../record.md)``) reach a file."""
    broken = []
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _text(page)):
        if "://" not in target and not (page.parent / target).exists():
            broken.append(target)
    assert broken == []
