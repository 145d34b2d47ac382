"""Classic Azul in words: colour names and letters, the log, refusals.

Everything is translated when it is asked for (``gettext`` at call time), so one
process serves every language. Factories, lines and columns are numbered from 1
for people (records count from 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engine.classic import COLOURS, FLOOR, ClassicGame
from games.engine.common import CENTER, EngineError

COLOUR_NAMES = {
    "blue": gettext_lazy("blue"),
    "yellow": gettext_lazy("yellow"),
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "white": gettext_lazy("white"),
}
COLOUR_LETTERS = {
    "blue": pgettext_lazy("tile letter for blue", "B"),
    "yellow": pgettext_lazy("tile letter for yellow", "Y"),
    "red": pgettext_lazy("tile letter for red", "R"),
    "black": pgettext_lazy("tile letter for black", "K"),
    "white": pgettext_lazy("tile letter for white", "W"),
}
"""A letter on every tile: colour is never the only cue."""


def colour_name(colour: str | int) -> str:
    """Translated name of a colour (its record name or index)."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    label = COLOUR_NAMES.get(name)
    return str(label) if label is not None else name


def tile(colour: int) -> dict[str, str]:
    """What ``games/classic/_tile.html`` draws a tile of ``colour`` from."""
    name = COLOURS[colour]
    return {
        "colour": name,
        "name": str(COLOUR_NAMES[name]),
        "letter": str(COLOUR_LETTERS[name]),
    }


def source_label(source: int) -> str:
    """``the centre`` or ``factory 3`` (factory index 2)."""
    if source == CENTER:
        return _("the centre")
    return _("factory %(number)s") % {"number": source + 1}


def line_label(line: int) -> str:
    """``the floor`` or ``line 2`` (line index 1)."""
    if line == FLOOR:
        return _("the floor")
    return _("line %(number)s") % {"number": line + 1}


def overflow_text(count: int) -> str:
    """What a destination sends to the floor: ``(2 to the floor)``."""
    return ngettext("(%(n)s to the floor)", "(%(n)s to the floor)", count) % {
        "n": count
    }


# ------------------------------------------------------------------ the log


def describe_entry(entry: Mapping[str, Any], names: Sequence[str]) -> str:
    """One log entry (``ClassicGame.log``) in words, e.g. "binh took 3 red from
    factory 2 → line 4"; "" for an entry of an unknown kind."""
    kind = entry["type"]
    if kind == "take":
        line = entry["line"]
        text = _("%(player)s took %(count)s %(colour)s from %(source)s → %(dest)s") % {
            "player": names[entry["seat"]],
            "count": entry["count"],
            "colour": colour_name(entry["colour"]),
            "source": source_label(entry["source"]),
            "dest": line_label(line),
        }
        if line != FLOOR and entry["to_floor"]:
            text += _("; %(count)s to the floor") % {"count": entry["to_floor"]}
        if entry["to_lid"]:
            text += _("; %(count)s to the lid") % {"count": entry["to_lid"]}
        if entry["marker"]:
            text += _("; took the first-player marker")
        return text
    if kind == "deal":
        return _("Round %(round)s: %(tiles)s tiles dealt to the factories") % {
            "round": entry["round"],
            "tiles": entry["tiles"],
        }
    if kind == "wall":
        return _(
            "%(player)s placed %(colour)s on the wall, row %(row)s column "
            "%(column)s: +%(points)s"
        ) % {
            "player": names[entry["seat"]],
            "colour": colour_name(entry["colour"]),
            "row": entry["line"] + 1,
            "column": entry["column"] + 1,
            "points": entry["points"],
        }
    if kind == "to_floor":
        return _(
            "%(player)s had no wall space for line %(line)s: %(count)s "
            "%(colour)s to the floor"
        ) % {
            "player": names[entry["seat"]],
            "line": entry["line"] + 1,
            "count": entry["count"],
            "colour": colour_name(entry["colour"]),
        }
    if kind == "round_end":
        scores = ", ".join(
            f"{name} {score}"
            for name, score in zip(names, entry["scores"], strict=False)
        )
        return _("End of round %(round)s — scores: %(scores)s") % {
            "round": entry["round"],
            "scores": scores,
        }
    return ""


def describe_log(engine: ClassicGame, names: Sequence[str]) -> list[str]:
    """The game's log in words: one line per entry of ``engine.log``, in order."""
    return [describe_entry(entry, names) for entry in engine.log]


# ------------------------------------------------------------ refusals


def _human(params: Mapping[str, Any], key: str) -> Any:
    value = params.get(key)
    return value + 1 if isinstance(value, int) else value


def _colour_param(params: Mapping[str, Any], key: str) -> str:
    value = params.get(key)
    return colour_name(value) if isinstance(value, str) else ""


def error_message(error: EngineError) -> str:
    """A player's wording of a refusal of the classic engine (``error.code``)."""
    p = error.params
    code = error.code
    if code == "not_offer_phase":
        return _("Tiles cannot be taken now.")
    if code == "not_your_turn":
        return _("It is not your turn.")
    if code == "source_empty":
        return _("That source is empty.")
    if code == "colour_absent":
        return _("That source has no %(colour)s tiles.") % {
            "colour": _colour_param(p, "colour")
        }
    if code == "line_holds_other":
        return _("Line %(line)s already holds %(held)s.") % {
            "line": _human(p, "line"),
            "held": _colour_param(p, "held"),
        }
    if code == "line_full":
        return _("Line %(line)s is full.") % {"line": _human(p, "line")}
    if code == "wall_row_has_colour":
        return _("Wall row %(line)s already has %(colour)s.") % {
            "line": _human(p, "line"),
            "colour": _colour_param(p, "colour"),
        }
    if code == "not_tiling_phase":
        return _("No wall placement is awaited now.")
    if code == "wrong_wall_line":
        return _("Another wall line must be tiled first.")
    if code == "wall_space_filled":
        return _("That wall space is already filled.")
    if code == "wall_column_has_colour":
        return _("Wall column %(column)s already has %(colour)s.") % {
            "column": _human(p, "column"),
            "colour": _colour_param(p, "colour"),
        }
    return _("That move is not possible.")
