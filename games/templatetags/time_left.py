"""``{{ deadline|time_left }}``: Django's ``timeuntil`` with the site's own words.

Django's bundled Vietnamese catalog lacks the ``%(num)d day`` strings its
``timeuntil`` uses since 4.x, so deadlines read "2 days" on a Vietnamese page;
these strings live in our catalogs, translated with the rest.
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import get_language, ngettext_lazy

register = template.Library()

TIME_STRINGS = {
    "year": ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    "month": ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    "week": ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    "day": ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    "hour": ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    "minute": ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
}


# Under four weeks the words depend only on the whole minutes left (no months
# are involved), so they are remembered per language and minute: every board of
# a game in progress shows its deadline.
_MEMO_LIMIT = 27 * 24 * 60
_memo: dict[tuple[str | None, int], str] = {}


@register.filter
def time_left(value: datetime | None) -> str:
    """Time until ``value`` ("2 days, 3 hours"), "" when there is none."""
    if not value:
        return ""
    if not timezone.is_aware(value):
        return timeuntil(value, time_strings=TIME_STRINGS)
    now = timezone.now()
    minutes = int((value - now).total_seconds() // 60)
    if not 0 <= minutes < _MEMO_LIMIT:
        return timeuntil(value, now, time_strings=TIME_STRINGS)
    key = (get_language(), minutes)
    text = _memo.get(key)
    if text is None:
        if len(_memo) > 4096:
            _memo.clear()
        text = _memo[key] = str(timeuntil(value, now, time_strings=TIME_STRINGS))
    return text
