"""What a Summer Pavilion page shows, as plain data for the templates.

``position_context(engine, names)`` draws any position read-only (the replay viewer
uses it too, with ``templates/games/pavilion/_position.html``);
``live_context(...)`` adds the decisions of the player whose page it is. Everything
on the table is public (``rules/pavilion.md §9``); the bag is shown as counts only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.common import CENTER
from games.engine.pavilion import (
    MAX_KEEP,
    ROUNDS,
    STRUCTURES,
    Bonus,
    PavilionGame,
    Place,
    Take,
)
from games.engine.pavilion_board import COLOURS, STARS

from .pavilion_tiles import (
    colour_label,
    space_label,
    star_label,
    tile_html,
    tiles_html,
)

# ---------------------------------------------------------------- geometry
# The board in a 100 × 100 box: the centre star in the middle, the six outer stars
# around it, clockwise from upper-left: orange, red, blue, yellow, green, purple
# (rules/pavilion.md §2). Angles are degrees clockwise from "up". Each space is a
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
STAR_TINT = {
    "purple": "#ccb5dc",
    "green": "#bfe0bf",
    "orange": "#f6cfa8",
    "yellow": "#f5e6a6",
    "blue": "#b9cfee",
    "red": "#efb8b5",
    "center": "#e7e2d6",
}
GREY_TINT = "#d6d6d6"
COLOUR_FILL = {
    "purple": "#7b3fa0",
    "green": "#2e8540",
    "orange": "#e07b1a",
    "yellow": "#e8b41c",
    "blue": "#1e5fb4",
    "red": "#c4302b",
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


# ------------------------------------------------------------------ words


def structure_label(kind: str, stars: Sequence[str]) -> str:
    if kind == "pillar":
        return _("pillar of the %(star)s") % {"star": star_label(stars[0])}
    if kind == "window":
        return _("window of the %(star)s") % {"star": star_label(stars[0])}
    return _("statue between the %(a)s and the %(b)s") % {
        "a": star_label(stars[0]),
        "b": star_label(stars[1]),
    }


def _list_colours(names: Sequence[str]) -> str:
    return ", ".join(colour_label(name) for name in names) or _("nothing")


def source_label(source: int | str) -> str:
    if source in ("center", CENTER):
        return _("the centre")
    return _("factory %(number)s") % {"number": int(source) + 1}


def payment_label(colour: str, wilds: int, cost: int, wild: str) -> str:
    """ "1 blue + 3 purple (wild)" — what a placement pays."""
    if colour == wild:
        return _("%(count)s %(colour)s (this round's wild colour)") % {
            "count": cost,
            "colour": colour_label(colour),
        }
    text = _("%(count)s %(colour)s") % {
        "count": cost - wilds,
        "colour": colour_label(colour),
    }
    if wilds:
        text += " + " + _("%(count)s %(colour)s (wild)") % {
            "count": wilds,
            "colour": colour_label(wild),
        }
    return text


def _bonus_taken(entry: Mapping[str, Any]) -> str:
    return _("took %(tiles)s") % {"tiles": _list_colours(entry["tiles"])}


def describe_entries(
    entries: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[str | None]:
    """One text per log entry (``PavilionGame.log``), None for an entry not told.

    The replay viewer shows each event's entries; ``describe_log`` joins them for
    the live page. A bonus has its own text here ("ana took red, green as a
    bonus"); a placement says which structures it completed.
    """
    texts: list[str | None] = []
    round_number = 1
    for entry in entries:
        kind = entry["type"]
        seat = entry.get("seat")
        player = names[seat] if seat is not None else ""
        text: str | None
        if kind == "supply":
            text = ngettext(
                "%(count)s tile drawn into the supply",
                "%(count)s tiles drawn into the supply",
                len(entry["tiles"]),
            ) % {"count": len(entry["tiles"])}
        elif kind == "deal":
            round_number = int(entry["round"])
            dealt = sum(len(tiles) for tiles in entry["factories"])
            text = _(
                "Round %(round)s (wild colour: %(wild)s): %(count)s tiles dealt "
                "to the factories"
            ) % {
                "round": entry["round"],
                "wild": colour_label(entry["round"] - 1),
                "count": dealt,
            }
        elif kind == "take":
            text = _describe_take(entry, player, COLOURS[round_number - 1])
        elif kind == "place":
            text = _(
                "%(player)s placed %(colour)s on %(space)s paying %(payment)s: "
                "+%(points)s"
            ) % {
                "player": player,
                "colour": colour_label(entry["colour"]),
                "space": space_label(entry["star"], entry["space"]),
                "payment": payment_label(
                    entry["colour"], entry["wilds"], entry["cost"], entry["wild_colour"]
                ),
                "points": entry["points"],
            }
            if entry["completed"]:
                done = ", ".join(
                    structure_label(s["kind"], s["stars"]) for s in entry["completed"]
                )
                text += "; " + _("%(structures)s complete") % {"structures": done}
                if not entry["bonus_available"]:
                    text += ": " + _("the supply is empty")
        elif kind == "bonus":
            text = _("%(player)s took %(tiles)s as a bonus") % {
                "player": player,
                "tiles": _list_colours(entry["tiles"]),
            }
        elif kind == "pass":
            text = _describe_pass(entry, player, round_number == ROUNDS)
        else:
            text = None
        texts.append(text)
    return texts


def _describe_take(entry: Mapping[str, Any], player: str, wild_name: str) -> str:
    if entry["colour"] == wild_name:
        taken = _("%(count)s %(colour)s (wild)") % {
            "count": entry["tiles"],
            "colour": colour_label(wild_name),
        }
    else:
        taken = _("%(count)s %(colour)s") % {
            "count": entry["tiles"],
            "colour": colour_label(entry["colour"]),
        }
        if entry["wild"]:
            taken += " + " + _("1 %(colour)s (wild)") % {
                "colour": colour_label(wild_name)
            }
    text = _("%(player)s took %(tiles)s from %(source)s") % {
        "player": player,
        "tiles": taken,
        "source": source_label(entry["from"]),
    }
    if entry.get("to_centre"):
        text += "; " + ngettext(
            "%(count)s tile to the centre",
            "%(count)s tiles to the centre",
            len(entry["to_centre"]),
        ) % {"count": len(entry["to_centre"])}
    if entry.get("start_token"):
        text += "; " + _("took the start token: −%(points)s") % {
            "points": entry["penalty"]
        }
    return text


def _describe_pass(entry: Mapping[str, Any], player: str, last_round: bool) -> str:
    count = len(entry["discarded"])
    if last_round:
        text = _("%(player)s passed") % {"player": player}
        lost = ngettext(
            "%(count)s tile left over: −%(points)s",
            "%(count)s tiles left over: −%(points)s",
            count,
        )
    else:
        text = _("%(player)s passed, keeping %(kept)s") % {
            "player": player,
            "kept": _list_colours(entry["kept"]),
        }
        lost = ngettext(
            "%(count)s tile to the tower: −%(points)s",
            "%(count)s tiles to the tower: −%(points)s",
            count,
        )
    if count:
        text += "; " + lost % {"count": count, "points": entry["penalty"]}
    return text


def describe_log(engine: PavilionGame, names: Sequence[str]) -> list[str]:
    """The move log in words for the live page (a bonus joins its placement).

    e.g. "ana placed blue on blue-4 paying 1 blue + 3 purple (wild): +3; statue
    between the red star and the blue star complete: took red, green". Built from
    ``describe_entries``; ends with the final bonuses once the game is over.
    """
    entries = engine.log
    lines: list[str] = []
    previous: Mapping[str, Any] | None = None
    for entry, text in zip(entries, describe_entries(entries, names), strict=True):
        if (
            entry["type"] == "bonus"
            and previous is not None
            and previous["type"] == "place"
            and previous["completed"]
            and lines
        ):
            lines[-1] += ": " + _bonus_taken(entry)
        elif text is not None:
            lines.append(text)
        previous = entry
    if engine.is_over():
        lines.extend(final_bonus_lines(engine, names))
    return lines


def final_bonus_lines(engine: PavilionGame, names: Sequence[str]) -> list[str]:
    lines = []
    for seat, name in enumerate(names):
        parts = []
        for change in engine.score_log:
            if change.seat != seat:
                continue
            if change.kind == "star-bonus":
                parts.append(f"{_star_bonus_label(change.detail)} +{change.points}")
            elif change.kind == "number-bonus":
                number = change.detail.removeprefix("all ").removesuffix("s")
                label = _("all spaces of cost %(cost)s") % {"cost": number}
                parts.append(f"{label} +{change.points}")
        lines.append(
            _("Final bonuses for %(player)s: %(bonuses)s — final score %(score)s")
            % {
                "player": name,
                "bonuses": ", ".join(parts) or _("none"),
                "score": engine.scores[seat],
            }
        )
    return lines


def _star_bonus_label(detail: str) -> str:
    """The engine's "blue star", "red star, all green", "center star, six colours"."""
    star = detail.split(" ", 1)[0]
    text = star_label(star)
    if ", all " in detail:
        text += " " + _("(all %(colour)s)") % {
            "colour": colour_label(detail.rsplit(" ", 1)[1])
        }
    elif "six colours" in detail:
        text += " " + _("(six colours)")
    return text


# --------------------------------------------------------------- position


def _groups(tiles: list[int], wild: int, source: int) -> list[dict[str, Any]]:
    """A factory's or the centre's tiles by colour, wild colour last."""
    order = [c for c in range(len(COLOURS)) if c != wild] + [wild]
    return [
        {
            "colour": COLOURS[colour],
            "count": tiles[colour],
            "wild": colour == wild,
            "tiles_html": tiles_html(
                [tiles[c] if c == colour else 0 for c in range(len(COLOURS))], wild
            ),
            "value": f"{'center' if source == CENTER else source}:{COLOURS[colour]}",
            "label": (
                _("%(count)s %(colour)s (wild)")
                if colour == wild
                else _("%(count)s %(colour)s")
            )
            % {"count": tiles[colour], "colour": colour_label(colour)},
        }
        for colour in order
        if tiles[colour]
    ]


class _DrawnLater:
    """HTML drawn when the template writes it (``__html__``), not when the
    context is built: the live page marks the viewer's spaces as choices after
    ``position_context`` has made the players."""

    def __init__(self, draw: Callable[..., str], *args: Any) -> None:
        self.draw, self.args = draw, args

    def __html__(self) -> SafeString:
        return mark_safe(self.draw(*self.args))

    # Templates write str(value) for what is not a str: it must stay safe.
    __str__ = __html__


# A board's 42 spaces and its structures drawn here rather than by template loops
# (two loops of 42 a board were most of drawing the page, bench/pavilion_page.py);
# the markup is what _position.html drew with them.


def _diamonds_html(spaces: list[dict[str, Any]]) -> str:
    return "".join(
        f'<polygon class="pv-diamond{" filled" if s["filled"] else ""}'
        f'{" choice" if s.get("choice") else ""}" points="{escape(s["points"])}" '
        f'fill="{escape(s["fill"])}"/>'
        for s in spaces
    )


def _structures_html(structures: list[dict[str, Any]]) -> str:
    parts = []
    for st in structures:
        x, y = escape(st["x"]), escape(st["y"])
        if st["kind"] == "pillar":
            shape = f'<circle cx="{x}" cy="{y}" r="1.9"/>'
        elif st["kind"] == "statue":
            shape = (
                f'<rect x="{x}" y="{y}" width="3.6" height="3.6" '
                'transform="translate(-1.8 -1.8)"/>'
            )
        else:
            shape = (
                f'<rect x="{x}" y="{y}" width="3" height="4.4" rx="1.4" '
                'transform="translate(-1.5 -2.2)"/>'
            )
        parts.append(
            f'<g class="pv-structure {escape(st["kind"])}'
            f'{" complete" if st["complete"] else ""}">'
            f"<title>{escape(st['title'])}</title>{shape}</g>"
        )
    return "".join(parts)


def _spaces_html(spaces: list[dict[str, Any]]) -> str:
    parts = []
    for s in spaces:
        label = escape(s["label"])
        if s.get("choice"):
            selected = s.get("selected")
            inner = (
                f'<button type="submit" name="space" value="{escape(s["value"])}" '
                f'class="pv-space choice{" selected" if selected else ""}" '
                f'aria-label="{label}" '
                f'aria-pressed="{"true" if selected else "false"}" '
                f'title="{label}">{s["cost"]}</button>'
            )
        else:
            shown = s["tile_html"] if s["filled"] else s["cost"]
            inner = (
                f'<span class="pv-space{" filled" if s["filled"] else ""}" '
                f'title="{label}"><span class="visually-hidden">{label}</span>'
                f'<span aria-hidden="true">{shown}</span></span>'
            )
        parts.append(
            f'<li style="left:{escape(s["x"])}%;top:{escape(s["y"])}%">{inner}</li>'
        )
    return "".join(parts)


def _player(engine: PavilionGame, seat: int, name: str) -> dict[str, Any]:
    board = engine.boards[seat]
    wild = engine.wild
    spaces = []
    # Each phrase asked of gettext once per board, not once per space (42 a board).
    empty = _("empty")
    space_text = _("%(star)s, space %(number)s, cost %(cost)s, %(state)s")
    complete_text = _("%(structure)s: complete")
    incomplete_text = _("%(structure)s: not complete")
    colour_names = [colour_label(colour) for colour in range(len(COLOURS))]
    tiles = [tile_html(colour) for colour in range(len(COLOURS))]
    for star_index, star in enumerate(STARS):
        star_name = star_label(star)
        for number in range(1, 7):
            index = star_index * 6 + number - 1
            colour = board[index]
            cost = engine.costs[index]
            filled = colour >= 0
            state = colour_names[colour] if filled else empty
            spaces.append(
                {
                    "value": f"{star}-{number}",
                    "star": star,
                    "number": number,
                    "cost": cost,
                    "filled": filled,
                    "fill": COLOUR_FILL[COLOURS[colour]]
                    if filled
                    else (GREY_TINT if engine.grey else STAR_TINT[star]),
                    "tile_html": tiles[colour] if filled else "",
                    "label": space_text
                    % {
                        "star": star_name,
                        "number": number,
                        "cost": cost,
                        "state": state,
                    },
                    **SPACE_GEOMETRY[(star, number)],
                }
            )
    done = engine.completed[seat]
    structures = []
    for j, structure in enumerate(STRUCTURES):
        complete = bool(done >> j & 1)
        label = structure_label(structure.kind, structure.stars)
        x, y = STRUCTURE_POINTS[j]
        structures.append(
            {
                "kind": structure.kind,
                "complete": complete,
                "label": label,
                "title": (complete_text if complete else incomplete_text)
                % {"structure": label},
                "x": x,
                "y": y,
            }
        )
    corner_tiles = [
        tile_html(colour)
        for colour, count in enumerate(engine.corners[seat])
        for _n in range(count)
    ]
    corners = [
        {
            "x": x,
            "y": y,
            "tile_html": corner_tiles[i] if i < len(corner_tiles) else "",
        }
        for i, (x, y) in enumerate(CORNER_POINTS)
    ]
    hand = engine.hands[seat]
    return {
        "seat": seat,
        "name": name,
        "score": engine.scores[seat],
        "passed": engine.passed[seat] and engine.phase in ("place", "bonus", "supply"),
        "token": engine.token_holder == seat,
        "to_move": engine.to_move() == seat,
        "hand_html": tiles_html(hand, wild),
        "hand_count": sum(hand),
        "hand_wild": hand[wild],
        "corners": corners,
        "corner_count": sum(engine.corners[seat]),
        "spaces": spaces,
        "structures": structures,
        "diamonds_html": _DrawnLater(_diamonds_html, spaces),
        "structures_html": _DrawnLater(_structures_html, structures),
        "spaces_html": _DrawnLater(_spaces_html, spaces),
        "completed_labels": [s["label"] for s in structures if s["complete"]],
    }


def position_context(engine: PavilionGame, names: Sequence[str]) -> dict[str, Any]:
    """Everything ``_position.html`` draws for any position, without decisions."""
    wild = engine.wild
    phase = engine.phase
    phase_labels = {
        "take": _("Phase 1: taking tiles"),
        "place": _("Phase 2: placing tiles"),
        "bonus": _("Phase 2: placing tiles"),
        "supply": _("Phase 2: placing tiles"),
        "deal": _("Between rounds"),
        "over": _("The game is over"),
    }
    to_move = engine.to_move()
    return {
        "variant": engine.variant,
        "grey": engine.grey,
        "round": engine.round,
        "rounds": ROUNDS,
        "wild_colour": colour_label(wild),
        "wild_html": tile_html(wild, True),
        "phase": phase,
        "phase_label": phase_labels.get(phase, ""),
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else None,
        "factories": [
            {
                "number": index + 1,
                "label": _("Factory %(number)s") % {"number": index + 1},
                "groups": _groups(tiles, wild, index),
            }
            for index, tiles in enumerate(engine.factories)
        ],
        "centre_groups": _groups(engine.centre, wild, CENTER),
        "centre_token": engine.token_holder is None and phase == "take",
        "supply_html": tiles_html(engine.supply, wild),
        "supply_count": sum(engine.supply),
        "bag_total": sum(engine.bag),
        "tower_total": sum(engine.tower),
        "players": [_player(engine, seat, name) for seat, name in enumerate(names)],
    }


# ------------------------------------------------------------- decisions


def _parse_choice(value: str | None, prefix_values: Sequence[str]) -> tuple[str, str]:
    if not value or ":" not in value and "-" not in value:
        return "", ""
    sep = ":" if ":" in value else "-"
    head, tail = value.rsplit(sep, 1)
    if head not in prefix_values:
        return "", ""
    return head, tail


def _take_preview(engine: PavilionGame, seat: int, move: Take) -> dict[str, Any]:
    wild = engine.wild
    tiles = engine.centre if move.source == CENTER else engine.factories[move.source]
    if move.colour == wild:
        count, extra = 1, 0
    else:
        count, extra = tiles[move.colour], 1 if tiles[wild] else 0
    token = move.source == CENTER and engine.token_holder is None
    score = engine.scores[seat]
    penalty = min(count + extra, score - 1) if token else 0
    if move.colour == wild:
        tiles_text = _("1 %(colour)s (wild)") % {"colour": colour_label(wild)}
    else:
        tiles_text = _("%(count)s %(colour)s") % {
            "count": count,
            "colour": colour_label(move.colour),
        }
    notes = []
    if extra:
        notes.append(
            _("One wild %(colour)s tile comes along.") % {"colour": colour_label(wild)}
        )
    if token:
        notes.append(
            _(
                "You are the first to take from the centre: you take the start "
                "token and lose %(points)s points (score %(before)s → %(after)s)."
            )
            % {"points": penalty, "before": score, "after": score - penalty}
        )
    if move.source != CENTER:
        rest = sum(tiles) - count - extra
        if rest:
            notes.append(
                ngettext(
                    "%(count)s tile goes to the centre.",
                    "%(count)s tiles go to the centre.",
                    rest,
                )
                % {"count": rest}
            )
    return {
        "source": "center" if move.source == CENTER else str(move.source),
        "colour": COLOURS[move.colour],
        "title": _("Take %(tiles)s from %(source)s")
        % {
            "tiles": tiles_text,
            "source": source_label(move.source),
        },
        "notes": notes,
        "html": tiles_html(
            [
                count if c == move.colour else (extra if c == wild else 0)
                for c in range(len(COLOURS))
            ],
            wild,
        ),
    }


def _keep_counts(query: Mapping[str, str], hand: Sequence[int]) -> list[int] | None:
    """``keep_<colour>`` counts from a query, or None when one does not parse."""
    counts = []
    for colour, name in enumerate(COLOURS):
        text = (query.get(f"keep_{name}") or "0").strip()
        if not text.isdigit() or int(text) > hand[colour]:
            return None
        counts.append(int(text))
    return counts


def live_context(
    *,
    engine: PavilionGame,
    names: Sequence[str],
    viewer_seat: int | None,
    active: bool,
    query: Mapping[str, str],
) -> dict[str, Any]:
    """The position plus the viewer's decision, chosen through ``query`` (GET).

    ``take=<source>:<colour>`` selects a take to confirm; ``space=<star>-<n>`` a
    space to pay for; ``pass=1`` with ``keep_<colour>`` counts previews a pass.
    """
    context = position_context(engine, names)
    context["family"] = "pavilion"
    to_move = engine.to_move() if active else None
    my_turn = to_move is not None and to_move == viewer_seat
    context.update(
        my_seat=viewer_seat,
        my_turn=my_turn,
        to_move=to_move,
        to_move_name=names[to_move] if to_move is not None else None,
        log=describe_log(engine, names),
        take=None,
        place=None,
        bonus=None,
        passing=None,
    )
    if not my_turn:
        return context
    assert viewer_seat is not None
    seat = viewer_seat
    moves = engine.legal_moves()
    wild = engine.wild
    if engine.phase == "take":
        takes = {(m.source, m.colour): m for m in moves if isinstance(m, Take)}
        for factory in context["factories"]:
            for group in factory["groups"]:
                group["choice"] = (
                    factory["number"] - 1,
                    COLOURS.index(group["colour"]),
                ) in takes
        for group in context["centre_groups"]:
            group["choice"] = (CENTER, COLOURS.index(group["colour"])) in takes
        source_text, colour_text = _parse_choice(
            query.get("take"),
            ["center", *[str(i) for i in range(len(engine.factories))]],
        )
        if colour_text in COLOURS:
            source = CENTER if source_text == "center" else int(source_text)
            move = takes.get((source, COLOURS.index(colour_text)))
            if move is not None:
                context["take"] = _take_preview(engine, seat, move)
                for group in (
                    context["centre_groups"]
                    if source == CENTER
                    else context["factories"][source]["groups"]
                ):
                    group["selected"] = group["colour"] == colour_text
        return context

    if engine.phase == "bonus":
        supply = engine.supply
        context["bonus"] = {
            "owed": engine.bonus_owed,
            "colours": [
                {
                    "colour": name,
                    "label": colour_label(name),
                    "available": supply[colour],
                    "max": min(supply[colour], engine.bonus_owed),
                    "tile_html": tile_html(colour, colour == wild),
                    "wild": colour == wild,
                }
                for colour, name in enumerate(COLOURS)
                if supply[colour]
            ],
            "only_choice": len(moves) == 1,
            "tiles": [COLOURS[c] for c in moves[0].tiles]
            if len(moves) == 1 and isinstance(moves[0], Bonus)
            else [],
        }
        return context

    # phase 2: place or pass
    places = [m for m in moves if isinstance(m, Place)]
    legal_spaces = {f"{STARS[m.star]}-{m.space}" for m in places}
    me = context["players"][seat]
    for space in me["spaces"]:
        space["choice"] = space["value"] in legal_spaces
    me["placing"] = bool(legal_spaces)
    star_text, number_text = _parse_choice(query.get("space"), STARS)
    chosen = f"{star_text}-{number_text}"
    if chosen in legal_spaces:
        star_index, number = STARS.index(star_text), int(number_text)
        options = sorted(
            (m for m in places if (m.star, m.space) == (star_index, number)),
            key=lambda m: (m.wilds, m.colour),
        )
        cost = engine.cost(star_index, number)
        for space in me["spaces"]:
            space["selected"] = space["value"] == chosen
        context["place"] = {
            "space": chosen,
            "title": _("Place on %(space)s (cost %(cost)s)")
            % {"space": space_label(star_text, number), "cost": cost},
            "colour_choice": len({m.colour for m in options}) > 1,
            "options": [
                {
                    "value": f"{COLOURS[m.colour]}:{m.wilds}",
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
    hand = engine.hands[seat]
    last_round = engine.round == ROUNDS
    passing: dict[str, Any] = {
        "last_round": last_round,
        "hand_count": sum(hand),
        "max_keep": 0 if last_round else MAX_KEEP,
        "colours": [
            {
                "colour": name,
                "label": colour_label(name),
                "have": hand[colour],
                "max": min(hand[colour], MAX_KEEP),
                "tile_html": tile_html(colour, colour == wild),
                "value": 0,
            }
            for colour, name in enumerate(COLOURS)
            if hand[colour]
        ],
        "preview": None,
    }
    keep: list[int] | None = [0] * len(COLOURS)
    wants_preview = query.get("pass") == "1" or last_round or not sum(hand)
    if query.get("pass") == "1" and not last_round:
        keep = _keep_counts(query, hand)
        if keep is None:
            passing["error"] = _("Choose how many tiles of each colour to keep.")
        elif sum(keep) > MAX_KEEP:
            passing["error"] = _("You may keep at most %(n)s tiles.") % {"n": MAX_KEEP}
            keep = None
    if keep is not None and wants_preview:
        for item in passing["colours"]:
            item["value"] = keep[COLOURS.index(item["colour"])]
        discarded = sum(hand) - sum(keep)
        score = engine.scores[seat]
        lost = min(discarded, score - 1)
        passing["preview"] = {
            "keep": [
                COLOURS[colour]
                for colour, count in enumerate(keep)
                for _n in range(count)
            ],
            "kept_label": _list_colours(
                [COLOURS[c] for c, n in enumerate(keep) for _n in range(n)]
            ),
            "discarded": discarded,
            "lost": lost,
            "summary": ngettext(
                "You discard %(count)s tile and lose %(points)s points "
                "(score %(before)s → %(after)s).",
                "You discard %(count)s tiles and lose %(points)s points "
                "(score %(before)s → %(after)s).",
                discarded,
            )
            % {
                "count": discarded,
                "points": lost,
                "before": score,
                "after": score - lost,
            },
        }
    context["passing"] = passing
    return context
