"""End-of-game statistics of a Summer Pavilion game, from the engine's score log.

The starting points, star placements, start-token, discard and leftover
penalties, star and number bonuses, and the stars and structures completed
(``docs/rules/summer-pavilion.md §4–§8``). Works for a resigned game too (the
totals so far).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.pavilion import NUM_STARS, START_SCORE, PavilionGame


def _sum(changes: list[Any], seat: int, *kinds: str) -> int:
    return sum(c.points for c in changes if c.seat == seat and c.kind in kinds)


def statistics(engine: PavilionGame) -> list[tuple[str, list[Any]]]:
    """Rows of a table: a label, then a value per seat."""
    changes = engine.score_log
    seats = range(engine.players)
    return [
        (_("Starting points"), [START_SCORE for _seat in seats]),
        (_("Star placements"), [_sum(changes, s, "star") for s in seats]),
        (
            _("Start-token penalty"),
            [_sum(changes, s, "start-token") for s in seats],
        ),
        (
            _("Discard penalties"),
            [_sum(changes, s, "discard", "leftover") for s in seats],
        ),
        (_("Star bonuses"), [_sum(changes, s, "star-bonus") for s in seats]),
        (_("Number bonuses"), [_sum(changes, s, "number-bonus") for s in seats]),
        (
            _("Stars completed"),
            [
                sum(
                    1
                    for star in range(NUM_STARS)
                    if engine.filled[s] >> (star * 6) & 63 == 63
                )
                for s in seats
            ],
        ),
        (
            _("Tiles placed"),
            [bin(engine.filled[s]).count("1") for s in seats],
        ),
        (
            _("Pillars, statues and windows"),
            [len(engine.completed_structures(s)) for s in seats],
        ),
        (_("Score"), list(engine.scores)),
    ]
