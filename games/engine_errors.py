"""Engine refusals worded for players, translatable (the engines speak English).

Both engines give each error a stable ``code`` and its ``params``
(``games.engine.common.EngineError``). :func:`engine_error_message` is the one entry
point: it words classic refusals here (lines, columns and factories shown 1-based to
people) and hands Summer Pavilion ones to ``games.pavilion_errors``, by the game's
variant, since the two engines share some codes.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.common import EngineError

from .pavilion_errors import pavilion_error_message
from .tiles import colour_name


def _human(params: dict[str, Any], key: str) -> Any:
    value = params.get(key)
    return value + 1 if isinstance(value, int) else value


def engine_error_message(error: EngineError, *, variant: str) -> str:
    """A player's wording of ``error``, raised by the engine of ``variant``."""
    if variant.startswith("pavilion"):
        return pavilion_error_message(error)
    return _classic_error_message(error)


def _classic_error_message(error: EngineError) -> str:
    p = error.params
    colour = colour_name(p["colour"]) if isinstance(p.get("colour"), str) else ""
    messages = {
        "not_offer_phase": _("Tiles cannot be taken now."),
        "not_your_turn": _("It is not your turn."),
        "source_empty": _("That source is empty."),
        "colour_absent": _("That source has no %(colour)s tiles.") % {"colour": colour},
        "line_holds_other": _("Line %(line)s already holds %(held)s.")
        % {
            "line": _human(p, "line"),
            "held": colour_name(p["held"]) if isinstance(p.get("held"), str) else "",
        },
        "line_full": _("Line %(line)s is full.") % {"line": _human(p, "line")},
        "wall_row_has_colour": _("Wall row %(line)s already has %(colour)s.")
        % {"line": _human(p, "line"), "colour": colour},
        "not_tiling_phase": _("No wall placement is awaited now."),
        "wrong_wall_line": _("Another wall line must be tiled first."),
        "wall_space_filled": _("That wall space is already filled."),
        "wall_column_has_colour": _("Wall column %(column)s already has %(colour)s.")
        % {"column": _human(p, "column"), "colour": colour},
    }
    return messages.get(error.code, _("That move is not possible."))
