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
NOT_SOURCES = {"tests", "bench", "tools", "deploy", "docs", "locale", "staticfiles"}


def _sources() -> list[str]:
    """What makemessages reads: every top-level package of the site (a new app
    is one more), its templates and static files, and manage.py."""
    packages = sorted(
        path.name
        for path in ROOT.iterdir()
        if (path / "__init__.py").is_file() and path.name not in NOT_SOURCES
    )
    return [*packages, "templates", "static", "manage.py"]


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
    for name in _sources():
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


# ------------------------------------------------------------ the glossary

CHOSEN = [
    # (msgctxt, msgid, language, the glossary's word the translation uses)
    (None, "Azul: Summer Pavilion", "vi", "Azul: Summer Pavilion"),
    (None, "Azul: Summer Pavilion", "pt_BR", "Azul: Pavilhão de Verão"),
    (None, "Azul: Summer Pavilion", "ko", "아줄: 여름 별장"),
    (None, "How to play Azul: Summer Pavilion", "ko", "아줄: 여름 별장"),
    (None, "Factory %(number)s", "vi", "Nhà máy %(number)s"),
    (None, "Factory %(number)s", "pt_BR", "Fábrica %(number)s"),
    (None, "Factory %(number)s", "ko", "진열대 %(number)s"),
    (None, "Factories and centre", "ko", "타일 진열대"),
    (None, "Choose tiles from a factory or the centre.", "ko", "타일 진열대"),
    (None, "Centre", "vi", "Giữa bàn"),
    (None, "Centre", "pt_BR", "Centro"),
    (None, "Centre", "ko", "중앙"),
    (None, "%(count)s tile goes to the centre.", "vi", "ra giữa bàn"),
    (None, "centre star", "vi", "ngôi sao trung tâm"),
    (None, "Pattern lines", "vi", "Dòng mẫu"),
    (None, "Pattern lines", "pt_BR", "Linhas de padrão"),
    (None, "Pattern lines", "ko", "보관대"),
    (None, "Floor line", "vi", "Dòng sàn"),
    (None, "Floor line", "pt_BR", "Linha de chão"),
    (None, "Floor line", "ko", "바닥"),
    (None, "Wall", "vi", "Tường"),
    (None, "Wall", "pt_BR", "Parede"),
    (None, "Wall", "ko", "벽면"),
    (None, "2. Tiling the wall", "vi", "Xếp gạch lên tường"),
    (None, "2. Tiling the wall", "ko", "벽면 꾸미기"),
    (None, "Your board", "ko", "개인 게임판"),
    (None, "first-player marker", "vi", "token bắt đầu"),
    (None, "first-player marker", "pt_BR", "marcador de primeiro jogador"),
    (None, "first-player marker", "ko", "시작 플레이어 타일"),
    (None, "start token", "vi", "token bắt đầu"),
    (None, "start token", "pt_BR", "marcador de primeiro jogador"),
    (None, "start token", "ko", "시작 플레이어 타일"),
    (None, "Start-token penalty", "pt_BR", "marcador de primeiro jogador"),
    (None, "Bag and lid", "vi", "nắp hộp"),
    (None, "Bag and lid", "pt_BR", "tampa da caixa"),
    (None, "Bag and lid", "ko", "상자 뚜껑"),
    (None, "the supply is empty", "vi", "ô cung cấp"),
    (None, "the supply is empty", "pt_BR", "reserva"),
    (None, "the supply is empty", "ko", "공급처"),
    (
        None,
        "2 to 4 players decorate their pavilion in exactly six rounds. Everyone "
        "starts with 5 points; no penalty takes a score below 1. Whoever has the "
        "most points after round 6 wins; ties are shared.",
        "vi",
        "tòa Summer Pavilion",
    ),
    (
        None,
        "2 to 4 players decorate their pavilion in exactly six rounds. Everyone "
        "starts with 5 points; no penalty takes a score below 1. Whoever has the "
        "most points after round 6 wins; ties are shared.",
        "ko",
        "여름 별장",
    ),
    (None, "red star", "pt_BR", "estrela vermelha"),
    (None, "yellow star", "pt_BR", "estrela amarela"),
    (None, "Rated", "vi", "Xếp hạng"),
    (None, "Unrated", "vi", "Không xếp hạng"),
    (None, "Rated", "pt_BR", "Válida para rating"),
    (None, "Pass", "vi", "Bỏ lượt"),
    (None, "Go", "vi", "Đến"),
    (None, "Position %(ply)s of %(last)s", "vi", "Bước %(ply)s/%(last)s"),
    (None, "Position %(ply)s of %(last)s", "ko", "%(ply)s / %(last)s번째 수"),
    (None, "Scores at this position", "ko", "이 시점"),
    (None, "Your move.", "ko", "내 차례"),
    (None, "It is not your turn.", "ko", "내 차례"),
    (None, "Sign up", "pt_BR", "Cadastre-se"),
    (None, "Replay", "pt_BR", "Rever a partida"),
]


@pytest.mark.parametrize(
    ("msgctxt", "msgid", "language", "word"),
    CHOSEN,
    ids=[f"{language}-{msgid[:30]}" for _c, msgid, language, _w in CHOSEN],
)
def test_catalog_uses_the_glossary_word(
    msgctxt: str | None, msgid: str, language: str, word: str
) -> None:
    entry = _po(language).find(msgid, msgctxt=msgctxt)
    assert entry is not None, msgid
    for form in (
        [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
    ):
        assert word in form
    glossary = (ROOT / "locale" / "GLOSSARY.md").read_text().lower()
    assert word.replace("%(number)s", "").strip().lower() in glossary, word


def _rejected_words() -> list[tuple[str, str, str]]:
    """(language, word, the phrase it may appear in) from GLOSSARY.md's table
    "Words we do not use"."""
    glossary = (ROOT / "locale" / "GLOSSARY.md").read_text()
    table = glossary.split("## Words we do not use", 1)[1].split("\n## ", 1)[0]
    codes = {"ko": "ko", "vi": "vi", "pt": "pt_BR"}
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in codes:
            rows.append((codes[cells[0]], cells[1], cells[2]))
    return rows


def rejected_in(text: str, word: str, allowed: str) -> bool:
    """Whether ``text`` uses ``word`` outside ``allowed`` (whole words for Latin
    script, as written for Hangul, which glues its particles on)."""
    if allowed:
        text = re.sub(re.escape(allowed), " ", text, flags=re.IGNORECASE)
    if re.search(r"[\uac00-\ud7a3]", word):
        return word in text
    return (
        re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None
    )


def test_the_rejected_word_check_finds_words_and_spares_their_phrase() -> None:
    assert rejected_in("Chọn gạch từ trung tâm.", "trung tâm", "ngôi sao trung tâm")
    assert not rejected_in("ngôi sao trung tâm", "trung tâm", "ngôi sao trung tâm")
    assert rejected_in("공장에서 타일을", "공장", "")
    assert not rejected_in("thắng khoảng ba ván", "kho", "")
    assert rejected_in("pilar da estrela (%(colour)s)", "estrela (%(colour)s)", "")
    rows = _rejected_words()
    assert ("ko", "공장", "") in rows and ("vi", "cung điện", "") in rows
    assert ("vi", "trung tâm", "ngôi sao trung tâm") in rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_never_uses_a_word_the_glossary_rejects(language: str) -> None:
    rows = [
        (word, allowed) for lang, word, allowed in _rejected_words() if lang == language
    ]
    assert len(rows) >= 8
    found = [
        (word, text)
        for entry in _po(language)
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        for word, allowed in rows
        if rejected_in(text, word, allowed)
    ]
    assert not found, found[:10]


# ------------------------------------------------------------ counts

COUNTED_NOUNS = (
    "tiles?|days?|points?|games?|players?|rounds?|factor(?:y|ies)|spaces?|seats?"
    "|moves?|hours?|minutes?|weeks?|months?|years?|stars?|colours?|invitations?"
)
NOT_COUNTS = {
    "colour", "wild", "held", "star", "a", "b", "player", "name", "names",
    "creator", "variant", "level", "user", "source", "dest", "line", "space",
    "structure", "structures", "payment", "kept", "label", "family_label", "game",
}  # fmt: skip
COUNT_BEFORE_NOUN = re.compile(
    rf"%\((?P<field>\w+)\)[sd] (?:[a-z-]+ ){{0,3}}?(?:{COUNTED_NOUNS})\b"
)


def counted_without_plural(entries: list[polib.POEntry]) -> list[str]:
    """Messages that put a count placeholder before a counted noun without a
    plural form for it: a singular entry with one, a plural entry with two (only
    one count can choose the form)."""
    found = []
    for entry in entries:
        counts = {
            match["field"]
            for match in COUNT_BEFORE_NOUN.finditer(entry.msgid)
            if match["field"] not in NOT_COUNTS
        }
        if len(counts) > (1 if entry.msgid_plural else 0):
            found.append(entry.msgid)
    return found


def test_the_count_check_finds_a_count_without_plural() -> None:
    found = counted_without_plural(
        [
            polib.POEntry(msgid="Bag: %(n)s tiles"),
            polib.POEntry(msgid="You have %(left)s vacation days left."),
            polib.POEntry(msgid="That source has no %(colour)s tiles."),
            polib.POEntry(msgid="Round %(round)s."),
            polib.POEntry(msgid="Bag: %(n)s tile", msgid_plural="Bag: %(n)s tiles"),
            polib.POEntry(
                msgid="You discard %(count)s tile and lose %(points)s points.",
                msgid_plural="You discard %(count)s tiles and lose %(points)s points.",
            ),
        ]
    )
    assert found == [
        "Bag: %(n)s tiles",
        "You have %(left)s vacation days left.",
        "You discard %(count)s tile and lose %(points)s points.",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_before_a_noun_is_a_plural_entry(language: str) -> None:
    assert counted_without_plural(list(_po(language))) == []
