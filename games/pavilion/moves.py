"""Summer Pavilion's moves on the wire: the one codec of the board's strings.

A decision, or the part of one a player has chosen so far (a tile group, a space,
the tiles counted out for a bonus or to keep), is printed here as the strings the
board's links and forms carry, and read back here — as python-chess's
``Move.uci()`` and ``Move.from_uci()``. The format is ``docs/moves.md``, "Summer
Pavilion". Nothing else splits or joins these strings: ``board.py`` prints every
value through this module and parses the page's query with it, and the move form
(``forms.py``) reads a post with ``parse``.

The ``parse_*`` functions of one value return None for anything malformed (never
raise: their input is a query string anyone can write). ``parse`` reads a whole
decision and raises ``MoveSyntaxError``, an engine ``InvalidMoveError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from games.engine.pavilion import Bonus, Move, Pass, Place, Take
from games.engine.pavilion_board import COLOURS, STARS
from games.play.moves import MoveSyntaxError as MoveSyntaxError
from games.play.moves import group_value as shared_group_value
from games.play.moves import parse_group as shared_parse_group
from games.play.moves import parse_source as parse_source
from games.play.moves import source_value as source_value

TAKE, PLACE, BONUS, PASS = "take", "place", "bonus", "pass"
"""The ``kind`` of a decision."""
KEEP = "keep"
"""The prefix of the counts of the tiles kept by a pass (``keep_<colour>``);
:data:`BONUS` is that of the bonus tiles' (``bonus_<colour>``)."""
GROUP = "take"
"""The field and query parameter of a tile group (``3:red``)."""
SPACE = "space"
"""The field and query parameter of a space (``red-2``)."""
PASS_ASKED = {PASS: "1"}
"""The query that opens the pass and its counts (``?pass=1``)."""
FIELDS: tuple[str, ...] = (
    "kind",
    "source",
    "colour",
    GROUP,
    SPACE,
    "payment",
    *(f"{prefix}_{colour}" for prefix in (BONUS, KEEP) for colour in COLOURS),
)
"""Every field a decision's post may carry (besides ``expected_ply``). ``take``
(:data:`GROUP`) stands for ``source`` and ``colour``: a tile group's own button."""

_COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}
_STAR_INDEX = {name: index for index, name in enumerate(STARS)}
_NUMBERS = {str(number): number for number in range(1, 7)}
_WILDS = {str(wilds): wilds for wilds in range(6)}
_COUNT = re.compile(r"[0-9]{1,2}")
_ANY_SEAT = 0
"""A post names no seat (the service adds the player's): the engine's move, printed
by its ``to_event()``, gets this one, then loses it."""


# ------------------------------------------------------------------ one value


def colour_value(colour: int) -> str:
    """A colour's name in the record (``"red"``)."""
    return COLOURS[colour]


def parse_colour(value: str | None) -> int | None:
    return _COLOUR_INDEX.get(value) if value is not None else None


def group_value(source: int, colour: int) -> str:
    """A tile group, the page's ``?take=``: ``"3:red"``, ``"center:red"``
    (``games.play.moves.group_value``)."""
    return shared_group_value(source, colour_value(colour))


def parse_group(value: str | None) -> tuple[int, int] | None:
    """``"3:red"`` → ``(3, colour index)``; None for anything else."""
    return shared_parse_group(value, _COLOUR_INDEX)


def space_value(star: int, number: int) -> str:
    """A space of a board by its star (index) and number 1–6: ``"red-2"``."""
    return f"{STARS[star]}-{number}"


def parse_space(value: str | None) -> tuple[int, int] | None:
    """``"red-2"`` → ``(star index, 2)``; None for anything else."""
    star_text, dash, number_text = (value or "").rpartition("-")
    star, number = _STAR_INDEX.get(star_text), _NUMBERS.get(number_text)
    if not dash or star is None or number is None:
        return None
    return star, number


def payment_value(colour: int, wilds: int) -> str:
    """The tile placed and the wild tiles paying for it: ``"blue:1"``."""
    return f"{colour_value(colour)}:{wilds}"


def parse_payment(value: str | None) -> tuple[int, int] | None:
    """``"blue:1"`` → ``(colour index, 1)``; None for anything else."""
    colour_text, colon, wilds_text = (value or "").partition(":")
    colour, wilds = parse_colour(colour_text), _WILDS.get(wilds_text)
    if not colon or colour is None or wilds is None:
        return None
    return colour, wilds


def count_fields(prefix: str, counts: Sequence[int]) -> dict[str, str]:
    """Tiles counted by colour (:data:`BONUS`, :data:`KEEP`): a field
    ``<prefix>_<colour>`` for each colour, e.g. ``{"keep_purple": "0", ...,
    "keep_red": "2"}``."""
    return {f"{prefix}_{COLOURS[c]}": str(n) for c, n in enumerate(counts)}


def parse_count(value: str | None) -> int | None:
    """One count: 1–2 ASCII digits, absent or blank 0; None for anything else."""
    if not value:
        return 0
    return int(value) if _COUNT.fullmatch(value) else None


def parse_counts(data: Mapping[str, str], prefix: str) -> list[int] | None:
    """The counts ``count_fields`` prints, read back; None when one does not
    read (``parse_count``)."""
    counts = [parse_count(data.get(f"{prefix}_{name}")) for name in COLOURS]
    return None if None in counts else [n for n in counts if n is not None]


def pass_asked(query: Mapping[str, str]) -> bool:
    """Whether the page's query opens the pass (:data:`PASS_ASKED`)."""
    return all(query.get(name) == value for name, value in PASS_ASKED.items())


def count_query(base: Mapping[str, str], prefix: str, counts: Sequence[int]) -> str:
    """The page's query choosing ``counts`` (after ``base``, such as
    :data:`PASS_ASKED`), the colours counted only: ``?pass=1&keep_red=2``, or
    ``""`` when empty."""
    chosen = {name: n for name, n in count_fields(prefix, counts).items() if n != "0"}
    fields = {**base, **chosen}
    return "?" + urlencode(fields) if fields else ""


# -------------------------------------------------------------- a decision


def place_fields(star: int, number: int) -> dict[str, str]:
    """The fields of a placement whose space is chosen and whose payment is not."""
    return {"kind": PLACE, SPACE: space_value(star, number)}


def fields(move: Move) -> dict[str, str]:
    """A decision as its form posts it (without ``expected_ply``)."""
    if isinstance(move, Take):
        source, colour = source_value(move.source), colour_value(move.colour)
        return {"kind": TAKE, "source": source, "colour": colour}
    if isinstance(move, Place):
        payment = payment_value(move.colour, move.wilds)
        return {**place_fields(move.star, move.space), "payment": payment}
    if isinstance(move, Bonus):
        return {"kind": BONUS, **count_fields(BONUS, _counts(move.tiles))}
    return {"kind": PASS, **count_fields(KEEP, _counts(move.keep))}


def parse(data: Mapping[str, str]) -> dict[str, Any]:
    """A decision's fields (``fields``) read back: its record event without the
    ``seat`` (``docs/record.md``), as the engine prints it. An absent field and
    ``""`` are the same; fields other than :data:`FIELDS` are ignored.

    ``MoveSyntaxError`` codes besides ``unreadable``: ``no_tiles`` (a take
    without its source or colour), ``no_space`` (a placement without its space
    or payment), ``no_bonus`` (a bonus of no tile).
    """
    values = {name: data.get(name) or None for name in FIELDS}
    kind = values["kind"]
    if kind not in (TAKE, PLACE, BONUS, PASS):
        raise MoveSyntaxError(f"kind {kind!r} cannot be read", "unreadable", "kind")
    read: dict[str, Any] = {
        "source": parse_source(values["source"]),
        "colour": parse_colour(values["colour"]),
        GROUP: parse_group(values[GROUP]),
        SPACE: parse_space(values[SPACE]),
        "payment": parse_payment(values["payment"]),
    }
    for name, parsed in read.items():
        if values[name] is not None and parsed is None:
            message = f"{name} {values[name]!r} cannot be read"
            raise MoveSyntaxError(message, "unreadable", name)
    counts: dict[str, list[int]] = {BONUS: [], KEEP: []}
    for prefix, found in counts.items():
        for name in COLOURS:
            field = f"{prefix}_{name}"
            count = parse_count(values[field])
            if count is None:
                message = f"{field} {values[field]!r} cannot be read"
                raise MoveSyntaxError(message, "unreadable", field)
            found.append(count)
    move: Move
    if kind == TAKE:
        source, colour = read["source"], read["colour"]
        if source is None and read[GROUP] is not None:
            source, colour = read[GROUP]
        if source is None or colour is None:
            raise MoveSyntaxError("a take needs its source and colour", "no_tiles")
        move = Take(_ANY_SEAT, source, colour)
    elif kind == PLACE:
        space, payment = read[SPACE], read["payment"]
        if space is None or payment is None:
            raise MoveSyntaxError("a placement needs its space and payment", "no_space")
        move = Place(_ANY_SEAT, *space, *payment)
    elif kind == BONUS:
        if not any(counts[BONUS]):
            raise MoveSyntaxError("a bonus needs its tiles", "no_bonus")
        move = Bonus(_ANY_SEAT, _tiles(counts[BONUS]))
    else:
        move = Pass(_ANY_SEAT, _tiles(counts[KEEP]))
    event = move.to_event()
    del event["seat"]
    return event


def _counts(tiles: Sequence[int]) -> list[int]:
    return [tiles.count(colour) for colour in range(len(COLOURS))]


def _tiles(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(c for c, n in enumerate(counts) for _n in range(n))
