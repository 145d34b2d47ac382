"""Replays: every position of a game, rebuilt from its events by the engine.

Nothing is stored per move. One request replays the game once: it keeps the engine
state at the ply asked for (a cheap ``copy()``), the scores after every event and
the move list in words. The game's family draws the position
(``family.position_template`` from ``family.position_context``) and words the
log (``family.describe_log``), as on the live page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.engine.common import Game as EngineGame
from games.families import family_for
from games.models import Game, Seat
from games.play.banks import took_words
from games.selectors import engine_replayed


@dataclass
class Step:
    """One event of the game: who, what, and the scores after it."""

    ply: int
    """Position number after this event (1-based: position 0 is before any)."""
    seat: int | None
    lines: list[str]
    """What the event did, one line per log entry, as the live log shows them: the
    decision (or deal) first, then what the engine did at once because of it (a
    wall tiling, the round's end, the final bonuses)."""
    scores: list[int]
    took: int | None = None
    """A player's decision: the seconds from the event before it to it (how
    long the move took); None for a deal, a decision the site played, and
    imported records."""

    @property
    def took_text(self) -> str:
        """How long the move took, short ("3 h 5 min"); "" for none."""
        return "" if self.took is None else took_words(self.took)

    @property
    def head(self) -> str:
        """The event's own line: the move list's link."""
        return self.lines[0] if self.lines else ""

    @property
    def more(self) -> list[str]:
        """The lines after the first: what followed at once."""
        return self.lines[1:]


@dataclass
class Replay:
    game: Game
    names: list[str]
    ply: int
    engine: EngineGame
    steps: list[Step] = field(default_factory=list)

    @property
    def last_ply(self) -> int:
        return len(self.steps)

    @property
    def scores(self) -> list[int]:
        return self.steps[self.ply - 1].scores if self.ply else list(self.engine.scores)


def seat_names(game: Game) -> list[str]:
    return [seat.shown_name for seat in game.seats.all()]


def add_seat_users(position: dict[str, Any], seats: Sequence[Seat]) -> None:
    """Give each player of a family's ``position`` (plain data) the account of
    its seat as ``user``, for the site's marks beside the name (the computer
    badge, ``games/templatetags/players.py``); None for an imported seat."""
    users = {seat.number: seat.user for seat in seats}
    for player in position["players"]:
        player["user"] = users.get(player["seat"])


def move_times(
    *, game: Game, events: Sequence[Mapping[str, Any]], times: Sequence[datetime]
) -> list[int | None]:
    """How long each decision of ``events`` took, in seconds: its time (its
    ``Move.created_at``, ``times``) less the previous event's. None for the
    first event, a deal, a decision the site played (forced, or for a seat
    that left) and every event of an imported record (stored at once)."""
    if game.imported or len(times) != len(events):
        return [None] * len(events)
    forced = set(game.forced_plies)
    took: list[int | None] = []
    for index, event in enumerate(events):
        if index == 0 or "seat" not in event or index in forced:
            took.append(None)
        else:
            took.append(int((times[index] - times[index - 1]).total_seconds()))
    return took


def game_replay(
    *,
    game: Game,
    events: Sequence[Mapping[str, Any]],
    ply: int,
    times: Sequence[datetime] = (),
) -> Replay:
    """Replay ``events`` of ``game``; keep the position after ``ply`` events;
    with ``times`` (each event's ``Move.created_at``), how long each move took.

    ``ply`` is clamped to ``0..len(events)``. Each step's lines are those
    ``describe_log`` gives for the log entries its event added (one line per
    entry, kept apart); lines after the last entry (a family's closing words)
    are the last step's last lines.
    """
    ply = max(0, min(ply, len(events)))
    names = seat_names(game)
    snapshot: EngineGame | None = None
    log_ends: list[int] = []
    scores: list[list[int]] = []
    for count, engine in enumerate(engine_replayed(game=game, events=events)):
        if count:
            log_ends.append(engine.log_size())
            scores.append(list(engine.scores))
        if count == ply:
            snapshot = engine.copy()
    assert snapshot is not None
    lines = family_for(game.variant).describe_log(engine, names)
    steps = []
    start = 0
    took = move_times(game=game, events=events, times=times)
    for index, event in enumerate(events):
        end = log_ends[index] if index + 1 < len(events) else len(lines)
        steps.append(
            Step(
                ply=index + 1,
                seat=event.get("seat"),
                lines=[line for line in lines[start:end] if line],
                scores=scores[index],
                took=took[index],
            )
        )
        start = end
    return Replay(game=game, names=names, ply=ply, engine=snapshot, steps=steps)
