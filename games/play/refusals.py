"""The words of the refusals both engines share (the same code, the same params):
a forged decision that names no such seat, factory or colour, and a record's
deal that cannot be. Each family's words module adds these to its own table;
factories are numbered from 1, as the boards number them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Words = Callable[[Mapping[str, Any]], str]


def _factory(p: Mapping[str, Any]) -> int:
    return int(p["factory"]) + 1


SHARED: dict[str, Words] = {
    "game_over": lambda p: _("The game is over."),
    "no_such_seat": lambda p: _("That move is not possible: there is no such seat."),
    "no_such_factory": lambda p: _(
        "That move is not possible: there is no such factory."
    ),
    "no_such_colour": lambda p: _(
        "That move is not possible: there is no such colour."
    ),
    "no_deal_due": lambda p: _("No deal is due now."),
    "deal_size": lambda p: (
        ngettext(
            "A deal lists %(count)s factory.",
            "A deal lists %(count)s factories.",
            p["factories"],
        )
        % {"count": p["factories"]}
    ),
    "deal_overfull": lambda p: (
        ngettext(
            "Factory %(number)s is dealt more than %(max)s tile.",
            "Factory %(number)s is dealt more than %(max)s tiles.",
            p["max"],
        )
        % {"number": _factory(p), "max": p["max"]}
    ),
    "deal_short": lambda p: (
        ngettext(
            "Factory %(number)s is dealt %(tiles)s tile while tiles remain to draw.",
            "Factory %(number)s is dealt %(tiles)s tiles while tiles remain to draw.",
            p["tiles"],
        )
        % {"number": _factory(p), "tiles": p["tiles"]}
    ),
}
"""Code → the refusal in the reader's language, from the error's params."""
