"""``{{ when|zoned }}``: a date and time in the active time zone, the zone named
("Dec. 5, 2026, 5 p.m. (Asia/Ho Chi Minh)"), issue #18; ``{{ name|zone_label }}``:
a zone's name as shown (``accounts.timezones.zone_label``)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import formats, timezone
from django.utils.translation import gettext

from accounts import timezones

register = template.Library()


@register.filter
def zoned(value: datetime | None, format_name: str = "DATETIME_FORMAT") -> str:
    """``value`` in the active zone, formatted in the active language, with the
    zone's name; "" for no value."""
    if not isinstance(value, datetime):
        return ""
    moment = timezone.localtime(value) if timezone.is_aware(value) else value
    return gettext("%(when)s (%(zone)s)") % {
        "when": formats.date_format(moment, format_name),
        "zone": timezones.zone_label(timezones.zone_name()),
    }


@register.filter
def zone_label(name: str) -> str:
    """The zone called ``name`` as people read it ("Asia/Ho Chi Minh")."""
    return timezones.zone_label(str(name or ""))
