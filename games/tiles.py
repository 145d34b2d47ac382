"""Names, letters and CSS classes of tile colours, for people (translatable)."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.classic import COLOURS

from .translated import per_language

COLOUR_NAMES = {
    "blue": _("blue"),
    "yellow": _("yellow"),
    "red": _("red"),
    "black": _("black"),
    "white": _("white"),
}
# One letter per colour, shown on every tile so colour is never the only cue.
COLOUR_LETTERS = {
    "blue": pgettext_lazy("tile letter for blue", "B"),
    "yellow": pgettext_lazy("tile letter for yellow", "Y"),
    "red": pgettext_lazy("tile letter for red", "R"),
    "black": pgettext_lazy("tile letter for black", "K"),
    "white": pgettext_lazy("tile letter for white", "W"),
}


def colour_name(colour: str | int) -> str:
    name = COLOURS[colour] if isinstance(colour, int) else colour
    return str(COLOUR_NAMES.get(name, name))


def tile(colour: int) -> dict[str, str]:
    """What a template needs to draw one tile."""
    name = COLOURS[colour]
    return {
        "css": name,
        "name": str(COLOUR_NAMES[name]),
        "letter": str(COLOUR_LETTERS[name]),
    }


_EXTRAS = ("", "printed")


def _build_tile_html(colour: int | None, extra: str) -> SafeString:
    if colour is None:
        return format_html('<span class="tile none {}"></span>', extra)
    t = tile(colour)
    return format_html(
        '<span class="tile t-{} {}" role="img" aria-label="{}" title="{}">{}</span>',
        t["css"],
        extra,
        t["name"],
        t["name"],
        t["letter"],
    )


def _tile_table() -> dict[tuple[int | None, str], SafeString]:
    return {
        (colour, extra): _build_tile_html(colour, extra)
        for colour in (None, *range(len(COLOURS)))
        for extra in _EXTRAS
    }


# Every tile's HTML in the current language, keyed ``(colour, extra)`` (``colour``
# None is an empty space; ``extra`` "" or "printed"). Built once per language: a
# board draws ~100 tiles, and even looking up the language once per tile shows in
# a profile.
tile_table = per_language(_tile_table)


def tile_html(colour: int | None, extra: str = "") -> SafeString:
    """One tile as HTML (colour class, pattern, letter and label)."""
    html = tile_table().get((colour, extra))
    return html if html is not None else _build_tile_html(colour, extra)
