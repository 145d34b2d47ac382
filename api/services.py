"""Writes of the API: tokens made, used and revoked, a token's one request at
a time, the answers kept for an ``Idempotency-Key``, the events logged for an
account. A token is never stored nor logged: only its SHA-256."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from api.models import SCOPES, ApiEvent, ApiToken, IdempotentAnswer
from games import clock

TOKEN_PREFIX = "azul_"
TOKEN_BYTES = 32
SHOWN_PREFIX = 12
"""Characters of a token kept to tell it apart (``azul_`` and 7 more)."""
BUSY_SECONDS = 60
"""A request's hold on its token, at most (its process may die holding it)."""
LAST_USED_EVERY = timedelta(minutes=1)
"""A token's last use is written at most this often."""


class TokenError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(
    *,
    user: User,
    name: str,
    scopes: Iterable[str],
    expires_at: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token of ``user``: the row, and the secret, shown this once."""
    scopes = sorted(set(scopes))
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise TokenError(
            _("Unknown scope: %(scopes)s.") % {"scopes": ", ".join(unknown)}
        )
    if not scopes:
        raise TokenError(_("Choose at least one scope."))
    name = name.strip()
    if not name:
        raise TokenError(_("Give the token a name."))
    if expires_at is not None and expires_at <= clock.now():
        raise TokenError(_("The expiry must be in the future."))
    secret = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    token = ApiToken.objects.create(
        user=user,
        name=name[:60],
        prefix=secret[:SHOWN_PREFIX],
        digest=digest(secret),
        scopes=scopes,
        created_at=clock.now(),
        expires_at=expires_at,
    )
    return token, secret


def token_revoke(*, token_id: int, user: User) -> bool:
    """Revoke one of ``user``'s tokens; whether it was theirs and live."""
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=clock.now()
        )
    )


def token_for(secret: str) -> ApiToken | None:
    """The live token ``secret`` is (not revoked, not expired, its account
    active), with its user; None for anything else."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
        return None
    now = clock.now()
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest(secret), revoked_at__isnull=True, user__is_active=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .first()
    )
    if token is None:
        return None
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def token_claim(token: ApiToken) -> bool:
    """Hold ``token`` for one request; False while another of its requests is
    being answered (compare and set: two processes hold it once)."""
    now = clock.now()
    return bool(
        ApiToken.objects.filter(pk=token.pk)
        .filter(Q(busy_until__isnull=True) | Q(busy_until__lt=now))
        .update(busy_until=now + timedelta(seconds=BUSY_SECONDS))
    )


def token_release(token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk).update(busy_until=None)


def answer_kept(*, token: ApiToken, key: str) -> IdempotentAnswer | None:
    return IdempotentAnswer.objects.filter(token=token, key=key[:100]).first()


def answer_keep(*, token: ApiToken, key: str, status: int, body: Any) -> None:
    """Keep the first answer for ``key`` (a second keeper loses quietly)."""
    try:
        with transaction.atomic():
            IdempotentAnswer.objects.create(
                token=token,
                key=key[:100],
                status=status,
                body=body,
                created_at=clock.now(),
            )
    except IntegrityError:
        pass


def event_add(*, user_ids: Iterable[int], kind: str, data: dict[str, Any]) -> None:
    """Log ``kind`` with ``data`` for each account of ``user_ids``."""
    now = clock.now()
    ApiEvent.objects.bulk_create(
        [
            ApiEvent(user_id=uid, kind=kind, data=data, created_at=now)
            for uid in user_ids
        ]
    )


def token_touch(token: ApiToken) -> None:
    """An open stream of ``token`` is alive: its last use is now (at most
    once a minute), so the ladder sees its bot online."""
    now = clock.now()
    ApiToken.objects.filter(pk=token.pk).filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
    ).update(last_used_at=now)
