"""The admin's log-in is throttled like the site's (django-axes), at its path."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-42"


def test_the_admin_log_in_locks_after_the_failure_limit(make_user, settings):
    make_user("boss", password=PASSWORD, is_staff=True, is_superuser=True)
    login = reverse("admin:login")
    assert login == f"/{settings.ADMIN_URL}login/"
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    answers = [
        attacker.post(login, {"username": "boss", "password": "wrong"}).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    # Each failure is the form again, until the limit locks the name here.
    assert answers[:-1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert answers[-1] == 429
    locked = attacker.post(login, {"username": "boss", "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in attacker.session
    # The staff member, from their own address, still gets in.
    boss = Client(REMOTE_ADDR="192.0.2.1")
    answer = boss.post(login, {"username": "boss", "password": PASSWORD})
    assert answer.status_code == 302
    assert boss.session["_auth_user_id"]
