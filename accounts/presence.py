"""When a player was last seen (issue #26, docs/together.md "Who is around").

``LastSeenMiddleware`` writes ``User.last_seen_at`` on a signed-in player's
request at most once a minute (``TOUCH_EVERY``): Django's cache remembers that
the player was just written (``cache.add``, one round trip, no session write),
so all other requests write nothing. Logging in writes it too (and starts the
minute), as does closing a page's socket (``games.consumers``). Who is online
is read by ``selectors.presence``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from . import services
from .models import User

TOUCH_EVERY = 60
"""Seconds between two writes of one player's ``last_seen_at`` by requests."""


def _key(user_id: int) -> str:
    return f"accounts-seen-{user_id}"


def seen(*, user_id: int) -> None:
    """Write that ``user_id`` is around, unless it was written less than
    ``TOUCH_EVERY`` seconds ago (in any process sharing the cache)."""
    if cache.add(_key(user_id), True, timeout=TOUCH_EVERY):
        services.user_seen(user_id=user_id)


class LastSeenMiddleware:
    """A signed-in player's request: seen (after ``AuthenticationMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if isinstance(user, User) and not user.is_computer:
            seen(user_id=user.pk)
        return self.get_response(request)


def on_logged_in(*, user: Any, **_: Any) -> None:
    """Logging in is being seen: written now, and the minute starts."""
    if isinstance(user, User):
        cache.set(_key(user.pk), True, timeout=TOUCH_EVERY)
        services.user_seen(user_id=user.pk)


def connect() -> None:
    user_logged_in.connect(on_logged_in, dispatch_uid="accounts.presence.logged_in")
