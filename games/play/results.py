"""The final result table: a finished game's seats by rank, winner first.

Both pages that draw it (the game page's board, ``games/_board.html``, and the
replay's last position, ``games/replay.html``) read it from here and draw it
with ``games/_results.html``. Seats share a place when they share a rank (the
engine's tie-break left them level); such a place is shown as shared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from games.selectors import SeatStanding


class ResultRow(NamedTuple):
    seat: SeatStanding
    shared: bool
    """Another seat holds the same rank."""
    accuracy: float | None = None
    """The game's review's accuracy of the seat, where the page shows it (the
    game page, once the review is made: ``games.history.reviews.page_review``)."""


def final_results(
    seats: Iterable[SeatStanding], accuracy: Mapping[int, float] | None = None
) -> list[ResultRow]:
    """``seats`` by rank then seat number, each marked shared where another
    seat holds the same rank, with its review's ``accuracy`` (by seat number)
    where given. Seats without a rank (a game that did not end normally ranks
    every seat, so only a game not over) come last."""
    ordered = sorted(
        seats,
        key=lambda seat: (seat["rank"] is None, seat["rank"] or 0, seat["number"]),
    )
    counts = Counter(seat["rank"] for seat in ordered)
    accuracy = accuracy or {}
    return [
        ResultRow(
            seat,
            seat["rank"] is not None and counts[seat["rank"]] > 1,
            accuracy.get(seat["number"]),
        )
        for seat in ordered
    ]
