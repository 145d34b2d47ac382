"""Writes on the account that are not contrib.auth's."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from . import signals
from .models import Block, User


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


class BlockError(ValueError):
    """A block the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def block_create(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked``: no invitation from them any more (issue
    #23). Blocking again changes nothing. Their invitations to ``blocker`` still
    waiting for an answer are declined, as if ``blocker`` had declined each:
    the seat opens to anyone, and they are told nothing else
    (``signals.block_created``: ``games.receivers``, in this transaction)."""
    if blocked.pk == blocker.pk:
        raise BlockError(_("You cannot block yourself."))
    if blocked.is_computer:
        raise BlockError(_("A computer player cannot be blocked."))
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        signals.block_created.send(sender=Block, blocker=blocker, blocked=blocked)
    return block


def block_delete(*, blocker: User, blocked: User) -> None:
    """``blocker`` no longer blocks ``blocked`` (nothing to do if they did not)."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()
