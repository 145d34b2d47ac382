"""Rating-history charts: the geometry as plain data, drawn as SVG by a template
(``templates/accounts/_rating_chart.html``; no JavaScript, no library)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT, PAD = 600, 200, 32


def rating_chart(ratings: Sequence[float]) -> dict[str, Any] | None:
    """A line of the conservative rating after each rated game (oldest left),
    or None without a rated game."""
    if not ratings:
        return None
    low, high = min(ratings), max(ratings)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    span_x = max(len(ratings) - 1, 1)

    def x(index: int) -> str:
        return f"{PAD + (WIDTH - 2 * PAD) * index / span_x:.1f}"

    def y(value: float) -> str:
        return f"{HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (high - low):.1f}"

    return {
        "width": WIDTH,
        "height": HEIGHT,
        "axis": {"x1": PAD, "x2": WIDTH - PAD, "y": HEIGHT - PAD},
        "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(ratings)),
        "last": {"x": x(len(ratings) - 1), "y": y(ratings[-1])},
        "labels": [
            {"y": f"{float(y(value)) + 4:.1f}", "value": f"{value:.1f}"}
            for value in (high, low)
        ],
        "games": len(ratings),
        "first_rating": ratings[0],
        "last_rating": ratings[-1],
    }
