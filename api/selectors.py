"""Reads of the API's tables that pages share: the tokens of an account that
still work, and those of a person and the bot accounts they run (the settings
page lists them)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.models import User
from api.models import ApiToken
from games import clock


def tokens_live(*, user: User) -> QuerySet[ApiToken]:
    """``user``'s tokens neither revoked nor expired, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=clock.now())
    )


def tokens_live_run_by(*, owner: User) -> QuerySet[ApiToken]:
    """The live tokens of ``owner`` and of the bot accounts ``owner`` runs
    (``User.bot_owner``), each with its account, newest first."""
    return (
        ApiToken.objects.filter(Q(user=owner) | Q(user__bot_owner=owner))
        .filter(revoked_at__isnull=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=clock.now()))
        .select_related("user")
    )
