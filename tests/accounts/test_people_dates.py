"""Dates as each language's readers write them (issue #25, item 12): Brazilian
Portuguese months in lower case ("2 de dezembro de 2026"; Django's own catalog
capitalises them), Vietnamese month names never capitalised mid-sentence,
Korean months as numbers (``azulsite/formats/``)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation

MONTHS_PT = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
]


@pytest.mark.parametrize("month", range(1, 13))
def test_portuguese_months_are_written_in_lower_case(month: int) -> None:
    when = datetime(2026, month, 2, 8, 33)
    name = MONTHS_PT[month - 1]
    with translation.override("pt-br"):
        assert formats.date_format(when, "DATE_FORMAT") == f"2 de {name} de 2026"
        assert formats.date_format(when, "DATETIME_FORMAT") == (
            f"2 de {name} de 2026 às 08:33"
        )
        assert formats.date_format(when, "YEAR_MONTH_FORMAT") == f"{name} de 2026"
        assert formats.date_format(when, "MONTH_DAY_FORMAT") == f"2 de {name}"


@pytest.mark.parametrize(
    ("language", "name", "text"),
    [
        ("vi", "YEAR_MONTH_FORMAT", "tháng 12 năm 2026"),
        ("vi", "MONTH_DAY_FORMAT", "ngày 2 tháng 12"),
        ("ko", "YEAR_MONTH_FORMAT", "2026년 12월"),
        ("ko", "MONTH_DAY_FORMAT", "12월 2일"),
    ],
)
def test_months_in_vietnamese_and_korean_read_as_their_dates_do(
    language: str, name: str, text: str
) -> None:
    with translation.override(language):
        assert formats.date_format(date(2026, 12, 2), name) == text


def test_a_brazilian_reads_a_lower_case_month_on_a_page(
    make_user: Any, client_for: Any
) -> None:
    joao = make_user("joao", language="pt-br")
    joined = timezone.make_aware(datetime(2026, 12, 2, 12, 0))
    type(joao).objects.filter(pk=joao.pk).update(date_joined=joined)
    page = client_for(joao).get(reverse("profile", args=["joao"])).content.decode()
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Jogando desde 2 de dezembro de 2026." in words
    assert "Dezembro" not in words
