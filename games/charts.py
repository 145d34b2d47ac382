"""Rating-history charts drawn on the server as SVG (no JavaScript, no library)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 600, 200, 32


def rating_chart_svg(
    ratings: Sequence[float], *, title: str, chart_id: str
) -> SafeString:
    """A line of the conservative rating after each rated game (oldest left)."""
    if not ratings:
        return SafeString("")
    low, high = min(ratings), max(ratings)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    span_x = max(len(ratings) - 1, 1)

    def x(index: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * index / span_x

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (high - low)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings))
    labels = format_html_join(
        "",
        '<text x="4" y="{}" class="axis">{}</text>',
        ((f"{y(value) + 4:.1f}", f"{value:.1f}") for value in (high, low)),
    )
    description = _("%(games)s rated games; from %(first).1f to %(last).1f") % {
        "games": len(ratings),
        "first": ratings[0],
        "last": ratings[-1],
    }
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" '
        'aria-labelledby="{}-t {}-d"><title id="{}-t">{}</title>'
        '<desc id="{}-d">{}</desc>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis-line"/>{}'
        '<polyline points="{}" fill="none" stroke="currentColor" stroke-width="2"/>'
        '<circle cx="{}" cy="{}" r="3" fill="currentColor"/></svg>',
        WIDTH,
        HEIGHT,
        *((chart_id,) * 3),
        title,
        chart_id,
        description,
        PAD,
        HEIGHT - PAD,
        WIDTH - PAD,
        HEIGHT - PAD,
        labels,
        points,
        f"{x(len(ratings) - 1):.1f}",
        f"{y(ratings[-1]):.1f}",
    )
