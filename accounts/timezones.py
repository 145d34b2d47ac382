"""The player's time zone (issue #18): the names offered, and its activation.

Dates and times are stored in UTC. A signed-in player's pages are drawn in their
``User.time_zone`` (``UserTimeZoneMiddleware`` activates it for the request,
as Django's time-zone documentation does); e-mails and pushes are rendered with
the recipient's zone activated (``notify.services``). Wherever a time is shown,
the zone is named beside it (``{{ when|zoned }}``, ``accounts/templatetags/zones``).
Visitors who are not signed in see UTC, named.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, tzinfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """IANA zone names (``Asia/Ho_Chi_Minh``), sorted; the system's database
    without its aliases for programs (``posix/…``, ``right/…``, ``localtime``)."""
    names = {
        name
        for name in zoneinfo.available_timezones()
        if not name.startswith(("posix/", "right/", "Etc/"))
        and name not in ("localtime", "Factory", "posixrules")
    }
    names.add("UTC")
    return tuple(sorted(names))


def zone_for(name: str | None) -> tzinfo:
    """The zone called ``name``; UTC for an empty or unknown name."""
    if name and name in time_zone_names():
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    return zoneinfo.ZoneInfo("UTC")


def zone_name(zone: tzinfo | None = None) -> str:
    """The IANA name of ``zone`` (the active one by default), as shown."""
    zone = zone or timezone.get_current_timezone()
    return str(getattr(zone, "key", None) or zone)


@contextmanager
def zone_of(user: object) -> Iterator[None]:
    """Render with ``user``'s time zone active (e-mails, pushes)."""
    with timezone.override(zone_for(getattr(user, "time_zone", ""))):
        yield


def local(value: datetime, user: object) -> datetime:
    """``value`` in ``user``'s time zone."""
    return timezone.localtime(value, zone_for(getattr(user, "time_zone", "")))


class UserTimeZoneMiddleware:
    """Activate the signed-in player's time zone for the request (else UTC)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            timezone.activate(zone_for(getattr(user, "time_zone", "")))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
