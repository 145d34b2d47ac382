"""Writes on the account that are not contrib.auth's."""

from __future__ import annotations

from django.conf import settings

from .models import User


def user_language_set(*, user: User, language: str) -> None:
    """Save the player's language (one of ``settings.LANGUAGES``, or "" = browser's)."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
