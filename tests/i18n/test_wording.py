"""What a player reads in each language where the code builds the sentence:
counts agree with their nouns, colours with the tiles and stars they name,
tile letters cannot be mixed up, dates read in the language's order."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import formats, translation
from django.utils.formats import FORMAT_SETTINGS

from games.classic import words as classic_words
from games.engine.common import CENTER, EngineError
from games.pavilion import words as pavilion_words

LANGUAGES = ("en", "vi", "pt-br", "ko")


# ------------------------------------------------------------ tile letters


def _letters(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """Each colour's tile letter in ``language``: classic's, Summer Pavilion's."""
    with translation.override(language):
        classic = {c: str(v) for c, v in classic_words.COLOUR_LETTERS.items()}
        pavilion = {c: str(v) for c, v in pavilion_words.COLOUR_LETTERS.items()}
    return classic, pavilion


def _bare(letter: str) -> str:
    """A letter without accents or case (Đ counts as D)."""
    decomposed = unicodedata.normalize(
        "NFD", letter.replace("Đ", "D").replace("đ", "d")
    )
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def confusable(letters: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs of colours whose letters are equal without accents, or one of which
    starts the other (Đ and Đe)."""
    pairs = []
    for a, first in letters.items():
        for b, second in letters.items():
            if a < b and (
                _bare(first) == _bare(second)
                or _bare(first).startswith(_bare(second))
                or _bare(second).startswith(_bare(first))
            ):
                pairs.append((a, b))
    return pairs


def test_the_letter_check_finds_letters_players_mixed_up() -> None:
    assert confusable({"red": "Đ", "black": "Đe", "blue": "X"}) == [("black", "red")]
    assert confusable({"red": "Đ", "blue": "D"}) == [("blue", "red")]
    assert confusable({"red": "Đỏ", "black": "Đen"}) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_tile_letters_cannot_be_mixed_up(language: str) -> None:
    classic, pavilion = _letters(language)
    assert (len(classic), len(pavilion)) == (5, 6)
    assert confusable(classic) == []
    assert confusable(pavilion) == []
    for colour in classic.keys() & pavilion.keys():
        assert classic[colour] == pavilion[colour], colour
    # a Summer Pavilion space holds two letters (18 px on a phone)
    assert max(len(letter) for letter in pavilion.values()) <= 2


def test_vietnamese_tiles_spell_red_and_black() -> None:
    classic, _pavilion = _letters("vi")
    assert (classic["red"], classic["black"]) == ("Đỏ", "Đen")


# ------------------------------------------------------------ colours


@pytest.mark.parametrize(
    ("colour", "one", "three"),
    [
        ("red", "vermelho", "vermelhos"),
        ("blue", "azul", "azuis"),
        ("yellow", "amarelo", "amarelos"),
        ("black", "preto", "pretos"),
        ("white", "branco", "brancos"),
    ],
)
def test_portuguese_colour_agrees_with_a_count_of_tiles(
    colour: str, one: str, three: str
) -> None:
    with translation.override("pt-br"):
        assert classic_words.tiles_colour(colour, 1) == one
        assert classic_words.tiles_colour(colour, 3) == three
        assert pavilion_words.tiles_colour("orange", 3) == "laranja"
        assert pavilion_words.tiles_colour("purple", 2) == "roxos"


def test_colours_after_counts_stay_the_colour_names_elsewhere() -> None:
    for language in ("en", "vi", "ko"):
        with translation.override(language):
            for colour in classic_words.COLOUR_NAMES:
                assert classic_words.tiles_colour(colour, 3) == (
                    classic_words.colour_name(colour)
                )


def test_portuguese_stars_and_structures_agree_with_estrela() -> None:
    with translation.override("pt-br"):
        assert pavilion_words.star_label("red") == "estrela vermelha"
        assert pavilion_words.star_label("yellow") == "estrela amarela"
        assert pavilion_words.star_label("purple") == "estrela roxa"
        assert pavilion_words.structure_label("pillar", ["red"]) == (
            "pilar da estrela vermelha"
        )
        assert pavilion_words.structure_label("statue", ["blue", "green"]) == (
            "estátua entre a estrela azul e a estrela verde"
        )
    with translation.override("en"):
        assert pavilion_words.star_label("red") == "red star"


def _refusal(code: str, **params: Any) -> str:
    return pavilion_words.error_message(EngineError("English", code, params))


def test_refusals_read_with_agreement_and_counts() -> None:
    with translation.override("pt-br"):
        assert _refusal("not_enough_wilds", have=2, colour="purple", wilds=3) == (
            "Você só tem 2 curingas roxos, não 3."
        )
        assert _refusal("not_enough_wilds", have=1, colour="purple", wilds=3) == (
            "Você só tem 1 curinga roxo, não 3."
        )
        assert _refusal("star_takes_its_colour", allowed="red", star="red") == (
            "Na estrela vermelha só entra vermelho."
        )
        assert _refusal("deal_size", factories=1) == "Uma distribuição lista 1 fábrica."
        assert _refusal("deal_size", factories=5) == (
            "Uma distribuição lista 5 fábricas."
        )
    with translation.override("en"):
        assert _refusal("supply_draw_too_many", room=1, drawn=3) == (
            "The supply has room for 1 tile, not 3."
        )
        assert _refusal("keep_too_many", max=4) == "You may keep at most 4 tiles."
    with translation.override("ko"):
        assert _refusal("not_your_turn") == "지금은 내 차례가 아닙니다."


# ------------------------------------------------------------ counts


def test_classic_deal_counts_its_tiles() -> None:
    entry = {"type": "deal", "round": 2, "tiles": 1}
    with translation.override("pt-br"):
        assert classic_words.describe_entry(entry, ["ana", "bia"]) == (
            "Rodada 2: 1 azulejo distribuído nas fábricas"
        )
        assert classic_words.describe_entry({**entry, "tiles": 20}, ["ana"]) == (
            "Rodada 2: 20 azulejos distribuídos nas fábricas"
        )
    with translation.override("ko"):
        assert classic_words.describe_entry({**entry, "tiles": 20}, ["ana"]) == (
            "2라운드: 타일 진열대에 타일 20개 배치"
        )


def test_points_lost_agree_with_their_count() -> None:
    with translation.override("pt-br"):
        assert pavilion_words.points_text(1) == "1 ponto"
        assert pavilion_words.points_text(3) == "3 pontos"
    with translation.override("ko"):
        assert pavilion_words.points_text(3) == "3점"


@pytest.mark.django_db
def test_vacation_days_left_agree_with_their_count(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from accounts.models import Vacation
    from accounts.services import VacationError, vacation_start
    from games import clock

    now = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(clock, "now", lambda: now)
    user = make_user("joao", language="pt-br")
    Vacation.objects.create(
        user=user, starts_at=now - timedelta(days=20), ends_at=now - timedelta(days=7)
    )
    with (
        translation.override("pt-br"),
        pytest.raises(VacationError) as refused,
    ):
        vacation_start(user=user, days=3)
    assert refused.value.message == "Você tem 1 dia de férias restante este ano."


# ------------------------------------------------------------ dates

WHEN = datetime(2026, 12, 4, 8, 33)


def test_templates_name_their_date_formats() -> None:
    """``|date`` (and ``|zoned``, the date in the player's time zone) takes a
    format name (DATE_FORMAT…), never an English order."""
    used = {
        (str(path.relative_to(settings.BASE_DIR)), fmt)
        for path in Path(settings.BASE_DIR, "templates").rglob("*.*")
        for fmt in re.findall(
            r"\|(?:date|zoned):\"([^\"]*)\"", path.read_text(encoding="utf-8")
        )
    }
    assert used, "no |date in the templates"
    assert {(path, fmt) for path, fmt in used if fmt not in FORMAT_SETTINGS} == set()


@pytest.mark.parametrize(
    ("language", "name", "text"),
    [
        ("vi", "DATETIME_FORMAT", "04/12/2026 08:33"),
        ("vi", "DATE_FORMAT", "ngày 4 tháng 12 năm 2026"),
        ("vi", "SHORT_DATE_FORMAT", "04/12/2026"),
        ("ko", "DATETIME_FORMAT", "2026년 12월 4일 오전 8:33"),
        ("ko", "SHORT_DATE_FORMAT", "2026. 12. 4."),
    ],
)
def test_dates_read_in_the_languages_order(language: str, name: str, text: str) -> None:
    with translation.override(language):
        assert formats.date_format(WHEN, name) == text


def test_portuguese_dates_keep_djangos_order() -> None:
    """Django's order, with the month in lower case (``azulsite/formats/pt_BR``)."""
    with translation.override("pt-br"):
        assert formats.date_format(WHEN, "DATETIME_FORMAT") == (
            "4 de dezembro de 2026 às 08:33"
        )
        assert formats.date_format(WHEN, "SHORT_DATE_FORMAT") == "04/12/2026"


def test_the_source_of_a_take_carries_its_preposition() -> None:
    """Portuguese contracts "de" with the source: "do centro", "da fábrica 2"."""
    take = {
        "type": "take",
        "seat": 0,
        "count": 3,
        "colour": "red",
        "source": CENTER,
        "line": 1,
        "to_floor": 0,
        "to_lid": 0,
        "marker": False,
    }
    pavilion_take = {"type": "take", "seat": 0, "colour": "blue", "tiles": 2}
    pavilion_take |= {"wild": False, "from": 1}
    with translation.override("pt-br"):
        assert classic_words.describe_entry(take, ["ana"]) == (
            "ana pegou 3 × vermelho do centro da mesa → linha 2"
        )
        assert pavilion_words.describe_entries([pavilion_take], ["ana"]) == [
            "ana pegou 2 × azul da fábrica 2"
        ]
    with translation.override("ko"):
        assert classic_words.describe_entry(take, ["ana"]) == (
            "ana: 중앙에서 빨강 3개 → 2번 줄"
        )
    with translation.override("en"):
        assert pavilion_words.describe_entries([pavilion_take], ["ana"]) == [
            "ana took 2 blue from factory 2"
        ]
