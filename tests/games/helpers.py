"""Helpers for game tests: turn engine moves into posted forms and events."""

from __future__ import annotations

from typing import Any

from games.engine.classic import COLOURS, FLOOR, Take
from games.engine.common import CENTER


def move_event(move: Any) -> dict[str, Any]:
    """A legal engine move as the service's ``move`` (record event without seat)."""
    event = move.to_event()
    event.pop("seat")
    return event


def move_post_data(move: Any, expected_ply: int) -> dict[str, Any]:
    """A legal engine move as the board form would post it."""
    if isinstance(move, Take):
        return {
            "expected_ply": expected_ply,
            "kind": "take",
            "source": "center" if move.source == CENTER else str(move.source),
            "colour": COLOURS[move.colour],
            "line": "floor" if move.line == FLOOR else str(move.line),
        }
    return {
        "expected_ply": expected_ply,
        "kind": "wall",
        "line": str(move.line),
        "column": str(move.column),
    }
