"""Rating-history charts: the geometry as plain data, drawn as SVG by a template
(``templates/games/_rating_chart.html``; no JavaScript, no library)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Protocol

from django.utils import timezone

from games.ratings.ratings import rating_points

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 40, 16, 56
"""Margins around the plot: rating ticks left, dates and the axis title below."""

MIN_SPAN = 50
"""Rating points the y axis spans at least, so a flat history reads flat."""

Y_INTERVALS = 4
"""About this many steps between rating ticks (``_step`` rounds it)."""

X_TICKS = 6
"""Dated ticks at most along the x axis (first and last game among them)."""


def _step(span: float) -> int:
    """A round tick step (10, 20, 25, 50, 100, …) giving about ``Y_INTERVALS``."""
    raw = max(span, MIN_SPAN) / Y_INTERVALS
    magnitude = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 2.5, 5, 10):
        if multiple * magnitude >= raw:
            return int(multiple * magnitude)
    raise AssertionError("unreachable: 10 × magnitude ≥ raw")


def _tick_indices(games: int) -> list[int]:
    """Which games (0 = oldest) get a dated tick: evenly spread, both ends."""
    if games <= X_TICKS:
        return list(range(games))
    return sorted({round(i * (games - 1) / (X_TICKS - 1)) for i in range(X_TICKS)})


class RatedGame(Protocol):
    """A point of the chart: the rating (``mu``) after a rated game and when
    (a ``RatingChange``, or a row of ``selectors.rating_history``)."""

    @property
    def mu(self) -> float: ...

    @property
    def created_at(self) -> datetime: ...


def rating_chart(history: Sequence[RatedGame]) -> dict[str, Any] | None:
    """A line of the shown rating after each rated game, oldest left, with a
    rating axis (round ticks) and the games' dates below; None without a game.

    Games are spaced evenly, one step each, so a burst of games on one day stays
    readable; the dates under the ticks are those of the games above them, in
    the current time zone (the template formats them for the page's language).
    """
    if not history:
        return None
    ratings = [rating_points(change.mu) for change in history]
    zone = timezone.get_current_timezone()

    def day(index: int) -> date:
        """The date of game ``index`` (only the ticks' and the ends' are read)."""
        return timezone.localdate(history[index].created_at, zone)

    low: float = min(ratings)
    high: float = max(ratings)
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    step = _step(high - low)
    axis_low = math.floor(low / step) * step
    axis_high = math.ceil(high / step) * step
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    last = len(ratings) - 1

    def x(index: int) -> float:
        if last == 0:
            return LEFT + plot_width / 2
        return LEFT + plot_width * index / last

    def y(value: float) -> float:
        return TOP + plot_height * (axis_high - value) / (axis_high - axis_low)

    x_ticks: list[dict[str, Any]] = []
    for index in _tick_indices(len(ratings)):
        when = day(index)
        if x_ticks and x_ticks[-1]["date"] == when:
            continue  # the same day as the tick before: one label says it
        x_ticks.append({"x": f"{x(index):.1f}", "date": when, "iso": when.isoformat()})
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "plot": {
            "left": LEFT,
            "right": WIDTH - RIGHT,
            "top": TOP,
            "bottom": HEIGHT - BOTTOM,
            "middle_x": f"{LEFT + plot_width / 2:.1f}",
            "middle_y": f"{TOP + plot_height / 2:.1f}",
        },
        "points": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings)),
        "last": {"x": f"{x(last):.1f}", "y": f"{y(ratings[-1]):.1f}"},
        "y_ticks": [
            {"value": value, "y": f"{y(value):.1f}"}
            for value in range(axis_low, axis_high + step, step)
        ],
        "x_ticks": x_ticks,
        "games": len(ratings),
        "first": _moment(ratings[0], day(0)),
        "latest": _moment(ratings[-1], day(last)),
        "lowest": min(ratings),
        "highest": max(ratings),
    }


def _moment(rating: int, day: date) -> dict[str, Any]:
    return {"rating": rating, "date": day}
