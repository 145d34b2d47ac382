"""``{{ deadline|time_left }}``: Django's ``timeuntil`` with the site's own words;
``{{ game|bank_to_move }}``: the time left of the seat to move (``games.play.banks``).

Django's bundled Vietnamese catalog lacks the ``%(num)d day`` strings its
``timeuntil`` uses since 4.x, so deadlines read "2 days" on a Vietnamese page;
these strings live in our catalogs, translated with the rest.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils.timesince import timeuntil
from django.utils.translation import ngettext_lazy

from games.models import Game
from games.play import banks

register = template.Library()

TIME_STRINGS = {
    "year": ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    "month": ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    "week": ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    "day": ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    "hour": ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    "minute": ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def time_left(value: datetime | None) -> str:
    """Time until ``value`` ("2 days, 3 hours"), "" when there is none."""
    if not value:
        return ""
    strings: dict[str, Any] = TIME_STRINGS
    return str(timeuntil(value, time_strings=strings))


@register.filter
def bank_to_move(game: Game) -> banks.SeatBank | None:
    """The time left of ``game``'s seat to move (a person's), or None."""
    bank = banks.bank_to_move(game=game)
    return bank if bank is not None and bank.seconds is not None else None
