"""``{% tile t look="tile t-" %}``: one tile, drawn by ``games/_tile.html``.

The one home of a tile's markup stays that template (issue #36 item 3); this tag
only draws it faster than ``{% include "games/_tile.html" with ... only %}``, which
a 4-player classic board does about 220 times (issue #36 item 6,
``bench/board_render.py``):

- the template is looked up once per render, not once per tile;
- a tile drawn from the same values as one before in the same render is that
  tile's markup again (a board draws the same tile many times);
- it renders in a flat context of its own that names every variable the
  template reads (those not given are None, as a missing one reads in
  ``{% if %}`` and ``{% firstof %}``), and a tile dict lacking ``wild``, ``last``
  or ``best`` gets them as None: Django answers a missing name or key only after
  an exception or two and, for a dict's missing key, ``dir(dict)``.

The markup is byte-identical to the include's. Arguments: the tile, then any of
``look``, ``label``, ``count``, ``plain``, ``printed`` and ``badge`` as
``name=value`` (what ``_tile.html`` documents).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from django import template
from django.template.base import (
    FilterExpression,
    Node,
    Parser,
    Template,
    Token,
    token_kwargs,
)
from django.template.context import Context
from django.template.engine import Engine

register = template.Library()

TEMPLATE = "games/_tile.html"
OPTIONS = ("look", "label", "count", "plain", "printed", "badge")
"""The variables ``_tile.html`` reads besides ``tile``: None unless given."""
_UNSET = dict.fromkeys(OPTIONS)
_TILE_UNSET = dict.fromkeys(("wild", "last", "best"))
"""A tile's optional marks: None (not there) unless the tile has them."""
_CACHE_KEY = object()
"""Where a render keeps the compiled template and the tiles drawn (its first
RenderContext dict, where ``{% include %}`` keeps its own templates)."""


class TileNode(Node):
    def __init__(
        self, tile: FilterExpression, options: dict[str, FilterExpression]
    ) -> None:
        self.tile = tile
        self.options = options

    def render(self, context: Context) -> str:
        cache = cast("dict[object, _Drawn]", context.render_context.dicts[0])
        drawn = cache.get(_CACHE_KEY)
        if drawn is None:
            engine = context.template.engine if context.template else None
            compiled = (engine or Engine.get_default()).get_template(TEMPLATE)
            drawn = cache[_CACHE_KEY] = _Drawn(compiled)
        tile = self.tile.resolve(context)
        if isinstance(tile, dict):
            tile = {**_TILE_UNSET, **tile}
        values = {**_UNSET, "tile": tile}
        for name, value in self.options.items():
            values[name] = value.resolve(context)
        flags = (context.autoescape, context.use_l10n, context.use_tz)
        try:
            key = (flags, _frozen(values))
            return drawn.seen[key]
        except KeyError:
            pass
        except TypeError:  # a value that is not hashable: drawn, not kept
            key = None
        html = drawn.template.render(
            Context(
                values,
                autoescape=context.autoescape,
                use_l10n=context.use_l10n,
                use_tz=context.use_tz,
            )
        )
        if key is not None:
            drawn.seen[key] = html
        return html


class _Drawn:
    """A render's compiled tile template and the tiles it drew, by what they
    were drawn from (a board draws the same tile many times)."""

    __slots__ = ("seen", "template")

    def __init__(self, compiled: Template) -> None:
        self.template = compiled
        self.seen: dict[Hashable, str] = {}


def _frozen(values: dict[str, object]) -> Hashable:
    """``values`` as a key, each with its type (a safe string is drawn
    unescaped, an equal plain one escaped); a TypeError if one is not
    hashable."""
    tile = values["tile"]
    if isinstance(tile, dict):
        values = {
            **values,
            "tile": tuple((k, v, type(v)) for k, v in sorted(tile.items())),
        }
    key = tuple((k, v, type(v)) for k, v in values.items())
    hash(key)
    return key


@register.tag("tile")
def tile_tag(parser: Parser, token: Token) -> TileNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% tile %} needs a tile")
    options = token_kwargs(bits[2:], parser, support_legacy=False)
    if len(options) != len(bits) - 2 or set(options) - set(OPTIONS):
        raise template.TemplateSyntaxError(
            f"{{% tile %}} takes a tile, then name=value of {', '.join(OPTIONS)}"
        )
    return TileNode(parser.compile_filter(bits[1]), options)
