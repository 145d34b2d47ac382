"""The catalogs: every message of the code and templates is translated into vi,
pt_BR and ko, with the same placeholders, and the committed .mo match the .po.

The messages are extracted afresh (``makemessages`` into a copy of the project),
so a new string without a translation fails here, not in front of a player.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings

from tools.messages import LANGUAGES, catalog, extract

ROOT = Path(settings.BASE_DIR)
PLURAL_FORMS = {"vi": 1, "pt_BR": 2, "ko": 1}
PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0-9.]*[sdif]")


def _po(language: str) -> polib.POFile:
    return polib.pofile(str(catalog(ROOT, language)))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project whose catalogs ``makemessages`` just regenerated
    (``tools/messages.py``, the translators' tool, extracts the same way)."""
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is missing (apt-get install gettext)")
        pytest.skip("GNU gettext is missing (apt-get install gettext)")
    return extract(tmp_path_factory.mktemp("project"), ROOT)


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
        "locale/ is stale: run tools/messages.py and translate; "
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
        for po in (vi, pt, ko):
            assert po.find(msgid).msgstr.lower() in glossary.lower()


# ------------------------------------------------------------ the glossary

LONG_PAVILION_RULE = (
    "2 to 4 players decorate their pavilion in exactly six rounds. Everyone starts "
    "with 5 points; no penalty takes a score below 1. Whoever has the most points "
    "after round 6 wins; ties are shared."
)
ROWS = {
    # GLOSSARY.md's main table, row by row (its English column): a message that
    # uses the row's word in each language, and the word, which must also be in
    # that row's cell for the language.
    "Azul / Azul: Summer Pavilion": [
        ("Azul: Summer Pavilion", "vi", "Azul: Summer Pavilion"),
        ("Azul: Summer Pavilion", "pt_BR", "Azul: Pavilhão de Verão"),
        ("Azul: Summer Pavilion", "ko", "아줄: 여름 별장"),
        ("How to play Azul: Summer Pavilion", "ko", "아줄: 여름 별장"),
    ],
    "tile": [
        ("Bag: %(n)s tile", "vi", "viên"),
        ("Bag: %(n)s tile", "pt_BR", "azulejo"),
        ("Bag: %(n)s tile", "ko", "타일"),
    ],
    "factory": [
        ("Factory %(number)s", "vi", "Nhà máy"),
        ("Factory %(number)s", "pt_BR", "Fábrica"),
        ("Factory %(number)s", "ko", "진열대"),
        ("Factories and centre", "ko", "타일 진열대"),
        ("Choose tiles from a factory or the centre.", "ko", "타일 진열대"),
    ],
    "centre (of the table)": [
        ("Centre", "vi", "Giữa bàn"),
        ("from the centre", "vi", "từ giữa bàn"),
        ("%(count)s tile goes to the centre.", "vi", "ra giữa bàn"),
        ("Centre", "pt_BR", "Centro"),
        ("Centre", "ko", "중앙"),
    ],
    "pattern lines": [
        ("Pattern lines", "vi", "Dòng mẫu"),
        ("Pattern lines", "pt_BR", "Linhas de padrão"),
        ("Pattern lines", "ko", "보관대"),
    ],
    "floor line": [
        ("Floor line", "vi", "Dòng sàn"),
        ("Floor line", "pt_BR", "Linha de chão"),
        ("Floor line", "ko", "바닥"),
    ],
    "wall": [
        ("Wall", "vi", "Tường"),
        ("Wall", "pt_BR", "Parede"),
        ("Wall", "ko", "벽면"),
    ],
    "player board": [
        ("Your board", "vi", "Bảng"),
        ("Your board", "pt_BR", "tabuleiro"),
        ("Your board", "ko", "개인 게임판"),
    ],
    "row / column (of the wall)": [
        ("Row bonus", "vi", "hàng"),
        ("Column bonus", "vi", "cột"),
        ("Row bonus", "pt_BR", "linha"),
        ("Column bonus", "pt_BR", "coluna"),
        ("Row bonus", "ko", "가로줄"),
        ("Column bonus", "ko", "세로줄"),
    ],
    "first-player marker, start token": [
        ("first-player marker", "vi", "token bắt đầu"),
        ("start token", "vi", "token bắt đầu"),
        ("first-player marker", "pt_BR", "marcador de primeiro jogador"),
        ("start token", "pt_BR", "marcador de primeiro jogador"),
        ("Start-token penalty", "pt_BR", "marcador de primeiro jogador"),
        ("first-player marker", "ko", "시작 플레이어 타일"),
        ("start token", "ko", "시작 플레이어 타일"),
    ],
    "bag": [
        ("Bag and lid", "vi", "Túi"),
        ("Bag and lid", "pt_BR", "Saco"),
        ("Bag and lid", "ko", "주머니"),
    ],
    "box lid": [
        ("Bag and lid", "vi", "nắp hộp"),
        ("Bag and lid", "pt_BR", "tampa da caixa"),
        ("Bag and lid", "ko", "상자 뚜껑"),
    ],
    "round": [
        ("Round %(round)s.", "vi", "Vòng"),
        ("Round %(round)s.", "pt_BR", "Rodada"),
        ("Round %(round)s.", "ko", "라운드"),
    ],
    "phase 2 of Azul, tiling the wall": [
        ("2. Tiling the wall", "vi", "Xếp gạch lên tường"),
        ("2. Tiling the wall", "pt_BR", "Azulejar a parede"),
        ("2. Tiling the wall", "ko", "벽면 꾸미기"),
    ],
    "star": [
        ("Star bonuses", "vi", "ngôi sao"),
        ("Star bonuses", "pt_BR", "estrela"),
        ("Star bonuses", "ko", "별"),
    ],
    "a coloured star": [
        ("red star", "vi", "ngôi sao đỏ"),
        ("red star", "pt_BR", "estrela vermelha"),
        ("yellow star", "pt_BR", "estrela amarela"),
        ("red star", "ko", "빨강 별"),
    ],
    "centre star": [
        ("centre star", "vi", "ngôi sao trung tâm"),
        ("centre star", "pt_BR", "estrela central"),
        ("centre star", "ko", "중앙 별"),
    ],
    "pillar": [
        ("pillar of the %(star)s", "vi", "cột"),
        ("pillar of the %(star)s", "pt_BR", "pilar"),
        ("pillar of the %(star)s", "ko", "기둥"),
    ],
    "statue": [
        ("statue between the %(a)s and the %(b)s", "vi", "tượng"),
        ("statue between the %(a)s and the %(b)s", "pt_BR", "estátua"),
        ("statue between the %(a)s and the %(b)s", "ko", "조각상"),
    ],
    "window": [
        ("window of the %(star)s", "vi", "cửa sổ"),
        ("window of the %(star)s", "pt_BR", "janela"),
        ("window of the %(star)s", "ko", "창문"),
    ],
    "wild tile / wild colour": [
        ("Wild tiles", "vi", "Gạch hoang dã"),
        ("wild colour:", "vi", "màu hoang dã"),
        ("Wild tiles", "pt_BR", "curinga"),
        ("wild colour:", "pt_BR", "cor curinga"),
        ("Wild tiles", "ko", "와일드 타일"),
        ("wild colour:", "ko", "와일드 색"),
    ],
    "tower": [
        ("Tower: %(n)s tile", "vi", "Tháp"),
        ("Tower: %(n)s tile", "pt_BR", "Torre"),
        ("Tower: %(n)s tile", "ko", "탑"),
    ],
    "supply": [
        ("the supply is empty", "vi", "ô cung cấp"),
        ("the supply is empty", "pt_BR", "reserva"),
        ("the supply is empty", "ko", "공급처"),
    ],
    "pavilion (what players decorate)": [
        (LONG_PAVILION_RULE, "vi", "tòa Summer Pavilion"),
        (LONG_PAVILION_RULE, "pt_BR", "pavilhão"),
        (LONG_PAVILION_RULE, "ko", "여름 별장"),
    ],
    "hand": [
        ("Hand: %(n)s tile", "vi", "Trên tay"),
        ("Hand: %(n)s tile", "pt_BR", "Mão"),
        ("Hand: %(n)s tile", "ko", "손"),
    ],
    "corners (kept tiles)": [
        ("Corners: %(n)s tile kept", "vi", "các góc"),
        ("Corners: %(n)s tile kept", "pt_BR", "Cantos"),
        ("Corners: %(n)s tile kept", "ko", "모서리"),
    ],
    "cost (of a space)": [
        ("Place on the %(space)s (cost %(cost)s)", "vi", "giá"),
        ("Place on the %(space)s (cost %(cost)s)", "pt_BR", "custo"),
        ("Place on the %(space)s (cost %(cost)s)", "ko", "비용"),
    ],
    "pass": [
        ("Pass", "vi", "Bỏ lượt"),
        ("Pass", "pt_BR", "Passar"),
        ("Pass", "ko", "패스"),
    ],
    "coloured side / grey side (wall)": [
        ("Azul: Summer Pavilion (grey side)", "vi", "mặt xám"),
        ("Azul (grey wall)", "vi", "tường xám"),
        ("Azul: Summer Pavilion (grey side)", "pt_BR", "lado cinza"),
        ("Azul (grey wall)", "pt_BR", "parede cinza"),
        ("Azul: Summer Pavilion (grey side)", "ko", "회색 면"),
        ("Azul (grey wall)", "ko", "회색 벽면"),
    ],
    "score, points": [
        ("Score", "vi", "Điểm"),
        ("Score", "pt_BR", "Pontuação"),
        ("Score", "ko", "점수"),
    ],
    "rated game, unrated, rating": [
        ("Rated", "vi", "Xếp hạng"),
        ("Unrated", "vi", "Không xếp hạng"),
        ("Rated", "pt_BR", "Válida para rating"),
        ("Unrated", "pt_BR", "Sem rating"),
        ("Unrated", "ko", "레이팅 미반영"),
    ],
    "resign": [
        ("Resign", "vi", "Đầu hàng"),
        ("Resign", "pt_BR", "Desistir"),
        ("Resign", "ko", "기권"),
    ],
    "forfeit on time": [
        ("forfeited on time", "vi", "bị xử thua do hết giờ"),
        ("forfeited on time", "pt_BR", "por tempo"),
        ("forfeited on time", "ko", "시간 초과로 기권"),
    ],
    "deadline": [
        (
            "The game ended on time: a player did not move before the deadline.",
            "vi",
            "hạn chót",
        ),
        (
            "The game ended on time: a player did not move before the deadline.",
            "pt_BR",
            "prazo",
        ),
        (
            "The game ended on time: a player did not move before the deadline.",
            "ko",
            "마감",
        ),
    ],
    "game record": [
        ("Download the game record", "vi", "biên bản ván chơi"),
        ("Download the game record", "pt_BR", "registro da partida"),
        ("Download the game record", "ko", "기보"),
    ],
    "replay; a step of it": [
        ("Replay", "vi", "Xem lại"),
        ("Position %(ply)s of %(last)s", "vi", "Bước %(ply)s/%(last)s"),
        ("Go", "vi", "Đến"),
        ("Replay", "pt_BR", "Rever a partida"),
        ("Replay", "ko", "다시 보기"),
        ("Position %(ply)s of %(last)s", "ko", "%(ply)s / %(last)s번째 수"),
        ("Scores at this position", "ko", "이 시점"),
    ],
    "your move (addressing the player)": [
        ("Your move.", "vi", "Đến lượt bạn"),
        ("Your move.", "pt_BR", "Sua vez"),
        ("Your move.", "ko", "내 차례"),
        ("It is not your turn.", "ko", "내 차례"),
        ("These games are waiting for your move:", "ko", "회원님"),
    ],
    "sign up": [
        ("Sign up", "vi", "Đăng ký"),
        ("Sign up", "pt_BR", "Cadastre-se"),
        ("Sign up", "ko", "회원 가입"),
    ],
    "push notification, quiet hours, time zone": [
        ("Quiet hours", "vi", "Giờ yên lặng"),
        ("Time zone", "vi", "Múi giờ"),
        ("Quiet hours", "pt_BR", "Horário de silêncio"),
        ("Time zone", "pt_BR", "Fuso horário"),
        ("Quiet hours", "ko", "방해 금지"),
        ("Time zone", "ko", "시간대"),
    ],
    "league, season, division, group": [
        ("Season %(number)s of %(league)s has started", "vi", "Mùa giải"),
        ("Season %(number)s of %(league)s has started", "pt_BR", "temporada"),
        ("Season %(number)s of %(league)s has started", "ko", "시즌"),
        ("Your group's page in the league (its games and table):", "vi", "giải đấu"),
        ("Your group's page in the league (its games and table):", "vi", "nhóm"),
        ("Your group's page in the league (its games and table):", "pt_BR", "liga"),
        ("Your group's page in the league (its games and table):", "pt_BR", "grupo"),
        ("Your group's page in the league (its games and table):", "ko", "리그"),
        ("Your group's page in the league (its games and table):", "ko", "조"),
        ("You go up a division.", "vi", "hạng đấu"),
        ("You go up a division.", "pt_BR", "divisão"),
        ("You go up a division.", "ko", "부"),
    ],
}
LANGUAGE_COLUMNS = {"vi": 1, "pt_BR": 2, "ko": 3}


def _glossary_rows() -> dict[str, list[str]]:
    """GLOSSARY.md's main table: English column → its cells."""
    glossary = (ROOT / "locale" / "GLOSSARY.md").read_text()
    table = glossary.split("| English | Tiếng Việt |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


def test_every_row_of_the_glossary_is_pinned() -> None:
    assert set(_glossary_rows()) == set(ROWS)


@pytest.mark.parametrize(
    ("row", "msgid", "language", "word"),
    [(row, *check) for row, checks in ROWS.items() for check in checks],
    ids=[f"{check[1]}-{row[:24]}" for row, checks in ROWS.items() for check in checks],
)
def test_catalog_uses_the_word_of_its_glossary_row(
    row: str, msgid: str, language: str, word: str
) -> None:
    entry = _po(language).find(msgid)
    assert entry is not None, msgid
    forms = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
    for form in forms:
        assert word in form, (msgid, form)
    cell = _glossary_rows()[row][LANGUAGE_COLUMNS[language]]
    assert word.lower() in cell.lower(), (word, cell)


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
    "badge",
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
