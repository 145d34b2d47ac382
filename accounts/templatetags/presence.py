"""``{% presence_mark presence user %}``: "online now" or "last seen … ago"
after a player's name (issue #26, docs/together.md "Who is around").

``presence`` is what ``accounts.selectors.presence`` returned for the page's
viewer; a player absent from it (hidden, a computer, nobody) gets nothing. The
one place the words are written (``accounts/_presence.html``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.timesince import timesince

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
    return render_to_string(
        "accounts/_presence.html", {"mark": mark, "ago": ago, "seen": seen}
    )
