"""The ``time_left`` filter: Django's ``timeuntil`` words, remembered per minute."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone, translation
from django.utils.timesince import timeuntil

from games.templatetags.time_left import TIME_STRINGS, time_left

OFFSETS = [
    -5,
    0,
    30,
    59,
    60,
    61,
    3599,
    3600,
    86399,
    3 * 86400 + 7,
    13 * 86400 + 5 * 3600 + 59,
    26 * 86400 + 23 * 3600 + 59 * 60 + 59,
    27 * 86400 + 5,
    40 * 86400,
    400 * 86400,
]


@pytest.mark.parametrize("language", ["en", "vi", "pt-br", "ko"])
def test_time_left_says_what_timeuntil_says_at_every_offset(language):
    now = timezone.now()
    with (
        translation.override(language),
        mock.patch("django.utils.timezone.now", return_value=now),
    ):
        for seconds in OFFSETS:
            value = now + timedelta(seconds=seconds, microseconds=250)
            expected = str(timeuntil(value, now, time_strings=TIME_STRINGS))
            assert time_left(value) == expected, seconds
            assert time_left(value) == expected, seconds  # now remembered
            # Another deadline with the same whole minutes left reads the same.
            later = value + timedelta(seconds=max(0, 59 - seconds % 60))
            assert time_left(later) == str(
                timeuntil(later, now, time_strings=TIME_STRINGS)
            )


def test_time_left_of_nothing_is_empty():
    assert time_left(None) == ""
