"""End-of-game statistics per player, from the engine's score log.

Classic (``rules/classic.md §6, §7``): points from wall placements, floor penalties,
each end bonus (rows, columns, colours) and how many rows, columns and colours were
completed. Summer Pavilion (``rules/pavilion.md §4–§8``): the starting points, star
placements, start-token, discard and leftover penalties, star and number bonuses,
and the stars and structures completed. Works for a resigned game too (the totals so
far); the engine's ``result()`` is only for finished games.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.pavilion import NUM_STARS, START_SCORE


def _sum(changes: list[Any], seat: int, *kinds: str) -> int:
    return sum(c.points for c in changes if c.seat == seat and c.kind in kinds)


def game_statistics(*, engine: Any, names: list[str]) -> dict[str, Any]:
    """``{"rows": [(label, [value per seat]), ...], "names": [...]}`` for a table."""
    changes = engine.score_log
    seats = range(engine.players)
    rows: list[tuple[str, list[Any]]]
    if engine.variant.startswith("pavilion"):
        rows = [
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
    else:
        boards = engine.boards
        rows = [
            (_("Wall placements"), [_sum(changes, s, "wall") for s in seats]),
            (_("Floor penalties"), [_sum(changes, s, "floor") for s in seats]),
            (_("Row bonus"), [_sum(changes, s, "row") for s in seats]),
            (_("Column bonus"), [_sum(changes, s, "column") for s in seats]),
            (_("Colour bonus"), [_sum(changes, s, "colour") for s in seats]),
            (_("Rows completed"), [boards[s].complete_rows() for s in seats]),
            (_("Columns completed"), [boards[s].complete_columns() for s in seats]),
            (_("Colours completed"), [boards[s].complete_colours() for s in seats]),
            (_("Score"), [boards[s].score for s in seats]),
        ]
    return {"names": names, "rows": rows}
