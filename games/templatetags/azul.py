"""``{% tile t %}``: one tile, told apart by colour, CSS pattern and a letter."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def tile(t: dict[str, Any] | None, extra: str = "") -> str:
    if not t:
        return format_html('<span class="tile none {}"></span>', extra)
    return format_html(
        '<span class="tile t-{} {}" role="img" aria-label="{}" title="{}">{}</span>',
        t["css"],
        extra,
        t["name"],
        t["name"],
        t["letter"],
    )
