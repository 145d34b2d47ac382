"""JSON bodies are parsed within size and depth bounds (azulsite/jsonbody.py):
a deep or large body is a 400 or 413 with nothing stored, never a 500."""

from __future__ import annotations

import json

import pytest

from azulsite.jsonbody import BadBody, depth, loads
from notify.models import PushSubscription

NESTED = "[" * 100_000


def test_depth_counts_brackets_outside_strings_only():
    assert depth('{"a": [1, {"b": "[[[{{{"}], "c": "\\"]"}') == 3
    assert depth('"[[["') == 0
    assert depth("5") == 0


@pytest.mark.parametrize(
    "text",
    [NESTED, NESTED + "]" * 100_000, '{"a":' * 100_000, "[{" * 50_000],
)
def test_a_deeply_nested_body_is_refused_without_recursing(text):
    with pytest.raises(BadBody) as refused:
        loads(text, max_bytes=1_000_000)
    assert refused.value.status == 400


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe", b"not json", b"[1,]", b"NaN", b'{"a": Infinity}', b"1" * 5000],
)
def test_what_is_not_json_is_a_400(data):
    with pytest.raises(BadBody) as refused:
        loads(data)
    assert refused.value.status == 400


def test_an_oversize_body_is_a_413():
    with pytest.raises(BadBody) as refused:
        loads(json.dumps({"a": "x" * 1000}), max_bytes=1000)
    assert refused.value.status == 413


def test_json_within_the_bounds_is_read():
    nested = "[" * 19 + "]" * 19  # inside an object: 20 deep
    assert loads(f'{{"a": {nested}, "b": "[{{"}}') == {
        "a": json.loads(nested),
        "b": "[{",
    }
    with pytest.raises(BadBody):
        loads("[" * 21 + "]" * 21)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status"),
    [
        (NESTED, 413),  # the body: over a subscription's 16 kB
        ("[" * 5000 + "]" * 5000, 400),
        ('{"endpoint": "https://fcm.googleapis.com/x", "keys": ' + "[" * 5000, 400),
        ('{"keys": {"auth": "' + "A" * 20_000 + '"}}', 413),
    ],
)
@pytest.mark.parametrize("path", ["/notify/subscribe/", "/notify/unsubscribe/"])
def test_a_deep_or_large_body_to_the_site_is_refused(
    players, client_for, body, status, path
):
    client = client_for(players[0])
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == status
    assert response.json() == {"error": "That subscription could not be read."}
    assert PushSubscription.objects.count() == 0
