"""The ``time_left`` filter: Django's ``timeuntil`` with the site's own words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation


@pytest.mark.parametrize(
    ("language", "seconds", "words"),
    [
        ("en", 3 * 86400 + 2 * 3600 + 7, "3 days, 2 hours"),
        ("en", 59 * 60 + 30, "59 minutes"),
        ("en", -60, "0 minutes"),
        ("vi", 2 * 86400, "2 ngày"),
        ("pt-br", 86400 + 3600, "1 dia, 1 hora"),
        ("ko", 5 * 3600, "5시간"),
    ],
)
def test_time_left_reads_in_the_page_language(language, seconds, words):
    from games.templatetags.time_left import time_left

    # A few seconds' margin: timeuntil reads the clock itself.
    deadline = timezone.now() + timedelta(seconds=seconds + 20)
    with translation.override(language):
        assert time_left(deadline).replace("\xa0", " ") == words


def test_time_left_of_nothing_is_empty():
    from games.templatetags.time_left import time_left

    assert time_left(None) == ""
