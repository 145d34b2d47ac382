"""What the game page shows, as plain data for the templates (no private state).

Everything on the table is public (``rules/classic.md §9``); the bag is shown only
as counts by colour — the engine keeps no bag order, and no seed exists.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine.classic import COLOURS, FLOOR, FLOOR_PENALTIES, MARKER, Take
from games.engine.common import CENTER

from .models import Game
from .tiles import colour_name, tile_html


def parse_group(value: str | None) -> tuple[int, int] | None:
    """``"3:red"`` or ``"center:red"`` → ``(source, colour index)``; else None."""
    if not value or ":" not in value:
        return None
    source_text, colour_text = value.split(":", 1)
    if colour_text not in COLOURS:
        return None
    if source_text == "center":
        source = CENTER
    elif source_text.isdigit() and len(source_text) <= 2:
        source = int(source_text)
    else:
        return None
    return source, COLOURS.index(colour_text)


def _source_value(source: int) -> str:
    return "center" if source == CENTER else str(source)


def source_label(source: int) -> str:
    if source == CENTER:
        return _("the centre")
    return _("factory %(number)s") % {"number": source + 1}


def line_label(line: int) -> str:
    if line == FLOOR:
        return _("the floor")
    return _("line %(number)s") % {"number": line + 1}


def describe_log(entries: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The move log in words, e.g. "binh took 3 red from factory 2 → line 4".

    Each phrase is translated once per call, not once per entry: a finished game
    has ~150 entries and gettext is not free.
    """
    took = _("%(player)s took %(count)s %(colour)s from %(source)s → %(dest)s")
    to_floor = _("; %(count)s to the floor")
    to_lid = _("; %(count)s to the lid")
    marker = _("; took the first-player marker")
    dealt = _("Round %(round)s: %(tiles)s tiles dealt to the factories")
    walled = _(
        "%(player)s placed %(colour)s on the wall, row %(row)s column "
        "%(column)s: +%(points)s"
    )
    floored = _(
        "%(player)s had no wall space for line %(line)s: %(count)s "
        "%(colour)s to the floor"
    )
    round_end = _("End of round %(round)s — scores: %(scores)s")
    colours = [colour_name(c) for c in range(len(COLOURS))]
    factory = _("factory %(number)s")
    sources = {CENTER: _("the centre")}
    line_names = {FLOOR: _("the floor")}
    line_name = _("line %(number)s")
    lines: list[str] = []
    for entry in entries:
        kind = entry["type"]
        if kind == "take":
            source, line = entry["source"], entry["line"]
            if source not in sources:
                sources[source] = factory % {"number": source + 1}
            if line not in line_names:
                line_names[line] = line_name % {"number": line + 1}
            text = took % {
                "player": names[entry["seat"]],
                "count": entry["count"],
                "colour": colours[entry["colour"]],
                "source": sources[source],
                "dest": line_names[line],
            }
            if line != FLOOR and entry["to_floor"]:
                text += to_floor % {"count": entry["to_floor"]}
            if entry["to_lid"]:
                text += to_lid % {"count": entry["to_lid"]}
            if entry["marker"]:
                text += marker
        elif kind == "deal":
            text = dealt % {"round": entry["round"], "tiles": entry["tiles"]}
        elif kind == "wall":
            text = walled % {
                "player": names[entry["seat"]],
                "colour": colours[entry["colour"]],
                "row": entry["line"] + 1,
                "column": entry["column"] + 1,
                "points": entry["points"],
            }
        elif kind == "to_floor":
            text = floored % {
                "player": names[entry["seat"]],
                "line": entry["line"] + 1,
                "count": entry["count"],
                "colour": colours[entry["colour"]],
            }
        elif kind == "round_end":
            scores = ", ".join(
                f"{name} {score}"
                for name, score in zip(names, entry["scores"], strict=False)
            )
            text = round_end % {"round": entry["round"], "scores": scores}
        else:
            continue
        lines.append(text)
    return lines


def _marker_html() -> SafeString:
    label = _("first-player marker")
    return format_html(
        '<span class="marker" role="img" aria-label="{}" title="{}">1</span>',
        label,
        label,
    )


def _counts_html(counts: list[int]) -> SafeString:
    """Tiles by colour with their counts: the bag and lid are only ever counts."""
    return mark_safe(
        " ".join(f"{tile_html(colour)}&times;{n}" for colour, n in enumerate(counts))
    )


def _groups(
    source: int, counts: list[int], selected: tuple[int, int] | None, active: bool
) -> list[dict[str, Any]]:
    groups = []
    for colour, count in enumerate(counts):
        if not count:
            continue
        groups.append(
            {
                "value": f"{_source_value(source)}:{COLOURS[colour]}",
                "tiles_html": mark_safe(str(tile_html(colour)) * count),
                "count": count,
                "selected": selected == (source, colour),
                "active": active,
                "label": _("Take %(count)s %(colour)s from %(source)s")
                % {
                    "count": count,
                    "colour": colour_name(colour),
                    "source": source_label(source),
                },
            }
        )
    return groups


def board_context(
    *, game: Game, engine: Any, viewer_seat: int | None, group: str | None
) -> dict[str, Any]:
    """Everything the board partial draws, for the viewer's seat (or a spectator)."""
    seat_rows = list(game.seats.all())
    names = [s.name or "?" for s in seat_rows]
    to_move = engine.to_move() if game.status == Game.Status.ACTIVE else None
    my_turn = to_move is not None and to_move == viewer_seat
    offer = my_turn and engine.phase == "offer"
    selected = parse_group(group) if offer else None

    destinations: list[dict[str, Any]] = []
    legal_lines: set[int] = set()
    if selected is not None:
        source, colour = selected
        takes = [
            m
            for m in engine.legal_moves()
            if isinstance(m, Take) and (m.source, m.colour) == selected
        ]
        legal_lines = {m.line for m in takes}
        if not takes:
            selected = None
        else:
            counts = engine.center if source == CENTER else engine.factories[source]
            count = counts[colour]
            board = engine.boards[viewer_seat]
            for line in (*range(5), FLOOR):
                legal = line in legal_lines
                overflow = count
                if line != FLOOR:
                    overflow = max(0, count - (line + 1 - board.line_count[line]))
                destinations.append(
                    {
                        "value": "floor" if line == FLOOR else str(line),
                        "label": line_label(line).capitalize(),
                        "legal": legal,
                        "overflow": overflow if line != FLOOR else 0,
                    }
                )

    wall_choices: list[dict[str, Any]] = []
    pending = getattr(engine, "pending_wall", None)
    if my_turn and engine.phase == "tiling" and pending is not None:
        wall_choices = [
            {"column": m.column, "label": _("Column %(n)s") % {"n": m.column + 1}}
            for m in engine.legal_moves()
        ]
    wall_columns = {c["column"] for c in wall_choices}

    players = []
    for seat, board in enumerate(engine.boards):
        is_pending_board = bool(wall_choices) and seat == viewer_seat
        lines = []
        for line in range(5):
            count = board.line_count[line]
            colour = board.line_colour[line]
            empty = str(tile_html(None))
            filled = str(tile_html(colour)) if count else ""
            lines.append(
                {
                    "number": line + 1,
                    "html": mark_safe(empty * (line + 1 - count) + filled * count),
                    "legal": seat == viewer_seat and line in legal_lines,
                    "pending": is_pending_board and pending[1] == line,
                }
            )
        wall = []
        for row in range(5):
            cells = []
            for column in range(5):
                placed = board.wall[row][column]
                printed = engine.wall_colour(row, column)
                if placed >= 0:
                    html = tile_html(placed)
                elif printed is not None:
                    html = tile_html(printed, "printed")
                else:
                    html = tile_html(None)
                choice = (
                    is_pending_board and pending[1] == row and column in wall_columns
                )
                cells.append(
                    f'<td class="choice">{html}</td>' if choice else f"<td>{html}</td>"
                )
            wall.append(mark_safe("".join(cells)))
        floor_items = []
        for index, penalty in enumerate(FLOOR_PENALTIES):
            item = board.floor[index] if index < len(board.floor) else None
            content = _marker_html() if item == MARKER else tile_html(item)
            floor_items.append(f"<li><small>-{penalty}</small>{content}</li>")
        floor = mark_safe("".join(floor_items))
        seat_row = seat_rows[seat]
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "score": board.score,
                "is_me": seat == viewer_seat,
                "to_move": seat == to_move,
                "lines": lines,
                "wall": wall,
                "floor": floor,
                "floor_legal": seat == viewer_seat and FLOOR in legal_lines,
                "rank": seat_row.rank,
                "final_score": seat_row.score,
                "resigned": seat_row.resigned,
            }
        )

    factories = [
        {
            "label": _("Factory %(number)s") % {"number": index + 1},
            "groups": _groups(index, counts, selected, offer),
        }
        for index, counts in enumerate(engine.factories)
    ]
    return {
        "names": names,
        "round": engine.round,
        "phase": engine.phase,
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else None,
        "my_seat": viewer_seat,
        "my_turn": my_turn,
        "offer": offer,
        "factories": factories,
        "center_groups": _groups(CENTER, engine.center, selected, offer),
        "center_marker": engine.center_marker,
        "selected": selected,
        "selected_source": _source_value(selected[0]) if selected else "",
        "selected_colour": COLOURS[selected[1]] if selected else "",
        "selected_label": (
            _("%(colour)s from %(source)s")
            % {"colour": colour_name(selected[1]), "source": source_label(selected[0])}
            if selected
            else ""
        ),
        "destinations": destinations,
        "wall_choices": wall_choices,
        "pending_line": pending[1] + 1 if wall_choices and pending else None,
        "pending_line_value": pending[1] if wall_choices and pending else None,
        "players": players,
        "bag_html": _counts_html(engine.bag),
        "lid_html": _counts_html(engine.lid),
        "bag_total": sum(engine.bag),
        "lid_total": sum(engine.lid),
        "log": describe_log(engine.log, names),
    }
