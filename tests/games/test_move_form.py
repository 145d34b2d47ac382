"""The classic move form: what it reads, what it refuses, and how it says so."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from games.classic.forms import ClassicMoveForm


def _form(query: str) -> ClassicMoveForm:
    return ClassicMoveForm(QueryDict(query))


@pytest.mark.parametrize(
    ("query", "event", "ply"),
    [
        (
            "expected_ply=7&kind=take&source=3&colour=red&line=2",
            {"from": 3, "colour": "red", "to": 2},
            7,
        ),
        (
            "expected_ply=0&kind=take&source=center&colour=white&line=floor",
            {"from": "center", "colour": "white", "to": "floor"},
            0,
        ),
        (
            "expected_ply=41&kind=wall&line=4&column=0",
            {"wall": {"line": 4, "column": 0}},
            41,
        ),
        # A take ignores a column; extra fields (the CSRF token) are ignored.
        (
            "expected_ply=2&kind=take&source=10&colour=black&line=0&column=3"
            "&csrfmiddlewaretoken=x",
            {"from": 10, "colour": "black", "to": 0},
            2,
        ),
    ],
)
def test_reads_a_take_or_a_wall_placement(query, event, ply):
    form = _form(query)
    assert form.is_valid()
    assert form.non_field_errors() == []
    assert form.record_event() == event
    assert form.cleaned_data["expected_ply"] == ply


@pytest.mark.parametrize(
    "query",
    [
        "",
        "kind=take&source=1&colour=red&line=1",  # no ply
        "expected_ply=-1&kind=take&source=1&colour=red&line=1",
        "expected_ply=1.5&kind=take&source=1&colour=red&line=1",
        "expected_ply=1234567890&kind=take&source=1&colour=red&line=1",
        "expected_ply=1&kind=steal&source=1&colour=red&line=1",
        "expected_ply=1&kind=take&source=x&colour=red&line=1",
        "expected_ply=1&kind=take&source=100&colour=red&line=1",
        "expected_ply=1&kind=take&source=1&colour=pink&line=1",
        "expected_ply=1&kind=take&source=1&colour=red&line=5",
        "expected_ply=1&kind=take&source=1&colour=red&line=floors",
        "expected_ply=1&kind=take&source=1&colour=red",
        "expected_ply=1&kind=wall&line=0&column=5",
        "expected_ply=1&kind=wall&line=0&column=-1",
        "expected_ply=1\n&kind=take&source=1&colour=red&line=1",
    ],
)
def test_an_unreadable_move_is_refused_without_a_message(query):
    form = _form(query)
    assert not form.is_valid()
    assert form.non_field_errors() == []  # the view says "could not be read"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("expected_ply=1&kind=take&line=1", "Choose tiles first."),
        ("expected_ply=1&kind=take&source=2&line=1", "Choose tiles first."),
        ("expected_ply=1&kind=take&colour=red&line=1", "Choose tiles first."),
        ("expected_ply=1&kind=wall&line=1", "Choose a wall column."),
        ("expected_ply=1&kind=wall&line=floor&column=2", "Choose a wall column."),
    ],
)
def test_an_incomplete_move_says_what_is_missing(query, message):
    form = _form(query)
    assert not form.is_valid()
    assert form.non_field_errors() == [message]
