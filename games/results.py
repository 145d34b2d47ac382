"""The final result table: a finished game's seats by rank, winner first.

Both pages that draw it (the game page's board, ``games/_board.html``, and the
replay's last position, ``games/replay.html``) read it from here and draw it
with ``games/_results.html``. Seats share a place when they share a rank (the
engine's tie-break left them level); such a place is shown as shared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .selectors import SeatStanding


class ResultRow(NamedTuple):
    seat: SeatStanding
    shared: bool
    """Another seat holds the same rank."""


def final_results(seats: Iterable[SeatStanding]) -> list[ResultRow]:
    """``seats`` by rank then seat number, each marked shared where another
    seat holds the same rank. Seats without a rank (a game that did not end
    normally ranks every seat, so only a game not over) come last."""
    ordered = sorted(
        seats,
        key=lambda seat: (seat["rank"] is None, seat["rank"] or 0, seat["number"]),
    )
    counts = Counter(seat["rank"] for seat in ordered)
    return [
        ResultRow(seat, seat["rank"] is not None and counts[seat["rank"]] > 1)
        for seat in ordered
    ]
