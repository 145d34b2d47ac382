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


def computer_player(*, level: str) -> User:
    """The account of the computer player of ``level`` (created on first use).

    Its password is unusable (nobody logs in as it) and it has no e-mail.
    """
    from .models import COMPUTER_USERNAMES

    try:
        username = COMPUTER_USERNAMES[User.ComputerLevel(level)]
    except ValueError:
        raise ValueError(f"unknown computer level {level!r}") from None
    user, created = User.objects.get_or_create(
        computer_level=level,
        defaults={"username": username, "email": "", "play_forced": True},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
