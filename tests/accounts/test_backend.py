"""The session user is read by ``accounts.backends.UserBackend`` (one prebuilt
statement) with every check of ``ModelBackend.get_user`` kept."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user
from django.contrib.auth.backends import ModelBackend
from django.test import RequestFactory
from django.urls import reverse

from accounts.backends import UserBackend

pytestmark = pytest.mark.django_db


def test_axes_stays_first_and_the_backend_replaces_model_backend():
    assert settings.AUTHENTICATION_BACKENDS == [
        "axes.backends.AxesStandaloneBackend",
        "accounts.backends.UserBackend",
    ]


def test_get_user_matches_model_backend(make_user):
    user = make_user("ana", language="vi", email="ana@example.com")
    ours, theirs = UserBackend().get_user(user.pk), ModelBackend().get_user(user.pk)
    assert ours == theirs == user
    for field in ours._meta.concrete_fields:
        assert getattr(ours, field.attname) == getattr(theirs, field.attname)
    assert ours._state.adding is False and ours._state.db == "default"


def test_unknown_or_malformed_id_is_no_user(make_user):
    make_user("ana")
    assert UserBackend().get_user(999_999) is None
    assert UserBackend().get_user("not a number") is None


def test_an_inactive_user_is_refused(make_user):
    user = make_user("ana", is_active=False)
    assert UserBackend().get_user(user.pk) is None


def test_a_deactivated_players_session_no_longer_signs_in(client, make_user):
    user = make_user("ana")
    client.post(reverse("login"), {"username": "ana", "password": "correct-horse-42"})
    request = RequestFactory().get("/")
    request.session = client.session
    assert request.session[SESSION_KEY] == str(user.pk)
    assert get_user(request) == user
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert client.get(reverse("games:new")).status_code == 302
    assert get_user(request).is_anonymous
