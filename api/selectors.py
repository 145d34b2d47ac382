"""Reads of the API's tables that pages share: the tokens of an account that
still work (the settings page lists them)."""

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
