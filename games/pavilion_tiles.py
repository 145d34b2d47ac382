"""Summer Pavilion tiles, stars and spaces for people: names, letters, HTML.

Colour is never the only cue: every tile carries a pattern (CSS class ``pt-<colour>``
in ``static/css/pavilion.css``), a letter and a spoken label.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine.pavilion_board import COLOURS

from .translated import per_language

COLOUR_NAMES = {
    "purple": gettext_lazy("purple"),
    "green": gettext_lazy("green"),
    "orange": gettext_lazy("orange"),
    "yellow": gettext_lazy("yellow"),
    "blue": gettext_lazy("blue"),
    "red": gettext_lazy("red"),
}
COLOUR_LETTERS = {
    "purple": pgettext_lazy("tile letter for purple", "P"),
    "green": pgettext_lazy("tile letter for green", "G"),
    "orange": pgettext_lazy("tile letter for orange", "O"),
    "yellow": pgettext_lazy("tile letter for yellow", "Y"),
    "blue": pgettext_lazy("tile letter for blue", "B"),
    "red": pgettext_lazy("tile letter for red", "R"),
}


_CENTRE = ("center", "centre")


class _Words:
    """Colour, star and space names in one language (a board names ~100 of them;
    gettext for each was a fifth of drawing the page, bench/pavilion_page.py)."""

    def __init__(self) -> None:
        self.colours = {name: str(label) for name, label in COLOUR_NAMES.items()}
        centre_star, star = _("centre star"), _("%(colour)s star")
        self.stars = dict.fromkeys(_CENTRE, centre_star) | {
            name: star % {"colour": label} for name, label in self.colours.items()
        }
        space, centre = _("%(star)s-%(number)s"), _("centre")
        names = dict.fromkeys(_CENTRE, centre) | self.colours
        self.spaces = {
            (star, number): space % {"star": name, "number": number}
            for star, name in names.items()
            for number in range(1, 7)
        }


_words = per_language(_Words)


def colour_label(colour: str | int) -> str:
    """Translated colour name of a colour name or index."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    return _words().colours.get(name, name)


def star_label(star: str) -> str:
    """``"blue"`` → "blue star"; ``"center"`` → "centre star"."""
    label = _words().stars.get(star)
    if label is None:
        label = _("%(colour)s star") % {"colour": colour_label(star)}
    return label


def space_label(star: str, number: int) -> str:
    """A space by name, as the move log writes it: "blue-4", "centre-2"."""
    label = _words().spaces.get((star, number))
    if label is None:
        name = _("centre") if star in _CENTRE else colour_label(star)
        label = _("%(star)s-%(number)s") % {"star": name, "number": number}
    return label


_HTML_CACHE: dict[tuple[str | None, int, bool], SafeString] = {}


def tile_html(colour: int, wild: bool = False) -> SafeString:
    """One tile (pattern, letter, label), marked when it is this round's wild colour.

    Cached per language: a board draws a hundred tiles.
    """
    key = (get_language(), colour, wild)
    html = _HTML_CACHE.get(key)
    if html is None:
        name = COLOURS[colour]
        label = colour_label(colour)
        if wild:
            label = _("%(colour)s (wild)") % {"colour": label}
        html = format_html(
            '<span class="ptile pt-{}{}" role="img" aria-label="{}" title="{}">{}'
            "</span>",
            name,
            " wild" if wild else "",
            label,
            label,
            COLOUR_LETTERS[name],
        )
        _HTML_CACHE[key] = html
    return html


def tiles_html(counts: list[int], wild: int | None = None) -> SafeString:
    """Every tile of a count list, by colour."""
    return SafeString(
        "".join(
            str(tile_html(colour, colour == wild)) * count
            for colour, count in enumerate(counts)
        )
    )
