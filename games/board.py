"""What the game page shows, as plain data for the templates (no private state).

Everything on the table is public (``rules/classic.md §9``); the bag is shown only
as counts by colour — the engine keeps no bag order, and no seed exists.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from html import escape as html_escape
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.engine import record
from games.engine.classic import COLOURS, FLOOR, FLOOR_PENALTIES, MARKER, Take
from games.engine.common import CENTER

from .models import Game
from .tiles import colour_name, tile_table
from .translated import per_language


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


class _LogPhrases:
    """The log's phrases in one language (catalogs do not change while the
    process runs): a board describes only the entries since it last drew the
    game, so asking gettext for every phrase on every board showed in a profile."""

    def __init__(self) -> None:
        self.took = _("%(player)s took %(count)s %(colour)s from %(source)s → %(dest)s")
        self.to_floor = _("; %(count)s to the floor")
        self.to_lid = _("; %(count)s to the lid")
        self.marker = _("; took the first-player marker")
        self.dealt = _("Round %(round)s: %(tiles)s tiles dealt to the factories")
        self.walled = _(
            "%(player)s placed %(colour)s on the wall, row %(row)s column "
            "%(column)s: +%(points)s"
        )
        self.floored = _(
            "%(player)s had no wall space for line %(line)s: %(count)s "
            "%(colour)s to the floor"
        )
        self.round_end = _("End of round %(round)s — scores: %(scores)s")
        self.colours = [colour_name(c) for c in range(len(COLOURS))]
        factory = _("factory %(number)s")
        self.sources = {CENTER: _("the centre")} | {
            n: factory % {"number": n + 1} for n in range(9)
        }
        line_name = _("line %(number)s")
        self.line_names = {FLOOR: _("the floor")} | {
            n: line_name % {"number": n + 1} for n in range(5)
        }


_log_phrases = per_language(_LogPhrases)


def describe_log(entries: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The move log in words, e.g. "binh took 3 red from factory 2 → line 4"."""
    phrases = _log_phrases()
    took, to_floor, to_lid = phrases.took, phrases.to_floor, phrases.to_lid
    marker, dealt, walled = phrases.marker, phrases.dealt, phrases.walled
    floored, round_end, colours = phrases.floored, phrases.round_end, phrases.colours
    sources, line_names = phrases.sources, phrases.line_names
    lines: list[str] = []
    for entry in entries:
        kind = entry["type"]
        if kind == "take":
            source, line = entry["source"], entry["line"]
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


# The log in words of recently drawn games, per process and language: the log
# only grows, so a board describes just the entries since this process last drew
# the game. An entry is used only while its events are a prefix of the game's.
_LOG_CACHE_SIZE = 512
_logs: OrderedDict[tuple[Any, ...], tuple[list[Any], int, list[str], str]] = (
    OrderedDict()
)
_logs_lock = threading.Lock()


def _lines_html(lines: list[str]) -> str:
    # html_escape is what django.utils.html.escape runs, without its lazy-
    # string wrapper: a finished game's log has ~150 lines.
    return "".join(f"<li>{html_escape(line)}</li>" for line in lines)


def described_log(game: Game, engine: Any, names: list[str]) -> list[str]:
    """``describe_log(engine.log, names)`` for ``game`` at its current events."""
    return list(_described(game, engine, names)[0])


def _described(game: Game, engine: Any, names: list[str]) -> tuple[list[str], str]:
    """The log in words and as ``<li>`` items (remembered; not to be changed)."""
    events = game.cached_events
    key = (game._state.db, game.pk, game.variant, get_language(), tuple(names))
    with _logs_lock:
        cached = _logs.get(key)
    size = engine.log_size()
    if (
        cached is not None
        and len(cached[0]) <= len(events)
        and cached[1] <= size
        and events[: len(cached[0])] == cached[0]
    ):
        added = describe_log(engine.log_from(cached[1]), names)
        lines, html = cached[2] + added, cached[3] + _lines_html(added)
    else:
        lines = describe_log(engine.log, names)
        html = _lines_html(lines)
    if events or not game.ply:  # a game without its cache is not remembered
        with _logs_lock:
            _logs[key] = (events, size, lines, html)
            _logs.move_to_end(key)
            while len(_logs) > _LOG_CACHE_SIZE:
                _logs.popitem(last=False)
    return lines, html


def log_with_forfeits(
    *,
    game: Game,
    lines: list[str],
    names: list[str],
    seat_rows: list[Any],
    describe: Callable[[Any], list[str]] | None = None,
) -> list[str]:
    """The log in words plus a line where each player forfeited or resigned.

    ``describe`` turns an engine state into its log lines (classic by default),
    so the note lands after the lines of the events before the player left.
    """
    if describe is None:

        def describe(engine: Any) -> list[str]:
            return describe_log(engine.log, names)

    events = game.cached_events
    last_forfeit = max(
        (s.forfeited_ply for s in seat_rows if s.forfeited_ply is not None),
        default=None,
    )
    notes: list[tuple[int, str]] = []
    for seat in seat_rows:
        if seat.forfeited_ply is None or game.first_seat is None:
            continue
        before = record.new_game(game.variant, game.players, game.first_seat)
        for event in events[: seat.forfeited_ply]:
            before.apply_event(event)
        position = len(describe(before))
        name = names[seat.number]
        if seat.resigned and seat.forfeited_at is None:
            if game.status == Game.Status.FINISHED and seat.forfeited_ply == game.ply:
                text = _("%(player)s resigned.")
            else:
                text = _("%(player)s resigned; the site plays their turns from now on.")
        elif game.end_reason == Game.EndReason.TIMEOUT and (
            seat.forfeited_ply == last_forfeit
        ):
            text = _("%(player)s did not move in time and lost the game.")
        else:
            text = _(
                "%(player)s did not move in time and forfeited; the site plays "
                "their turns from now on."
            )
        notes.append((position, text % {"player": name}))
    lines = list(lines)
    for position, text in sorted(notes, reverse=True):
        lines.insert(position, text)
    return lines


class _Labels:
    """The board's fixed words in one language, translated once per process.

    A board draws ~12 tile groups, 6 destinations and 2-4 player boards; asking
    gettext for each of their labels on every request showed in a profile
    (``bench/http.py``). Catalogs do not change while the process runs.
    """

    def __init__(self) -> None:
        self.take = _("Take %(count)s %(colour)s from %(source)s")
        self.group = _("%(colour)s from %(source)s")
        self.colours = [colour_name(c) for c in range(len(COLOURS))]
        self.sources = {source: source_label(source) for source in (*range(9), CENTER)}
        self.factories = [_("Factory %(number)s") % {"number": n + 1} for n in range(9)]
        self.lines = {
            line: line_label(line).capitalize() for line in (*range(5), FLOOR)
        }
        self.line_names = [escape(_("Line %(n)s") % {"n": n + 1}) for n in range(5)]
        self.columns = [_("Column %(n)s") % {"n": n + 1} for n in range(5)]
        self.marker_html = _marker_html()
        # Already escaped, for the HTML built below.
        self.empty_html = format_html(
            '<span class="empty-source">{}</span>', _("empty")
        )
        self.centre = escape(_("Centre"))
        self.factory_headings = [escape(label) for label in self.factories]
        self.board_of = _("Board of %(name)s")
        self.score = _("score %(score)s")
        self.you_html = format_html(" ({})", _("you"))
        self.to_move_html = format_html(' <span class="badge">{}</span>', _("to move"))
        self.vacation_html = format_html(
            ' <span class="badge vacation">{}</span>', _("on vacation")
        )
        self.pattern_lines = escape(_("Pattern lines"))
        self.wall = escape(_("Wall"))
        self.floor_line = escape(_("Floor line"))
        self.tiles = tile_table()
        self.overflow_texts: dict[int, str] = {}

    def overflow_text(self, count: int) -> str:
        text = self.overflow_texts.get(count)
        if text is None:
            text = self.overflow_texts[count] = overflow_text(count)
        return text


_labels = per_language(_Labels)


def _marker_html() -> SafeString:
    label = _("first-player marker")
    return format_html(
        '<span class="marker" role="img" aria-label="{}" title="{}">1</span>',
        label,
        label,
    )


def _counts_html(counts: list[int], labels: _Labels) -> SafeString:
    """Tiles by colour with their counts: the bag and lid are only ever counts."""
    tiles = labels.tiles
    return mark_safe(
        " ".join(f"{tiles[colour, '']}&times;{n}" for colour, n in enumerate(counts))
    )


def _groups(
    source: int,
    counts: list[int],
    selected: tuple[int, int] | None,
    active: bool,
    dests: dict[tuple[int, int], str],
    labels: _Labels,
) -> list[dict[str, Any]]:
    """The tile groups of one factory or the centre, each with its HTML: a submit
    button of the board's GET form when the viewer may take it, else plain tiles.
    """
    tiles = labels.tiles
    groups = []
    for colour, count in enumerate(counts):
        if not count:
            continue
        value = f"{_source_value(source)}:{COLOURS[colour]}"
        tiles_html = str(tiles[colour, ""]) * count
        is_selected = selected == (source, colour)
        if active:
            label_args = {
                "count": count,
                "colour": labels.colours[colour],
                "source": labels.sources[source],
            }
            html = mark_safe(
                f'<button type="submit" name="group" value="{value}" '
                f'class="group{" selected" if is_selected else ""}" '
                f'aria-pressed="{"true" if is_selected else "false"}" '
                f'aria-label="{html_escape(labels.take % label_args)}" '
                f'data-dests="{dests.get((source, colour), "")}" '
                f'data-chosen="{html_escape(labels.group % label_args)}">'
                f"{tiles_html}</button>"
            )
        else:
            html = mark_safe(f'<span class="group">{tiles_html}</span>')
        groups.append(
            {"value": value, "count": count, "selected": is_selected, "html": html}
        )
    return groups


def _groups_html(groups: list[dict[str, Any]]) -> SafeString:
    return mark_safe("".join(str(g["html"]) for g in groups))


def _overflow(board: Any, line: int, count: int) -> int:
    """Tiles of ``count`` a pattern line cannot hold (``rules/classic.md §4.3``)."""
    if line == FLOOR:
        return 0
    return max(0, count - (line + 1 - board.line_count[line]))


def _destinations_by_group(
    engine: Any, viewer_seat: int
) -> tuple[dict[tuple[int, int], dict[int, int]], set[int]]:
    """Every legal group's destination lines with the tiles each sends to the floor.

    Returns ``{(source, colour): {line: overflow}}`` and the set of overflow counts
    that occur (so the page carries only the labels it needs).
    """
    board = engine.boards[viewer_seat]
    by_group: dict[tuple[int, int], dict[int, int]] = {}
    overflows: set[int] = set()
    for move in engine.legal_moves():
        if not isinstance(move, Take):
            continue
        source, colour = move.source, move.colour
        counts = engine.center if source == CENTER else engine.factories[source]
        overflow = _overflow(board, move.line, counts[colour])
        by_group.setdefault((source, colour), {})[move.line] = overflow
        if overflow:
            overflows.add(overflow)
    return by_group, overflows


def _line_value(line: int) -> str:
    return "floor" if line == FLOOR else str(line)


def overflow_text(count: int) -> str:
    return ngettext("(%(n)s to the floor)", "(%(n)s to the floor)", count) % {
        "n": count
    }


def _factories_html(
    factories: list[dict[str, Any]],
    center_groups_html: SafeString,
    center_marker: bool,
    labels: _Labels,
) -> SafeString:
    """The factories and the centre, as the board's GET form holds them."""
    empty = labels.empty_html
    parts = [
        f'<div class="factory"><h3>{labels.factory_headings[index]}</h3>'
        f"{factory['groups_html'] or empty}</div>"
        for index, factory in enumerate(factories)
    ]
    marker = labels.marker_html if center_marker else ""
    parts.append(
        f'<div class="factory center"><h3>{labels.centre}</h3>{marker}'
        f"{center_groups_html or ('' if center_marker else empty)}</div>"
    )
    return mark_safe("".join(parts))


def _destinations_html(destinations: list[dict[str, Any]]) -> SafeString:
    # f-strings with html_escape (what django.utils.html.escape runs): drawn on
    # every board, format_html_join's lazy-string checks showed in a profile.
    return mark_safe(
        "".join(
            f'<button type="submit" name="line" value="{html_escape(d["value"])}" '
            f'class="dest{" legal" if d["legal"] else ""}"'
            f"{'' if d['legal'] else ' disabled'}>{html_escape(d['label'])} "
            f'<span class="overflow">{html_escape(d["overflow_text"])}</span>'
            "</button>"
            for d in destinations
        )
    )


def _wall_choices_html(choices: list[dict[str, Any]]) -> SafeString:
    return format_html_join(
        "",
        '<button type="submit" name="column" value="{}" class="dest legal">{}</button>',
        ((c["column"], c["label"]) for c in choices),
    )


def _players_html(players: list[dict[str, Any]], labels: _Labels) -> SafeString:
    """Every player's board: pattern lines, wall and floor, with its heading."""
    parts = []
    for p in players:
        name = html_escape(p["name"])
        parts.append(
            f'<section class="player-board{" to-move" if p["to_move"] else ""}'
            f'{" mine" if p["is_me"] else ""}" '
            f'aria-label="{html_escape(labels.board_of % {"name": p["name"]})}">'
            f"<h3>{name}{labels.you_html if p['is_me'] else ''} — "
            f"{html_escape(labels.score % {'score': p['score']})}"
            f"{labels.to_move_html if p['to_move'] else ''}"
            f"{labels.vacation_html if p.get('on_vacation_until') else ''}</h3>"
            '<div class="lines-and-wall">'
            f'<ol class="pattern-lines" aria-label="{labels.pattern_lines}">'
            f"{p['lines_html']}</ol>"
            f'<table class="wall" aria-label="{labels.wall}">{p["wall_html"]}</table>'
            f'</div><ol class="floor{" legal" if p["floor_legal"] else ""}" '
            f'data-line="floor" aria-label="{labels.floor_line}">{p["floor"]}</ol>'
            "</section>"
        )
    return mark_safe("".join(parts))


def _results_html(players: list[dict[str, Any]]) -> SafeString:
    """The final result's table rows (rank, player, score)."""
    resigned = format_html(" ({})", _("resigned"))
    forfeited = format_html(" ({})", _("forfeited on time"))
    return format_html_join(
        "",
        "<tr><td>{}</td><td>{}{}</td><td>{}</td></tr>",
        (
            (
                p["rank"],
                p["name"],
                resigned if p["resigned"] else forfeited if p["forfeited"] else "",
                p["final_score"],
            )
            for p in players
        ),
    )


def _log_html(game: Game, engine: Any, names: list[str], seat_rows: list[Any]) -> str:
    """The log's ``<li>`` items, with a line where a player left the game."""
    lines, html = _described(game, engine, names)
    if all(seat.forfeited_ply is None for seat in seat_rows):
        return html  # no such line: the remembered items as they are
    return _lines_html(
        log_with_forfeits(game=game, lines=lines, names=names, seat_rows=seat_rows)
    )


@functools.lru_cache(maxsize=1024)
def _game_urls(prefix: str, pk: int) -> tuple[str, str]:
    """The game page's and move form's URLs (``reverse`` is not free)."""
    return reverse("games:detail", args=[pk]), reverse("games:move", args=[pk])


def board_context(
    *,
    game: Game,
    engine: Any,
    viewer_seat: int | None,
    group: str | None,
    vacations: dict[int, Any] | None = None,
) -> dict[str, Any]:
    """Everything the board partial draws, for the viewer's seat (or a spectator).

    ``vacations`` (seat → end of the current vacation) marks the players' boards.
    The repeated parts (factories, destinations, boards, results) come as HTML
    built here: the same markup in template loops cost a fifth of a move's CPU.
    """
    vacations = vacations or {}
    labels = _labels()
    seat_rows = list(game.seats.all())
    names = [s.name or "?" for s in seat_rows]
    to_move = engine.to_move() if game.status == Game.Status.ACTIVE else None
    my_turn = to_move is not None and to_move == viewer_seat
    offer = my_turn and engine.phase == "offer"
    selected = parse_group(group) if offer else None

    by_group: dict[tuple[int, int], dict[int, int]] = {}
    overflows: set[int] = set()
    if offer and viewer_seat is not None:
        by_group, overflows = _destinations_by_group(engine, viewer_seat)
    if selected not in by_group:
        selected = None
    # Each tile group carries its legal lines ("line:overflow ...") so the board's
    # script highlights them without asking the server (static/js/board.js).
    dests = {
        group: " ".join(f"{_line_value(line)}:{n}" for line, n in sorted(lines.items()))
        for group, lines in by_group.items()
    }
    chosen = by_group.get(selected, {}) if selected is not None else {}
    legal_lines = set(chosen)
    destinations: list[dict[str, Any]] = []
    if offer:
        for line in (*range(5), FLOOR):
            overflow = chosen.get(line, 0)
            destinations.append(
                {
                    "value": _line_value(line),
                    "label": labels.lines[line],
                    "legal": line in chosen,
                    "overflow_text": labels.overflow_text(overflow) if overflow else "",
                }
            )

    wall_choices: list[dict[str, Any]] = []
    pending = getattr(engine, "pending_wall", None)
    if my_turn and engine.phase == "tiling" and pending is not None:
        wall_choices = [
            {"column": m.column, "label": labels.columns[m.column]}
            for m in engine.legal_moves()
        ]
    wall_columns = {c["column"] for c in wall_choices}

    tiles = labels.tiles
    empty = str(tiles[None, ""])
    line_names = labels.line_names
    players = []
    for seat, board in enumerate(engine.boards):
        is_pending_board = bool(wall_choices) and seat == viewer_seat
        lines = []
        for line in range(5):
            count = board.line_count[line]
            filled = str(tiles[board.line_colour[line], ""]) if count else ""
            classes = []
            if seat == viewer_seat and line in legal_lines:
                classes.append("legal")
            if is_pending_board and pending[1] == line:
                classes.append("pending")
            lines.append(
                f'<li class="{" ".join(classes)}" data-line="{line}" '
                f'aria-label="{line_names[line]}">'
                f"{empty * (line + 1 - count)}{filled * count}</li>"
            )
        wall = []
        for row in range(5):
            wall.append("<tr>")
            for column in range(5):
                placed = board.wall[row][column]
                printed = engine.wall_colour(row, column)
                if placed >= 0:
                    html = tiles[placed, ""]
                elif printed is not None:
                    html = tiles[printed, "printed"]
                else:
                    html = tiles[None, ""]
                choice = (
                    is_pending_board and pending[1] == row and column in wall_columns
                )
                wall.append(
                    f'<td class="choice">{html}</td>' if choice else f"<td>{html}</td>"
                )
            wall.append("</tr>")
        floor_items = []
        for index, penalty in enumerate(FLOOR_PENALTIES):
            item = board.floor[index] if index < len(board.floor) else None
            content = labels.marker_html if item == MARKER else tiles[item, ""]
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
                "lines_html": mark_safe("".join(lines)),
                "wall_html": mark_safe("".join(wall)),
                "floor": floor,
                "floor_legal": seat == viewer_seat and FLOOR in legal_lines,
                "rank": seat_row.rank,
                "final_score": seat_row.score,
                "resigned": seat_row.resigned,
                "forfeited": seat_row.forfeited_at is not None,
                "on_vacation_until": vacations.get(seat),
            }
        )

    factories = [
        {
            "label": labels.factories[index],
            "groups_html": _groups_html(
                _groups(index, counts, selected, offer, dests, labels)
            ),
        }
        for index, counts in enumerate(engine.factories)
    ]
    center_groups_html = _groups_html(
        _groups(CENTER, engine.center, selected, offer, dests, labels)
    )
    finished = game.status == Game.Status.FINISHED
    detail_url, move_url = _game_urls(get_script_prefix(), game.pk)
    return {
        "names": names,
        # Each used several times by the partial: reversed once here.
        "detail_url": detail_url,
        "move_url": move_url,
        "round": engine.round,
        "phase": engine.phase,
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else None,
        "my_seat": viewer_seat,
        "my_turn": my_turn,
        "offer": offer,
        "factories": factories,
        "center_groups_html": center_groups_html,
        "factories_html": _factories_html(
            factories, center_groups_html, engine.center_marker, labels
        ),
        "center_marker": engine.center_marker,
        "selected": selected,
        "selected_source": _source_value(selected[0]) if selected else "",
        "selected_colour": COLOURS[selected[1]] if selected else "",
        "selected_label": format_html(
            '<span class="chosen">{}</span>',
            _("%(colour)s from %(source)s")
            % {"colour": colour_name(selected[1]), "source": source_label(selected[0])}
            if selected
            else "",
        ),
        "destinations": destinations,
        "destinations_html": _destinations_html(destinations),
        "overflow_texts": json.dumps(
            {str(n): labels.overflow_text(n) for n in sorted(overflows)},
            ensure_ascii=False,
        ),
        "wall_choices": wall_choices,
        "wall_choices_html": _wall_choices_html(wall_choices),
        "pending_line": pending[1] + 1 if wall_choices and pending else None,
        "pending_line_value": pending[1] if wall_choices and pending else None,
        "players": players,
        "players_html": _players_html(players, labels),
        "results_html": _results_html(players) if finished else "",
        "bag_html": _counts_html(engine.bag, labels),
        "lid_html": _counts_html(engine.lid, labels),
        "bag_total": sum(engine.bag),
        "lid_total": sum(engine.lid),
        "log_html": mark_safe(_log_html(game, engine, names, seat_rows)),
    }
