"""Summer Pavilion board geometry as data (``docs/rules/summer-pavilion.md``
§2, §7, §8).

Everything about the printed board lives here, written out as tables a person can
check against the rulebook picture: star names and colours, the printed cost of every
space on both sides, the spaces around each pillar, statue and window, and the end
bonuses. ``pavilion.py`` derives its flat lookup arrays (bitmasks) from these tables.

Names: colours are ``purple green orange yellow blue red`` (index 0-5, which is also
the order of the wild colour by round). Stars are ``center`` (index 0) and the outer
stars ``purple orange red blue yellow green`` (index 1-6, clockwise, so star ``s + 1``
follows ``s`` and green is followed by purple). A space is ``(star name, n)`` with
``n`` in 1..6 clockwise around its star; on the coloured side ``n`` is the printed
cost.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("purple", "green", "orange", "yellow", "blue", "red")
"""Tile colours by index; the wild colour of round ``r`` is ``COLOURS[r - 1]`` (§1)."""

STARS: tuple[str, ...] = (
    "center",
    "purple",
    "orange",
    "red",
    "blue",
    "yellow",
    "green",
)
"""Stars by internal index (§2): 0 the centre, 1-6 the outer stars clockwise."""

Space = tuple[str, int]

COST_COLOURED: dict[str, tuple[int, int, int, int, int, int]] = {
    "outer": (1, 2, 3, 4, 5, 6),
    "center": (1, 2, 3, 4, 5, 6),
}
"""Printed cost of spaces 1..6 on the coloured side (§2: the number is the cost)."""

COST_GREY: dict[str, tuple[int, int, int, int, int, int]] = {
    "outer": (3, 2, 1, 4, 5, 6),
    "center": (3, 3, 3, 3, 3, 3),
}
"""Printed cost of spaces 1..6 on the grey side (§8: 1 and 3 swap; centre all 3)."""

PILLARS: dict[str, tuple[Space, Space, Space, Space]] = {
    "purple": (("purple", 2), ("purple", 3), ("center", 5), ("center", 6)),
    "orange": (("orange", 2), ("orange", 3), ("center", 6), ("center", 1)),
    "red": (("red", 2), ("red", 3), ("center", 1), ("center", 2)),
    "blue": (("blue", 2), ("blue", 3), ("center", 2), ("center", 3)),
    "yellow": (("yellow", 2), ("yellow", 3), ("center", 3), ("center", 4)),
    "green": (("green", 2), ("green", 3), ("center", 4), ("center", 5)),
}
"""The four spaces around the pillar of each outer star (§2); bonus 1 tile."""

STATUES: dict[tuple[str, str], tuple[Space, Space, Space, Space]] = {
    ("purple", "orange"): (("purple", 1), ("purple", 2), ("orange", 3), ("orange", 4)),
    ("orange", "red"): (("orange", 1), ("orange", 2), ("red", 3), ("red", 4)),
    ("red", "blue"): (("red", 1), ("red", 2), ("blue", 3), ("blue", 4)),
    ("blue", "yellow"): (("blue", 1), ("blue", 2), ("yellow", 3), ("yellow", 4)),
    ("yellow", "green"): (("yellow", 1), ("yellow", 2), ("green", 3), ("green", 4)),
    ("green", "purple"): (("green", 1), ("green", 2), ("purple", 3), ("purple", 4)),
}
"""The four spaces around the statue between a star and the next clockwise (§2);
bonus 2 tiles."""

WINDOWS: dict[str, tuple[Space, Space]] = {
    "purple": (("purple", 5), ("purple", 6)),
    "orange": (("orange", 5), ("orange", 6)),
    "red": (("red", 5), ("red", 6)),
    "blue": (("blue", 5), ("blue", 6)),
    "yellow": (("yellow", 5), ("yellow", 6)),
    "green": (("green", 5), ("green", 6)),
}
"""The two spaces beside the window of each outer star (§2); bonus 3 tiles."""

STRUCTURE_BONUS: dict[str, int] = {"pillar": 1, "statue": 2, "window": 3}
"""Bonus tiles for completing a structure (§5)."""

STAR_BONUS: dict[str, int] = {
    "center": 12,
    "red": 14,
    "blue": 15,
    "yellow": 16,
    "orange": 17,
    "green": 18,
    "purple": 20,
}
"""End bonus for a complete star (§7); on the grey side keyed by the colour the star
ended up with, ``center`` standing for six different colours (§8)."""

NUMBER_BONUS: dict[int, int] = {1: 4, 2: 8, 3: 12, 4: 16}
"""End bonus when every space of a printed cost is filled (§7, §8)."""
