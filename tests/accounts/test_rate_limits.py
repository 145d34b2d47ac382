"""Sign-ups, password-reset e-mails and imports are rate limited (django-ratelimit)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-patterns-9"


def _sign_up(name, address="203.0.113.7"):
    return Client().post(
        reverse("signup"),
        {"username": name, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


def test_sign_ups_from_one_address_are_limited():
    answers = [_sign_up(f"player{n}").status_code for n in range(6)]
    assert answers[:5] == [302] * 5
    assert answers[5] == 429
    assert get_user_model().objects.count() == 5
    # Another address may still sign up.
    assert _sign_up("elsewhere", address="198.51.100.9").status_code == 302


def test_reset_emails_to_one_address_are_limited(client, make_user):
    make_user("binh", email="binh@example.com")
    answers = [
        client.post(
            reverse("password_reset"),
            {"email": "binh@example.com"},
            REMOTE_ADDR=f"203.0.113.{n}",  # from different clients, one recipient
        ).status_code
        for n in range(5)
    ]
    assert answers == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3


def test_reset_requests_from_one_client_are_limited(client, make_user):
    answers = [
        client.post(
            reverse("password_reset"), {"email": f"someone{n}@example.com"}
        ).status_code
        for n in range(11)
    ]
    assert answers.count(429) == 1 and answers[-1] == 429


def test_imports_per_account_are_limited(client_for, players):
    client = client_for(players[0])
    answers = [
        client.post(
            reverse("games:import"),
            {"record": SimpleUploadedFile("bad.json", b"{not json")},
        ).status_code
        for _ in range(21)
    ]
    assert answers[:20] == [200] * 20  # each refused as a bad record, in the form
    assert answers[20] == 429
    # Another account is not held back.
    other = client_for(players[1]).post(
        reverse("games:import"), {"record": SimpleUploadedFile("bad.json", b"{x")}
    )
    assert other.status_code == 200


def test_a_lockout_holds_the_client_that_failed_not_everyone(make_user, settings):
    """django-axes counts by REMOTE_ADDR (Daphne --proxy-headers puts the real
    client there behind the proxy); a forged X-Forwarded-For changes nothing."""
    make_user("ana", password="correct-horse-42")
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(settings.AXES_FAILURE_LIMIT):
        attacker.post(
            reverse("login"),
            {"username": "ana", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",  # a new forged address each time
        )
    locked = attacker.post(
        reverse("login"), {"username": "ana", "password": "correct-horse-42"}
    )
    assert locked.status_code == 429
    ana = Client(REMOTE_ADDR="192.0.2.1")
    answer = ana.post(
        reverse("login"), {"username": "ana", "password": "correct-horse-42"}
    )
    assert answer.status_code == 302
    assert "_auth_user_id" in ana.session
