"""The classic board partial (``#board``) as HTML built in Python.

The board partial is drawn on every move twice: as the mover's answer and as the
partner's refetch after the doorbell. In the template, its conditionals, includes
and ``blocktranslate`` tags cost about a fifth of a move's server CPU
(``bench/http.py``, py-spy); the same markup built here costs a fraction of that.
``board_context`` (``games/board.py``) already builds the repeated parts
(factories, boards, destinations); this module wraps them in the rest of the
partial: status line, absences, results, move forms, supply, resign form and log.
The Summer Pavilion board stays a template (``templates/games/pavilion/``) and
takes its absences and resign button from here.

Every string is translated with the same message ids the template used.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.formats import date_format, get_format
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name, template_localtime
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .models import Game
from .templatetags.time_left import time_left
from .translated import per_language

_dates: dict[tuple[str | None, str, Any], str] = {}
_minute_formats: dict[str | None, bool] = {}


class _Phrases:
    """The partial's fixed words in one language, asked of gettext once per
    process (catalogs do not change while it runs; ~30 gettext calls a board
    showed in a profile). Plain strings, escaped where they are used."""

    def __init__(self) -> None:
        self.ended_resigned = _("The game ended by resignation.")
        self.ended_timeout = _(
            "The game ended on time: a player did not move before the deadline."
        )
        self.ended = _("The game is over.")
        self.your_move = _("Your move.")
        self.choose_column = _("Choose the wall column for the tile of line %(line)s.")
        self.choose_tiles = _("Choose tiles from a factory or the centre.")
        self.to_move = _("%(name)s to move.")
        self.round = _("Round %(round)s.")
        self.deadline = _("Deadline: %(when)s UTC (%(left)s left).")
        self.choose_other = _("Choose other tiles")
        self.place_on = _("Place %(tiles)s on:")
        self.wall_column = _("Wall column for line %(line)s:")
        self.resign_confirm = _("Resign this game?")
        self.resign = _("Resign")
        # gettext calls stay outside f-strings: makemessages does not look inside.
        self.table = _("Factories and centre")
        self.supply = _("Bag and lid")
        self.moves = _("Moves")
        self.bag = _("Bag: %(n)s tiles")
        self.lid = _("Lid: %(n)s tiles")


_phrases = per_language(_Phrases)


def _date_text(value: Any) -> str:
    """``value|date:"DATETIME_FORMAT"``, remembered per language and minute when
    the language's format shows no seconds (none of ours does): every board of a
    game in progress shows its deadline, and date formatting is not cheap."""
    language = get_language()
    to_minute = _minute_formats.get(language)
    if to_minute is None:
        letters = re.sub(r"\\.", "", str(get_format("DATETIME_FORMAT")))
        to_minute = _minute_formats[language] = not set(letters) & set("sucrvU")
    if to_minute:
        value = value.replace(second=0, microsecond=0)
    key = (language, get_current_timezone_name(), value)
    text = _dates.get(key)
    if text is None:
        if len(_dates) > 4096:
            _dates.clear()
        text = _dates[key] = date_format(template_localtime(value), "DATETIME_FORMAT")
    return text


def _fill(message: str, **values: Any) -> str:
    """A translated message with escaped values (what ``blocktranslate`` does)."""
    return message % {key: conditional_escape(value) for key, value in values.items()}


def _status_html(game: Game, board: dict[str, Any], phrases: _Phrases) -> str:
    parts = []
    if game.status == Game.Status.FINISHED:
        if game.end_reason == Game.EndReason.RESIGNED:
            parts.append(escape(phrases.ended_resigned))
        elif game.end_reason == Game.EndReason.TIMEOUT:
            parts.append(escape(phrases.ended_timeout))
        else:
            parts.append(escape(phrases.ended))
    elif board["my_turn"]:
        parts.append(f"<strong>{escape(phrases.your_move)}</strong>")
        if board["phase"] == "tiling":
            parts.append(_fill(phrases.choose_column, line=board["pending_line"]))
        elif not board["selected"]:
            parts.append(escape(phrases.choose_tiles))
    elif board["to_move_name"]:
        parts.append(_fill(phrases.to_move, name=board["to_move_name"]))
    if game.status == Game.Status.ACTIVE:
        parts.append(_fill(phrases.round, round=board["round"]))
        if game.turn_deadline:
            parts.append(
                '<span class="deadline">'
                + _fill(
                    phrases.deadline,
                    when=_date_text(game.turn_deadline),
                    left=time_left(game.turn_deadline),
                )
                + "</span>"
            )
    return '<p class="status" role="status">' + " ".join(parts) + "</p>"


def absences_html(game: Game, players: list[dict[str, Any]]) -> SafeString:
    """Vacations and forfeits of the players of an active game (both games)."""
    if game.status != Game.Status.ACTIVE:
        return mark_safe("")
    parts = []
    for player in players:
        until = player.get("on_vacation_until")
        if until:
            parts.append(
                '<p class="vacation">'
                + _fill(
                    _(
                        "%(name)s is on vacation until %(until)s UTC: their clock "
                        "is stopped."
                    ),
                    name=player["name"],
                    until=date_format(template_localtime(until), "DATETIME_FORMAT"),
                )
                + "</p>"
            )
        if player.get("resigned"):
            message = _("%(name)s resigned; the site plays their turns.")
        elif player.get("forfeited"):
            message = _("%(name)s forfeited on time; the site plays their turns.")
        else:
            continue
        parts.append(f'<p class="forfeit">{_fill(message, name=player["name"])}</p>')
    return mark_safe("".join(parts))


def _results_html(board: dict[str, Any], statistics: dict[str, Any] | None) -> str:
    table = format_html(
        '<table class="results"><caption>{}</caption><thead><tr>'
        '<th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th>'
        "</tr></thead><tbody>{}</tbody></table>",
        _("Final result"),
        _("Rank"),
        _("Player"),
        _("Score"),
        board["results_html"],
    )
    if statistics:
        table += render_to_string("games/_statistics.html", {"statistics": statistics})
    return table


def _hidden(**values: Any) -> str:
    """Hidden inputs, in the order given."""
    return "".join(
        f'<input type="hidden" name="{name}" value="{escape(value)}">'
        for name, value in values.items()
    )


def _move_forms_html(
    game: Game, board: dict[str, Any], csrf_field: str, phrases: _Phrases
) -> str:
    move_url = escape(board["move_url"])
    detail_url = escape(board["detail_url"])
    choose_other = escape(phrases.choose_other)
    parts = []
    if board["offer"]:
        # Without JS this form appears once ?group= chose tiles; with JS,
        # board.js fills in the group and shows it (data-dests).
        parts.append(
            f'<form method="post" action="{move_url}" hx-post="{move_url}" '
            f'class="destinations" aria-labelledby="h-dest" '
            f'data-overflow="{escape(board["overflow_texts"])}"'
            f"{'' if board['selected'] else ' hidden'}>{csrf_field}"
            + _hidden(
                expected_ply=game.ply,
                kind="take",
                source=board["selected_source"],
                colour=board["selected_colour"],
            )
            + '<h2 id="h-dest">'
            + _fill(phrases.place_on, tiles=board["selected_label"])
            + f"</h2>{board['destinations_html']}"
            f'<a href="{detail_url}" hx-get="{detail_url}" hx-push-url="true" '
            f'class="choose-other">{choose_other}</a></form>'
        )
    if board["wall_choices"]:
        parts.append(
            f'<form method="post" action="{move_url}" hx-post="{move_url}" '
            f'class="destinations" aria-labelledby="h-wall">{csrf_field}'
            + _hidden(
                expected_ply=game.ply, kind="wall", line=board["pending_line_value"]
            )
            + '<h2 id="h-wall">'
            + _fill(phrases.wall_column, line=board["pending_line"])
            + f"</h2>{board['wall_choices_html']}</form>"
        )
    return "".join(parts)


def csrf_input(request: HttpRequest) -> str:
    """What ``{% csrf_token %}`` draws."""
    return (
        '<input type="hidden" name="csrfmiddlewaretoken" '
        f'value="{escape(get_token(request))}">'
    )


@functools.lru_cache(maxsize=1024)
def _resign_url(prefix: str, pk: int) -> str:
    """The resign form's URL (``reverse`` is ~2 % of a move's server CPU)."""
    return reverse("games:resign", args=[pk])


def resign_html(game: Game, viewer_seat: int | None, csrf_field: str) -> SafeString:
    """The resign button of a player in an active game (both games)."""
    if viewer_seat is None or game.status != Game.Status.ACTIVE:
        return mark_safe("")
    url = escape(_resign_url(get_script_prefix(), game.pk))
    phrases = _phrases()
    confirm, resign = escape(phrases.resign_confirm), escape(phrases.resign)
    return mark_safe(
        f'<form method="post" action="{url}" hx-post="{url}" '
        f'hx-confirm="{confirm}" class="resign">'
        f'{csrf_field}<button type="submit" class="danger">{resign}</button></form>'
    )


def board_partial_html(
    *,
    request: HttpRequest,
    game: Game,
    board: dict[str, Any],
    error: str,
    viewer_seat: int | None,
    statistics: dict[str, Any] | None,
) -> SafeString:
    """The whole ``<div id="board">`` of a started classic game."""
    needs_token = board["offer"] or board["wall_choices"] or viewer_seat is not None
    csrf_field = csrf_input(request) if needs_token else ""
    finished = game.status == Game.Status.FINISHED
    detail_url = escape(board["detail_url"])
    phrases = _phrases()
    table, supply, moves = phrases.table, phrases.supply, phrases.moves
    bag = _fill(phrases.bag, n=board["bag_total"])
    lid = _fill(phrases.lid, n=board["lid_total"])
    return mark_safe(
        '<div id="board" class="board" hx-target="this" hx-swap="outerHTML" '
        f'data-ply="{game.ply}" data-status="{escape(game.status)}">'
        + (f'<p class="error" role="alert">{escape(error)}</p>' if error else "")
        + _status_html(game, board, phrases)
        + absences_html(game, board["players"])
        + (_results_html(board, statistics) if finished else "")
        + '<section class="table-area" aria-labelledby="h-table">'
        '<h2 id="h-table" class="visually-hidden">'
        f"{escape(table)}</h2>"
        f'<form method="get" action="{detail_url}" hx-get="{detail_url}" '
        f'hx-push-url="true" class="sources">{board["factories_html"]}</form>'
        "</section>"
        + _move_forms_html(game, board, csrf_field, phrases)
        + f'<div class="boards">{board["players_html"]}</div>'
        '<section class="supply" aria-labelledby="h-supply">'
        f'<h2 id="h-supply">{escape(supply)}</h2>'
        f"<p>{bag} — {board['bag_html']}</p>"
        f"<p>{lid} — {board['lid_html']}</p></section>"
        + resign_html(game, viewer_seat, csrf_field)
        + '<section class="log" aria-labelledby="h-log">'
        f'<h2 id="h-log">{escape(moves)}</h2>'
        f"<ol>{board['log_html']}</ol></section></div>"
    )
