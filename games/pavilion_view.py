"""A read-only Summer Pavilion position as plain data, and its move log in words.

Used by the replay viewer (``games/replay/_pavilion_position.html``). Everything
shown is public (``rules/pavilion.md``); the bag is only counts by colour.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine.common import CENTER
from games.engine.pavilion_board import COLOURS, STARS

COLOUR_NAMES = {
    "purple": gettext_lazy("purple"),
    "green": gettext_lazy("green"),
    "orange": gettext_lazy("orange"),
    "yellow": gettext_lazy("yellow"),
    "blue": gettext_lazy("blue"),
    "red": gettext_lazy("red"),
}
COLOUR_LETTERS = {
    "purple": pgettext_lazy("pavilion tile letter for purple", "P"),
    "green": pgettext_lazy("pavilion tile letter for green", "G"),
    "orange": pgettext_lazy("pavilion tile letter for orange", "O"),
    "yellow": pgettext_lazy("pavilion tile letter for yellow", "Y"),
    "blue": pgettext_lazy("pavilion tile letter for blue", "B"),
    "red": pgettext_lazy("pavilion tile letter for red", "R"),
}
STAR_NAMES = {
    "center": gettext_lazy("centre star"),
    "purple": gettext_lazy("purple star"),
    "orange": gettext_lazy("orange star"),
    "red": gettext_lazy("red star"),
    "blue": gettext_lazy("blue star"),
    "yellow": gettext_lazy("yellow star"),
    "green": gettext_lazy("green star"),
}

_HTML_CACHE: dict[tuple[str | None, int | None, str], SafeString] = {}


def colour_name(colour: int | str) -> str:
    name = COLOURS[colour] if isinstance(colour, int) else colour
    return str(COLOUR_NAMES.get(name, name))


def pavilion_tile_html(colour: int | None, extra: str = "") -> SafeString:
    """One pavilion tile (colour class, letter, label), cached per language."""
    key = (get_language(), colour, extra)
    html = _HTML_CACHE.get(key)
    if html is None:
        if colour is None:
            html = format_html('<span class="tile none {}"></span>', extra)
        else:
            name = COLOURS[colour]
            label = str(COLOUR_NAMES[name])
            html = format_html(
                '<span class="tile p-{} {}" role="img" aria-label="{}" title="{}">'
                "{}</span>",
                name,
                extra,
                label,
                label,
                COLOUR_LETTERS[name],
            )
        _HTML_CACHE[key] = html
    return html


def _counts_html(counts: list[int]) -> SafeString:
    return mark_safe(
        " ".join(
            f"{pavilion_tile_html(colour)}&times;{count}"
            for colour, count in enumerate(counts)
            if count
        )
    )


def _tiles_html(counts: list[int]) -> SafeString:
    return mark_safe(
        "".join(
            str(pavilion_tile_html(colour)) * count
            for colour, count in enumerate(counts)
        )
    )


def pavilion_position_context(*, engine: Any, names: list[str]) -> dict[str, Any]:
    """Everything ``_pavilion_position.html`` draws for one position."""
    to_move = engine.to_move()
    players = []
    for seat in range(engine.players):
        board = engine.boards[seat]
        stars = []
        for star, star_name in enumerate(STARS):
            spaces = []
            for space in range(1, 7):
                colour = board[star * 6 + space - 1]
                spaces.append(
                    {
                        "cost": engine.cost(star, space),
                        "html": pavilion_tile_html(colour if colour >= 0 else None),
                    }
                )
            stars.append(
                {"name": star_name, "label": STAR_NAMES[star_name], "spaces": spaces}
            )
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "score": engine.scores[seat],
                "to_move": seat == to_move,
                "passed": engine.passed[seat] and engine.phase == "place",
                "stars": stars,
                "hand_html": _tiles_html(engine.hands[seat]),
                "hand_total": sum(engine.hands[seat]),
                "corners_html": _tiles_html(engine.corners[seat]),
                "corners_total": sum(engine.corners[seat]),
                "token": engine.token_holder == seat,
                "structures": len(engine.completed_structures(seat)),
            }
        )
    return {
        "round": engine.round,
        "phase": engine.phase,
        "wild_html": pavilion_tile_html(engine.wild),
        "wild_name": colour_name(engine.wild),
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None else None,
        "factories": [
            {
                "label": _("Factory %(number)s") % {"number": index + 1},
                "html": _tiles_html(counts),
            }
            for index, counts in enumerate(engine.factories)
        ],
        "centre_html": _tiles_html(engine.centre),
        "centre_token": engine.token_holder is None and engine.phase == "take",
        "supply_html": _tiles_html(engine.supply),
        "bag_html": _counts_html(engine.bag),
        "bag_total": sum(engine.bag),
        "tower_html": _counts_html(engine.tower),
        "tower_total": sum(engine.tower),
        "players": players,
    }


def _names(colours: list[str]) -> str:
    return ", ".join(colour_name(c) for c in colours) or "—"


def describe_pavilion_log(entries: list[dict[str, Any]], names: list[str]) -> list[str]:
    """One sentence per event of a Summer Pavilion log (``PavilionGame.log``)."""
    took = _("%(player)s took %(count)s %(colour)s from %(source)s")
    wild = _(" + %(count)s wild")
    token = _("; took the start token (−%(points)s)")
    placed = _(
        "%(player)s placed %(colour)s on the %(star)s, space %(space)s "
        "(paid %(paid)s): +%(points)s"
    )
    bonus = _("%(player)s took bonus tiles: %(tiles)s")
    passed = _("%(player)s passed, keeping %(kept)s")
    discarded = _("; discarded %(count)s (−%(points)s)")
    supply = _("Supply drawn: %(tiles)s")
    deal = _("Round %(round)s: factories dealt")
    factory = _("factory %(number)s")
    lines = []
    for entry in entries:
        kind = entry["type"]
        if kind == "take":
            source = entry["from"]
            text = took % {
                "player": names[entry["seat"]],
                "count": entry["tiles"],
                "colour": colour_name(entry["colour"]),
                "source": _("the centre")
                if source in ("center", CENTER)
                else factory % {"number": int(source) + 1},
            }
            if entry.get("wild"):
                text += wild % {"count": entry["wild"]}
            if entry.get("start_token"):
                text += token % {"points": entry.get("penalty", 0)}
        elif kind == "place":
            text = placed % {
                "player": names[entry["seat"]],
                "colour": colour_name(entry["colour"]),
                "star": STAR_NAMES.get(entry["star"], entry["star"]),
                "space": entry["space"],
                "paid": entry["paid"] + entry["wilds"],
                "points": entry["points"],
            }
        elif kind == "bonus":
            text = bonus % {
                "player": names[entry["seat"]],
                "tiles": _names(entry.get("tiles", [])),
            }
        elif kind == "pass":
            text = passed % {
                "player": names[entry["seat"]],
                "kept": _names(entry.get("kept", [])),
            }
            if entry.get("discarded"):
                text += discarded % {
                    "count": len(entry["discarded"]),
                    "points": entry.get("penalty", 0),
                }
        elif kind == "supply":
            text = supply % {"tiles": _names(entry.get("tiles", []))}
        elif kind == "deal":
            text = deal % {"round": entry.get("round", "")}
        else:
            text = kind
        lines.append(text)
    return lines
