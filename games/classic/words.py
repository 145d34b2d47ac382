"""Classic Azul in words: colour names and letters, the log, refusals.

Everything is translated when it is asked for (``gettext`` at call time), so one
process serves every language. Factories, lines and columns are numbered from 1
for people (records count from 0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    ngettext,
    npgettext_lazy,
    pgettext_lazy,
)

from games.engine.classic import COLOURS, FLOOR, ClassicGame
from games.engine.common import CENTER, EngineError
from games.play.refusals import SHARED

COLOUR_NAMES = {
    "blue": gettext_lazy("blue"),
    "yellow": gettext_lazy("yellow"),
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "white": gettext_lazy("white"),
}
COUNTED_COLOUR_NAMES = {
    "blue": npgettext_lazy("colour of counted tiles", "blue", "blue", "n"),
    "yellow": npgettext_lazy("colour of counted tiles", "yellow", "yellow", "n"),
    "red": npgettext_lazy("colour of counted tiles", "red", "red", "n"),
    "black": npgettext_lazy("colour of counted tiles", "black", "black", "n"),
    "white": npgettext_lazy("colour of counted tiles", "white", "white", "n"),
}
"""A colour after a count of tiles (``tiles_colour``)."""
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


def tiles_colour(colour: str | int, count: int) -> str:
    """A colour's name as it goes with ``count`` tiles ("3 red tiles"): where
    adjectives agree (Portuguese "azulejos vermelhos") the catalog has the forms."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    label = COUNTED_COLOUR_NAMES.get(name)
    return str(label % {"n": count}) if label is not None else name


def tile(colour: int) -> dict[str, str]:
    """What ``games/_tile.html`` draws a tile of ``colour`` from (its words are
    ``label``, as a Summer Pavilion tile's; ``name`` for the other templates)."""
    name = COLOURS[colour]
    words = str(COLOUR_NAMES[name])
    return {
        "colour": name,
        "name": words,
        "label": words,
        "letter": str(COLOUR_LETTERS[name]),
    }


def from_source_label(source: int) -> str:
    """``from the centre`` or ``from factory 3``: the preposition goes with the
    source, since languages contract it ("do centro", "da fábrica 3")."""
    if source == CENTER:
        return _("from the centre")
    return _("from factory %(number)s") % {"number": source + 1}


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


class LogWords:
    """The log's phrases in the active language, each translated once: a
    ``describe_log`` call makes one and words every entry with it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.colours = [colour_name(colour) for colour in range(len(COLOURS))]
        self.take = _("%(player)s took %(count)s %(colour)s %(from_source)s → %(dest)s")
        self.take_to_floor = _("; %(count)s to the floor")
        self.take_to_lid = _("; %(count)s to the lid")
        self.take_marker = _("; took the first-player marker")
        self.wall = _(
            "%(player)s placed %(colour)s on the wall, row %(row)s column "
            "%(column)s: +%(points)s"
        )
        self.to_floor = _(
            "%(player)s had no wall space for line %(line)s: %(count)s "
            "%(colour)s to the floor"
        )
        self.round_end = _("End of round %(round)s — scores: %(scores)s")
        self._sources: dict[int, str] = {}
        self._lines: dict[int, str] = {}

    def colour(self, colour: str | int) -> str:
        return self.colours[colour] if isinstance(colour, int) else colour_name(colour)

    def source(self, source: int) -> str:
        label = self._sources.get(source)
        if label is None:
            label = self._sources[source] = from_source_label(source)
        return label

    def line(self, line: int) -> str:
        label = self._lines.get(line)
        if label is None:
            label = self._lines[line] = line_label(line)
        return label

    def describe(self, entry: Mapping[str, Any]) -> str:
        """One log entry (``ClassicGame.log``) in words, e.g. "binh took 3 red
        from factory 2 → line 4"; "" for an entry of an unknown kind."""
        names = self.names
        kind = entry["type"]
        if kind == "take":
            line = entry["line"]
            text = self.take % {
                "player": names[entry["seat"]],
                "count": entry["count"],
                "colour": self.colour(entry["colour"]),
                "from_source": self.source(entry["source"]),
                "dest": self.line(line),
            }
            if line != FLOOR and entry["to_floor"]:
                text += self.take_to_floor % {"count": entry["to_floor"]}
            if entry["to_lid"]:
                text += self.take_to_lid % {"count": entry["to_lid"]}
            if entry["marker"]:
                text += self.take_marker
            return text
        if kind == "deal":
            return ngettext(
                "Round %(round)s: %(tiles)s tile dealt to the factories",
                "Round %(round)s: %(tiles)s tiles dealt to the factories",
                entry["tiles"],
            ) % {"round": entry["round"], "tiles": entry["tiles"]}
        if kind == "wall":
            return self.wall % {
                "player": names[entry["seat"]],
                "colour": self.colour(entry["colour"]),
                "row": entry["line"] + 1,
                "column": entry["column"] + 1,
                "points": entry["points"],
            }
        if kind == "to_floor":
            return self.to_floor % {
                "player": names[entry["seat"]],
                "line": entry["line"] + 1,
                "count": entry["count"],
                "colour": self.colour(entry["colour"]),
            }
        if kind == "round_end":
            scores = ", ".join(
                f"{name} {score}"
                for name, score in zip(names, entry["scores"], strict=False)
            )
            return self.round_end % {"round": entry["round"], "scores": scores}
        return ""


def describe_entry(entry: Mapping[str, Any], names: Sequence[str]) -> str:
    """One log entry in words (see ``LogWords.describe``)."""
    return LogWords(names).describe(entry)


def describe_log(engine: ClassicGame, names: Sequence[str]) -> list[str]:
    """The game's log in words: one line per entry of ``engine.log``, in order."""
    words = LogWords(names)
    return [words.describe(entry) for entry in engine.log]


# ------------------------------------------------------------ refusals


def _human(params: Mapping[str, Any], key: str) -> Any:
    value = params.get(key)
    return value + 1 if isinstance(value, int) else value


def _colour_param(params: Mapping[str, Any], key: str) -> str:
    value = params.get(key)
    return colour_name(value) if isinstance(value, str) else ""


def _colour_absent(p: Mapping[str, Any]) -> str:
    """The source named as the board names it (factories from 1)."""
    colour = _colour_param(p, "colour")
    if p.get("source") == CENTER:
        return _("The centre has no %(colour)s tiles.") % {"colour": colour}
    return _("Factory %(number)s has no %(colour)s tiles.") % {
        "number": _human(p, "source"),
        "colour": colour,
    }


def _unreadable(p: Mapping[str, Any]) -> str:
    return _("That move could not be read.")


_MESSAGES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    **SHARED,  # games/play/refusals.py: the words both games share
    # -- whose turn, which phase ---------------------------------------------
    "no_decision": lambda p: _("The game is over."),
    "not_offer_phase": lambda p: _("Tiles cannot be taken now."),
    "not_your_turn": lambda p: _("It is not your turn."),
    "not_tiling_phase": lambda p: _("No wall placement is awaited now."),
    "wrong_wall_line": lambda p: _("Another wall line must be tiled first."),
    # -- taking tiles ------------------------------------------------------------
    "source_empty": lambda p: _("That source is empty."),
    "colour_absent": _colour_absent,
    "line_holds_other": lambda p: (
        _("Line %(line)s already holds %(held)s.")
        % {"line": _human(p, "line"), "held": _colour_param(p, "held")}
    ),
    "line_full": lambda p: _("Line %(line)s is full.") % {"line": _human(p, "line")},
    "wall_row_has_colour": lambda p: (
        _("Wall row %(line)s already has %(colour)s.")
        % {"line": _human(p, "line"), "colour": _colour_param(p, "colour")}
    ),
    # -- the grey wall -----------------------------------------------------------
    "wall_space_filled": lambda p: _("That wall space is already filled."),
    "wall_column_has_colour": lambda p: (
        _("Wall column %(column)s already has %(colour)s.")
        % {"column": _human(p, "column"), "colour": _colour_param(p, "colour")}
    ),
    # -- decisions and events that do not parse (a forged form, a broken record)
    "not_an_object": _unreadable,
    "malformed": _unreadable,
    "no_such_line": lambda p: _("That move is not possible: there is no such line."),
    "no_such_column": lambda p: _(
        "That move is not possible: there is no such column."
    ),
    "wrong_variant": lambda p: _("That is an event of a Summer Pavilion game."),
    # -- deals (in records) ------------------------------------------------------
    "deal_impossible": lambda p: (
        _("Factory %(number)s: no %(colour)s tile is left to draw.")
        % {"number": _human(p, "factory"), "colour": _colour_param(p, "colour")}
    ),
}

CODES = frozenset(_MESSAGES)
"""Every code this module words (the classic engine's refusals)."""


def error_message(error: EngineError) -> str:
    """A player's wording of a refusal of the classic engine, from ``error.code``
    and ``error.params`` (never the English message); factories, lines and
    columns counted from 1. An unknown code gives a generic refusal."""
    words = _MESSAGES.get(error.code)
    if words is None:
        return _("That move is not possible.")
    return words(error.params)
