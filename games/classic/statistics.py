"""End-of-game statistics of a classic Azul game, from the engine's score log.

Points from wall placements, floor penalties, each end bonus (rows, columns,
colours) and how many rows, columns and colours were completed
(``docs/rules/azul.md §6, §7``). Works for a resigned game too (the totals so far).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.classic import ClassicGame


def _sum(changes: list[Any], seat: int, *kinds: str) -> int:
    return sum(c.points for c in changes if c.seat == seat and c.kind in kinds)


def statistics(engine: ClassicGame) -> list[tuple[str, list[Any]]]:
    """Rows of a table: a label, then a value per seat."""
    changes = engine.score_log
    seats = range(engine.players)
    boards = engine.boards
    return [
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
