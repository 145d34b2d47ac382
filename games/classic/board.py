"""What a classic board shows, as plain data for its templates.

``position_context`` is one position, read-only (``_position.html``: the live
board and the replay). ``live_context`` adds the viewer's decision: the tile
groups they may take with each group's legal lines, the destination buttons of
the group chosen with ``?group=``, or the grey wall's column buttons, each with
what its tile scores there (the engine's ``wall_points``), and the placement
chosen with ``?column=`` to confirm. Every value a link, form or data attribute
carries is printed, and the query read, by the codec (``moves``,
``docs/moves.md``). What a take would send to the floor is read off
``engine.copy()`` with the take applied, not worked out again here.

Everything on the table is public (``docs/rules/azul.md §9``); the bag and the lid
are shown as counts by colour (the engine keeps no bag order).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.classic import moves
from games.classic.words import (
    from_source_label,
    line_label,
    overflow_text,
    tile,
    tiles_colour,
)
from games.engine.classic import (
    COLOURS,
    FLOOR,
    FLOOR_PENALTIES,
    MARKER,
    PHASE_OFFER,
    PHASE_TILING,
    ClassicGame,
    Take,
    WallPlacement,
    wall_points,
)
from games.engine.common import CENTER
from games.selectors import SeatView

_NO_TILE = {"colour": "", "name": "", "label": "", "letter": ""}
"""A space without a tile, as a tile's fields."""


def _groups(
    source: int, counts: Sequence[int], tiles: list[dict[str, str]]
) -> list[dict[str, Any]]:
    """The tile groups of a factory or the centre, one per colour present."""
    return [
        {
            "source": source,
            "value": moves.group_value(source, colour),
            "colour": COLOURS[colour],
            "count": count,
            "tiles": [tiles[colour]] * count,
        }
        for colour, count in enumerate(counts)
        if count
    ]


def last_take(engine: ClassicGame) -> dict[str, Any] | None:
    """The latest take while its tiles still lie where it put them: the log's
    last entry, if it is a take (after the round's wall tiling or the next deal,
    nothing on the board shows it any more)."""
    size = engine.log_size()
    if not size:
        return None
    entry = engine.log_from(size - 1)[0]
    return entry if entry["type"] == "take" else None


def _player(
    engine: ClassicGame,
    seat: int,
    name: str,
    tiles: list[dict[str, str]],
    to_move: int | None,
    line_labels: Sequence[str],
    last: dict[str, Any] | None,
) -> dict[str, Any]:
    board = engine.boards[seat]
    mine_last = last if last is not None and last["seat"] == seat else None
    lines = []
    for line in range(5):
        count = board.line_count[line]
        colour = board.line_colour[line] if count else -1
        # How many of its tiles the last take put there (drawn first).
        placed = (
            mine_last["placed"]
            if mine_last is not None and mine_last["line"] == line
            else 0
        )
        lines.append(
            {
                "line": line,
                "value": moves.line_value(line),
                "number": line + 1,
                "label": line_labels[line],
                "capacity": line + 1,
                "count": count,
                "colour": COLOURS[colour] if colour >= 0 else "",
                "empty": range(line + 1 - count),
                "tiles": [
                    {**tiles[colour], "last": True} if index < placed else tiles[colour]
                    for index in range(count)
                ],
                "legal": False,
                "pending": False,
                "last": placed,
            }
        )
    # A wall cell is a placed tile, else its printed colour (none on the grey
    # wall): the tile's colour, name and letter sit in the cell itself.
    wall = []
    for row in range(5):
        cells = []
        for column in range(5):
            placed = board.wall[row][column]
            printed = engine.wall_colour(row, column)
            shown = placed if placed >= 0 else printed
            cells.append(
                {
                    **(tiles[shown] if shown is not None else _NO_TILE),
                    "column": column,
                    "placed": placed >= 0,
                    "choice": False,
                }
            )
        wall.append(cells)
    floor = []
    # The last take's tiles on the floor are its last ones.
    first_new = len(board.floor) - (mine_last["to_floor"] if mine_last else 0)
    for index, penalty in enumerate(FLOOR_PENALTIES):
        item = board.floor[index] if index < len(board.floor) else None
        marker = item == MARKER
        floor.append(
            {
                **(tiles[item] if item is not None and not marker else _NO_TILE),
                "penalty": penalty,
                "marker": marker,
                "last": first_new <= index < len(board.floor) and not marker,
            }
        )
    return {
        "seat": seat,
        "name": name,
        "label": _("Board of %(name)s") % {"name": name},
        "score": board.score,
        "to_move": seat == to_move,
        "is_me": False,
        "lines": lines,
        "wall": wall,
        "floor": floor,
        "floor_value": moves.line_value(FLOOR),
        "floor_legal": False,
        "targets": False,
    }


def _counts(counts: Sequence[int], tiles: list[dict[str, str]]) -> list[dict[str, Any]]:
    return [{**tiles[colour], "count": n} for colour, n in enumerate(counts)]


def position_context(engine: ClassicGame, names: Sequence[str]) -> dict[str, Any]:
    """One position, read-only: factories and centre, each player's pattern
    lines, wall and floor line, and the bag and lid."""
    tiles = [tile(colour) for colour in range(len(COLOURS))]
    to_move = engine.to_move()
    # The labels every player's board repeats, translated once.
    line_label = _("Line %(n)s")
    line_labels = [line_label % {"n": line + 1} for line in range(5)]
    factory_label = _("Factory %(number)s")
    last = last_take(engine)
    taken_from = last["source"] if last is not None else None
    factories = []
    for index, counts in enumerate(engine.factories):
        groups = _groups(index, counts, tiles)
        factories.append(
            {
                "zone": f"factory-{index}",
                "centre": False,
                "label": factory_label % {"number": index + 1},
                "groups": groups,
                "marker": False,
                "empty": not groups,
                "last": taken_from == index,
            }
        )
    groups = _groups(CENTER, engine.center, tiles)
    centre = {
        "zone": "centre",
        "centre": True,
        "label": _("Centre"),
        "groups": groups,
        "marker": engine.center_marker,
        "empty": not groups and not engine.center_marker,
        "last": taken_from == CENTER,
    }
    return {
        "round": engine.round,
        "grey": engine.grey,
        "over": engine.is_over(),
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else "",
        "factories": factories,
        "centre": centre,
        "sources": [*factories, centre],
        "players": [
            _player(engine, seat, names[seat], tiles, to_move, line_labels, last)
            for seat in range(engine.players)
        ],
        "bag": _counts(engine.bag, tiles),
        "bag_total": sum(engine.bag),
        "words": {
            "pattern_lines": _("Pattern lines"),
            "wall": _("Wall"),
            "floor_line": _("Floor line"),
            "empty": _("empty"),
        },
        "lid": _counts(engine.lid, tiles),
        "lid_total": sum(engine.lid),
    }


def destinations_by_group(engine: ClassicGame) -> dict[tuple[int, int], dict[int, int]]:
    """Every group the player to move may take, with its legal lines and how many
    of its tiles each line sends to the floor (or on, to the lid, when the floor
    line is full): ``{(source, colour): {line: overflow}}``, from the engine."""
    size = engine.log_size()
    found: dict[tuple[int, int], dict[int, int]] = {}
    for move in engine.legal_moves():
        if not isinstance(move, Take):
            continue
        overflow = 0
        if move.line != FLOOR:
            probe = engine.copy()
            probe.push(move)
            taken = probe.log_from(size)[0]
            overflow = taken["count"] - taken["placed"]
        found.setdefault((move.source, move.colour), {})[move.line] = overflow
    return found


def _preview(
    board: ClassicBoard,
    engine: ClassicGame,
    take: Take,
    names: Sequence[str],
    seat: int,
) -> None:
    """The board as the take ``take`` would leave it, to be confirmed or undone
    (misclick protection): drawn from ``engine.preview`` (the take and nothing
    after it, so no wall tiling and no deal), the tiles it moves marked as the
    last move. Nothing on it can be chosen; the confirmation form posts the take."""
    after = engine.preview(take)
    position = position_context(after, names)
    for player in position["players"]:
        player["to_move"] = player["seat"] == seat
    position["players"][seat]["is_me"] = True
    position["to_move"], position["to_move_name"] = seat, names[seat]
    entry = after.log_from(engine.log_size())[0]
    words = {
        "count": entry["count"],
        "colour": tiles_colour(take.colour, entry["count"]),
        "from_source": from_source_label(take.source),
        "line": line_label(take.line),
    }
    if take.line == FLOOR:
        text = ngettext(
            "%(count)s %(colour)s tile %(from_source)s to the floor.",
            "%(count)s %(colour)s tiles %(from_source)s to the floor.",
            entry["count"],
        )
    else:
        text = ngettext(
            "%(count)s %(colour)s tile %(from_source)s on %(line)s.",
            "%(count)s %(colour)s tiles %(from_source)s on %(line)s.",
            entry["count"],
        )
    overflow = entry["count"] - entry["placed"]
    board["position"] = position
    board["offer"] = False
    board["prompt"] = _("Check your move on the board, then confirm it or undo it.")
    board["preview"] = {
        "fields": moves.fields(take),
        "undo_query": moves.selection_query(take.source, take.colour),
        "text": text % words,
        "overflow": overflow_text(overflow) if overflow and take.line != FLOOR else "",
    }


def _all_groups(position: dict[str, Any]) -> list[dict[str, Any]]:
    groups = [g for factory in position["factories"] for g in factory["groups"]]
    return groups + position["centre"]["groups"]


class ClassicBoard(TypedDict):
    """The live classic board, ``live_context``'s answer, for ``_live.html``
    (the contract's ``games.families.BoardContext`` and the classic parts)."""

    position: dict[str, Any]
    my_turn: bool
    prompt: str
    offer: bool
    """Tiles may be taken now: the tile groups are buttons."""
    selected: dict[str, Any] | None
    """The group chosen (``?group=``): its ``value`` and ``heading``."""
    destinations: list[dict[str, Any]]
    overflow_texts: str
    take_fields: dict[str, str]
    """The hidden fields of the destinations form (``moves.group_fields``)."""
    wall_choice: dict[str, Any] | None
    preview: dict[str, Any] | None
    log: NotRequired[list[str]]
    since: NotRequired[list[str]]


def live_context(
    engine: ClassicGame,
    *,
    names: Sequence[str],
    view: SeatView,
    query: Mapping[str, str],
) -> ClassicBoard:
    """The position plus the decision of ``view``'s viewer, when it is their
    turn (see the module's docstring)."""
    position = position_context(engine, names)
    if not view.active:  # over, or ended by resignation or on time: nobody moves
        position["to_move"], position["to_move_name"] = None, ""
        for player in position["players"]:
            player["to_move"] = False
    viewer_seat = view.number
    my_turn = view.my_turn
    offer = my_turn and engine.phase == PHASE_OFFER
    tiling = my_turn and engine.phase == PHASE_TILING and bool(engine.pending_wall)
    mine = position["players"][viewer_seat] if viewer_seat is not None else None
    if mine is not None:
        mine["is_me"] = True
    board: ClassicBoard = {
        "position": position,
        "my_turn": my_turn,
        "prompt": "",
        "offer": offer,
        "selected": None,
        "destinations": [],
        "overflow_texts": "{}",
        "take_fields": {},
        "wall_choice": None,
        "preview": None,
    }
    if offer and mine is not None and viewer_seat is not None:
        by_group = destinations_by_group(engine)
        selected = moves.parse_group(query.get(moves.GROUP))
        if selected not in by_group:
            selected = None
        overflows: set[int] = set()
        # Each phrase translated once for all the groups.
        chosen_text = _("%(colour)s %(from_source)s")
        take_text = _("Take %(count)s %(colour)s %(from_source)s")
        place_text = _("Place %(tiles)s on:")
        sources: dict[int, str] = {}
        for group in _all_groups(position):
            key = (group["source"], COLOURS.index(group["colour"]))
            lines = by_group.get(key)
            if lines is None:
                continue
            overflows.update(n for n in lines.values() if n)
            source = sources.get(key[0])
            if source is None:
                source = sources[key[0]] = from_source_label(key[0])
            words = {"colour": group["tiles"][0]["name"], "from_source": source}
            chosen = chosen_text % words
            group["choice"] = {
                "selected": key == selected,
                "label": take_text % {"count": group["count"], **words},
                # Each group carries its legal lines and the fields it sets, so
                # static/js/board.js shows them without asking the server.
                "dests": moves.destinations_value(lines),
                "source": moves.source_value(key[0]),
                "colour": moves.colour_value(key[1]),
                "heading": place_text % {"tiles": chosen},
            }
            if key == selected:
                board["selected"] = {
                    "value": group["value"],
                    "heading": group["choice"]["heading"],
                }
        chosen_lines = by_group[selected] if selected is not None else {}
        board["take_fields"] = moves.group_fields(selected)
        board["destinations"] = [
            {
                "value": moves.line_value(line),
                "label": line_label(line),
                "legal": line in chosen_lines,
                "overflow": overflow_text(chosen_lines[line])
                if chosen_lines.get(line)
                else "",
            }
            for line in (*range(5), FLOOR)
        ]
        # The viewer's own pattern lines and floor line are the targets of the
        # chosen group: each is a submit button of the destinations form
        # ("move-dest"), enabled when legal (static/js/board.js enables them
        # for a group chosen in the page).
        place_text = _("Place the tiles on %(line)s")
        mine["targets"] = True
        for line in mine["lines"]:
            line["legal"] = line["line"] in chosen_lines
            line["target_label"] = place_text % {"line": line_label(line["line"])}
        mine["floor_legal"] = FLOOR in chosen_lines
        mine["floor_target_label"] = place_text % {"line": line_label(FLOOR)}
        board["overflow_texts"] = json.dumps(
            {str(n): overflow_text(n) for n in sorted(overflows)}, ensure_ascii=False
        )
        if selected is None:
            board["prompt"] = _("Choose tiles from a factory or the centre.")
        else:
            line = moves.parse_line(query.get(moves.LINE))
            if line is not None and line in chosen_lines:
                take = Take(viewer_seat, selected[0], selected[1], line)
                _preview(board, engine, take, names, viewer_seat)
    if tiling and mine is not None and engine.pending_wall is not None:
        _wall_decision(board, engine, mine, query)
    return board


def wall_points_by_column(engine: ClassicGame) -> dict[int, int]:
    """Grey wall (``docs/rules/azul.md §8``): each legal column of the line
    awaiting one, with the points its tile would score there now — the engine's
    own count (``wall_points``, §6), read off the wall as it stands."""
    if engine.pending_wall is None:
        return {}
    seat, line = engine.pending_wall
    wall = engine.boards[seat].wall
    return {
        move.column: wall_points(wall, line, move.column)
        for move in engine.legal_moves()
        if isinstance(move, WallPlacement)
    }


def _wall_decision(
    board: ClassicBoard,
    engine: ClassicGame,
    mine: dict[str, Any],
    query: Mapping[str, str],
) -> None:
    """The grey wall's column choice: each legal column with what it scores; a
    column chosen in the query (``?column=``, a player who confirms moves) is
    the placement to confirm or undo, drawn where its tile would go."""
    assert engine.pending_wall is not None
    seat, line = engine.pending_wall
    points = wall_points_by_column(engine)
    board["prompt"] = _("Choose the wall column for the tile of line %(line)s.") % {
        "line": line + 1
    }
    mine["lines"][line]["pending"] = True
    chosen = moves.parse_column(query.get(moves.COLUMN))
    if chosen in points:
        colour = engine.boards[seat].line_colour[line]
        for cell in mine["wall"][line]:
            cell["choice"] = cell["column"] == chosen
            if cell["choice"]:
                # The tile drawn where it would go, as a wall's printed colour
                # (no data-colour: nothing has moved yet).
                cell.update(tile(colour))
        move = WallPlacement(seat, line, chosen)
        words = {
            "colour": tiles_colour(colour, 1),
            "line": line + 1,
            "column": chosen + 1,
            "points": points[chosen],
        }
        board["prompt"] = _("Check your move on the board, then confirm it or undo it.")
        board["preview"] = {
            "fields": moves.fields(move),
            "undo_query": "",
            "text": ngettext(
                "The %(colour)s tile of line %(line)s to column %(column)s: "
                "+%(points)s point.",
                "The %(colour)s tile of line %(line)s to column %(column)s: "
                "+%(points)s points.",
                points[chosen],
            )
            % words,
            "overflow": "",
        }
        return
    for cell in mine["wall"][line]:
        cell["choice"] = cell["column"] in points
    label = _("Column %(n)s")
    board["wall_choice"] = {
        "fields": moves.wall_fields(line),
        "number": line + 1,
        "columns": [
            {
                "value": moves.column_value(column),
                "number": column + 1,
                "points_text": pgettext("points a wall placement scores", "+%(n)s")
                % {"n": points[column]},
                "label": ngettext(
                    "Column %(column)s: %(points)s point",
                    "Column %(column)s: %(points)s points",
                    points[column],
                )
                % {"column": column + 1, "points": points[column]},
                "text": label % {"n": column + 1},
            }
            for column in sorted(points)
        ],
    }


def _legal(
    engine: ClassicGame, decision: Mapping[str, Any]
) -> Take | WallPlacement | None:
    """The legal move of ``engine`` whose record event is ``decision``."""
    wanted = dict(decision)
    return next((m for m in engine.legal_moves() if m.to_event() == wanted), None)


def mark_best(
    position: dict[str, Any], engine: ClassicGame, decision: Mapping[str, Any]
) -> None:
    """Mark on ``position`` (``position_context(engine, …)``) the decision
    ``decision`` (a record event legal in ``engine``), the review's best one
    (docs/review.md), as ``best`` marks ``_position.html`` draws as
    ``data-best``: a take's factory or centre (``source``), its tiles
    (``tile``) and its pattern line or floor line (``target``); a grey-wall
    placement's pattern line (``source``) and wall space (``target``)."""
    move = _legal(engine, decision)
    if isinstance(move, Take):
        source = (
            position["centre"]
            if move.source == CENTER
            else position["factories"][move.source]
        )
        source["best"] = "source"
        for group in source["groups"]:
            if group["colour"] == COLOURS[move.colour]:
                group["best"] = True
                group["tiles"] = [{**t, "best": True} for t in group["tiles"]]
        player = position["players"][move.seat]
        if move.line == FLOOR:
            player["floor_best"] = "target"
        else:
            player["lines"][move.line]["best"] = "target"
    elif isinstance(move, WallPlacement):
        player = position["players"][move.seat]
        player["lines"][move.line]["best"] = "source"
        player["wall"][move.line][move.column]["best"] = "target"
