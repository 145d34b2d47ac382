"""Accounts: sign-up, log in/out, passwords, profiles, throttling, i18n set-up."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_user_model_is_the_custom_one():
    from accounts.models import User

    assert get_user_model() is User
    assert settings.AUTH_USER_MODEL == "accounts.User"


def test_sign_up_logs_the_player_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "binh",
            "email": "binh@example.com",
            "password1": "tiles-and-patterns-9",
            "password2": "tiles-and-patterns-9",
        },
    )
    assert response.status_code == 302
    home = client.get(reverse("games:home"))
    assert "binh" in home.text and "Log out" in home.text


def test_sign_up_refuses_mismatched_passwords(client):
    response = client.post(
        reverse("signup"),
        {"username": "binh", "password1": "tiles-and-9", "password2": "other-9x"},
    )
    assert response.status_code == 200
    assert not get_user_model().objects.exists()


def test_log_in_and_out(client, make_user):
    make_user("ana", password="correct-horse-42")
    response = client.post(
        reverse("login"), {"username": "ana", "password": "correct-horse-42"}
    )
    assert response.status_code == 302
    assert client.get(reverse("games:home")).context["user"].username == "ana"
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("games:home")).context["user"].is_authenticated


def test_a_session_cookie_kept_after_logout_no_longer_signs_in(client, make_user):
    """Sessions are read through a cache (settings.SESSION_ENGINE): logging out
    must end the session on the server, not only drop the browser's cookie."""
    from django.test import Client

    make_user("ana", password="correct-horse-42")
    client.post(reverse("login"), {"username": "ana", "password": "correct-horse-42"})
    stolen = client.cookies["sessionid"].value
    replay = Client()
    replay.cookies["sessionid"] = stolen
    assert replay.get(reverse("games:home")).context["user"].username == "ana"
    client.post(reverse("logout"))
    replay = Client()
    replay.cookies["sessionid"] = stolen
    assert not replay.get(reverse("games:home")).context["user"].is_authenticated


def test_login_attempts_are_throttled(client, make_user, settings):
    make_user("ana", password="correct-horse-42")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "ana", "password": "wrong"})
    response = client.post(
        reverse("login"), {"username": "ana", "password": "correct-horse-42"}
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_password_change(client_for, make_user):
    user = make_user("ana", password="correct-horse-42")
    client = client_for(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct-horse-42",
            "new_password1": "azul-blue-tiles-7",
            "new_password2": "azul-blue-tiles-7",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("azul-blue-tiles-7")


def test_password_reset_by_email(client, make_user):
    user = make_user("ana", email="ana@example.com")
    response = client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert response.status_code == 200
    response = client.post(
        response.redirect_chain[-1][0],
        {"new_password1": "new-azul-pass-3", "new_password2": "new-azul-pass-3"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-azul-pass-3")


def test_profile_lists_the_players_games(client, players, start_game):
    game = start_game(players[:2])
    response = client.get(reverse("profile", args=["ana"]))
    assert response.status_code == 200
    assert reverse("games:detail", args=[game.pk]) in response.text
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_languages_and_locale_middleware():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "vi", "pt-br", "ko"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


def test_templates_mark_their_text_for_translation():
    """Every template loads i18n; no bare English sentence outside a tag."""
    from pathlib import Path

    root = Path(settings.BASE_DIR) / "templates"
    for path in root.rglob("*.html"):
        text = path.read_text()
        if re.search(r">\s*[A-Z][a-z]+ [a-z]+", text):
            stripped = re.sub(r"{%.*?%}|{{.*?}}", "", text, flags=re.S)
            bare = re.findall(r">\s*([A-Z][a-z]+(?: [a-z]+)+)\s*<", stripped)
            assert not bare, f"{path.name}: untranslated text {bare}"
        assert "{% load" in text and "i18n" in text, path.name
