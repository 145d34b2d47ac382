"""E-mails about turns: "your move", the deadline reminder and the daily digest.

Rendered from templates (``templates/games/email/``) in the recipient's language:
``user.language`` when the account has one (the i18n issue adds it), else the
site's default. Links are absolute, on the site's address
(``azulsite.site_url``: ``SITE_URL``, else the address its requests came to).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from azulsite.site_url import site_url

from .models import Game


def _absolute(path: str) -> str:
    return site_url() + path


def _send(user: User, template: str, context: dict[str, Any]) -> None:
    language = getattr(user, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {
            **context,
            "user": user,
            "settings_url": _absolute(reverse("settings")),
        }
        subject = render_to_string(f"games/email/{template}_subject.txt", context)
        body = render_to_string(f"games/email/{template}_body.txt", context)
    send_mail(
        " ".join(subject.split()),
        body.strip() + "\n",
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )


def _game_url(game: Game) -> str:
    return _absolute(reverse("games:detail", kwargs={"pk": game.pk}))


def send_turn(*, user: User, game: Game) -> None:
    _send(user, "turn", {"game": game, "url": _game_url(game)})


def send_reminder(*, user: User, game: Game) -> None:
    _send(user, "reminder", {"game": game, "url": _game_url(game)})


def send_digest(*, user: User, games: Sequence[Game]) -> None:
    items = [{"game": game, "url": _game_url(game)} for game in games]
    _send(user, "digest", {"games": games, "items": items})
