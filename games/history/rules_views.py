"""The rules pages ("How to play"): short, translated, with small board diagrams.

Written from ``docs/rules/azul.md`` and ``docs/rules/summer-pavilion.md`` (this
project's rules, decisions included); the diagrams reuse the site's own tile drawing.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.classic.words import tile
from games.engine.classic import COLOURS, FLOOR_PENALTIES
from games.engine.pavilion_board import COLOURS as pavilion_colours
from games.engine.variants import CLASSIC_FAMILY, PAVILION_FAMILY
from games.pavilion.board import tile as pavilion_tile


def _classic_context() -> dict[str, Any]:
    """Tiles as ``games/classic/_position.html``'s tile partials draw them (a
    ``words.tile`` dict, or None for an empty space); ``printed`` marks the
    wall's printed colours."""
    # Coloured wall: row r, column c holds COLOURS[(c - r) mod 5]
    # (docs/rules/azul.md §2).
    n = len(COLOURS)
    wall = [
        [{"tile": tile((c - r) % n), "printed": True} for c in range(n)]
        for r in range(n)
    ]
    # An example board: line 3 holds two red tiles, the floor one blue.
    red, blue = COLOURS.index("red"), COLOURS.index("blue")
    pattern_lines = [
        [None] * (i + 1 - (2 if i == 2 else 0)) + ([tile(red)] * 2 if i == 2 else [])
        for i in range(n)
    ]
    floor = [
        {"penalty": penalty, "tile": tile(blue) if i == 0 else None}
        for i, penalty in enumerate(FLOOR_PENALTIES)
    ]
    # A scoring example: the new tile (row 2, column 2) joins a row of 3 and a
    # column of 2: 3 + 2 = 5 points.
    filled = {(2, 1), (2, 2), (2, 3), (1, 2)}
    scoring = [
        [
            {
                "tile": tile((c - r) % n),
                "printed": (r, c) not in filled,
                "new": (r, c) == (2, 2),
            }
            for c in range(n)
        ]
        for r in range(1, 4)
    ]
    return {
        "wall": wall,
        "pattern_lines": pattern_lines,
        "floor": floor,
        "scoring": scoring,
    }


def _star_points(cx: float, cy: float, radius: float) -> list[dict[str, Any]]:
    """Six diamond spaces of one star, clockwise from the top, as SVG polygons."""
    spaces = []
    for k in range(6):
        angle = math.radians(-90 + 60 * k)
        side_a = math.radians(-90 + 60 * k - 30)
        side_b = math.radians(-90 + 60 * k + 30)
        inner = radius * 0.55
        points = [
            (cx, cy),
            (cx + inner * math.cos(side_a), cy + inner * math.sin(side_a)),
            (cx + radius * math.cos(angle), cy + radius * math.sin(angle)),
            (cx + inner * math.cos(side_b), cy + inner * math.sin(side_b)),
        ]
        label_r = radius * 0.55
        spaces.append(
            {
                "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                "x": f"{cx + label_r * math.cos(angle):.1f}",
                "y": f"{cy + label_r * math.sin(angle) + 4:.1f}",
                "cost": k + 1,
            }
        )
    return spaces


def _pavilion_context() -> dict[str, Any]:
    colours = pavilion_colours
    return {
        "star": _star_points(60, 60, 56),
        "wild_rounds": [
            {"round": r + 1, "tile": pavilion_tile(r, wild=True)}
            for r in range(len(colours))
        ],
    }


RULES = {
    CLASSIC_FAMILY.name: _classic_context,
    PAVILION_FAMILY.name: _pavilion_context,
}
"""Each family's rules page: ``games/rules/<family>.html`` and its drawings."""


def rules(request: HttpRequest, family: str) -> HttpResponse:
    """``/rules/classic/`` and ``/rules/pavilion/`` (each with its grey variant)."""
    if family not in RULES:
        raise Http404
    template, context = f"games/rules/{family}.html", RULES[family]
    return render(request, template, {"family": family, **context()})
