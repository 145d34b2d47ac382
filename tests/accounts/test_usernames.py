"""Player names: one per reading, and no look-alike alphabets mixed in one name."""

from __future__ import annotations

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-patterns-9"


def _sign_up(client, username):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


def _names():
    return sorted(get_user_model().objects.values_list("username", flat=True))


@pytest.mark.parametrize(
    "name",
    ["Nguyễn_Văn_An", "민수", "minsu_민수", "Ana-Clara", "παύλος", "Дмитрий"],
)
def test_names_in_one_alphabet_are_welcome(client, name):
    response = _sign_up(client, name)
    assert response.status_code == 302
    assert _names() == [unicodedata.normalize("NFKC", name)]


@pytest.mark.parametrize(
    "name",
    [
        "\u0430lice",  # Cyrillic а, then Latin
        "p\u0430ul",  # Latin with one Cyrillic а
        "\u03bfscar",  # Greek ο
    ],
)
def test_a_name_mixing_look_alike_alphabets_is_refused(client, name):
    response = _sign_up(client, name)
    assert response.status_code == 200
    assert "alphabets that look alike" in response.context["form"].errors["username"][0]
    assert _names() == []


@pytest.mark.parametrize(
    "again",
    [
        "ALICE",
        "Alice",
        "\uff41lice",  # fullwidth a: NFKC makes it "alice"
    ],
)
def test_a_name_that_reads_like_a_taken_one_is_refused(client, make_user, again):
    make_user("alice")
    response = _sign_up(client, again)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert _names() == ["alice"]


def test_names_differing_only_in_encoding_are_one_name(client, make_user):
    make_user(unicodedata.normalize("NFC", "Nguyễn"))
    response = _sign_up(client, unicodedata.normalize("NFD", "nguyễn"))
    assert response.status_code == 200
    assert _names() == [unicodedata.normalize("NFC", "Nguyễn")]


def test_the_database_refuses_a_second_account_with_the_same_reading(make_user):
    make_user("Binh")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("bInh")
    assert _names() == ["Binh"]
