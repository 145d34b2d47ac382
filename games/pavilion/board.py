"""What a Summer Pavilion page shows, as plain data for the templates.

``position_context(engine, names)`` is any position, read-only
(``templates/games/pavilion/_position.html``; the live board and the replay both
draw it); ``live_context(...)`` adds the decision of the player whose page it is
(``_live.html``). Everything on the table is public, the bag's and the tower's
contents included as counts (``docs/rules/summer-pavilion.md §9``).

A tile is a dict ``{"colour", "letter", "label", "wild"}`` that
``games/_tile.html`` draws; the board's geometry (SVG points, label positions) is
numbers written as strings, and the templates write all the markup.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.common import CENTER, EngineError
from games.engine.pavilion import (
    MAX_KEEP,
    ROUNDS,
    STRUCTURES,
    Bonus,
    Pass,
    PavilionGame,
    Phase,
    Place,
    Take,
)
from games.engine.pavilion_board import COLOURS, STARS
from games.pavilion import moves
from games.pavilion.words import (
    colour_label,
    colour_letter,
    error_message,
    from_source_label,
    list_colours,
    payment_label,
    points_text,
    space_label,
    star_label,
    structure_label,
    taken_label,
    tile_label,
)
from games.selectors import SeatView

PHASE_TWO = (Phase.PLACE, Phase.BONUS, Phase.SUPPLY)
"""The phases of a round's second half (placing), when a seat may have passed."""


# ---------------------------------------------------------------- geometry
# The board in a 100 × 100 box: the centre star in the middle, the six outer stars
# around it, clockwise from upper-left: orange, red, blue, yellow, green, purple
# (docs/rules/summer-pavilion.md §2). Angles are degrees clockwise from "up".
# Each space is a
# 60° diamond with one corner at its star's centre; on an outer star at angle φ,
# spaces 2 and 3 face the centre, 5 and 6 flank the window (space n points at
# φ + 90 + 60(n - 1)); centre space n points at 60(n - 1).

SIDE = 8.6  # a diamond's side
REACH = SIDE * math.sqrt(3)  # centre of a star to a diamond's far tip
DISTANCE = 3.45 * SIDE  # board centre to an outer star's centre
STAR_ANGLE = {
    "orange": -30,
    "red": 30,
    "blue": 90,
    "yellow": 150,
    "green": 210,
    "purple": 270,
}


def _point(x: float, y: float, angle: float, length: float) -> tuple[float, float]:
    radians = math.radians(angle)
    return x + length * math.sin(radians), y - length * math.cos(radians)


def _star_centre(star: str) -> tuple[float, float]:
    if star == "center":
        return 50.0, 50.0
    return _point(50.0, 50.0, STAR_ANGLE[star], DISTANCE)


def _space_angle(star: str, number: int) -> float:
    if star == "center":
        return 60.0 * (number - 1)
    return STAR_ANGLE[star] + 90 + 60 * (number - 1)


def _fmt(value: float) -> str:
    return f"{value:.2f}"


def _space_geometry(star: str, number: int) -> dict[str, str]:
    """The diamond's four corners (SVG ``points``) and where its label sits (%)."""
    cx, cy = _star_centre(star)
    angle = _space_angle(star, number)
    corners = [
        (cx, cy),
        _point(cx, cy, angle - 30, SIDE),
        _point(cx, cy, angle, REACH),
        _point(cx, cy, angle + 30, SIDE),
    ]
    mx, my = _point(cx, cy, angle, REACH * 0.55)
    return {
        "points": " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in corners),
        "x": _fmt(mx),
        "y": _fmt(my),
    }


def _notch(star: str, angle: float, out: float = 1.12) -> tuple[float, float]:
    cx, cy = _star_centre(star)
    return _point(cx, cy, angle, SIDE * out)


def _structure_point(kind: str, stars: Sequence[str]) -> tuple[float, float]:
    first = stars[0]
    angle = STAR_ANGLE[first]
    if kind == "window":
        return _notch(first, angle, 1.35)
    if kind == "pillar":
        ax, ay = _notch(first, angle + 180)
        bx, by = _notch("center", angle)
        return (ax + bx) / 2, (ay + by) / 2
    ax, ay = _notch(first, angle + 120)
    bx, by = _notch(stars[1], STAR_ANGLE[stars[1]] + 240)
    return (ax + bx) / 2, (ay + by) / 2


SPACE_GEOMETRY = {
    (star, number): _space_geometry(star, number)
    for star in STARS
    for number in range(1, 7)
}
STRUCTURE_POINTS = [
    tuple(_fmt(v) for v in _structure_point(s.kind, s.stars)) for s in STRUCTURES
]
CORNER_POINTS = [("3", "3"), ("85", "3"), ("3", "85"), ("85", "85")]
"""Where the four corner slots of a board sit (% of the board, top left)."""


# ------------------------------------------------------------------ tiles


def tile(colour: int | str, wild: bool = False) -> dict[str, Any]:
    """One tile for ``games/_tile.html``: its colour name, letter and spoken label."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    return {
        "colour": name,
        "letter": colour_letter(name),
        "label": tile_label(name, wild),
        "wild": wild,
    }


def _tile_list(counts: Sequence[int], table: Sequence[dict[str, Any]]) -> list[Any]:
    """Every tile of a count list, by colour (``table``: one tile a colour)."""
    return [table[colour] for colour, count in enumerate(counts) for _n in range(count)]


def _counted(counts: Sequence[int]) -> list[dict[str, Any]]:
    """Tiles shown as one counted tile a colour (the bag, the tower)."""
    return [
        {
            "tile": tile(colour),
            "count": count,
            "label": _("%(count)s %(colour)s")
            % {"count": count, "colour": colour_label(colour)},
        }
        for colour, count in enumerate(counts)
        if count
    ]


# --------------------------------------------------------------- position


def _groups(
    tiles: Sequence[int], wild: int, source: int, table: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A factory's or the centre's tiles by colour, wild colour last."""
    order = [c for c in range(len(COLOURS)) if c != wild] + [wild]
    return [
        {
            "colour": COLOURS[colour],
            "count": tiles[colour],
            "wild": colour == wild,
            "tiles": [table[colour]] * tiles[colour],
            "value": moves.group_value(source, colour),
            "label": (
                _("%(count)s %(colour)s (wild)")
                if colour == wild
                else _("%(count)s %(colour)s")
            )
            % {"count": tiles[colour], "colour": colour_label(colour)},
            "choice": False,
            "selected": False,
        }
        for colour in order
        if tiles[colour]
    ]


def last_decision(engine: PavilionGame) -> dict[str, Any] | None:
    """The latest take or placement while the board still shows it: the log's
    last entry, if it is one (after it, another decision or the round's flow
    has moved on)."""
    entry = engine.log[-1] if engine.log else None
    if entry is not None and entry["type"] in ("take", "place"):
        return entry
    return None


def _marked(shown: dict[str, Any]) -> dict[str, Any]:
    """A tile drawn with the last-move mark (``data-last-move``)."""
    return {**shown, "last": True}


def _hand(
    engine: PavilionGame,
    seat: int,
    table: Sequence[dict[str, Any]],
    last: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """The seat's hand by colour; the tiles the last take brought marked."""
    hand = engine.hands[seat]
    new = [0] * len(COLOURS)
    if last is not None and last["type"] == "take" and last["seat"] == seat:
        new[COLOURS.index(last["colour"])] += last["tiles"]
        new[engine.wild] += last["wild"]
    tiles = []
    for colour, count in enumerate(hand):
        old = count - min(new[colour], count)
        tiles += [table[colour]] * old + [_marked(table[colour])] * (count - old)
    return tiles


def _player(
    engine: PavilionGame,
    seat: int,
    name: str,
    plain: Sequence[dict[str, Any]],
    table: Sequence[dict[str, Any]],
    last: dict[str, Any] | None = None,
) -> dict[str, Any]:
    board = engine.boards[seat]
    placed = (
        (last["star"], last["space"])
        if last is not None and last["type"] == "place" and last["seat"] == seat
        else None
    )
    # A board names 42 spaces: their phrases are asked of gettext once here.
    space_text = _("%(star)s, space %(number)s, cost %(cost)s, %(state)s")
    empty = _("empty")
    star_names = [star_label(star, engine.grey) for star in STARS]
    spaces = []
    for star_index, star in enumerate(STARS):
        for number in range(1, 7):
            index = star_index * 6 + number - 1
            colour = board[index]
            cost = engine.costs[index]
            spaces.append(
                {
                    "value": moves.space_value(star_index, number),
                    "star": star,
                    "number": number,
                    "cost": cost,
                    "tile": (
                        None
                        if colour < 0
                        else _marked(plain[colour])
                        if placed == (star, number)
                        else plain[colour]
                    ),
                    "label": space_text
                    % {
                        "star": star_names[star_index],
                        "number": number,
                        "cost": cost,
                        "state": plain[colour]["label"] if colour >= 0 else empty,
                    },
                    "choice": False,
                    "selected": False,
                    **SPACE_GEOMETRY[(star, number)],
                }
            )
    done = engine.completed[seat]
    structures = []
    for j, structure in enumerate(STRUCTURES):
        complete = bool(done >> j & 1)
        label = structure_label(structure.kind, structure.stars, engine.grey)
        x, y = STRUCTURE_POINTS[j]
        structures.append(
            {
                "kind": structure.kind,
                "complete": complete,
                "label": label,
                "title": (
                    _("%(structure)s: complete")
                    if complete
                    else _("%(structure)s: not complete")
                )
                % {"structure": label},
                "x": x,
                "y": y,
            }
        )
    kept = _tile_list(engine.corners[seat], plain)
    corners = [
        {"x": x, "y": y, "tile": kept[i] if i < len(kept) else None}
        for i, (x, y) in enumerate(CORNER_POINTS)
    ]
    hand = engine.hands[seat]
    return {
        "seat": seat,
        "name": name,
        "score": engine.scores[seat],
        "passed": engine.passed[seat] and engine.phase in PHASE_TWO,
        "token": engine.token_holder == seat,
        "to_move": engine.to_move() == seat,
        "is_me": False,
        "hand": _hand(engine, seat, table, last),
        "hand_count": sum(hand),
        "corners": corners,
        "corner_count": len(kept),
        "spaces": spaces,
        "structures": structures,
        "completed_labels": [s["label"] for s in structures if s["complete"]],
        "placing": False,
    }


def position_context(engine: PavilionGame, names: Sequence[str]) -> dict[str, Any]:
    """Everything ``_position.html`` draws for any position, without decisions."""
    wild = engine.wild
    phase = engine.phase
    plain = [tile(colour) for colour in range(len(COLOURS))]
    table = [tile(colour, colour == wild) for colour in range(len(COLOURS))]
    phase_labels = {
        Phase.TAKE: _("Phase 1: taking tiles"),
        Phase.PLACE: _("Phase 2: placing tiles"),
        Phase.BONUS: _("Phase 2: placing tiles"),
        Phase.SUPPLY: _("Phase 2: placing tiles"),
        Phase.DEAL: _("Between rounds"),
        Phase.OVER: _("The game is over"),
    }
    to_move = engine.to_move()
    last = last_decision(engine)
    taken_from = last["from"] if last is not None and last["type"] == "take" else None
    return {
        "variant": engine.variant,
        "grey": engine.grey,
        "round": engine.round,
        "rounds": ROUNDS,
        "wild_tile": table[wild],
        "wild_colour": colour_label(wild),
        "phase": phase,
        "phase_label": (
            _("Before the first deal")
            if engine.log_size() == 0
            else phase_labels.get(phase, "")
        ),
        "over": phase == Phase.OVER,
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else None,
        "factories": [
            {
                "index": index,
                "number": index + 1,
                "label": _("Factory %(number)s") % {"number": index + 1},
                "groups": _groups(tiles, wild, index, table),
                "last": taken_from == index,
            }
            for index, tiles in enumerate(engine.factories)
        ],
        "centre_groups": _groups(engine.centre, wild, CENTER, table),
        "centre_last": taken_from == "center",
        "centre_token": engine.token_holder is None and phase == Phase.TAKE,
        "supply": _tile_list(engine.supply, table),
        "supply_count": sum(engine.supply),
        "bag": _counted(engine.bag),
        "bag_total": sum(engine.bag),
        "tower": _counted(engine.tower),
        "tower_total": sum(engine.tower),
        "players": [
            _player(engine, seat, name, plain, table, last)
            for seat, name in enumerate(names)
        ],
    }


# ------------------------------------------------------------- decisions


class PavilionBoard(TypedDict):
    """The live Summer Pavilion board, ``live_context``'s answer, for
    ``_live.html`` (the contract's ``games.families.BoardContext`` and the
    family's parts)."""

    position: dict[str, Any]
    my_seat: int | None
    my_turn: bool
    to_move: int | None
    to_move_name: str | None
    prompt: str
    take: dict[str, Any] | None
    """The take chosen (``?take=``), to confirm."""
    taking: dict[str, Any] | None
    """Tiles may be taken now: the fields of a group's one-click post."""
    place: dict[str, Any] | None
    bonus: dict[str, Any] | None
    passing: dict[str, Any] | None
    panel: str | None
    log: NotRequired[list[str]]
    since: NotRequired[list[str]]


def _taken(engine: PavilionGame, move: Take) -> dict[str, Any]:
    """The log entry of the legal take ``move``, played on a copy of the game:
    what it brings (``tiles`` of its colour, ``wild``), as the engine takes it."""
    after = engine.copy()
    after.push(move)
    entry: dict[str, Any] = after.log[len(engine.log)]
    return entry


def _take_preview(engine: PavilionGame, seat: int, move: Take) -> dict[str, Any]:
    """What ``move`` brings and costs, read off a copy of the game it is played on."""
    after = engine.copy()
    after.play(move)
    entry = after.log[len(engine.log)]
    wild = engine.wild
    brought = [
        after.hands[seat][c] - engine.hands[seat][c] for c in range(len(COLOURS))
    ]
    tiles_text = taken_label(entry, COLOURS[wild])
    notes = []
    if entry["wild"]:
        notes.append(
            _("One wild %(colour)s tile comes along.") % {"colour": colour_label(wild)}
        )
    if entry.get("start_token"):
        before, now = engine.scores[seat], after.scores[seat]
        notes.append(
            _(
                "You are the first to take from the centre: you take the start "
                "token and lose %(lost)s (score %(before)s → %(after)s)."
            )
            % {"lost": points_text(before - now), "before": before, "after": now}
        )
    to_centre = len(entry.get("to_centre", ()))
    if to_centre:
        notes.append(
            ngettext(
                "%(count)s tile goes to the centre.",
                "%(count)s tiles go to the centre.",
                to_centre,
            )
            % {"count": to_centre}
        )
    order = [move.colour] + [c for c in range(len(COLOURS)) if c != move.colour]
    return {
        "fields": moves.fields(move),
        "title": _("Take %(tiles)s %(from_source)s")
        % {"tiles": tiles_text, "from_source": from_source_label(move.source)},
        "notes": notes,
        "tiles": [tile(c, c == wild) for c in order for _n in range(brought[c])],
    }


def _steppers(
    prefix: str,
    counts: Sequence[int],
    available: Sequence[int],
    *,
    most: int,
    wild: int,
    base: Mapping[str, str],
) -> list[dict[str, Any]]:
    """One stepper a colour of ``available`` (the supply, a hand): the tile with
    "2 of 5" on it, a link that chooses one more (while fewer than ``most`` are
    chosen in all) and one that puts one back, each the page's query
    (``?<prefix>_<colour>=<n>``: no script needed, a partial swap with one)."""
    total = sum(counts)
    if prefix == moves.BONUS:
        state_text = _("%(colour)s: %(chosen)s of %(available)s chosen")
        add_text = _("%(colour)s: %(chosen)s of %(available)s chosen; choose one more")
        remove_text = _("%(colour)s: %(chosen)s of %(available)s chosen; put one back")
    else:
        state_text = _("%(colour)s: %(chosen)s of %(available)s kept")
        add_text = _("%(colour)s: %(chosen)s of %(available)s kept; keep one more")
        remove_text = _("%(colour)s: %(chosen)s of %(available)s kept; keep one fewer")
    items = []
    for colour, name in enumerate(COLOURS):
        if not available[colour]:
            continue
        chosen = counts[colour]
        words = {
            "colour": tile_label(name, colour == wild),
            "chosen": chosen,
            "available": available[colour],
        }
        more, fewer = list(counts), list(counts)
        more[colour] += 1
        fewer[colour] -= 1
        can_add = total < most and chosen < available[colour]
        items.append(
            {
                "colour": name,
                "tile": tile(colour, colour == wild),
                "chosen": chosen,
                "available": available[colour],
                "count_text": _("%(chosen)s of %(available)s") % words,
                "add_query": moves.count_query(base, prefix, more) if can_add else None,
                "remove_query": moves.count_query(base, prefix, fewer)
                if chosen
                else None,
                "state_label": state_text % words,
                "add_label": add_text % words,
                "remove_label": remove_text % words,
            }
        )
    return items


def _pass_preview(
    engine: PavilionGame, seat: int, keep: Sequence[int]
) -> tuple[dict[str, Any] | None, str]:
    """What passing and keeping ``keep`` (counts by colour) costs, from a copy of
    the game it is played on: (preview, "") or (None, why it cannot be played)."""
    move = Pass(seat, tuple(c for c, n in enumerate(keep) for _n in range(n)))
    after = engine.copy()
    try:
        after.play(move)
    except EngineError as error:
        return None, error_message(error)
    entry = after.log[len(engine.log)]
    discarded, lost = len(entry["discarded"]), entry["penalty"]
    score = engine.scores[seat]
    return {
        "kept_label": list_colours(entry["kept"]),
        "kept_count": len(entry["kept"]),
        "discarded": discarded,
        "lost": lost,
        "summary": ngettext(
            "You discard %(count)s tile and lose %(lost)s "
            "(score %(before)s → %(after)s).",
            "You discard %(count)s tiles and lose %(lost)s "
            "(score %(before)s → %(after)s).",
            discarded,
        )
        % {
            "count": discarded,
            "lost": points_text(lost),
            "before": score,
            "after": score - lost,
        },
    }, ""


def _take_decision(
    board: PavilionBoard, engine: PavilionGame, seat: int, query: Mapping[str, str]
) -> None:
    position = board["position"]
    board["taking"] = {"fields": {"kind": moves.TAKE}}
    takes = {
        (m.source, m.colour): m for m in engine.legal_moves() if isinstance(m, Take)
    }
    sources = [(f["index"], f["groups"]) for f in position["factories"]]
    sources.append((CENTER, position["centre_groups"]))
    wild_name = COLOURS[engine.wild]
    for source, groups in sources:
        for group in groups:
            take = takes.get((source, COLOURS.index(group["colour"])))
            group["choice"] = take is not None
            if take is not None:
                # What the take would bring, not what the source holds: a
                # source of wild tiles only gives one (§4).
                group["label"] = taken_label(_taken(engine, take), wild_name)
    # The same prompt before and after a choice: the status line above the
    # board keeps its height, so choosing moves nothing.
    board["prompt"] = _("Choose a colour in a factory or the centre.")
    chosen = moves.parse_group(query.get(moves.GROUP))
    move = takes.get(chosen) if chosen is not None else None
    if move is None:
        return
    board["take"] = _take_preview(engine, seat, move)
    for source, groups in sources:
        if source == move.source:
            for group in groups:
                group["selected"] = group["colour"] == COLOURS[move.colour]


def _bonus_decision(
    board: PavilionBoard, engine: PavilionGame, query: Mapping[str, str]
) -> None:
    """Bonus tiles chosen by clicking the supply's tiles: ``bonus_<colour>``
    counts in the query, each click one more or one fewer (§5)."""
    supply, owed, wild = engine.supply, engine.bonus_owed, engine.wild
    board["prompt"] = ngettext(
        "Choose %(n)s bonus tile from the supply.",
        "Choose %(n)s bonus tiles from the supply.",
        owed,
    ) % {"n": owed}
    chosen = moves.parse_counts(query, moves.BONUS) or [0] * len(COLOURS)
    chosen = [min(n, supply[c]) for c, n in enumerate(chosen)]
    if sum(chosen) > owed:  # a hand-made query: start again
        chosen = [0] * len(COLOURS)
    count = sum(chosen)
    names = [COLOURS[c] for c, n in enumerate(chosen) for _n in range(n)]
    board["bonus"] = {
        "owed": owed,
        "chosen_count": count,
        "ready": count == owed,
        "chosen_text": ngettext(
            "Chosen: %(tiles)s (%(count)s of %(owed)s tile)",
            "Chosen: %(tiles)s (%(count)s of %(owed)s tiles)",
            owed,
        )
        % {"tiles": list_colours(names), "count": count, "owed": owed},
        "colours": _steppers(
            moves.BONUS, chosen, supply, most=owed, wild=wild, base={}
        ),
        "fields": {"kind": moves.BONUS, **moves.count_fields(moves.BONUS, chosen)},
    }


def _place_decision(
    board: PavilionBoard, engine: PavilionGame, seat: int, query: Mapping[str, str]
) -> None:
    wild = engine.wild
    places = [m for m in engine.legal_moves() if isinstance(m, Place)]
    legal_spaces = {moves.space_value(m.star, m.space) for m in places}
    me = board["position"]["players"][seat]
    for space in me["spaces"]:
        space["choice"] = space["value"] in legal_spaces
    me["placing"] = bool(legal_spaces)
    board["prompt"] = (
        _("Choose a space to place a tile on, or pass.")
        if legal_spaces
        else _("No tile of your hand can be placed: pass.")
    )
    chosen = moves.parse_space(query.get(moves.SPACE))
    if chosen is None:
        return
    star_index, number = chosen
    value = moves.space_value(star_index, number)
    if value not in legal_spaces:
        return
    options = sorted(
        (m for m in places if (m.star, m.space) == chosen),
        key=lambda m: (m.wilds, m.colour),
    )
    cost = engine.cost(star_index, number)
    for space in me["spaces"]:
        space["selected"] = space["value"] == value
    board["place"] = {
        "space": value,
        "fields": moves.place_fields(star_index, number),
        "title": _("Place on the %(space)s (cost %(cost)s)")
        % {
            "space": space_label(STARS[star_index], number, engine.grey),
            "cost": cost,
        },
        "colour_choice": len({m.colour for m in options}) > 1,
        "options": [
            {
                "value": moves.payment_value(m.colour, m.wilds),
                "label": _("%(colour)s, paying %(payment)s")
                % {
                    "colour": colour_label(m.colour),
                    "payment": payment_label(
                        COLOURS[m.colour], m.wilds, cost, COLOURS[wild]
                    ),
                },
                "checked": index == 0,
            }
            for index, m in enumerate(options)
        ],
    }


def _pass_decision(
    board: PavilionBoard, engine: PavilionGame, seat: int, query: Mapping[str, str]
) -> None:
    """Passing, its cost shown at once: the tiles to keep are chosen by clicking
    the hand's tiles (``pass=1`` with ``keep_<colour>`` counts), and every choice
    redraws what the pass costs (§5; in round 6 nothing is kept, §7)."""
    hand = engine.hands[seat]
    last_round = engine.round == ROUNDS
    asked = moves.pass_asked(query) and not last_round
    keep = moves.parse_counts(query, moves.KEEP) if asked else [0] * len(COLOURS)
    error = ""
    if keep is None:
        error = _("Choose how many tiles of each colour to keep.")
        keep = [0] * len(COLOURS)
    preview, refusal = _pass_preview(engine, seat, keep)
    shown = [min(n, hand[c]) for c, n in enumerate(keep)]
    board["passing"] = {
        "last_round": last_round,
        "hand_count": sum(hand),
        "max_keep": 0 if last_round else MAX_KEEP,
        # shown opened when asked, and when passing is all there is to do
        "open": asked
        or last_round
        or not board["position"]["players"][seat]["placing"],
        "keep": [{"colour": name, "value": keep[c]} for c, name in enumerate(COLOURS)],
        "fields": {"kind": moves.PASS, **moves.count_fields(moves.KEEP, keep)},
        "colours": []
        if last_round
        else _steppers(
            moves.KEEP,
            shown,
            hand,
            most=MAX_KEEP,
            wild=engine.wild,
            base=moves.PASS_ASKED,
        ),
        "preview": preview,
        "error": error or refusal,
    }


def live_context(
    engine: PavilionGame,
    *,
    names: Sequence[str],
    view: SeatView,
    query: Mapping[str, str],
) -> PavilionBoard:
    """The position plus the decision of ``view``'s viewer, chosen through
    ``query`` (GET, read by the codec, ``moves``: ``docs/moves.md``).

    ``take=<source>:<colour>`` selects a take to confirm; ``space=<star>-<n>`` a
    space to pay for; ``bonus_<colour>`` counts the bonus tiles chosen so far;
    ``pass=1`` with ``keep_<colour>`` counts the tiles to keep (a pass's cost is
    always shown, for the tiles chosen). ``prompt`` is what the status line asks
    of the player, or "". ``panel`` is what the decision panel beside the board
    holds: ``"decision"``, ``"idle"`` (a seated player with nothing to decide:
    its place is kept) or None (a spectator, or the game is over).
    """
    viewer_seat = view.number
    position = position_context(engine, names)
    if viewer_seat is not None:
        position["players"][viewer_seat]["is_me"] = True
    if not view.active:  # over, or ended by resignation or on time: nobody moves
        position["to_move"] = position["to_move_name"] = None
        for player in position["players"]:
            player["to_move"] = False
    board: PavilionBoard = {
        "position": position,
        "my_seat": viewer_seat,
        "my_turn": view.my_turn,
        "to_move": position["to_move"],
        "to_move_name": position["to_move_name"],
        "prompt": "",
        "take": None,
        "taking": None,
        "place": None,
        "bonus": None,
        "passing": None,
        "panel": "idle" if viewer_seat is not None and view.active else None,
    }
    if not view.my_turn or viewer_seat is None:
        return board
    if engine.phase == Phase.TAKE:
        _take_decision(board, engine, viewer_seat, query)
    elif engine.phase == Phase.BONUS:
        _bonus_decision(board, engine, query)
    elif engine.phase == Phase.PLACE:
        _place_decision(board, engine, viewer_seat, query)
        _pass_decision(board, engine, viewer_seat, query)
    if board["take"] or board["bonus"] or board["place"] or board["passing"]:
        board["panel"] = "decision"
    return board


# ------------------------------------------------------ the review's best


def _mark_tiles(tiles: list[dict[str, Any]], counts: Sequence[int]) -> None:
    """Mark with ``best`` the first ``counts[c]`` tiles of each colour ``c``
    in ``tiles`` (a drawn list of tiles, changed in place: marked copies)."""
    left = list(counts)
    for index, shown in enumerate(tiles):
        colour = COLOURS.index(shown["colour"])
        if left[colour] > 0:
            left[colour] -= 1
            tiles[index] = {**shown, "best": True}


def _by_colour(colours: Sequence[int]) -> list[int]:
    counts = [0] * len(COLOURS)
    for colour in colours:
        counts[colour] += 1
    return counts


def mark_best(
    position: dict[str, Any], engine: PavilionGame, decision: Mapping[str, Any]
) -> None:
    """Mark on ``position`` (``position_context(engine, …)``) the decision
    ``decision`` (a record event legal in ``engine``), the review's best one
    (docs/review.md), as ``best`` marks ``_position.html`` draws as
    ``data-best``: a take's factory or centre (``source``) and the tiles it
    takes (``tile``, the extra wild one included); a placement's payment in
    the hand (``source``, its tiles ``tile``) and its space (``target``); the
    bonus tiles chosen in the supply (``source``, ``tile``) and the hand they
    go to (``target``); a pass: the hand (``pass``), the tiles it keeps
    (``tile``) and the corners that keep them (``target``)."""
    wanted = dict(decision)
    move = next((m for m in engine.legal_moves() if m.to_event() == wanted), None)
    if move is None:
        return
    player = position["players"][move.seat]
    if isinstance(move, Take):
        probe = engine.copy()
        probe.push(move)
        taken = probe.log[engine.log_size()]
        counts = [0] * len(COLOURS)
        counts[move.colour] += taken["tiles"]
        counts[engine.wild] += taken["wild"]
        if move.source == CENTER:
            position["centre_best"] = "source"
            groups = position["centre_groups"]
        else:
            factory = position["factories"][move.source]
            factory["best"] = "source"
            groups = factory["groups"]
        for group in groups:
            colour = COLOURS.index(group["colour"])
            if counts[colour]:
                group["best"] = True
                group["tiles"] = list(group["tiles"])
                _mark_tiles(group["tiles"], counts)
    elif isinstance(move, Place):
        probe = engine.copy()
        probe.push(move)
        before, after = engine.hands[move.seat], probe.hands[move.seat]
        player["hand_best"] = "source"
        _mark_tiles(player["hand"], [b - a for b, a in zip(before, after, strict=True)])
        player["spaces"][move.star * 6 + move.space - 1]["best"] = "target"
    elif isinstance(move, Bonus):
        position["supply_best"] = "source"
        _mark_tiles(position["supply"], _by_colour(move.tiles))
        player["hand_best"] = "target"
    elif isinstance(move, Pass):
        player["hand_best"] = "pass"
        _mark_tiles(player["hand"], _by_colour(move.keep))
        if move.keep:
            player["corners_best"] = "target"
