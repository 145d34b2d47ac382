"""Classic Azul's moves on the wire: the one codec of the board's strings.

A decision, or the part of one a player has chosen so far (a tile group, a line),
is printed here as the strings the board's links, forms and data attributes carry,
and read back here — as python-chess's ``Move.uci()`` and ``Move.from_uci()``. The
format is ``docs/moves.md``, "Azul". Nothing else splits or joins these strings:
``board.py`` prints every value through this module and parses the page's query
with it, the move form (``forms.py``) reads a post with ``parse``, and
``static/js/board.js`` copies only what was printed here.

The ``parse_*`` functions of one value return None for anything malformed (never
raise: their input is a query string anyone can write). ``parse`` reads a whole
decision and raises :class:`MoveSyntaxError`, an engine ``InvalidMoveError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from games.engine.classic import COLOUR_INDEX, COLOURS, FLOOR, Take, WallPlacement
from games.play.moves import MoveSyntaxError as MoveSyntaxError
from games.play.moves import group_value as shared_group_value
from games.play.moves import parse_group as shared_parse_group
from games.play.moves import parse_source as parse_source
from games.play.moves import source_value as source_value

FLOOR_VALUE = "floor"
"""The floor line as a destination."""
TAKE, WALL = "take", "wall"
"""The ``kind`` of a decision: a take, or a grey-wall placement."""
FIELDS: tuple[str, ...] = ("kind", "source", "colour", "line", "column")
"""Every field a decision's post may carry (besides ``expected_ply``)."""
GROUP, LINE = "group", "line"
"""The query parameters of the page's selection: a tile group, then its line."""
COLUMN = "column"
"""The query parameter of a grey-wall column chosen, to confirm."""

_LINES = {**{str(line): line for line in range(5)}, FLOOR_VALUE: FLOOR}
_COLUMNS = {str(column): column for column in range(5)}
_ANY_SEAT = 0
"""A post names no seat (the service adds the player's): the engine's move, printed
by its ``to_event()``, gets this one, then loses it."""


# ------------------------------------------------------------------ one value


def colour_value(colour: int) -> str:
    """A colour's name in the record (``"red"``)."""
    return COLOURS[colour]


def parse_colour(value: str | None) -> int | None:
    return COLOUR_INDEX.get(value) if value is not None else None


def line_value(line: int) -> str:
    """A pattern line 0–4 (``"2"``) or the floor (``"floor"``)."""
    return FLOOR_VALUE if line == FLOOR else str(line)


def parse_line(value: str | None) -> int | None:
    return _LINES.get(value) if value is not None else None


def column_value(column: int) -> str:
    """A wall column 0–4, 0 the leftmost."""
    return str(column)


def parse_column(value: str | None) -> int | None:
    return _COLUMNS.get(value) if value is not None else None


def group_value(source: int, colour: int) -> str:
    """A tile group, the page's ``?group=``: ``"3:red"``, ``"center:red"``
    (``games.play.moves.group_value``)."""
    return shared_group_value(source, colour_value(colour))


def parse_group(value: str | None) -> tuple[int, int] | None:
    """``"3:red"`` → ``(3, colour index)``; None for anything else."""
    return shared_parse_group(value, COLOUR_INDEX)


def destinations_value(overflow_by_line: Mapping[int, int]) -> str:
    """A group's legal lines for ``board.js`` (``data-dests``): a JSON object from
    each line's value to how many of the group's tiles it sends to the floor."""
    return json.dumps(
        {line_value(line): n for line, n in sorted(overflow_by_line.items())},
        separators=(",", ":"),
    )


# -------------------------------------------------------------- a decision


def group_fields(group: tuple[int, int] | None) -> dict[str, str]:
    """The fields of a take whose group (source, colour) is chosen and whose line
    is not yet; with no group, the same fields blank (for ``board.js`` to fill)."""
    if group is None:
        return {"kind": TAKE, "source": "", "colour": ""}
    source, colour = group
    return {
        "kind": TAKE,
        "source": source_value(source),
        "colour": colour_value(colour),
    }


def wall_fields(line: int) -> dict[str, str]:
    """The fields of a grey-wall placement whose column is not yet chosen."""
    return {"kind": WALL, "line": line_value(line)}


def fields(move: Take | WallPlacement) -> dict[str, str]:
    """A decision as its form posts it (without ``expected_ply``)."""
    if isinstance(move, WallPlacement):
        return {**wall_fields(move.line), "column": column_value(move.column)}
    group = (move.source, move.colour)
    return {**group_fields(group), "line": line_value(move.line)}


def selection_query(source: int, colour: int, line: int | None = None) -> str:
    """The page's query selecting a group, and a line for its preview:
    ``?group=3%3Ared&line=2``."""
    query = {GROUP: group_value(source, colour)}
    if line is not None:
        query[LINE] = line_value(line)
    return "?" + urlencode(query)


def parse(data: Mapping[str, str]) -> dict[str, Any]:
    """A decision's fields (``fields``) read back: its record event without the
    ``seat`` (``docs/record.md``), as the engine prints it. An absent field and
    ``""`` are the same; fields other than :data:`FIELDS` are ignored."""
    values = {name: data.get(name) or None for name in FIELDS}
    kind = values["kind"]
    if kind not in (TAKE, WALL):
        raise MoveSyntaxError(f"kind {kind!r} cannot be read", "unreadable", "kind")
    read = {
        "source": parse_source(values["source"]),
        "colour": parse_colour(values["colour"]),
        "line": parse_line(values["line"]),
        "column": parse_column(values["column"]),
    }
    for name, parsed in read.items():
        if values[name] is not None and parsed is None:
            message = f"{name} {values[name]!r} cannot be read"
            raise MoveSyntaxError(message, "unreadable", name)
    line = read["line"]
    if line is None:
        raise MoveSyntaxError("a decision needs its line", "unreadable", "line")
    move: Take | WallPlacement
    if kind == TAKE:
        source, colour = read["source"], read["colour"]
        if source is None or colour is None:
            raise MoveSyntaxError("a take needs its source and colour", "no_tiles")
        move = Take(_ANY_SEAT, source, colour, line)
    else:
        column = read["column"]
        if column is None or line == FLOOR:
            raise MoveSyntaxError("a wall placement needs a column", "no_column")
        move = WallPlacement(_ANY_SEAT, line, column)
    event = move.to_event()
    del event["seat"]
    return event
