"""``{% presence_mark presence user %}``: "online now" or "last seen … ago"
after a player's name (issue #26, docs/together.md "Who is around"), and
``{% presence_meaning %}``: what "online now" means on this site (issue #33).

``presence`` is what ``accounts.selectors.presence`` returned for the page's
viewer; a player absent from it (hidden, a computer, nobody) gets nothing. The
one place the words are written (``accounts/_presence.html``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.selectors import Presence

register = template.Library()

JUST_NOW = timedelta(minutes=1)
"""Under this, "last seen just now" (``timesince`` would say "0 minutes")."""


@register.simple_tag
def presence_mark(
    presence: Mapping[int, Presence] | None, user: Any
) -> SafeString | str:
    """``<span class="presence" data-presence="online|away" …>`` for ``user``,
    or "" when the viewer sees nothing of them."""
    mark = (presence or {}).get(getattr(user, "pk", None) or 0)
    if mark is None or (not mark.online and mark.last_seen_at is None):
        return ""
    ago = ""
    seen = mark.last_seen_at
    if not mark.online and seen is not None and timezone.now() - seen >= JUST_NOW:
        ago = timesince(seen, depth=1)
    # stripped: the template file's last line break would read as a space
    # before the comma that follows the mark (issue #35 item 7)
    return mark_safe(  # noqa: S308 (rendered by the template engine, escaped)
        render_to_string(
            "accounts/_presence.html", {"mark": mark, "ago": ago, "seen": seen}
        ).strip()
    )


@register.simple_tag
def presence_meaning() -> str:
    """What "online now" means, with this site's ``PRESENCE_ONLINE_SECONDS``
    (``accounts.selectors.presence``): a game page open, or a request within it."""
    seconds = int(settings.PRESENCE_ONLINE_SECONDS)
    if seconds <= 0:
        return _("Online now means a game page of theirs is open.")
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext(
            "Online now means a game page of theirs is open, or they opened a page "
            "of the site in the last minute.",
            "Online now means a game page of theirs is open, or they opened a page "
            "of the site in the last %(minutes)s minutes.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Online now means a game page of theirs is open, or they opened a page "
        "of the site in the last second.",
        "Online now means a game page of theirs is open, or they opened a page "
        "of the site in the last %(seconds)s seconds.",
        seconds,
    ) % {"seconds": seconds}
