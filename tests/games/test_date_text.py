"""The deadline's date on the board, remembered per minute (board_partial)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import template_localtime

from games import board_partial


@pytest.fixture(autouse=True)
def _fresh_memo(monkeypatch):
    monkeypatch.setattr(board_partial, "_dates", {})
    monkeypatch.setattr(board_partial, "_minute_formats", {})


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_same_text_as_the_date_filter_in_every_language(language):
    with translation.override(language):
        for second in (0, 31, 59):
            value = datetime(2026, 12, 1, 13, 7, second, 123456, tzinfo=UTC)
            expected = date_format(template_localtime(value), "DATETIME_FORMAT")
            assert board_partial._date_text(value) == expected
        # Remembered for the minute: one entry, whatever the seconds.
        assert len(board_partial._dates) == 1


def test_a_format_with_seconds_is_not_cut_to_the_minute(monkeypatch):
    monkeypatch.setattr(board_partial, "get_format", lambda name: r"H:i:s \s")
    monkeypatch.setattr(
        board_partial,
        "date_format",
        lambda value, name: value.strftime("%H:%M:%S"),
    )
    first = datetime(2026, 12, 1, 13, 7, 5, tzinfo=UTC)
    second = first.replace(second=6)
    assert board_partial._date_text(first) == "13:07:05"
    assert board_partial._date_text(second) == "13:07:06"


def test_an_escaped_letter_is_not_a_seconds_field(monkeypatch):
    monkeypatch.setattr(board_partial, "get_format", lambda name: r"H:i \s")
    board_partial._date_text(datetime(2026, 12, 1, 13, 7, 5, tzinfo=UTC))
    assert board_partial._minute_formats[translation.get_language()] is True
