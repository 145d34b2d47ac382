"""``{{ user|computer_badge }}``: the BOT mark after a computer player's name,
where the name does not already say it (a computer's shown name does).

The one place the mark is written (issue #16: computer players are marked on
every page that shows a name). Templates print the name as they always did
(``<bdi>{{ seat.name }}</bdi>``) and this filter after it; for a person, or an
imported record's seat (no user), it prints nothing.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.models import COMPUTER_USERNAMES

register = template.Library()


@register.filter
def computer_badge(user: Any) -> SafeString | str:
    """`` <abbr class="bot" …>BOT</abbr>`` (``games/_computer_badge.html``) for
    a computer's account whose shown name does not already say it is the
    computer, else "".

    A computer player's shown name is its level's name, "Computer (easy)" in
    the reader's language (``User.shown_name``), which no person can take: the
    name is its mark, and a badge after it would say it twice ("Máy (dễ) MÁY",
    issue #35 item 7)."""
    if getattr(user, "bot_owner_id", None) is not None:
        # a program's account (issue #39): BOT, and who runs it
        return render_to_string(
            "games/_computer_badge.html",
            {"owner": user.bot_owner.username if user.bot_owner else ""},
        )
    level = getattr(user, "computer_level", "")
    if not level or level in COMPUTER_USERNAMES:
        return ""
    return render_to_string(
        "games/_computer_badge.html",
        {"level": level, "label": user.get_computer_level_display()},
    )
