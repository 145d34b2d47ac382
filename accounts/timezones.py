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
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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


REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}
"""The regions of IANA zone names (``Asia/…``), in the time-zone drop-down's
order, each a group of its own."""


def zone_label(name: str) -> str:
    """A zone's name as people read it, everywhere it is shown: the IANA name
    with spaces for its underscores ("Asia/Ho Chi Minh"); the stored value stays
    the IANA name."""
    return name.replace("_", " ")


def time_zone_choices() -> list[tuple[Any, Any]]:
    """The zones as the drop-down offers them: UTC first, then one group per
    region (``<optgroup>``) naming each zone without its region ("Ho Chi
    Minh"), then the other names (aliases such as "US/Eastern"), whole."""
    grouped: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    other: list[tuple[str, str]] = []
    for name in time_zone_names():
        if name == "UTC":
            continue
        region, _slash, place = name.partition("/")
        if region in grouped and place:
            grouped[region].append((name, zone_label(place)))
        else:
            other.append((name, zone_label(name)))
    choices: list[tuple[Any, Any]] = [("UTC", "UTC")]
    choices += [(REGIONS[region], zones) for region, zones in grouped.items() if zones]
    if other:
        choices.append((_("Other"), other))
    return choices


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
